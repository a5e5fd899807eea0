/**
 * The only code that writes into the vault. Every write passes the path gate and the
 * quarantine, is serialized by a vault-wide write lock (so two processes appending to the same
 * file lose nothing), validated (size, NUL, unpaired surrogates), written atomically with the
 * file's own line endings, journaled with the bytes it replaced, and mirrored on top of a short
 * audit trail in the agent folder. Writes outside the agent folder go through preview → apply.
 */
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EngramError } from '../errors.js';
import { acquireLock, linkablePaths, type Lock } from '../index/index.js';
import { hashContent, isCanvasPath, hasMergeConflictMarkers, linkWorlds, resolveNotePath, rewriteLinksForMove, type LinkWorlds } from '../vault/index.js';
import { newNotePathProblem } from './names.js';
import { agent, classifyUndo, classifyWrite, journalActor, journalLabel, type Actor, type WriteVerdict } from './quarantine.js';
import { lineDiff, validateText, type MoveReceipt, type MoveRequest, type Preview, type WriteOutcome, type WriteReceipt, type WriteRequest } from './requests.js';
import { VaultFs, type VaultFsOptions } from './vault-fs.js';

export const WRITE_DEFAULTS = {
  /** Largest note a single write may produce. */
  maxBytes: 1024 * 1024,
  /** How long a preview token stays valid. */
  previewMs: 5 * 60 * 1000,
  /** How long a write waits for another process's write to finish. */
  lockWaitMs: 10_000,
  /** Lines kept in the audit trail. */
  auditLines: 300,
} as const;

/**
 * The audit trail's header. It names journal numbers without a `#` directly before a word, which
 * Obsidian (and the indexer) would read as a tag.
 */
const AUDIT_HEADER = '# Engram write audit\n\nNewest first. Undo a write with `undo_write` and its number (after the `#`).\n\n';

export interface WriterOptions {
  /** The vault's real path. */
  root: string;
  db: Database.Database;
  stateDir: string;
  agentRoot: string;
  /** Who writes: a session or run id, recorded with every write. */
  runId: string;
  now?: () => number;
  /** How files are reached (tests force the checked-path fallback). */
  fs?: VaultFsOptions;
}

export class VaultWriter {
  private readonly now: () => number;
  private vaultFs: VaultFs | null = null;

  constructor(private readonly options: WriterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Every file operation goes through here: folder by folder, never through a symlink. */
  private get files(): VaultFs {
    this.vaultFs ??= new VaultFs(realpathSync.native(this.options.root), this.options.fs);
    return this.vaultFs;
  }

  get agentRoot(): string {
    return this.options.agentRoot;
  }

  /**
   * What the quarantine says of this write, after the path gate: `free` (write at once),
   * `confirm` (only through preview → apply), or `refused` with its code. Callers ask this before
   * choosing between `write` and `preview`; `submit` does both in one call.
   */
  verdict(request: Pick<WriteRequest, 'by' | 'path'>): WriteVerdict {
    return classifyWrite(this.checkPath(request.path), request.by, { agentRoot: this.options.agentRoot });
  }

  /** The write when the quarantine lets it through, else its preview, else why it is refused. */
  submit(request: WriteRequest): WriteOutcome {
    const verdict = this.verdict(request);
    if (verdict.kind === 'refused') return verdict;
    if (verdict.kind === 'confirm') return { kind: 'preview', reason: verdict.reason, preview: this.preview(request) };
    return { kind: 'written', receipt: this.write(request) };
  }

  /** A write the quarantine lets through at once (the agent folder); anything else throws, with its code. */
  write(request: WriteRequest): WriteReceipt {
    // Engram's own writers (not agents) may also write canvases: the vault map.
    const path = this.checkPath(request.path, request.by.kind !== 'agent');
    const verdict = classifyWrite(path, request.by, { agentRoot: this.options.agentRoot });
    if (verdict.kind === 'refused') throw new EngramError(verdict.code, verdict.reason);
    if (verdict.kind === 'confirm') throw new EngramError('CONFIRMATION_REQUIRED', `${verdict.reason}; call the tool with preview first, show the human the diff, and apply with the token if they agree`);
    return this.withLock(() => this.commit(request.by, path, request.next, { create: request.create === true, maxBytes: request.maxBytes ?? WRITE_DEFAULTS.maxBytes }));
  }

  /** The diff a write outside the agent folder would make, and a token to apply exactly that. */
  preview(request: WriteRequest): Preview {
    const path = this.checkPath(request.path);
    const verdict = classifyWrite(path, request.by, { agentRoot: this.options.agentRoot });
    if (verdict.kind === 'refused') throw new EngramError(verdict.code, verdict.reason);
    const current = this.readCurrent(path);
    if (request.create && current !== null) throw new EngramError('CONFLICT', `${path} exists already; choose another title or ask to overwrite it`);
    if (current === null) this.checkNewName(request.by, path);
    refuseMergeConflict(request.by, path, current);
    const after = this.render(current, request.next);
    const token = randomBytes(16).toString('hex');
    const expires = this.now() + WRITE_DEFAULTS.previewMs;
    this.options.db
      .prepare('INSERT INTO previews (token, tool, path, before_hash, after_bytes, expires_ms) VALUES (?, ?, ?, ?, ?, ?)')
      .run(token, journalLabel(request.by), path, current === null ? null : hashContent(current.bytes), after, expires);
    return { token, path, diff: lineDiff(current?.text ?? '', after.toString('utf8')), expires: new Date(expires).toISOString() };
  }

  /**
   * Applies a preview: only once, only before it expires, only if the file is as it was. What the
   * caller sends along with the token (`expect`: the tool, the path, the new text from the
   * current one) must be what was previewed — else the human approved another change than the
   * one the caller believes it is applying, and it is refused, saying so.
   */
  apply(token: string, expect: { tool?: string; path?: string; next?: (current: string | null) => string; undoOf?: number } = {}): WriteReceipt {
    const row = this.options.db.prepare('SELECT tool, path, before_hash, after_bytes, expires_ms, used_ms FROM previews WHERE token = ?').get(token) as
      { tool: string; path: string; before_hash: string | null; after_bytes: Buffer; expires_ms: number; used_ms: number | null } | undefined;
    if (!row) throw new EngramError('PREVIEW_EXPIRED', 'unknown preview token; preview the write again');
    if (row.used_ms !== null) throw new EngramError('PREVIEW_EXPIRED', 'this preview token was used already; preview again for another change');
    if (this.now() > row.expires_ms) throw new EngramError('PREVIEW_EXPIRED', 'this preview expired; preview the write again and apply within 5 minutes');
    // An undo previewed by an agent carries the journal number it reverts.
    const undoOf = /^undo_write#(\d+)$/.exec(row.tool);
    const tool = undoOf ? 'undo_write' : row.tool;
    if (expect.undoOf !== undefined && Number(undoOf?.[1]) !== expect.undoOf) {
      throw new EngramError(
        'INVALID_INPUT',
        `this token ${undoOf ? `previewed the undo of write #${undoOf[1]}` : `is for a ${tool} preview`}, not the undo of write #${expect.undoOf}; nothing was written — call undo_write with id ${expect.undoOf} alone to preview its undo`,
      );
    }
    if (tool === 'move_note') throw new EngramError('INVALID_INPUT', 'this token previewed a move; apply it with move_note and the token');
    if (expect.tool !== undefined && expect.tool !== tool) throw new EngramError('INVALID_INPUT', `this token is for a ${tool} preview; apply it with ${tool}, or preview this ${expect.tool} again`);
    if (expect.path !== undefined && this.checkPath(expect.path).normalize('NFC') !== row.path.normalize('NFC')) {
      throw new EngramError('INVALID_INPUT', `this token previewed a change to ${row.path}, not to ${expect.path}; nothing was written — apply it with that path (or the token alone), or preview the change to ${expect.path}`);
    }
    return this.withLock(() => {
      const current = this.readCurrent(row.path);
      const hash = current === null ? null : hashContent(current.bytes);
      if (hash !== row.before_hash) throw new EngramError('CONFLICT', `${row.path} changed since the preview (the human may have edited it); preview again`);
      if (expect.next !== undefined && !this.render(current, expect.next).equals(row.after_bytes)) {
        throw new EngramError('INVALID_INPUT', `the content given differs from what this token previewed for ${row.path}; nothing was written — apply the previewed change with the token alone, or preview the new content`);
      }
      const receipt = this.commit(journalActor(tool) ?? agent(tool), row.path, () => row.after_bytes.toString('utf8'), { exact: row.after_bytes });
      this.options.db.prepare('UPDATE previews SET used_ms = ? WHERE token = ?').run(this.now(), token);
      if (undoOf) this.options.db.prepare('UPDATE journal SET undone_at = ? WHERE id = ? AND undone_at IS NULL').run(new Date(this.now()).toISOString(), Number(undoOf[1]));
      return receipt;
    });
  }

  /** What an agent's undo of this journaled write may do (see `classifyUndo`). */
  undoVerdict(journalId: number): WriteVerdict {
    const row = this.options.db.prepare('SELECT path, tool, run_id FROM journal WHERE id = ?').get(journalId) as { path: string; tool: string; run_id: string } | undefined;
    if (!row) return { kind: 'refused', code: 'NOT_FOUND', reason: `no write #${journalId} in the journal` };
    return classifyUndo({ id: journalId, tool: row.tool, path: row.path, runId: row.run_id }, { agentRoot: this.options.agentRoot });
  }

  /**
   * An agent's undo of its own write to a note of the human's: previewed like any change there,
   * applied with the token (which then marks the write undone). Removing a note it created
   * there is left to the human.
   */
  previewUndo(journalId: number): Preview {
    const row = this.undoable(journalId, { agent: true, previewing: true });
    if (row.before_bytes === null) throw new EngramError('WRITE_REFUSED', `write #${journalId} created ${row.path}, which is in the human's folders: removing it is theirs to do — ask them to delete the note`);
    const current = this.readCurrent(row.path);
    if (current === null) throw this.deletedSince(row, journalId);
    if (hashContent(current.bytes) !== row.after_hash) throw this.changedSince(row.path, journalId);
    const token = randomBytes(16).toString('hex');
    const expires = this.now() + WRITE_DEFAULTS.previewMs;
    this.options.db.prepare('INSERT INTO previews (token, tool, path, before_hash, after_bytes, expires_ms) VALUES (?, ?, ?, ?, ?, ?)').run(token, `undo_write#${journalId}`, row.path, row.after_hash, row.before_bytes, expires);
    return { token, path: row.path, diff: lineDiff(current.text, row.before_bytes.toString('utf8')), expires: new Date(expires).toISOString() };
  }

  /**
   * Reverts a journaled write if the file still holds exactly what that write left. A write the
   * owner made with their own command (`engram provision`) is undone only by the owner (`owner`).
   * An agent (`agent`) undoes only what an agent wrote, and only inside its folder (elsewhere:
   * `previewUndo`); undoing a whole run (`undoRun`, checked as a whole) passes neither.
   */
  undo(journalId: number, options: { owner?: boolean; agent?: boolean } = {}): WriteReceipt {
    const row = this.undoable(journalId, options);
    return this.withLock(() => {
      const current = this.readCurrent(row.path);
      if (current === null) throw this.deletedSince(row, journalId);
      if (hashContent(current.bytes) !== row.after_hash) throw this.changedSince(row.path, journalId);
      let receipt: WriteReceipt;
      if (row.before_bytes === null) {
        // The write created the note: undoing it removes the note again.
        const id = this.journal('undo_write', row.path, row.after_hash, current.bytes, 'deleted');
        this.files.remove(row.path);
        this.pruneEmptyFolders(row.path);
        this.audit(`- ${new Date(this.now()).toISOString().slice(0, 16).replace('T', ' ')} · #${id} undo_write · ${row.path} · ${row.after_hash.slice(0, 8)} → deleted · ${this.options.runId}`);
        receipt = { journalId: id, path: row.path, created: false, beforeHash: row.after_hash, afterHash: 'deleted', touched: [row.path, this.auditPath()] };
      } else {
        receipt = this.commit(agent('undo_write'), row.path, () => row.before_bytes!.toString('utf8'), { exact: row.before_bytes });
      }
      this.options.db.prepare('UPDATE journal SET undone_at = ? WHERE id = ?').run(new Date(this.now()).toISOString(), journalId);
      return receipt;
    });
  }

  /** The journal row of a write `options`' caller may undo, or why not. */
  private undoable(journalId: number, options: { owner?: boolean; agent?: boolean; previewing?: boolean }) {
    const row = this.options.db.prepare('SELECT path, tool, before_hash, after_hash, before_bytes, undone_at, move_id FROM journal WHERE id = ?').get(journalId) as
      { path: string; tool: string; before_hash: string | null; after_hash: string; before_bytes: Buffer | null; undone_at: string | null; move_id: number | null } | undefined;
    if (!row) throw new EngramError('NOT_FOUND', `no write #${journalId} in the journal`);
    if (journalActor(row.tool)?.kind === 'owner' && options.owner !== true)
      throw new EngramError('WRITE_REFUSED', `write #${journalId} was made by the owner's \`engram provision\`; only they can undo it, with \`engram undo\` on the command line`);
    if (row.move_id !== null) throw new EngramError('INVALID_INPUT', `write #${journalId} is part of move ${row.move_id}; undo the whole move with undo_move ${row.move_id}`);
    if (row.undone_at) throw new EngramError('CONFLICT', `write #${journalId} was undone already (${row.undone_at})`);
    if (options.agent === true) {
      const verdict = this.undoVerdict(journalId);
      if (verdict.kind === 'refused') throw new EngramError(verdict.code, verdict.reason);
      if (verdict.kind === 'confirm' && options.previewing !== true)
        throw new EngramError('CONFIRMATION_REQUIRED', `${verdict.reason}; undoing write #${journalId} changes it, so preview the undo first and apply it with the token if they agree`);
    }
    return row;
  }

  /**
   * The note a write left is gone (deleted or moved by hand): undo restores bytes only over what
   * the write left, so it cannot bring a note back, and one the write created is gone already.
   */
  private deletedSince(row: { path: string; before_bytes: Buffer | null; after_hash: string }, journalId: number): EngramError {
    if (row.after_hash === 'deleted') return new EngramError('CONFLICT', `write #${journalId} deleted ${row.path} (it undid the write that created it); undo_write does not re-create a deleted note — write it again`);
    if (row.before_bytes === null) return new EngramError('CONFLICT', `${row.path}, which write #${journalId} created, has been deleted since; undoing that write would remove it, which is done already — nothing to undo`);
    return new EngramError(
      'CONFLICT',
      `${row.path} has been deleted (or moved) since write #${journalId}; undo_write only reverts a write in a note that still holds what the write left, so it cannot bring the note back — if the deletion was a mistake, the human can restore the note (Obsidian's .trash folder, the system trash, a sync's version history) and, if it still holds what the write left, undo_write #${journalId} will then work`,
    );
  }

  private changedSince(path: string, journalId: number): EngramError {
    return new EngramError('CONFLICT', `${path} has changed since write #${journalId}; undoing it would lose those changes, so it is refused — edit the note by hand instead`);
  }

  /**
   * Moves a note and rewrites the links that point at it, as one journaled move: every file's
   * bytes before and after are recorded under one move id, so `undoMove` can put all of it back.
   * The caller decided the move is allowed (the organizer's policy); the path gate still applies.
   * A failure midway puts back what was already written; a kill midway leaves the move
   * incomplete (`completed_at` unset), which `undoMove` can always roll back.
   */
  move(request: MoveRequest): MoveReceipt {
    const from = this.checkPath(request.from);
    const to = this.checkPath(request.to);
    return this.withLock(() => {
      const current = this.readCurrent(from);
      if (current === null) throw new EngramError('NOT_FOUND', `${from} is gone; nothing to move`);
      if (request.expectHash && hashContent(current.bytes) !== request.expectHash) {
        const again = request.by.kind === 'agent' ? 'read it and move it again' : 'the next sweep looks again';
        throw new EngramError('CONFLICT', `${from} changed since the move was planned; it is left where it is (${again})`);
      }
      if (this.readCurrent(to) !== null) throw new EngramError('CONFLICT', `${to} exists already; the move would overwrite it`);
      this.checkNewName(request.by, to);
      const moved = this.render(current, (text) => (request.self ? request.self(text!) : text!));
      const rewrites = request.rewrites
        .map((rewrite) => {
          const path = this.checkPath(rewrite.path);
          const before = this.readCurrent(path);
          if (before === null) throw new EngramError('CONFLICT', `${path} is gone; move ${from} again after the index catches up`);
          return { path, before, after: this.render(before, (text) => rewrite.next(text!)) };
        })
        .filter((rewrite) => !rewrite.after.equals(rewrite.before.bytes));
      if (request.expectRewrites) this.checkRewrites(from, request.expectRewrites, rewrites);
      const at = new Date(this.now()).toISOString();
      // Journal first (one transaction): a kill mid-move leaves records that undo can act on.
      const moveId = this.options.db.transaction(() => {
        const id = Number(this.options.db.prepare('INSERT INTO moves (run_id, from_path, to_path, at) VALUES (?, ?, ?, ?)').run(this.options.runId, from, to, at).lastInsertRowid);
        this.journal(journalLabel(request.by), from, hashContent(current.bytes), current.bytes, 'deleted', id);
        this.journal(journalLabel(request.by), to, null, null, hashContent(moved), id);
        for (const rewrite of rewrites) this.journal(journalLabel(request.by), rewrite.path, hashContent(rewrite.before.bytes), rewrite.before.bytes, hashContent(rewrite.after), id);
        return id;
      })();
      const done: string[] = [];
      try {
        this.locate(to);
        this.files.write(to, moved);
        done.push(to);
        for (const rewrite of rewrites) {
          this.locate(rewrite.path);
          this.files.write(rewrite.path, rewrite.after);
          done.push(rewrite.path);
        }
        // The old file goes last: until then the note exists in its old place.
        this.locate(from);
        this.files.remove(from);
      } catch (error) {
        this.rollBackMove(
          moveId,
          to,
          rewrites.filter((rewrite) => done.includes(rewrite.path)),
          done.includes(to),
        );
        throw new EngramError('IO_FAILED', `could not move ${from} (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); nothing was changed`);
      }
      this.options.db.prepare('UPDATE moves SET completed_at = ? WHERE id = ?').run(at, moveId);
      this.audit(`- ${at.slice(0, 16).replace('T', ' ')} · move ${moveId} · ${from} → ${to} · ${rewrites.length} notes relinked · ${this.options.runId}`);
      return { moveId, from, to, rewritten: rewrites.map((rewrite) => rewrite.path) };
    });
  }

  /** Refuses a move whose link rewrites are not exactly the ones previewed (another note links to it now, or one changed). */
  private checkRewrites(from: string, expected: Record<string, string>, rewrites: { path: string; before: { bytes: Buffer } }[]): void {
    const now = Object.fromEntries(rewrites.map((rewrite) => [rewrite.path, hashContent(rewrite.before.bytes)]));
    const differ = [...new Set([...Object.keys(expected), ...Object.keys(now)])].filter((path) => expected[path] !== now[path]);
    if (differ.length > 0) throw new EngramError('CONFLICT', `the notes linking to ${from} changed since the preview (${differ.slice(0, 5).join(', ')}); preview the move again`);
  }

  /**
   * The preview of an agent's move that touches notes of the human's: the move and every link
   * rewrite as a diff, and a token that applies exactly that (`applyMove`). The token's row
   * keeps the target and the linking notes' hashes (as JSON in `after_bytes`: a move has no
   * single new text).
   */
  previewMove(request: MoveRequest): Preview {
    const from = this.checkPath(request.from);
    const to = this.checkPath(request.to);
    const current = this.readCurrent(from);
    if (current === null) throw new EngramError('NOT_FOUND', `${from} does not exist; nothing to move`);
    if (this.readCurrent(to) !== null) throw new EngramError('CONFLICT', `${to} exists already; choose another name or folder`);
    this.checkNewName(request.by, to);
    const rewrites = request.rewrites
      .map((rewrite) => {
        const before = this.readCurrent(this.checkPath(rewrite.path));
        return before === null ? null : { path: rewrite.path, before, after: this.render(before, (text) => rewrite.next(text!)) };
      })
      .filter((rewrite): rewrite is NonNullable<typeof rewrite> => rewrite !== null && !rewrite.after.equals(rewrite.before.bytes));
    const moved = this.render(current, (text) => (request.self ? request.self(text!) : text!));
    const token = randomBytes(16).toString('hex');
    const expires = this.now() + WRITE_DEFAULTS.previewMs;
    const record = { to, rewrites: Object.fromEntries(rewrites.map((rewrite) => [rewrite.path, hashContent(rewrite.before.bytes)])) };
    this.options.db
      .prepare('INSERT INTO previews (token, tool, path, before_hash, after_bytes, expires_ms) VALUES (?, ?, ?, ?, ?, ?)')
      .run(token, journalLabel(request.by), from, hashContent(current.bytes), Buffer.from(JSON.stringify(record), 'utf8'), expires);
    const diff = [
      `move ${from} → ${to}`,
      ...(moved.equals(current.bytes) ? [] : [`${to}:`, lineDiff(current.text, moved.toString('utf8'))]),
      ...rewrites.flatMap((rewrite) => [`${rewrite.path}:`, lineDiff(rewrite.before.text, rewrite.after.toString('utf8'))]),
    ].join('\n');
    return { token, path: from, diff, expires: new Date(expires).toISOString() };
  }

  /** Applies a move preview: once, in time, and only if the note and its linking notes are as previewed. */
  applyMove(token: string, plan: (from: string, to: string) => MoveRequest): MoveReceipt {
    const row = this.options.db.prepare('SELECT tool, path, before_hash, after_bytes, expires_ms, used_ms FROM previews WHERE token = ?').get(token) as
      { tool: string; path: string; before_hash: string; after_bytes: Buffer; expires_ms: number; used_ms: number | null } | undefined;
    if (!row) throw new EngramError('PREVIEW_EXPIRED', 'unknown preview token; preview the move again');
    if (row.tool !== 'move_note') throw new EngramError('INVALID_INPUT', `this token is for a ${row.tool} preview; apply it with ${row.tool}`);
    if (row.used_ms !== null) throw new EngramError('PREVIEW_EXPIRED', 'this preview token was used already; preview again for another move');
    if (this.now() > row.expires_ms) throw new EngramError('PREVIEW_EXPIRED', 'this preview expired; preview the move again and apply within 5 minutes');
    const record = JSON.parse(row.after_bytes.toString('utf8')) as { to: string; rewrites: Record<string, string> };
    const receipt = this.move({ ...plan(row.path, record.to), expectHash: row.before_hash, expectRewrites: record.rewrites });
    this.options.db.prepare('UPDATE previews SET used_ms = ? WHERE token = ?').run(this.now(), token);
    return receipt;
  }

  /** Puts back what a failed move already wrote, and forgets the move. */
  private rollBackMove(moveId: number, to: string, written: { path: string; before: { bytes: Buffer } }[], wroteTarget: boolean): void {
    for (const rewrite of written) this.files.write(rewrite.path, rewrite.before.bytes);
    if (wroteTarget) this.files.remove(to);
    this.options.db.transaction(() => {
      this.options.db.prepare('DELETE FROM journal WHERE move_id = ?').run(moveId);
      this.options.db.prepare('DELETE FROM moves WHERE id = ?').run(moveId);
    })();
  }

  /**
   * Reverts a move: the note goes back, every rewritten note gets its old bytes. Refused, with
   * every reason, when a file changed since the move (nothing is reverted then) — except
   * Engram's own generated notes (the report, entity notes), whose links are turned back in
   * their current text instead. Idempotent per file, so an interrupted move or undo can be
   * undone (again): a file already back in its old state is left alone.
   */
  undoMove(moveId: number): { from: string; to: string; restored: string[] } {
    const move = this.options.db.prepare('SELECT from_path, to_path, undone_at FROM moves WHERE id = ?').get(moveId) as { from_path: string; to_path: string; undone_at: string | null } | undefined;
    if (!move) throw new EngramError('NOT_FOUND', `no move #${moveId}; librarian_status and the report list the moves`);
    if (move.undone_at) throw new EngramError('CONFLICT', `move #${moveId} was undone already (${move.undone_at})`);
    const rows = this.options.db.prepare('SELECT id, path, before_hash, after_hash, before_bytes FROM journal WHERE move_id = ? ORDER BY id').all(moveId) as {
      id: number;
      path: string;
      before_hash: string | null;
      after_hash: string;
      before_bytes: Buffer | null;
    }[];
    return this.withLock(() => {
      const problems = this.moveUndoProblems(moveId);
      if (problems.length > 0) throw new EngramError('CONFLICT', `move #${moveId} cannot be undone without losing changes: ${problems.join('; ')} — restore those by hand or leave the move`);
      const at = new Date(this.now()).toISOString();
      const restored: string[] = [];
      const back = { from: move.to_path, to: move.from_path };
      let worlds: LinkWorlds | null = null;
      for (const row of rows) {
        const current = this.readCurrent(row.path);
        const hash = current === null ? null : hashContent(current.bytes);
        if (row.after_hash === 'deleted') {
          // The note's old place: written back unless it is still (or again) there.
          if (current === null) this.files.write(row.path, row.before_bytes!);
        } else if (row.before_bytes === null) {
          // The note's new place.
          if (current !== null) {
            this.files.remove(row.path);
            this.pruneEmptyFolders(row.path);
          }
        } else if (hash === row.after_hash) {
          this.files.write(row.path, row.before_bytes);
          restored.push(row.path);
        } else if (current !== null && hash !== row.before_hash && this.isGenerated(row.path)) {
          worlds ??= linkWorlds(linkablePaths(this.options.db), back);
          const text = rewriteLinksForMove(current.text, row.path, back, worlds);
          if (text.count > 0) {
            this.files.write(
              row.path,
              this.render(current, () => text.text.replace(/\r\n/g, '\n').replace(/^\uFEFF/, '')),
            );
            restored.push(row.path);
          }
        }
      }
      this.options.db.transaction(() => {
        this.options.db.prepare('UPDATE moves SET undone_at = ? WHERE id = ?').run(at, moveId);
        this.options.db.prepare('UPDATE journal SET undone_at = ? WHERE move_id = ?').run(at, moveId);
      })();
      this.audit(`- ${at.slice(0, 16).replace('T', ' ')} · undo move ${moveId} · ${move.to_path} → ${move.from_path} · ${restored.length} notes restored · ${this.options.runId}`);
      return { from: move.from_path, to: move.to_path, restored };
    });
  }

  /** Why undoing this move would lose changes made since (empty when it can be undone). */
  moveUndoProblems(moveId: number): string[] {
    const ids = this.options.db.prepare('SELECT id FROM journal WHERE move_id = ? ORDER BY id').pluck().all(moveId) as number[];
    return ids.map((id) => this.undoProblem(id)).filter((problem): problem is string => problem !== null);
  }

  /** Engram's own generated notes: the caretaker's report and the entity notes. */
  private isGenerated(path: string): boolean {
    const root = this.options.agentRoot;
    return path === `${root}/Librarian.md` || path.startsWith(`${root}/Graph/`);
  }

  /**
   * Why undoing this journaled write (or one file of a move) would lose changes made since, or
   * null when it can be undone.
   */
  undoProblem(journalId: number): string | null {
    const row = this.options.db.prepare('SELECT path, before_hash, after_hash, undone_at, move_id FROM journal WHERE id = ?').get(journalId) as
      { path: string; before_hash: string | null; after_hash: string; undone_at: string | null; move_id: number | null } | undefined;
    if (!row) return `no write #${journalId}`;
    if (row.undone_at) return null;
    const current = this.readCurrent(row.path);
    const hash = current === null ? null : hashContent(current.bytes);
    if (row.move_id === null) {
      if (hash === row.after_hash) return null;
      return hash === null ? `${row.path} is gone` : `${row.path} changed since`;
    }
    // A file of a move: in its after state, or still (or already back) in its before state.
    if (row.after_hash === 'deleted') return hash !== null && hash !== row.before_hash ? `${row.path} exists again with other content` : null;
    if (hash === row.after_hash || hash === row.before_hash) return null;
    if (row.before_hash === null) return `${row.path} changed since the move`;
    if (hash === null) return `${row.path} is gone`;
    return this.isGenerated(row.path) ? null : `${row.path} changed since the move`;
  }

  /**
   * Removes the temporary files killed writes left (a kill -9 mid-write leaves one, up to a
   * whole note, in the note's folder): in every folder the journal names, and the agent folder.
   * Under the write lock no write is in flight, so every one found is stale. When another
   * process holds the lock this does nothing now (that process is alive and writing).
   */
  sweepStaleTemps(): number {
    let lock: Lock;
    try {
      lock = acquireLock(this.options.stateDir, 'write', { purpose: 'a vault write', staleMs: 60_000 });
    } catch (error) {
      if (error instanceof EngramError && error.code === 'LOCKED') return 0;
      throw error;
    }
    try {
      const folders = new Set([this.options.agentRoot]);
      // The newest writes' folders: an older kill's leftovers went with the first start-up after it.
      const paths = this.options.db.prepare('SELECT DISTINCT path FROM (SELECT path FROM journal ORDER BY id DESC LIMIT 5000)').pluck().all() as string[];
      for (const path of paths) folders.add(path.includes('/') ? dirname(path) : '');
      let removed = 0;
      for (const folder of folders) removed += this.files.sweepTemps(folder, this.now(), 0);
      return removed;
    } finally {
      lock.release();
    }
  }

  /** True when a note exists at this vault-relative path (any case). */
  exists(path: string): boolean {
    const resolved = resolveNotePath(this.options.root, path, { allowMissing: true });
    return resolved.ok && existsSync(resolved.absolute);
  }

  /** A note an agent creates gets a name every tool and file system reads the same way. */
  private checkNewName(by: Actor, path: string): void {
    if (by.kind !== 'agent') return;
    const problem = newNotePathProblem(path, (folder) => existsSync(join(this.options.root, folder)));
    if (problem !== null) throw new EngramError('INVALID_INPUT', `${problem}; nothing was written`);
  }

  private checkPath(input: string, canvas = false): string {
    const resolved = resolveNotePath(this.options.root, input, { allowMissing: true, canvas });
    if (!resolved.ok) throw new EngramError('INVALID_INPUT', resolved.reason);
    return resolved.path;
  }

  /**
   * Re-runs the path gate at the moment of writing (under the lock), so that a change since the
   * call was checked, or since a preview, is refused with its reason. (A swap after this check
   * is what VaultFs guards against: it never follows a link.)
   */
  private locate(path: string): void {
    // A canvas path here was admitted when it was first written (only Engram writes canvases).
    const resolved = resolveNotePath(this.options.root, path, { allowMissing: true, canvas: isCanvasPath(path) });
    if (!resolved.ok) throw new EngramError('INVALID_INPUT', resolved.reason);
    if (resolved.path.normalize('NFC') !== path.normalize('NFC')) throw new EngramError('CONFLICT', `${path} now resolves to ${resolved.path}; check the vault and try again`);
  }

  private readCurrent(path: string): { bytes: Buffer; text: string } | null {
    this.locate(path);
    const bytes = this.files.read(path);
    return bytes === null ? null : { bytes, text: bytes.toString('utf8') };
  }

  /** The new bytes: `next` sees `\n` line endings; the file's own endings and BOM are kept. */
  private render(current: { bytes: Buffer; text: string } | null, next: (current: string | null) => string, maxBytes: number = WRITE_DEFAULTS.maxBytes): Buffer {
    const bom = current?.text.startsWith('\uFEFF') ? '\uFEFF' : '';
    const crlf = current !== null && current.text.includes('\r\n');
    const body = current === null ? null : current.text.slice(bom.length).replace(/\r\n/g, '\n');
    const text = next(body);
    validateText(text);
    const out = bom + (crlf ? text.replace(/\r?\n/g, '\r\n') : text);
    const bytes = Buffer.from(out, 'utf8');
    if (bytes.length > maxBytes) throw new EngramError('INVALID_INPUT', `the note would be ${bytes.length} bytes; the limit for one write is ${maxBytes} — split the content`);
    return bytes;
  }

  /** `create` refuses an existing note; `exact` writes those bytes instead of rendering `next` (a redo or an undo). */
  private commit(by: Actor, path: string, next: (current: string | null) => string, { create = false, exact = null, maxBytes }: { create?: boolean; exact?: Buffer | null; maxBytes?: number } = {}): WriteReceipt {
    const tool = journalLabel(by);
    const current = this.readCurrent(path);
    if (create && current !== null) throw new EngramError('CONFLICT', `${path} exists already; choose another title or ask to overwrite it`);
    if (current === null) this.checkNewName(by, path);
    // An undo or redo puts back bytes that were there; anything else must not settle a merge.
    if (exact === null) refuseMergeConflict(by, path, current);
    const after = exact ?? this.render(current, next, maxBytes);
    this.locate(path);
    this.auditPath();
    // Journal first: a kill between journal and rename leaves a row whose after-hash the file
    // does not have, which undo then refuses — never a change without a record. A write that
    // fails outright takes its row back.
    const beforeHash = current === null ? null : hashContent(current.bytes);
    const afterHash = hashContent(after);
    const id = this.journal(tool, path, beforeHash, current?.bytes ?? null, afterHash);
    try {
      this.files.write(path, after);
    } catch (error) {
      this.options.db.prepare('DELETE FROM journal WHERE id = ?').run(id);
      throw new EngramError('IO_FAILED', `could not write ${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}; nothing was changed`);
    }
    this.files.sweepTemps(dirname(path) === '.' ? '' : dirname(path), this.now(), 60_000);
    this.audit(`- ${new Date(this.now()).toISOString().slice(0, 16).replace('T', ' ')} · #${id} ${tool} · ${path} · ${beforeHash?.slice(0, 8) ?? 'new'} → ${afterHash.slice(0, 8)} · ${this.options.runId}`);
    return { journalId: id, path, created: current === null, beforeHash, afterHash, touched: [path, this.auditPath()] };
  }

  private journal(tool: string, path: string, beforeHash: string | null, beforeBytes: Buffer | null, afterHash: string, moveId: number | null = null): number {
    const at = new Date(this.now()).toISOString();
    return Number(
      this.options.db
        .prepare('INSERT INTO journal (run_id, tool, path, before_hash, after_hash, before_bytes, at, move_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(this.options.runId, tool, path, beforeHash, afterHash, beforeBytes, at, moveId).lastInsertRowid,
    );
  }

  /** Removes folders inside the agent folder that an undone creation left empty (never the human's folders). */
  private pruneEmptyFolders(path: string): void {
    const root = `${this.options.agentRoot}/`;
    let folder = dirname(path);
    while (folder.startsWith(root)) {
      if (!this.files.removeEmptyFolder(folder)) return; // not empty (or already gone): stop climbing
      folder = dirname(folder);
    }
  }

  /** The audit trail's vault path, through the path gate (never a symlink, never outside). */
  private auditPath(): string {
    const path = `${this.options.agentRoot}/Audit.md`;
    const resolved = resolveNotePath(this.options.root, path, { allowMissing: true });
    if (!resolved.ok) throw new EngramError('CONFIG_INVALID', `the agent folder ${this.options.agentRoot}/ is not a plain folder inside the vault (${resolved.reason}); fix it before writing`);
    return resolved.path;
  }

  /** Puts a line on top of the audit trail, keeping the newest lines. */
  private audit(line: string): void {
    const path = this.auditPath();
    let old: string[] = [];
    try {
      old = (this.files.read(path)?.toString('utf8') ?? '').split('\n').filter((entry) => entry.startsWith('- '));
    } catch {
      // a symlink or a non-file in its place: the trail starts afresh (the write replaces it)
    }
    this.files.write(path, Buffer.from(AUDIT_HEADER + [line, ...old].slice(0, WRITE_DEFAULTS.auditLines).join('\n') + '\n', 'utf8'));
  }

  private withLock<T>(run: () => T): T {
    const lock = this.waitForLock();
    try {
      return run();
    } finally {
      lock.release();
    }
  }

  private waitForLock(): Lock {
    const deadline = Date.now() + WRITE_DEFAULTS.lockWaitMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      try {
        return acquireLock(this.options.stateDir, 'write', { purpose: 'a vault write', staleMs: 60_000 });
      } catch (error) {
        if (!(error instanceof EngramError && error.code === 'LOCKED') || Date.now() > deadline) throw error;
        Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 10));
      }
    }
  }
}

/**
 * A note a git merge left conflict markers in holds both sides: a write built on it would make
 * one side's text (or the markers) look settled. Only the owner's own command writes it; the
 * human resolves the conflict first.
 */
function refuseMergeConflict(by: Actor, path: string, current: { text: string } | null): void {
  if (current === null || by.kind === 'owner' || !hasMergeConflictMarkers(current.text)) return;
  throw new EngramError('WRITE_REFUSED', `${path} has unresolved git merge conflict markers (<<<<<<< … ======= … >>>>>>>): resolve the conflict in the note first, then write again`);
}
