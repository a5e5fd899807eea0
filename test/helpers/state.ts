/**
 * Reads a state database back as plain, id-free data, so two databases can be compared for
 * "the same content" (row ids may differ between runs; nothing else may).
 */
import type Database from 'better-sqlite3';

export function dumpState(db: Database.Database): Record<string, unknown[]> {
  const all = (sql: string) => db.prepare(sql).all();
  return {
    notes: all('SELECT path, path_key, name_key, title, type, aliases, frontmatter, hash, mtime_ms, size, word_count, line_count, warnings FROM notes ORDER BY path_key'),
    blocks: all('SELECT n.path_key, b.ord, b.key, b.heading_path, b.level, b.line_start, b.line_end, b.body_end FROM blocks b JOIN notes n ON n.id = b.note_id ORDER BY 1, 2'),
    links: all(`SELECT n.path_key, l.ord, l.kind, l.target, l.subpath, l.display, l.line, l.target_name, l.resolved_path, l.resolved_kind, l.resolve_pending
      FROM links l JOIN notes n ON n.id = l.note_id ORDER BY 1, 2`),
    tags: all('SELECT n.path_key, t.tag FROM tags t JOIN notes n ON n.id = t.note_id ORDER BY 1, 2'),
    tasks: all('SELECT n.path_key, t.* FROM tasks t JOIN notes n ON n.id = t.note_id ORDER BY 1, t.line'),
    attachments: all('SELECT * FROM attachments ORDER BY path_key'),
    skipped: all('SELECT * FROM skipped ORDER BY path'),
    dirty: all('SELECT * FROM dirty_names'),
  };
}

/** Strips the `note_id` column that `t.*` carries. */
export function withoutIds<T extends Record<string, unknown[]>>(dump: T): T {
  return Object.fromEntries(
    Object.entries(dump).map(([table, rows]) => [
      table,
      rows.map((row) => {
        const { note_id: _ignored, ...rest } = row as Record<string, unknown>;
        return rest;
      }),
    ]),
  ) as T;
}
