/**
 * What is wrong with the vault's ids and `related:` entries, read from the state database:
 * ids two or more notes share (never merged: each keeps it, and relations by it resolve to
 * neither), entries that resolve to no note, and notes related to themselves. Health and status
 * both report these.
 */
import type Database from 'better-sqlite3';

export interface RelationProblems {
  /** `id` → the notes sharing it, each group sorted by path. */
  sharedIds: { id: string; paths: string[] }[];
  /** `related:` entries that name no note (or an id two notes share), with why. */
  unresolved: { path: string; target: string; reason: string }[];
  /** Notes whose `related:` names the note itself. */
  selfRelated: string[];
}

export function relationProblems(db: Database.Database): RelationProblems {
  const shared = db.prepare(`SELECT uid, group_concat(path, char(10)) AS paths FROM (SELECT uid, path FROM notes WHERE uid IS NOT NULL ORDER BY path) GROUP BY uid HAVING count(*) > 1 ORDER BY uid`).all() as {
    uid: string;
    paths: string;
  }[];
  const sharedIds = shared.map((row) => ({ id: row.uid, paths: row.paths.split('\n') }));
  const isShared = new Set(sharedIds.map((entry) => entry.id));
  const rows = db.prepare(`SELECT n.path, l.target, l.target_id FROM links l JOIN notes n ON n.id = l.note_id WHERE l.kind = 'related' AND l.resolved_path IS NULL ORDER BY n.path, l.ord`).all() as {
    path: string;
    target: string;
    target_id: string | null;
  }[];
  const unresolved = rows.map((row) => ({
    path: row.path,
    target: row.target,
    reason: row.target_id !== null && isShared.has(row.target_id) ? `id "${row.target_id}" is shared by more than one note; give each its own id` : 'no note has this id, path or name',
  }));
  const selfRelated = db.prepare(`SELECT DISTINCT n.path FROM links l JOIN notes n ON n.id = l.note_id WHERE l.kind = 'related' AND l.resolved_path = n.path ORDER BY n.path`).pluck().all() as string[];
  return { sharedIds, unresolved, selfRelated };
}

/** One line each, as status and health print them. */
export function describeRelationProblems(problems: RelationProblems): { sharedIds: string[]; unresolved: string[]; selfRelated: string[] } {
  return {
    sharedIds: problems.sharedIds.map((entry) => `id "${entry.id}" is shared by ${entry.paths.join(' and ')}; ids must be unique — relations by it resolve to neither until one changes`),
    unresolved: problems.unresolved.map((entry) => `${entry.path}: related "${entry.target}" is unresolved (${entry.reason})`),
    selfRelated: problems.selfRelated.map((path) => `${path}: related: names the note itself; remove that entry`),
  };
}
