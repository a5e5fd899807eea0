/**
 * Suggested `related:` entries for a note: the related lane's best `limit` notes, less those its
 * `related:` names already, each with the entry that would be written (a wikilink, or the target's id
 * where the list holds ids) and the signals behind it. Applying is the caller's: the text
 * change is `addRelatedEntries`, the write goes through the writer's quarantine.
 */
import type Database from 'better-sqlite3';
import type { VaultSearch } from '../search/index.js';
import { noteName, type RelatedEntry } from '../vault/index.js';
import { relatedLane, type RelatedResult, type RelatedLaneOptions } from './related-lane.js';

export interface RelationSuggestion extends RelatedResult {
  entry: RelatedEntry;
}

/** Suggestions for `path`, best first, or null when it is not indexed. */
export function suggestRelations(db: Database.Database, engine: VaultSearch, path: string, options: RelatedLaneOptions): RelationSuggestion[] | null {
  const named = new Set(db.prepare(`SELECT l.resolved_path FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = ? AND l.kind = 'related' AND l.resolved_path IS NOT NULL`).pluck().all(path) as string[]);
  // The lane's best `limit`, less those already named: applying twice adds nothing the second time.
  const lane = relatedLane(db, engine, path, options);
  if (lane === null) return null;
  const idOf = db.prepare('SELECT uid FROM notes WHERE path = ?').pluck();
  const shared = db.prepare('SELECT count(*) FROM notes WHERE uid = ?').pluck();
  const nameTaken = db.prepare('SELECT count(*) FROM notes WHERE name_key = (SELECT name_key FROM notes WHERE path = ?)').pluck();
  return lane.results
    .filter((result) => !named.has(result.path))
    .map((result) => {
      const uid = idOf.get(result.path) as string | null;
      // The shortest link that names only this note: its name, else its path without .md.
      const target = (nameTaken.get(result.path) as number) > 1 ? result.path.replace(/\.md$/i, '') : noteName(result.path);
      return { ...result, entry: { link: `[[${target}]]`, id: uid !== null && (shared.get(uid) as number) === 1 ? uid : null } };
    });
}
