/**
 * Index runs. `runIndex` walks the whole vault; `indexPaths` looks only at the paths it is
 * given (what a file watcher reports). Both plan the changes, apply them in batches (one
 * transaction each), then resolve the links the changes touched. Killing a run between batches
 * loses nothing: the next run plans again from what was committed and ends in the same state.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { parseNote, readNoteFile, READ_DEFAULTS, statVaultPath, walkVault, type DiskEntry, type Note, type Skipped } from '../vault/index.js';
import { extensionMetaKey, type IndexExtension } from './extension.js';
import { resolvePendingLinks } from './link-resolution.js';
import { NoteStore, type StoredFile } from './note-store.js';
import { planChanges, planStatChanges, type IndexedFile } from './plan-changes.js';

export const INDEXER_DEFAULTS = {
  /** Notes written per transaction: large enough to amortize commits, small enough to lose little to a kill. */
  batchSize: 500,
  /** Note text kept in memory between hashing and parsing; beyond it, files are read a second time. */
  readCacheBytes: 64 * 1024 * 1024,
  maxNoteBytes: READ_DEFAULTS.maxNoteBytes,
} as const;

/** Bump when parsing changes what is stored: the next run then re-parses every note. */
export const PARSER_VERSION = '5'; // 3: related: entries and ids; 4: code spans running over a line end hold no tags or links; 5: a block records whether it is a list of links

export interface IndexProgress {
  phase: 'read' | 'write';
  done: number;
  total: number;
}

export interface IndexOptions {
  /** The vault's real path. */
  root: string;
  full?: boolean;
  exclude?: readonly string[];
  batchSize?: number;
  maxNoteBytes?: number;
  onProgress?: (progress: IndexProgress) => void;
  /** Derived data written with each note (search term statistics, …). */
  extensions?: readonly IndexExtension[];
  now?: () => number;
}

export interface IndexReport {
  added: number;
  modified: number;
  moved: { from: string; to: string }[];
  deleted: number;
  touched: number;
  /** Notes a full run re-parsed although their content had not changed. */
  rebuilt: number;
  unchanged: number;
  notes: number;
  linksResolved: number;
  skipped: Skipped[];
  /** Whether every note was re-parsed (`--full`, or a parser upgrade). */
  full: boolean;
  /** Set when the state database was found damaged and rebuilt before this run. */
  recovered: string | null;
  /** Rows naming notes no longer indexed, removed by a whole-vault run. */
  orphansRemoved: number;
  durationMs: number;
}

interface ReadFile extends StoredFile {
  text: string | null;
  warning: string | null;
}

type Operation =
  | { op: 'delete'; file: IndexedFile }
  | { op: 'move'; id: number; from: IndexedFile; to: ReadFile }
  | { op: 'modify'; id: number; file: ReadFile }
  | { op: 'add'; file: ReadFile }
  | { op: 'touch'; id: number; file: ReadFile }
  | { op: 'none' };

/** Brings the whole index up to date with the vault. */
export function runIndex(db: Database.Database, options: IndexOptions): IndexReport {
  const now = options.now ?? Date.now;
  const started = now();
  const store = new NoteStore(db);
  const extensions = options.extensions ?? [];
  const full = options.full === true || store.getMeta('parser_version') !== PARSER_VERSION || extensions.some((extension) => store.getMeta(extensionMetaKey(extension)) !== extension.version);
  for (const extension of extensions) extension.open(db);
  // What is indexed is read before the vault is walked: a note another process writes and
  // indexes during the walk is then at worst an add that finds its row (see `apply`), never
  // an indexed note missing from an older listing, which would be deleted.
  const indexed = store.listNotes();
  const indexedAttachments = store.listAttachments();
  const walk = walkVault(options.root, { exclude: options.exclude ?? [] });
  const skipped: Skipped[] = [...walk.skipped];
  const notes = walk.entries.filter((entry) => entry.kind === 'note');
  const changes = applyChanges(db, store, notes, indexed, full, options, skipped);
  const attachments = walk.entries.filter((entry) => entry.kind === 'attachment');
  syncAttachments(db, store, attachments, indexedAttachments);
  const linksResolved = resolvePendingLinks(db);
  const recovered = store.getMeta('recovered');
  const orphansRemoved = db.transaction(() => {
    store.replaceSkipped(skipped);
    store.setMeta('last_indexed_at', new Date(now()).toISOString());
    store.setMeta('parser_version', PARSER_VERSION);
    for (const extension of extensions) store.setMeta(extensionMetaKey(extension), extension.version);
    // The rebuild after a recovery is complete: this run reports the warning, once.
    store.deleteMeta('recovered');
    return store.removeOrphans();
  })();
  return { ...changes, notes: store.countNotes(), linksResolved, skipped, full, recovered, orphansRemoved, durationMs: now() - started };
}

/** What an index run would do, from a listing and the stored stats only (nothing is read or written); `bytes` is the size of the notes to read. */
export function planIndex(db: Database.Database, options: Pick<IndexOptions, 'root' | 'exclude'>): { notes: number; added: number; changed: number; gone: number; bytes: number } {
  const store = new NoteStore(db);
  const walk = walkVault(options.root, { exclude: options.exclude ?? [] });
  const notes = walk.entries.filter((entry) => entry.kind === 'note');
  const indexed = store.listNotes();
  const stat = planStatChanges(notes, indexed);
  const known = new Set(indexed.map((file) => file.key));
  const added = stat.toRead.filter((file) => !known.has(file.key)).length;
  const bytes = stat.toRead.reduce((sum, file) => sum + file.size, 0);
  return { notes: notes.length, added, changed: stat.toRead.length - added, gone: stat.gone.length, bytes };
}

/**
 * Brings the given vault-relative paths up to date, and nothing else: a path that is gone is
 * deleted, one that appeared is added; a deletion and an addition with the same content in one
 * call are a move. Paths Engram does not track (dot-folders, excluded folders) are ignored.
 */
export function indexPaths(db: Database.Database, paths: readonly string[], options: IndexOptions): IndexReport {
  const now = options.now ?? Date.now;
  const started = now();
  const store = new NoteStore(db);
  const skipped: Skipped[] = [];
  const listed: DiskEntry[] = [];
  const unique = [...new Set(paths)];
  const keys = unique.map((path) => path.replace(/\\/g, '/').replace(/^\/+/, '').normalize('NFC'));
  // Read before the files are looked at, as in `runIndex`.
  const indexed = store.getNotes(keys);
  const indexedAttachments = store.getAttachments(keys);
  for (const path of unique) {
    const stat = statVaultPath(options.root, path, { exclude: options.exclude ?? [] });
    if (stat.found) listed.push(stat.entry);
    else if (stat.skipped) skipped.push(stat.skipped);
  }
  for (const extension of options.extensions ?? []) extension.open(db);
  const notes = listed.filter((entry) => entry.kind === 'note');
  const changes = applyChanges(db, store, notes, indexed, options.full === true, options, skipped);
  syncAttachments(
    db,
    store,
    listed.filter((entry) => entry.kind === 'attachment'),
    indexedAttachments,
  );
  const linksResolved = resolvePendingLinks(db);
  db.transaction(() => store.replaceSkipped(skipped, keys))();
  return { ...changes, notes: store.countNotes(), linksResolved, skipped, full: options.full === true, recovered: null, orphansRemoved: 0, durationMs: now() - started };
}

type Changes = Pick<IndexReport, 'added' | 'modified' | 'moved' | 'deleted' | 'touched' | 'rebuilt' | 'unchanged'>;

/** Plans `listed` (on disk) against `indexed` (in the database) and applies the plan in batches. */
function applyChanges(db: Database.Database, store: NoteStore, listed: readonly DiskEntry[], indexed: readonly IndexedFile[], full: boolean, options: IndexOptions, skipped: Skipped[]): Changes {
  const maxNoteBytes = options.maxNoteBytes ?? INDEXER_DEFAULTS.maxNoteBytes;
  const stat = planStatChanges(listed, indexed, { full });

  // Read and hash what stat says may have changed. Text is kept within a budget for parsing.
  const read: ReadFile[] = [];
  const gone = [...stat.gone];
  const indexedByKey = new Map(indexed.map((file) => [file.key, file]));
  let cached = 0;
  stat.toRead.forEach((entry, i) => {
    const outcome = readNoteFile(join(options.root, entry.path), maxNoteBytes);
    options.onProgress?.({ phase: 'read', done: i + 1, total: stat.toRead.length });
    if (!outcome.ok) {
      skipped.push({ path: entry.path, reason: outcome.reason });
      const known = indexedByKey.get(entry.key);
      if (known) gone.push(known); // unreadable now: drop what we had rather than serve stale text
      return;
    }
    const keep = cached + outcome.text.length * 2 <= INDEXER_DEFAULTS.readCacheBytes;
    if (keep) cached += outcome.text.length * 2;
    read.push({ ...entry, size: outcome.size, hash: outcome.hash, text: keep ? outcome.text : null, warning: outcome.warning });
  });
  const plan = planChanges(read, gone, indexed, { full });

  const operations: Operation[] = [
    ...plan.deleted.map((file): Operation => ({ op: 'delete', file })),
    ...plan.moved.map(({ from, to }): Operation => ({ op: 'move', id: from.id, from, to })),
    ...[...plan.modified, ...plan.rebuilt].map(({ file, id }): Operation => ({ op: 'modify', id, file })),
    ...plan.added.map((file): Operation => ({ op: 'add', file })),
    ...plan.touched.map(({ file, id }): Operation => ({ op: 'touch', id, file })),
  ];
  const batchSize = Math.max(1, options.batchSize ?? INDEXER_DEFAULTS.batchSize);
  for (let start = 0; start < operations.length; start += batchSize) {
    const batch = operations.slice(start, start + batchSize).map((operation) => withText(operation, options.root, maxNoteBytes, skipped));
    db.transaction(() => {
      for (const operation of batch) apply(store, operation, options.extensions ?? []);
    })();
    options.onProgress?.({ phase: 'write', done: Math.min(start + batchSize, operations.length), total: operations.length });
  }
  return {
    added: plan.added.length,
    modified: plan.modified.length,
    moved: plan.moved.map(({ from, to }) => ({ from: from.path, to: to.path })),
    deleted: plan.deleted.length,
    touched: plan.touched.length,
    rebuilt: plan.rebuilt.length,
    unchanged: stat.unchanged.length,
  };
}

/** Re-reads a file whose text was not cached. A file that vanished since becomes a delete. */
function withText(operation: Operation, root: string, maxNoteBytes: number, skipped: Skipped[]): Operation {
  if (operation.op === 'delete' || operation.op === 'touch' || operation.op === 'none') return operation;
  const file = operation.op === 'move' ? operation.to : operation.file;
  if (file.text !== null) return operation;
  const outcome = readNoteFile(join(root, file.path), maxNoteBytes);
  if (!outcome.ok) {
    skipped.push({ path: file.path, reason: outcome.reason });
    if (operation.op === 'move') return { op: 'delete', file: operation.from };
    if (operation.op === 'modify') return { op: 'delete', file: { ...file, id: operation.id } };
    return { op: 'none' }; // a new file that vanished: nothing to write
  }
  const fresh: ReadFile = { ...file, size: outcome.size, hash: outcome.hash, text: outcome.text, warning: outcome.warning };
  return operation.op === 'move' ? { ...operation, to: fresh } : { ...operation, file: fresh };
}

/**
 * Applies one planned operation to the rows as they are now. The plan was made before the batch's
 * transaction began, and another process (a server indexing its own writes, a second index run)
 * may have indexed the same paths since: so a note's row is found again by its path inside the
 * transaction, which holds the write lock, and an add whose row appeared becomes a replace, a
 * modify whose row went becomes an insert. Without this a concurrent writer made a run fail
 * with `UNIQUE constraint failed`.
 */
function apply(store: NoteStore, operation: Operation, extensions: readonly IndexExtension[]): void {
  switch (operation.op) {
    case 'none':
      return;
    case 'delete':
      store.delete(operation.file);
      return;
    case 'touch':
      store.touch(operation.id, operation.file);
      return;
    case 'add':
    case 'modify':
      write(store, extensions, operation.file, null);
      return;
    case 'move': {
      // Still where the plan found it: the row moves (keeping its id, so its vectors and graph
      // rows follow). Otherwise the new path is written like any other note.
      if (store.idOf(operation.to.key) === null && store.idOf(operation.from.key) === operation.id) {
        write(store, extensions, operation.to, operation.from);
      } else {
        store.delete(operation.from);
        write(store, extensions, operation.to, null);
      }
      return;
    }
  }
}

/** Writes a note at `file`'s path: a replace of the row now at that path (or at `from`'s), else an insert. */
function write(store: NoteStore, extensions: readonly IndexExtension[], file: ReadFile, from: IndexedFile | null): void {
  const note = parse(file);
  const id = from ? from.id : store.idOf(file.key);
  if (id === null) {
    derive(extensions, store.insert(file, note), note, file);
  } else {
    store.replace(id, file, note, from ? from.path : null);
    derive(extensions, id, note, file);
  }
}

function derive(extensions: readonly IndexExtension[], id: number, note: Note, file: ReadFile): void {
  for (const extension of extensions) extension.noteWritten(id, note, file.text ?? '');
}

function parse(file: ReadFile): Note {
  const note = parseNote(file.path, file.text ?? '');
  if (file.warning) note.warnings.unshift(file.warning);
  return note;
}

function syncAttachments(db: Database.Database, store: NoteStore, listed: readonly DiskEntry[], indexed: readonly IndexedFile[]): void {
  const stat = planStatChanges(listed, indexed);
  if (stat.toRead.length === 0 && stat.gone.length === 0) return;
  const known = new Set(indexed.map((file) => file.key));
  db.transaction(() => {
    for (const file of stat.toRead) store.upsertAttachment(file, !known.has(file.key));
    for (const file of stat.gone) store.deleteAttachment(file);
  })();
}
