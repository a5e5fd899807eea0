/**
 * The notes a vault map lays out, read from the index: every indexed note but the agent folder's
 * `Graph/` (entity notes have their own canvas) and `Audit.md` (the write log, which every write
 * changes, so it would count as a changed note on every map), in path order, with its content hash
 * and its current vector for the model (note-level, not a section's; stale ones are skipped, as
 * the cosine lane skips them).
 */
import type Database from 'better-sqlite3';
import { vectorFromBlob } from '../index/index.js';

export interface MapNoteRow {
  path: string;
  hash: string;
  vector: Float32Array | null;
}

/** Whether a note belongs on the vault map (see above). */
export function onMap(path: string, agentRoot: string): boolean {
  return !path.startsWith(`${agentRoot}/Graph/`) && path !== `${agentRoot}/Audit.md`;
}

export function readMapNotes(db: Database.Database, agentRoot: string, model: string): MapNoteRow[] {
  const rows = db
    .prepare(
      `SELECT n.path, n.hash, v.vector FROM notes n
       LEFT JOIN vectors v ON v.note_id = n.id AND v.model = ? AND v.block_key = '' AND v.content_hash = n.hash AND length(v.vector) > 0
       ORDER BY n.path`,
    )
    .raw()
    .all(model) as [string, string, Buffer | null][];
  let dims = 0;
  const notes: MapNoteRow[] = [];
  for (const [path, hash, blob] of rows) {
    if (!onMap(path, agentRoot)) continue;
    let vector = blob ? vectorFromBlob(blob) : null;
    // One width for the whole map: a vector of another width is another model's space.
    if (vector) dims ||= vector.length;
    if (vector && vector.length !== dims) vector = null;
    notes.push({ path, hash, vector });
  }
  return notes;
}
