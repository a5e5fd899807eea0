/**
 * Keeps `links.resolved_*` true. A link is resolved again when it is new (its note was written)
 * or when the set of files carrying the name it points at changed (a note or attachment with
 * that name was added, moved or deleted) — so one edited note costs a handful of look-ups, not
 * a pass over every link. Both markers live in the database, so a run killed before this step
 * leaves the work for the next run instead of losing it.
 */
import type Database from 'better-sqlite3';
import { LinkResolver, linkTargetName, type LinkKind } from '../vault/index.js';

interface PendingLink {
  note_id: number;
  ord: number;
  kind: LinkKind;
  target: string;
  source: string;
}

/** Resolves pending links in one transaction; returns how many were looked at. */
export function resolvePendingLinks(db: Database.Database): number {
  return db.transaction(() => {
    const pending = db
      .prepare(
        `
      SELECT l.note_id, l.ord, l.kind, l.target, n.path AS source FROM links l JOIN notes n ON n.id = l.note_id
      WHERE l.resolve_pending = 1
      UNION
      SELECT l.note_id, l.ord, l.kind, l.target, n.path AS source FROM links l JOIN notes n ON n.id = l.note_id
      WHERE l.target_name IN (SELECT name_key FROM dirty_names)`,
      )
      .all() as PendingLink[];
    if (pending.length > 0) {
      // Only files carrying a pending link's name can match it, so only those are loaded.
      const names = JSON.stringify([...new Set(pending.map((link) => linkTargetName(link.target)))]);
      const paths = db
        .prepare(
          `SELECT path FROM notes WHERE name_key IN (SELECT value FROM json_each(@names))
        UNION ALL SELECT path FROM attachments WHERE name_key IN (SELECT value FROM json_each(@names))`,
        )
        .pluck()
        .all({ names }) as string[];
      const resolver = new LinkResolver(paths);
      const update = db.prepare('UPDATE links SET resolved_path = ?, resolved_kind = ?, resolve_pending = 0 WHERE note_id = ? AND ord = ?');
      for (const link of pending) {
        const hit = resolver.resolve(link, link.source);
        update.run(hit?.path ?? null, hit?.kind ?? null, link.note_id, link.ord);
      }
    }
    db.prepare('DELETE FROM dirty_names').run();
    return pending.length;
  })();
}
