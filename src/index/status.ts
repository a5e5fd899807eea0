/**
 * The status document (`engram status --json`, and later the `index_status` tool): counts,
 * link resolution, skipped files and warnings, read from the state database alone.
 */
import type Database from 'better-sqlite3';
import { describeRelationProblems, relationProblems } from './relation-problems.js';

export interface StatusDoc {
  vault: string;
  state_dir: string;
  notes: number;
  blocks: number;
  links: { total: number; resolved: number; unresolved: number; to_attachments: number };
  tags: number;
  tasks: { total: number; open: number; done: number };
  attachments: number;
  words: number;
  skipped: { path: string; reason: string }[];
  last_indexed_at: string | null;
  warnings: string[];
}

/** Notes named in per-kind warnings before the rest are summarized as "and N more". */
const WARNING_EXAMPLES = 5;

export function readStatus(db: Database.Database, where: { vault: string; stateDir: string }): StatusDoc {
  const count = (sql: string): number => db.prepare(sql).pluck().get() as number;
  const links = db
    .prepare(
      `SELECT count(*) AS total, count(resolved_path) AS resolved,
      sum(resolved_kind = 'attachment') AS to_attachments FROM links`,
    )
    .get() as { total: number; resolved: number; to_attachments: number | null };
  const tasks = db.prepare(`SELECT count(*) AS total, sum(status = ' ') AS open, sum(status IN ('x', 'X')) AS done FROM tasks`).get() as {
    total: number;
    open: number | null;
    done: number | null;
  };
  return {
    vault: where.vault,
    state_dir: where.stateDir,
    notes: count('SELECT count(*) FROM notes'),
    blocks: count('SELECT count(*) FROM blocks'),
    links: { total: links.total, resolved: links.resolved, unresolved: links.total - links.resolved, to_attachments: links.to_attachments ?? 0 },
    tags: count('SELECT count(DISTINCT tag) FROM tags'),
    tasks: { total: tasks.total, open: tasks.open ?? 0, done: tasks.done ?? 0 },
    attachments: count('SELECT count(*) FROM attachments'),
    words: count('SELECT coalesce(sum(word_count), 0) FROM notes'),
    skipped: db.prepare('SELECT path, reason FROM skipped ORDER BY path').all() as { path: string; reason: string }[],
    last_indexed_at: (db.prepare("SELECT value FROM meta WHERE key = 'last_indexed_at'").pluck().get() as string | undefined) ?? null,
    warnings: collectWarnings(db),
  };
}

function collectWarnings(db: Database.Database): string[] {
  const warnings: string[] = [];
  const recovered = db.prepare("SELECT value FROM meta WHERE key = 'recovered'").pluck().get() as string | undefined;
  if (recovered) warnings.push(recovered);
  if (db.prepare("SELECT value FROM meta WHERE key = 'last_indexed_at'").pluck().get() === undefined) {
    warnings.push('the vault has not been indexed yet; run `engram index`');
  }
  const noteWarnings = db.prepare('SELECT path, warnings FROM notes WHERE warnings IS NOT NULL ORDER BY path').all() as { path: string; warnings: string }[];
  for (const row of noteWarnings.slice(0, WARNING_EXAMPLES * 4)) {
    for (const warning of JSON.parse(row.warnings) as string[]) warnings.push(`${row.path}: ${warning}`);
  }
  if (noteWarnings.length > WARNING_EXAMPLES * 4) warnings.push(`… and ${noteWarnings.length - WARNING_EXAMPLES * 4} more notes with warnings`);
  const twins = db.prepare(`SELECT group_concat(path, ' | ') AS paths FROM notes GROUP BY lower(path_key) HAVING count(*) > 1 ORDER BY 1`).pluck().all() as string[];
  // Ids two notes share and related: entries that name no note (duplicate ids are never merged).
  const relations = describeRelationProblems(relationProblems(db));
  for (const lines of [relations.sharedIds, relations.unresolved, relations.selfRelated]) {
    warnings.push(...lines.slice(0, WARNING_EXAMPLES));
    if (lines.length > WARNING_EXAMPLES) warnings.push(`… and ${lines.length - WARNING_EXAMPLES} more like it`);
  }
  for (const paths of twins.slice(0, WARNING_EXAMPLES)) {
    warnings.push(`notes differ only by letter case (${paths}); links to them are ambiguous in Obsidian on macOS and Windows, rename one`);
  }
  return warnings;
}
