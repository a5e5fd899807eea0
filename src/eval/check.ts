/**
 * A golden-set check for the Librarian's health phase: the keyword lane over the index as it is,
 * as one number the sweep can compare with its previous run. Keyword only, so the number moves
 * with the index and the ranking, not with whether a model happened to be installed.
 */
import type Database from 'better-sqlite3';
import { VaultSearch } from '../search/index.js';
import { loadGolden } from './golden.js';
import { runGolden } from './run-golden.js';

export interface GoldenCheck {
  metric: 'success@5';
  value: number;
  queries: number;
  /** Queries whose expected notes are no longer in the vault (not scored). */
  skipped: number;
}

export function goldenCheck(db: Database.Database, vault: string, file: string): GoldenCheck {
  const known = new Set(db.prepare('SELECT path FROM notes').pluck().all() as string[]);
  const all = loadGolden(file);
  const queries = all.filter((query) => query.expect.every((path) => known.has(path)));
  const engine = VaultSearch.open(db, vault);
  const report = runGolden(queries, (query, depth) =>
    engine
      .search({
        query: query.query,
        limit: depth,
        mode: 'keyword',
        filters: { tags: query.tags, folders: query.folder ? [query.folder] : [] },
      })
      .results.map((hit) => hit.path),
  );
  return { metric: 'success@5', value: report.overall.success5, queries: queries.length, skipped: all.length - queries.length };
}
