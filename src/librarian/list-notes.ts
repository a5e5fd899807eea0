/**
 * The note listing (`list_notes`, `engram ls`): every indexed note, path order, paged with a
 * cursor, filtered as search filters, each with what Engram knows of it — size, modified time,
 * blocks, vectors (fresh when made from the note's current content, stale otherwise) and whether
 * the graph has extracted its current content. Reads the index only.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import { compileFilter, folderSegments, type SearchFilters } from '../search/index.js';

export interface ListedNote {
  path: string;
  title: string;
  size: number;
  modified: string;
  blocks: number;
  /** Vectors of the note and its blocks, all models; `stale` were made from older content. */
  vectors: { fresh: number; stale: number };
  /** The graph extractor has handled the note's current content. */
  extracted: boolean;
}

export interface ListNotesOptions {
  filters: SearchFilters;
  limit: number;
  /** Where the previous page ended (`next_cursor`), or null for the first page. */
  cursor: string | null;
}

export const LIST_NOTES_DEFAULTS = { limit: 100, maxLimit: 1000 } as const;

/** The cursor is the last path listed, opaque to the caller (base64url) so nobody builds one by hand. */
export function encodeCursor(path: string): string {
  return Buffer.from(`p:${path}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!text.startsWith('p:')) throw new EngramError('INVALID_INPUT', `"${cursor.slice(0, 40)}" is not a cursor this listing gave; pass next_cursor from the previous page as it is, or none for the first page`);
  return text.slice(2);
}

interface Row {
  id: number;
  path: string;
  title: string;
  type: string | null;
  size: number;
  mtime_ms: number;
  hash: string;
  tags: string | null;
}

export function listNotes(db: Database.Database, options: ListNotesOptions): { notes: ListedNote[]; total: number; nextCursor: string | null } {
  const after = options.cursor === null ? null : decodeCursor(options.cursor);
  const filter = compileFilter(options.filters);
  const rows = (db.prepare(`SELECT n.id, n.path, n.title, n.type, n.size, n.mtime_ms, n.hash, (SELECT group_concat(tag, ' ') FROM tags WHERE note_id = n.id) AS tags FROM notes n`).all() as Row[])
    .filter((row) => filter.test({ path: row.path, title: row.title, folders: folderSegments(row.path), tags: row.tags ? row.tags.split(' ') : [], type: row.type, mtimeMs: row.mtime_ms }) === null)
    // Code-unit order, the same in SQLite and here, so a cursor means one place in the list.
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const start = after === null ? 0 : rows.findIndex((row) => row.path > after);
  const page = start === -1 ? [] : rows.slice(start, start + options.limit);
  const blocks = db.prepare('SELECT count(*) FROM blocks WHERE note_id = ?').pluck();
  const vectors = db.prepare('SELECT sum(content_hash = ?) AS fresh, sum(content_hash != ?) AS stale FROM vectors WHERE note_id = ?');
  const extracted = db.prepare("SELECT 1 FROM extractions WHERE note_id = ? AND note_hash = ? AND status = 'ok'").pluck();
  const notes = page.map((row) => {
    const counts = vectors.get(row.hash, row.hash, row.id) as { fresh: number | null; stale: number | null };
    return {
      path: row.path,
      title: row.title,
      size: row.size,
      modified: new Date(row.mtime_ms).toISOString(),
      blocks: blocks.get(row.id) as number,
      vectors: { fresh: counts.fresh ?? 0, stale: counts.stale ?? 0 },
      extracted: extracted.get(row.id, row.hash) !== undefined,
    };
  });
  const more = start !== -1 && start + options.limit < rows.length;
  return { notes, total: rows.length, nextCursor: more ? encodeCursor(page[page.length - 1]!.path) : null };
}
