/**
 * Health checks: read-only questions about the index, the vectors and the graph cache, each
 * answered with a count and a few examples (never a full list). A check that throws is reported
 * as failed; the others still run.
 */
import type Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeRelationProblems, relationProblems } from '../index/index.js';
import { findSyncConflicts, hasMergeConflictMarkers, partialOriginalOf, readNoteText } from '../vault/index.js';

export interface HealthCheck {
  name: string;
  /** Findings; 0 is healthy. */
  count: number;
  ok: boolean;
  /** A few examples or a one-line explanation. */
  examples: string[];
  error?: string;
}

export interface HealthOptions {
  root: string;
  agentRoot: string;
  model: string;
  /** Smart Connections' warning when it embeds with another model than Engram's, else null. */
  modelMismatch: string | null;
  /** Why queries and notes cannot be embedded here, or null. */
  embedderUnavailable: string | null;
  examples?: number;
}

const ATTACHMENT = /\.(png|jpe?g|gif|svg|webp|bmp|pdf|mp[34]|m4a|wav|ogg|webm|mov|zip|canvas|excalidraw|base)$/i;

type CheckResult = Omit<HealthCheck, 'name' | 'ok'>;

/** The checks, in report order: each reads the state (and the vault) and names up to `n` examples. */
const CHECKS: [string, (db: Database.Database, options: HealthOptions, n: number) => CheckResult][] = [
  [
    'stale vectors',
    (db, options, n) => {
      const rows = db.prepare(`SELECT n.path FROM vectors v JOIN notes n ON n.id = v.note_id WHERE v.model = ? AND v.block_key = '' AND v.content_hash != n.hash`).pluck().all(options.model) as string[];
      return { count: rows.length, examples: rows.slice(0, n) };
    },
  ],
  [
    'notes without vectors',
    (db, options) => {
      const missing = db.prepare(`SELECT count(*) FROM notes n WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.note_id = n.id AND v.model = ? AND v.block_key = '' AND v.content_hash = n.hash)`).pluck().get(options.model) as number;
      const why = options.embedderUnavailable ? ': they cannot be embedded until the model is installed (`engram model pull` or `engram model install PATH`)' : '';
      return { count: missing, examples: missing > 0 ? [`${missing} notes have no current ${options.model} vector${why}`] : [] };
    },
  ],
  [
    'model agreement',
    (db, options) => ({
      count: options.modelMismatch ? 1 : 0,
      examples: options.modelMismatch ? [options.modelMismatch] : [],
    }),
  ],
  ['embedder', (_db, options) => ({ count: options.embedderUnavailable ? 1 : 0, examples: options.embedderUnavailable ? [options.embedderUnavailable] : [] })],
  [
    'broken links',
    (db, options, n) => {
      // related: entries have their own check, which says why each is unresolved.
      const rows = db.prepare(`SELECT n.path, l.target FROM links l JOIN notes n ON n.id = l.note_id WHERE l.resolved_path IS NULL AND l.target != '' AND l.kind != 'related' ORDER BY n.path, l.ord`).all() as {
        path: string;
        target: string;
      }[];
      const notes = rows.filter((row) => !ATTACHMENT.test(row.target));
      return { count: notes.length, examples: notes.slice(0, n).map((row) => `${row.path} → [[${row.target}]]`) };
    },
  ],
  [
    'duplicate ids',
    (db, _options, n) => {
      const lines = describeRelationProblems(relationProblems(db)).sharedIds;
      return { count: lines.length, examples: lines.slice(0, n) };
    },
  ],
  [
    'unresolved relations',
    (db, _options, n) => {
      const lines = describeRelationProblems(relationProblems(db));
      const all = [...lines.unresolved, ...lines.selfRelated];
      return { count: all.length, examples: all.slice(0, n) };
    },
  ],
  [
    'sync conflicts',
    (db, _options, n) => {
      // Copies a sync tool left when two devices changed one note: the human reconciles them.
      const rows = db.prepare('SELECT path, uid FROM notes ORDER BY path').all() as { path: string; uid: string | null }[];
      const ids = new Map(rows.map((row) => [row.path, row.uid]));
      const copies = findSyncConflicts(
        rows.map((row) => row.path),
        (path) => ids.get(path) ?? null,
      );
      return {
        count: copies.length,
        examples: copies
          .slice(0, n)
          .map((copy) =>
            copy.kind === 'temporary copy'
              ? `${copy.path} is an editor's temporary file beside ${copy.original}: delete it once ${copy.original} is closed`
              : `${copy.path} is a ${copy.kind === 'syncthing' ? 'Syncthing conflict copy' : copy.kind} of ${copy.original}: merge what differs into the original, then delete the copy`,
          ),
      };
    },
  ],
  [
    'partially synced files',
    (_db, options, n) => {
      // Dot-names included: iCloud's placeholders and Syncthing's temporary files start with a dot.
      const found = partialFiles(options.root);
      return { count: found.length, examples: found.slice(0, n).map(describePartial) };
    },
  ],
  [
    'merge conflicts',
    (db, options, n) => {
      // Read from disk (the index keeps no note text); most notes are ruled out by one substring test.
      const paths = db.prepare('SELECT path FROM notes ORDER BY path').pluck().all() as string[];
      const conflicted = paths.filter((path) => {
        const read = readNoteText(join(options.root, path));
        return read.ok && hasMergeConflictMarkers(read.text);
      });
      return {
        count: conflicted.length,
        examples: conflicted.slice(0, n).map((path) => `${path} holds unresolved git merge conflict markers (<<<<<<< … >>>>>>>): keep the right side and delete the markers; until then agents cannot write it and the graph skips it`),
      };
    },
  ],
  [
    'duplicate titles',
    (db, options, n) => {
      // Entity notes share their source notes' names by design; the human's notes are what matter.
      const rows = db.prepare(`SELECT title, count(*) AS c FROM notes WHERE title != '' AND substr(path, 1, length(@agent)) != @agent GROUP BY lower(title) HAVING c > 1 ORDER BY c DESC, title`).all({ agent: `${options.agentRoot}/` }) as {
        title: string;
        c: number;
      }[];
      return { count: rows.length, examples: rows.slice(0, n).map((row) => `"${row.title}" × ${row.c}`) };
    },
  ],
  [
    'notes missing on disk',
    (db, options, n) => {
      const paths = db.prepare('SELECT path FROM notes ORDER BY path').pluck().all() as string[];
      const missing = paths.filter((path) => !existsSync(join(options.root, path)));
      return { count: missing.length, examples: missing.slice(0, n) };
    },
  ],
  [
    'graph cache',
    (db, options, n) => {
      // Every live entity must have its note indexed; an entity note with no entity is a leftover.
      const noNote = db.prepare(`SELECT e.note_path FROM entities e WHERE e.merged_into IS NULL AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.path = e.note_path)`).pluck().all() as string[];
      const graph = `${options.agentRoot}/Graph/`;
      const noEntity = db.prepare(`SELECT n.path FROM notes n WHERE substr(n.path, 1, length(?)) = ? AND NOT EXISTS (SELECT 1 FROM entities e WHERE e.note_path = n.path)`).pluck().all(graph, graph) as string[];
      const examples = [...noNote.slice(0, n).map((path) => `entity without its note: ${path}`), ...noEntity.slice(0, n).map((path) => `entity note not in the cache: ${path}`)].slice(0, n);
      return { count: noNote.length + noEntity.length, examples };
    },
  ],
  [
    'orphan entities',
    (db, options, n) => {
      const rows = db
        .prepare(
          `SELECT e.name FROM entities e WHERE e.merged_into IS NULL AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)
      AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.from_id = e.id OR r.to_id = e.id) ORDER BY e.name`,
        )
        .pluck()
        .all() as string[];
      return { count: rows.length, examples: rows.slice(0, n) };
    },
  ],
];

/** The vault's files whose names say a sync is writing them or has not downloaded them (dot-folders and symlinks left out). */
function partialFiles(root: string, folder = ''): { path: string; original: string; kind: string }[] {
  const out: { path: string; original: string; kind: string }[] = [];
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) out.push(...partialFiles(root, path));
      continue;
    }
    const partial = entry.isFile() ? partialOriginalOf(path) : null;
    if (partial) out.push({ path, ...partial });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function describePartial(file: { path: string; original: string; kind: string }): string {
  if (file.kind === 'icloud placeholder') return `${file.path} is an iCloud placeholder: ${file.original} is not downloaded on this device, so it is not indexed (open it, or \`brctl download\` it)`;
  return `${file.path} is a ${file.kind} file of ${file.original}: a sync still writing it, or one that was interrupted — delete it once ${file.original} is complete`;
}

export function runHealthChecks(db: Database.Database, options: HealthOptions): HealthCheck[] {
  const n = options.examples ?? 5;
  return CHECKS.map(([name, check]) => {
    try {
      const result = check(db, options, n);
      // Coverage and orphans are information, not faults — unless no vector can be made at all.
      const informational = (name === 'notes without vectors' && options.embedderUnavailable === null) || name === 'orphan entities';
      return { name, count: result.count, examples: result.examples, ok: informational || result.count === 0 };
    } catch (error) {
      return { name, count: 0, ok: false, examples: [], error: error instanceof Error ? error.message : String(error) };
    }
  });
}
