/**
 * Keeps `links.resolved_*` true. A link is resolved again when it is new (its note was written)
 * or when the set of files carrying the name it points at changed (a note or attachment with
 * that name was added, moved or deleted) — so one edited note costs a handful of look-ups, not
 * a pass over every link. Both markers live in the database, so a run killed before this step
 * leaves the work for the next run instead of losing it.
 */
import type Database from 'better-sqlite3';
import { conflictOriginalOf, LinkResolver, linkTargetName, type LinkKind } from '../vault/index.js';
import { ID_DIRTY_PREFIX } from './note-store.js';

interface PendingLink {
  note_id: number;
  ord: number;
  kind: LinkKind;
  target: string;
  target_id: string | null;
  source: string;
}

/** Resolves pending links in one transaction; returns how many were looked at. */
export function resolvePendingLinks(db: Database.Database): number {
  return db.transaction(() => {
    const pending = db
      .prepare(
        `
      SELECT l.note_id, l.ord, l.kind, l.target, l.target_id, n.path AS source FROM links l JOIN notes n ON n.id = l.note_id
      WHERE l.resolve_pending = 1
      UNION
      SELECT l.note_id, l.ord, l.kind, l.target, l.target_id, n.path AS source FROM links l JOIN notes n ON n.id = l.note_id
      WHERE l.target_name IN (SELECT name_key FROM dirty_names)
      UNION
      SELECT l.note_id, l.ord, l.kind, l.target, l.target_id, n.path AS source FROM links l JOIN notes n ON n.id = l.note_id
      WHERE l.target_id IN (SELECT substr(name_key, @from) FROM dirty_names WHERE substr(name_key, 1, @length) = @prefix)`,
      )
      .all({ prefix: ID_DIRTY_PREFIX, length: ID_DIRTY_PREFIX.length, from: ID_DIRTY_PREFIX.length + 1 }) as PendingLink[];
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
      const byId = db.prepare('SELECT path FROM notes WHERE uid = ? ORDER BY path LIMIT 8').pluck();
      for (const link of pending) {
        // An entry naming an id resolves to the one note with that id; an id two notes share
        // resolves to neither (health names both). With no note of that id, it is a path. A sync
        // conflict copy carries its original's id: the original is the one meant.
        const owners = link.target_id === null ? [] : originalsOnly(byId.all(link.target_id) as string[]);
        if (owners.length === 1) {
          update.run(owners[0]!, 'note', link.note_id, link.ord);
          continue;
        }
        const hit = owners.length > 1 ? null : resolver.resolve(link, link.source);
        update.run(hit?.path ?? null, hit?.kind ?? null, link.note_id, link.ord);
      }
    }
    db.prepare('DELETE FROM dirty_names').run();
    return pending.length;
  })();
}

/** The paths without the sync conflict copies of notes among them (`Note (conflict …).md` beside `Note.md`). */
function originalsOnly(paths: readonly string[]): string[] {
  return paths.filter((path) => {
    const copy = conflictOriginalOf(path);
    return copy === null || !paths.includes(copy.original);
  });
}
