/**
 * The extraction backlog: notes whose content, extractor or prompt changed since they were last
 * extracted, processed in bounded batches. Each note's assertions are recorded in one
 * transaction (a kill loses no completed note's work); transient failures are retried on a later
 * run, never benched; private notes are never sent; every note sent to an LLM is logged.
 * Entity notes whose content changed are then rewritten through the write layer.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { hasMergeConflictMarkers, isNamedConflictCopy, parseNote, readNoteFile } from '../vault/index.js';
import { GRAPH, type VaultWriter } from '../writes/index.js';
import { renderEntityNote } from './entity-notes.js';
import { normalizeName, type ExtractionInput, type Extractor } from './model.js';
import { ExtractorError, redactExtractionInput } from './prompt.js';
import { clearExtractionPause, failureKind, readExtractionPause, recordExtractionPause, type ExtractionPause } from './pause.js';
import { notePrivacy } from './privacy.js';
import { addCounts, type RedactionCounts } from './redact.js';
import { vectorFromBlob } from '../index/index.js';
import { GraphStore } from './store.js';
import { cosine, entityVectors } from './entity-vectors.js';
import { needsRebuild, rebuildGraphCache, type RebuildReport } from './rebuild.js';

export const GRAPH_DEFAULTS = {
  batchSize: 50,
  concurrency: 4,
  /** Permanent failures (bad request, refused) are tried this often, then left for a human. */
  maxPermanentAttempts: 3,
  /**
   * Transient failures in a row (timeouts, overload, no connection) after which a run starts no
   * more notes: a CLI that hangs on every call would otherwise hold a sweep for its timeout
   * (180 s) once per waiting note. The notes wait, uncharged beyond their transient mark.
   */
  maxTransientInARow: 3,
  privateTags: ['private'] as readonly string[],
  /** Existing entities a prompt carries at most, and how many of them may come by vector. */
  maxKnown: 30,
  nearestKnown: 10,
} as const;

export interface GraphIndexOptions {
  root: string;
  db: Database.Database;
  extractor: Extractor;
  writer: VaultWriter;
  agentRoot: string;
  /** Most notes extracted in this run (the rest is `remaining`). */
  maxNotes?: number;
  /** Stop starting new notes once this much has been spent (USD, estimated). */
  maxCostUsd?: number;
  /** Stop starting new notes once this many tokens (input + output) have been used. */
  maxTokens?: number;
  privateTags?: readonly string[];
  concurrency?: number;
  /** The embedding model whose note vectors ground prompts (nearest entities); unset, names and aliases only. */
  vectorModel?: string;
  onProgress?: (done: number, total: number) => void;
  now?: () => number;
}

export interface GraphIndexReport {
  processed: number;
  failed: number;
  remaining: number;
  skippedPrivate: number;
  /** Of the private notes, those private only because their frontmatter cannot be read (fix the YAML to have them extracted). */
  unreadablePrivate: string[];
  /** Secrets taken out of the text sent to an LLM, by kind (never the secrets themselves). */
  redacted: RedactionCounts;
  entities: number;
  entityNotesWritten: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  errors: string[];
  /** Paths written (entity notes), for the caller to re-index. */
  written: string[];
  /** Notes extracted earlier that a newer reading of privacy finds private: what they asserted was taken back. */
  retractedPrivate: number;
  /** Set when the cache was empty and was read back from the entity notes first. */
  rebuilt?: RebuildReport;
  /** Set when the extractor's environment failed (login, key, credit, CLI, model): the run stopped there and no note was charged. */
  paused?: ExtractionPause;
  /** Set when the run stopped starting notes after `maxTransientInARow` transient failures in a row; they are retried next run. */
  backedOff?: { failures: number; last: string };
}

/**
 * Notes the extractor has not yet handled in their current form — never Engram's own output
 * (entity notes, audit trail, report, caretaker lease), nor a sync tool's conflict copy or an editor's temporary
 * file (`vault/sync-conflicts.ts`; the human reconciles it, and its entities are its original's).
 * A note holding git merge conflict markers is read but not extracted (see `worker`).
 */
const PENDING_SQL = `FROM notes n LEFT JOIN extractions x ON x.note_id = n.id
  WHERE substr(n.path, 1, length(@graph)) != @graph AND n.path != @audit AND n.path != @report AND n.path != @lease
    AND NOT engram_named_conflict_copy(n.path)
    AND (x.note_id IS NULL OR x.note_hash != n.hash OR x.backend != @backend OR x.model != @model OR x.prompt_version != @prompt
         OR (x.status = 'transient') OR (x.status = 'failed' AND x.attempts < @maxAttempts))`;

/**
 * The pending query over `db`, with the conflict-copy rule of `vault/sync-conflicts.ts` as an SQL
 * function, so the backlog and the health check, quarantine and link resolution read one rule.
 */
function pendingStatement(db: Database.Database, select: string, order = ''): Database.Statement {
  db.function('engram_named_conflict_copy', { deterministic: true }, (path: unknown) => (typeof path === 'string' && isNamedConflictCopy(path) ? 1 : 0));
  return db.prepare(`${select} ${PENDING_SQL}${order}`);
}

function pendingParams(extractor: Pick<Extractor, 'backend' | 'model' | 'promptVersion'>, agentRoot: string) {
  return {
    graph: `${agentRoot}/Graph/`,
    audit: `${agentRoot}/Audit.md`,
    report: `${agentRoot}/Librarian.md`,
    // The caretaker lease changes every heartbeat: extracting it would re-run (and pay) each time.
    lease: `${agentRoot}/Caretaker.md`,
    backend: extractor.backend,
    model: extractor.model,
    prompt: extractor.promptVersion,
    maxAttempts: GRAPH_DEFAULTS.maxPermanentAttempts,
  };
}

/** The extraction backlog's size without touching it: notes waiting and their total size in bytes. */
export function pendingExtractions(db: Database.Database, extractor: Pick<Extractor, 'backend' | 'model' | 'promptVersion'>, agentRoot: string): { notes: number; bytes: number } {
  const row = pendingStatement(db, 'SELECT count(*) AS notes, coalesce(sum(n.size), 0) AS bytes').get(pendingParams(extractor, agentRoot)) as { notes: number; bytes: number };
  return row;
}

interface Pending {
  id: number;
  path: string;
  title: string;
  hash: string;
  attempts: number;
  status: string | null;
}

/** One extraction run: what it works on, its prepared statements, its progress through `pending`. */
interface Run {
  options: GraphIndexOptions;
  store: GraphStore;
  now: () => number;
  privateTags: readonly string[];
  /** The LLM backends: their input is redacted and every note sent is logged. */
  sendsText: boolean;
  pending: Pending[];
  report: GraphIndexReport;
  ground: ReturnType<typeof grounding>;
  sql: { tags: Database.Statement; links: Database.Statement; record: Database.Statement; egress: Database.Statement };
  /** Next note to take; notes finished; notes started (counted when a worker takes a note, before any await); notes taken but left pending by an environment failure. */
  cursor: { index: number; done: number; started: number; deferred: number; transientInARow: number };
  /** The first environment failure: no note starts after it. */
  stop?: { reason: string; message: string };
}

export async function runGraphIndex(options: GraphIndexOptions): Promise<GraphIndexReport> {
  const run = startRun(options);
  // The first note goes alone: when the extractor cannot work at all (logged out, no key), that
  // costs one call, not one per worker.
  await worker(run, 1);
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? GRAPH_DEFAULTS.concurrency) }, () => worker(run)));
  const { report } = run;
  report.remaining = run.pending.length - run.cursor.index + run.cursor.deferred;
  settlePause(run);
  writeEntityNotes(run.store, options.writer, report);
  report.entities = options.db.prepare('SELECT count(*) FROM entities').pluck().get() as number;
  return report;
}

/** The backlog and the run's statements, after reading the graph back from entity notes when the cache is empty and retracting newly private notes. */
function startRun(options: GraphIndexOptions): Run {
  const { db, extractor } = options;
  const now = options.now ?? Date.now;
  const store = new GraphStore(db, options.agentRoot);
  // An empty cache beside existing entity notes (a new state directory): read the graph back
  // from the notes rather than paying to extract every note again.
  const rebuilt = needsRebuild(db, options.agentRoot) ? rebuildGraphCache(db, { root: options.root, agentRoot: options.agentRoot, extractor, now }) : undefined;
  const privateTags = options.privateTags ?? GRAPH_DEFAULTS.privateTags;
  const pending = pendingStatement(db, 'SELECT n.id, n.path, n.title, n.hash, coalesce(x.attempts, 0) AS attempts, x.status', ' ORDER BY n.id').all(pendingParams(extractor, options.agentRoot)) as Pending[];
  const report: GraphIndexReport = {
    processed: 0,
    failed: 0,
    remaining: 0,
    skippedPrivate: 0,
    unreadablePrivate: [],
    redacted: {},
    retractedPrivate: 0,
    entities: 0,
    entityNotesWritten: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    errors: [],
    written: [],
    ...(rebuilt ? { rebuilt } : {}),
  };
  const sql = {
    tags: db.prepare('SELECT tag FROM tags WHERE note_id = ?').pluck(),
    links: db.prepare("SELECT DISTINCT resolved_path FROM links WHERE note_id = ? AND resolved_kind = 'note' AND resolved_path IS NOT NULL").pluck(),
    record: db.prepare(`INSERT OR REPLACE INTO extractions (note_id, note_hash, backend, model, prompt_version, status, attempts, input_tokens, output_tokens, cost_usd, error, at)
      VALUES (@note_id, @note_hash, @backend, @model, @prompt_version, @status, @attempts, @input_tokens, @output_tokens, @cost_usd, @error, @at)`),
    egress: db.prepare('INSERT INTO egress (note_path, backend, model, bytes, redacted, at) VALUES (?, ?, ?, ?, ?, ?)'),
  };
  const sendsText = extractor.backend === 'anthropic' || extractor.backend === 'claude-cli';
  report.retractedPrivate = recheckPrivacy(db, store, options.root, privateTags, new Date(now()).toISOString());
  const ground = grounding(db, options.vectorModel);
  return { options, store, now, privateTags, sendsText, pending, report, ground, sql, cursor: { index: 0, done: 0, started: 0, deferred: 0, transientInARow: 0 } };
}

/** Whether the run may start another note: notes, spend and tokens within their budgets. */
function mayStart(run: Run): boolean {
  const { options, report, cursor } = run;
  if (run.stop || run.report.backedOff) return false;
  if (cursor.index >= run.pending.length || cursor.started >= (options.maxNotes ?? Infinity)) return false;
  if (options.maxCostUsd !== undefined && report.costUsd >= options.maxCostUsd) return false;
  return !(options.maxTokens !== undefined && report.inputTokens + report.outputTokens >= options.maxTokens);
}

/** Takes notes until the backlog or a budget runs out (or `limit` notes were started); several run at once, sharing the cursor. */
async function worker(run: Run, limit = Infinity): Promise<void> {
  const { options, cursor } = run;
  while (mayStart(run) && cursor.started < limit) {
    const note = run.pending[cursor.index++];
    if (note === undefined) return;
    const noteTags = run.sql.tags.all(note.id) as string[];
    const read = readNoteFile(join(options.root, note.path));
    if (!read.ok || read.hash !== note.hash) continue; // changed since indexing: the next index run sees it
    // Decided on the text itself, not only the index's parse: `TAGS: private` or frontmatter the
    // parser refused still mean private.
    const privacy = notePrivacy(read.text, { tags: noteTags, privateTags: run.privateTags });
    if (privacy.private) {
      skipPrivate(run, note, privacy.detail, privacy.reason === 'unreadable-frontmatter');
      continue;
    }
    if (hasMergeConflictMarkers(read.text)) {
      skipConflicted(run, note);
      continue;
    }
    cursor.started++;
    await extractNote(run, note, read.text, noteTags);
    options.onProgress?.(++cursor.done, run.pending.length);
  }
}

/** The `extractions` row for a note's attempt. */
function outcome(run: Run, note: Pending, status: string, error: string | null, usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 }) {
  const { extractor } = run.options;
  return {
    note_id: note.id,
    note_hash: note.hash,
    backend: extractor.backend,
    model: extractor.model,
    prompt_version: extractor.promptVersion,
    status,
    attempts: note.attempts + 1,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cost_usd: usage.costUsd,
    error,
    at: new Date(run.now()).toISOString(),
  };
}

/** A private note is never sent; and what it asserted before it became private is taken back. */
function skipPrivate(run: Run, note: Pending, detail: string, unreadable: boolean): void {
  run.options.db.transaction(() => {
    run.store.recordNote(note.id, { entities: [], relations: [] }, new Date(run.now()).toISOString());
    run.sql.record.run(outcome(run, note, 'private', detail));
  })();
  run.report.skippedPrivate++;
  if (unreadable) run.report.unreadablePrivate.push(note.path);
}

/**
 * A note with unresolved git merge markers holds both sides of a conflict: neither side's facts
 * are settled, so it asserts nothing (what it asserted before is taken back) until the human
 * resolves it — its hash then changes and it is extracted again.
 */
function skipConflicted(run: Run, note: Pending): void {
  run.options.db.transaction(() => {
    run.store.recordNote(note.id, { entities: [], relations: [] }, new Date(run.now()).toISOString());
    run.sql.record.run(outcome(run, note, 'conflicted', 'unresolved git merge conflict markers'));
  })();
}

/** Extracts one note and records what it asserted (one transaction), or the failure for a later run to retry. */
async function extractNote(run: Run, note: Pending, text: string, noteTags: string[]): Promise<void> {
  const { options, report } = run;
  const { extractor } = options;
  const raw: ExtractionInput = {
    path: note.path,
    title: note.title,
    text,
    frontmatter: parseNote(note.path, text).frontmatter,
    tags: noteTags,
    links: run.sql.links.all(note.id) as string[],
    known: run.ground(note.id, normalizeName(text)),
  };
  // Only LLM backends get redacted input: the structural extractor sends nothing anywhere
  // and reads the note as written.
  const { input, redacted } = run.sendsText ? redactExtractionInput(raw) : { input: raw, redacted: {} };
  if (run.sendsText) {
    addCounts(report.redacted, redacted);
    run.sql.egress.run(note.path, extractor.backend, extractor.model, Buffer.byteLength(input.text), JSON.stringify(redacted), new Date(run.now()).toISOString());
  }
  try {
    const extraction = await extractor.extract(input);
    options.db.transaction(() => {
      run.store.recordNote(note.id, extraction, new Date(run.now()).toISOString());
      run.sql.record.run(outcome(run, note, 'ok', null, extraction.usage));
    })();
    report.processed++;
    run.cursor.transientInARow = 0;
    report.inputTokens += extraction.usage.inputTokens;
    report.outputTokens += extraction.usage.outputTokens;
    report.costUsd += extraction.usage.costUsd;
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const kind = failureKind(error);
    if (kind === 'environment') {
      // Not the note's fault: nothing is recorded against it, and no further note starts.
      run.cursor.deferred++;
      run.stop ??= { reason: error instanceof ExtractorError && error.remedy !== undefined ? error.remedy : message, message };
      return;
    }
    recordFailure(run, note, kind === 'transient' ? 'transient' : 'failed', message);
    run.cursor.transientInARow = kind === 'transient' ? run.cursor.transientInARow + 1 : 0;
    if (run.cursor.transientInARow >= GRAPH_DEFAULTS.maxTransientInARow) run.report.backedOff ??= { failures: run.cursor.transientInARow, last: message };
  }
}

/**
 * Keeps the run's verdict on the environment in the state: a stop records (or refreshes) the
 * pause; a run that extracted a note, or runs another backend, lifts it.
 */
function settlePause(run: Run): void {
  const { db, extractor } = run.options;
  if (run.stop) {
    run.report.paused = recordExtractionPause(db, { backend: extractor.backend, model: extractor.model, reason: run.stop.reason, message: run.stop.message, at: new Date(run.now()).toISOString() });
    return;
  }
  const previous = readExtractionPause(db);
  if (previous && (run.report.processed > 0 || previous.backend !== extractor.backend)) clearExtractionPause(db);
}

/** A failed attempt: a transient one is retried on a later run, a permanent one up to `maxPermanentAttempts` times. */
function recordFailure(run: Run, note: Pending, status: 'transient' | 'failed', message: string): void {
  run.sql.record.run(outcome(run, note, status, message));
  run.report.failed++;
  if (run.report.errors.length < 10) run.report.errors.push(`${note.path}: ${message}`);
}

/** Bump when `notePrivacy` reads more spellings of private: extracted notes are checked again, once. */
export const PRIVACY_READING = 'privacy-2';

/**
 * Notes extracted under an older reading of privacy (`Tags: [private]` was once missed) are read
 * again once: those now private are retracted — their mentions could otherwise reach a merge
 * judge as evidence — and recorded as private, so they stay out until they change.
 */
function recheckPrivacy(db: Database.Database, store: GraphStore, root: string, privateTags: readonly string[], at: string): number {
  const key = 'graph_privacy_reading';
  if (db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) === PRIVACY_READING) return 0;
  const extracted = db.prepare("SELECT n.id, n.path FROM notes n JOIN extractions x ON x.note_id = n.id WHERE x.status != 'private'").all() as { id: number; path: string }[];
  const tags = db.prepare('SELECT tag FROM tags WHERE note_id = ?').pluck();
  const mark = db.prepare("UPDATE extractions SET status = 'private', error = ?, at = ? WHERE note_id = ?");
  let retracted = 0;
  for (const note of extracted) {
    const read = readNoteFile(join(root, note.path));
    const privacy = read.ok ? notePrivacy(read.text, { tags: tags.all(note.id) as string[], privateTags }) : { private: false as const };
    if (!privacy.private) continue;
    db.transaction(() => {
      store.recordNote(note.id, { entities: [], relations: [] }, at);
      mark.run(privacy.detail, at, note.id);
    })();
    retracted++;
  }
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, PRIVACY_READING);
  return retracted;
}

/**
 * The existing entities a note's prompt carries, so the extractor reuses them instead of minting
 * duplicates: those whose name or alias occurs in the note (whole words), then — with a vector
 * model — the entities nearest the note's own vector. At most `GRAPH_DEFAULTS.maxKnown`.
 */
function grounding(db: Database.Database, vectorModel: string | undefined): (noteId: number, folded: string) => ExtractionInput['known'] {
  type Known = { id: number; name: string; type: ExtractionInput['known'][number]['type'] };
  const byName = new Map<string, Known>();
  for (const row of db.prepare('SELECT id, name, type, norm FROM entities WHERE merged_into IS NULL ORDER BY id DESC LIMIT 5000').all() as (Known & { norm: string })[]) {
    const key = words(row.norm).trim();
    if (key.length > 2 && !byName.has(key)) byName.set(key, row);
  }
  for (const row of db.prepare('SELECT e.id, e.name, e.type, a.norm FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE e.merged_into IS NULL LIMIT 20000').all() as (Known & { norm: string })[]) {
    const key = words(row.norm).trim();
    if (key.length > 2 && !byName.has(key)) byName.set(key, row);
  }
  const aliasesOf = db.prepare('SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY alias').pluck();
  const vectors = vectorModel ? entityVectors(db, vectorModel) : [];
  const noteVector = db.prepare("SELECT v.vector FROM vectors v JOIN notes n ON n.id = v.note_id WHERE v.note_id = ? AND v.block_key = '' AND v.model = ? AND v.content_hash = n.hash").pluck();
  return (noteId, folded) => {
    const chosen = new Map<number, Known>();
    const text = ` ${words(folded)} `;
    const present = new Set(text.split(' '));
    for (const [key, entity] of byName) {
      if (chosen.size >= GRAPH_DEFAULTS.maxKnown) break;
      // A cheap first-word check before the substring search keeps this linear in practice.
      const space = key.indexOf(' ');
      if (!present.has(space < 0 ? key : key.slice(0, space))) continue;
      if (text.includes(` ${key} `)) chosen.set(entity.id, entity);
    }
    const blob = vectors.length > 0 ? (noteVector.get(noteId, vectorModel) as Buffer | undefined) : undefined;
    if (blob) {
      const mine = vectorFromBlob(blob);
      const nearest = vectors
        .filter((entity) => entity.unit.length === mine.length && !chosen.has(entity.id))
        .map((entity) => ({ entity, score: cosine(entity.unit, mine) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, GRAPH_DEFAULTS.nearestKnown);
      for (const { entity } of nearest) if (chosen.size < GRAPH_DEFAULTS.maxKnown) chosen.set(entity.id, entity);
    }
    return [...chosen.values()].map((entity) => ({ name: entity.name, type: entity.type, aliases: aliasesOf.all(entity.id) as string[] }));
  };
}

/** Letters and digits only, single-spaced: `harbor — tenant data` → `harbor tenant data`. */
function words(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, ' ');
}

/** Rewrites the notes of entities whose mentions or relations changed, through the write layer. */
export function writeEntityNotes(store: GraphStore, writer: VaultWriter, report: Pick<GraphIndexReport, 'entityNotesWritten' | 'written' | 'errors'>): void {
  for (const id of store.dirty()) {
    const described = store.describe(id);
    try {
      writer.write({ by: GRAPH, path: described.entity.note_path, next: (current) => renderEntityNote(described, current) });
      report.entityNotesWritten++;
      report.written.push(described.entity.note_path);
      store.clean(id);
    } catch (error) {
      if (report.errors.length < 10) report.errors.push(`${described.entity.note_path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
