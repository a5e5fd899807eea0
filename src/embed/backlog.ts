/**
 * Index-time vectors, after the notes are indexed: import the fresh Smart Connections vectors
 * of the configured model, then embed locally what they do not cover — each note's own text and
 * its sections of 200+ characters — as an embedding backlog with a time budget. Every vector
 * row carries the note hash it was made from, so a vector of changed content is never served.
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readNoteFile } from '../vault/index.js';
import { vectorFromBlob, vectorToBlob } from '../index/index.js';
import { blockEmbedInput, INPUT_PREP_VERSION, sourceEmbedInput } from './embed-input.js';
import type { Embedder } from './embedder.js';

export const BACKLOG_DEFAULTS = {
  /** A section shorter than this is covered by its note's vector (the plugin's `min_chars`). */
  minBlockChars: 200,
  /** Notes embedded per transaction. */
  notesPerBatch: 16,
} as const;

/** One vector as the Smart Connections reader hands it over (a subset of its `ScVector`). */
export interface ImportedVector {
  path: string;
  kind: 'source' | 'block';
  key: string;
  fresh: boolean;
  vector: Float32Array;
}

/**
 * Replaces the stored Smart Connections vectors of `model` with the fresh ones given. Stale
 * vectors are not imported: the local embedder covers their notes instead.
 */
export function importSmartVectors(db: Database.Database, model: string, vectors: readonly ImportedVector[]): { imported: number; unknownNotes: number } {
  const notes = new Map((db.prepare('SELECT path_key, id, hash FROM notes').all() as { path_key: string; id: number; hash: string }[]).map((row) => [row.path_key, row]));
  let imported = 0;
  let unknownNotes = 0;
  db.transaction(() => {
    db.prepare("DELETE FROM vectors WHERE model = ? AND source = 'smart-connections'").run(model);
    const insert = db.prepare(`INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, ?, ?, 'smart-connections', ?, ?)
      ON CONFLICT (note_id, block_key, model) DO UPDATE SET source = excluded.source, content_hash = excluded.content_hash, vector = excluded.vector`);
    for (const vector of vectors) {
      if (!vector.fresh) continue;
      const note = notes.get(vector.path.normalize('NFC'));
      if (!note) {
        unknownNotes++;
        continue;
      }
      insert.run(note.id, vector.kind === 'source' ? '' : vector.key, model, note.hash, vectorToBlob(vector.vector));
      imported++;
    }
  })();
  return { imported, unknownNotes };
}

export interface BacklogOptions {
  root: string;
  embedder: Embedder;
  /** Stop starting new batches after this long (ms); the rest waits for the next run. */
  budgetMs?: number;
  onProgress?: (done: number, total: number) => void;
  now?: () => number;
}

export interface BacklogReport {
  notes: number;
  vectors: number;
  /** Inputs found in the embedding cache (not embedded again). */
  cached: number;
  remaining: number;
  durationMs: number;
}

/** Notes without a current vector of the embedder's model. */
export function countBacklog(db: Database.Database, model: string): number {
  return db
    .prepare(
      `SELECT count(*) FROM notes n WHERE NOT EXISTS (SELECT 1 FROM vectors v
    WHERE v.note_id = n.id AND v.model = ? AND v.block_key = '' AND v.content_hash = n.hash)`,
    )
    .pluck()
    .get(model) as number;
}

export async function embedBacklog(db: Database.Database, options: BacklogOptions): Promise<BacklogReport> {
  const now = options.now ?? Date.now;
  const started = now();
  const { embedder } = options;
  const model = embedder.model;
  const pending = db
    .prepare(
      `SELECT n.id, n.path, n.hash FROM notes n WHERE NOT EXISTS (SELECT 1 FROM vectors v
    WHERE v.note_id = n.id AND v.model = ? AND v.block_key = '' AND v.content_hash = n.hash) ORDER BY n.id`,
    )
    .all(model) as { id: number; path: string; hash: string }[];
  const blocksOf = db.prepare('SELECT key, level, line_start, body_end FROM blocks WHERE note_id = ? ORDER BY ord');
  const smartKeys = db.prepare("SELECT block_key FROM vectors WHERE note_id = ? AND model = ? AND source = 'smart-connections' AND content_hash = ?").pluck();
  const cacheGet = db.prepare('SELECT vector FROM embed_cache WHERE input_hash = ? AND model = ? AND prep = ?').pluck();
  const cachePut = db.prepare('INSERT OR IGNORE INTO embed_cache (input_hash, model, prep, vector) VALUES (?, ?, ?, ?)');
  const clearLocal = db.prepare("DELETE FROM vectors WHERE note_id = ? AND model = ? AND (source = 'local' OR content_hash != ?)");
  const insert = db.prepare(`INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, ?, ?, 'local', ?, ?)
    ON CONFLICT (note_id, block_key, model) DO UPDATE SET source = 'local', content_hash = excluded.content_hash, vector = excluded.vector`);
  const report: BacklogReport = { notes: 0, vectors: 0, cached: 0, remaining: pending.length, durationMs: 0 };

  for (let start = 0; start < pending.length; start += BACKLOG_DEFAULTS.notesPerBatch) {
    if (options.budgetMs !== undefined && now() - started >= options.budgetMs) break;
    const batch = pending.slice(start, start + BACKLOG_DEFAULTS.notesPerBatch);
    // Inputs per note: its own text, and sections the plugin did not already give a fresh vector.
    const work = batch.map((note) => {
      const read = readNoteFile(join(options.root, note.path));
      if (!read.ok || read.hash !== note.hash) return { note, inputs: null }; // changed since indexing: the next index run sees it
      const covered = new Set(smartKeys.all(note.id, model, note.hash) as string[]);
      const lines = read.text.split('\n');
      const inputs: { key: string; text: string }[] = [];
      if (!covered.has('')) inputs.push({ key: '', text: sourceEmbedInput(note.path, read.text) });
      for (const block of blocksOf.all(note.id) as { key: string; level: number; line_start: number; body_end: number }[]) {
        if (block.key === '#---frontmatter---' || covered.has(block.key)) continue;
        const text = lines.slice(block.line_start - 1, block.body_end).join('\n');
        if (text.length >= BACKLOG_DEFAULTS.minBlockChars) inputs.push({ key: block.key, text: blockEmbedInput(note.path, block.key, text) });
      }
      return { note, inputs: inputs.filter((input) => input.text.trim() !== '') };
    });
    const all = work.flatMap((item) => item.inputs ?? []);
    const hashes = all.map((input) => createHash('sha256').update(input.text).digest('hex').slice(0, 32));
    const vectors: (Float32Array | null)[] = hashes.map((hash) => {
      const blob = cacheGet.get(hash, model, INPUT_PREP_VERSION) as Buffer | undefined;
      return blob ? vectorFromBlob(blob) : null;
    });
    report.cached += vectors.filter((vector) => vector !== null).length;
    const missing = vectors.map((vector, i) => (vector === null ? i : -1)).filter((i) => i !== -1);
    const fresh = missing.length === 0 ? [] : await embedder.embed(missing.map((i) => all[i]!.text));
    missing.forEach((i, j) => {
      vectors[i] = fresh[j]!;
    });
    db.transaction(() => {
      let at = 0;
      for (const item of work) {
        if (item.inputs === null) continue;
        clearLocal.run(item.note.id, model, item.note.hash);
        // An empty note still gets a row (an empty vector) so it leaves the backlog; the loader skips it.
        if (!item.inputs.some((input) => input.key === '') && !(smartKeys.all(item.note.id, model, item.note.hash) as string[]).includes('')) {
          insert.run(item.note.id, '', model, item.note.hash, Buffer.alloc(0));
        }
        for (const input of item.inputs) {
          const vector = vectors[at]!;
          const blob = vectorToBlob(vector);
          cachePut.run(hashes[at], model, INPUT_PREP_VERSION, blob);
          insert.run(item.note.id, input.key, model, item.note.hash, blob);
          report.vectors++;
          at++;
        }
        report.notes++;
      }
    })();
    report.remaining = pending.length - (start + batch.length);
    options.onProgress?.(start + batch.length, pending.length);
  }
  report.durationMs = now() - started;
  return report;
}
