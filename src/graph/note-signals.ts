/**
 * Related-note signals that need no model, read from the index's own tables: shared tags,
 * explicit `related:` entries, and closeness in the link graph. Each returns the other notes it
 * finds, best first, each with a one-line reason; combining them is the related lane's job.
 */
import type Database from 'better-sqlite3';

export interface SignalHit {
  path: string;
  score: number;
  /** Why this signal found the note, in a few words. */
  why: string;
}

/** How strongly a link graph neighbour counts at each hop (1, 2, 3): closer is stronger. */
export const HOP_DECAY = 0.5;
/** Notes scored by tag overlap: the ones sharing the most tag weight. */
const TAG_CANDIDATES = 500;
/** Notes expanded per hop: a hub must not make hop 3 the whole vault. */
const FRONTIER = 200;

/**
 * Tag co-occurrence: weighted Jaccard over the two notes' tags, each tag weighted by
 * ln(1 + N / df) — a tag on half the vault says less than one on three notes.
 */
export function tagNeighbours(db: Database.Database, path: string): SignalHit[] {
  const own = db.prepare('SELECT t.tag FROM tags t JOIN notes n ON n.id = t.note_id WHERE n.path = ?').pluck().all(path) as string[];
  if (own.length === 0) return [];
  const total = db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  // Every tag's note count in one pass over the tag index: a candidate's own tags need it too.
  const df = new Map(db.prepare('SELECT tag, count(*) FROM tags GROUP BY tag').raw().all() as [string, number][]);
  const weight = (tag: string) => Math.log(1 + total / Math.max(1, df.get(tag) ?? 1));
  const ownSet = new Set(own);
  // The notes sharing the most tag weight, at most TAG_CANDIDATES: a tag on a quarter of the
  // vault must not make every call score thousands of notes (full Jaccard for these only).
  const rows = db
    .prepare(
      `WITH candidates AS (SELECT t.note_id, sum(w.value) AS shared FROM json_each(@weights) w CROSS JOIN tags t ON t.tag = w.key
        GROUP BY t.note_id ORDER BY shared DESC LIMIT @cap)
      SELECT n.path, group_concat(t.tag, char(10)) AS tags FROM candidates c JOIN tags t ON t.note_id = c.note_id JOIN notes n ON n.id = c.note_id
      WHERE n.path != @path GROUP BY c.note_id`,
    )
    .all({ path, weights: JSON.stringify(Object.fromEntries(own.map((tag) => [tag, weight(tag)]))), cap: TAG_CANDIDATES }) as { path: string; tags: string }[];
  const ownWeight = own.reduce((sum, tag) => sum + weight(tag), 0);
  return rows
    .map((row) => {
      const tags = row.tags.split('\n');
      const shared = tags.filter((tag) => ownSet.has(tag));
      const sharedWeight = shared.reduce((sum, tag) => sum + weight(tag), 0);
      const union = ownWeight + tags.filter((tag) => !ownSet.has(tag)).reduce((sum, tag) => sum + weight(tag), 0);
      return {
        path: row.path,
        score: sharedWeight / union,
        why: `tags ${shared
          .sort()
          .map((tag) => `#${tag}`)
          .join(' ')}`,
      };
    })
    .sort(byScore);
}

/** The note's own `related:` entries and the notes whose `related:` names it, each with its type. */
export function explicitRelations(db: Database.Database, path: string): SignalHit[] {
  const outgoing = db
    .prepare(`SELECT l.resolved_path AS path, l.rel_type AS type FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = ? AND l.kind = 'related' AND l.resolved_kind = 'note' AND l.resolved_path != n.path`)
    .all(path) as { path: string; type: string | null }[];
  const incoming = db.prepare(`SELECT n.path, l.rel_type AS type FROM links l JOIN notes n ON n.id = l.note_id WHERE l.resolved_path = ? AND l.kind = 'related' AND n.path != ?`).all(path, path) as { path: string; type: string | null }[];
  const hits = new Map<string, SignalHit>();
  // Named by the note itself counts fully; named only by the other note, a little less.
  for (const [rows, score, phrase] of [
    [outgoing, 1, 'related:'],
    [incoming, 0.8, 'related: from it'],
  ] as const) {
    for (const row of rows) {
      const why = `${phrase}${row.type ? ` (${row.type})` : ''}`;
      const seen = hits.get(row.path);
      if (seen) seen.score = Math.max(seen.score, score) + 0.2;
      else hits.set(row.path, { path: row.path, score, why });
    }
  }
  return [...hits.values()].sort(byScore);
}

/**
 * Closeness in the link graph (every resolved note-to-note link, `related:` entries included,
 * in either direction), 1 to `hops` hops: a direct neighbour scores 1; a note one hop further
 * the sum over the notes that reach it of their score × HOP_DECAY / ln(2 + their degree), so
 * a hub that links everything passes on little.
 */
export function linkNeighbours(db: Database.Database, path: string, hops: 1 | 2 | 3 = 3): SignalHit[] {
  const out = db.prepare(`SELECT DISTINCT l.resolved_path FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = ? AND l.resolved_kind = 'note' AND l.resolved_path != n.path`).pluck();
  const into = db.prepare(`SELECT DISTINCT n.path FROM links l JOIN notes n ON n.id = l.note_id WHERE l.resolved_path = ? AND n.path != ?`).pluck();
  const neighbours = (node: string): string[] => [...new Set([...(out.all(node) as string[]), ...(into.all(node, node) as string[])])];
  const found = new Map<string, SignalHit>();
  const visited = new Set([path]);
  let frontier = new Map<string, number>([[path, 1]]);
  for (let hop = 1; hop <= hops && frontier.size > 0; hop++) {
    const next = new Map<string, { score: number; via: string; viaScore: number }>();
    for (const [node, score] of frontier) {
      const around = neighbours(node);
      const passed = hop === 1 ? 1 : (score * HOP_DECAY) / Math.log(2 + around.length);
      for (const other of around) {
        if (visited.has(other)) continue;
        const entry = next.get(other);
        if (!entry) next.set(other, { score: passed, via: node, viaScore: passed });
        else {
          entry.score += passed;
          if (passed > entry.viaScore) Object.assign(entry, { via: node, viaScore: passed });
        }
      }
    }
    for (const [other, entry] of next) {
      visited.add(other);
      found.set(other, { path: other, score: entry.score, why: hop === 1 ? 'linked directly' : `${hop} hops, via ${entry.via}` });
    }
    frontier = new Map(
      [...next]
        .sort((a, b) => b[1].score - a[1].score)
        .slice(0, FRONTIER)
        .map(([other, entry]) => [other, entry.score]),
    );
  }
  return [...found.values()].sort(byScore);
}

function byScore(a: SignalHit, b: SignalHit): number {
  return b.score - a.score || (a.path < b.path ? -1 : 1);
}
