/**
 * The model-free note graph a map is laid out from when notes have no vectors: the related
 * lane's signals that can be read for the whole vault at once — `related:` entries and links
 * (what the human stated, weighted as the related lane weighs them: 2 and 1.5) and shared tags
 * (0.25 × the tag's idf share, so a tag on three notes binds them more than one on three
 * hundred). The lane's per-note signals (terms, entities, multi-hop links) cost one query per
 * note; the direct ones here cost two table scans, and UMAP's own neighbourhood expansion does
 * what the lane's hops do. Pure over rows read by `readSignals`.
 */
import type Database from 'better-sqlite3';
import type { Neighbour } from './layout.js';

export interface SignalRows {
  /** Resolved note-to-note links: source path, target path, kind (`related` for a related: entry). */
  links: { from: string; to: string; kind: string }[];
  tags: { path: string; tag: string }[];
}

/** The related lane's weights for these signals (`RELATED_DEFAULTS` in the session layer, a peer this module may not import). */
const RELATED_WEIGHTS = { related: 2, links: 1.5, tags: 0.25 } as const;

/** Notes a tag links pairwise at most; a larger tag links each note to its next few in path order (a ring), not to all. */
const PAIRWISE_TAG = 40;
const RING = 4;

export function readSignals(db: Database.Database): SignalRows {
  const links = db.prepare(`SELECT n.path AS "from", l.resolved_path AS "to", l.kind AS kind FROM links l JOIN notes n ON n.id = l.note_id WHERE l.resolved_kind = 'note' AND l.resolved_path != n.path`).all() as SignalRows['links'];
  const tags = db.prepare('SELECT n.path AS path, t.tag AS tag FROM tags t JOIN notes n ON n.id = t.note_id ORDER BY t.tag, n.path').all() as SignalRows['tags'];
  return { links, tags };
}

/**
 * Each note's neighbours (index into `paths`), strongest first, with distance 1 / (1 + weight),
 * at most `k` each. Notes absent from `paths` are ignored.
 */
export function signalGraph(paths: readonly string[], rows: SignalRows, k: number): Neighbour[][] {
  const at = new Map(paths.map((path, i) => [path, i]));
  const weights: Map<number, number>[] = paths.map(() => new Map());
  const add = (a: number | undefined, b: number | undefined, weight: number) => {
    if (a === undefined || b === undefined || a === b) return;
    weights[a]!.set(b, (weights[a]!.get(b) ?? 0) + weight);
    weights[b]!.set(a, (weights[b]!.get(a) ?? 0) + weight);
  };
  for (const link of rows.links) add(at.get(link.from), at.get(link.to), link.kind === 'related' ? RELATED_WEIGHTS.related : RELATED_WEIGHTS.links);
  const byTag = new Map<string, number[]>();
  for (const row of rows.tags) {
    const i = at.get(row.path);
    if (i === undefined) continue;
    const members = byTag.get(row.tag) ?? [];
    if (members.at(-1) !== i) members.push(i);
    byTag.set(row.tag, members);
  }
  for (const members of byTag.values()) {
    if (members.length < 2) continue;
    const weight = RELATED_WEIGHTS.tags * (Math.log(1 + paths.length / members.length) / Math.log(1 + paths.length / 2));
    if (members.length <= PAIRWISE_TAG) {
      for (let a = 0; a < members.length; a++) for (let b = a + 1; b < members.length; b++) add(members[a], members[b], weight);
    } else {
      for (let a = 0; a < members.length; a++) for (let step = 1; step <= RING; step++) add(members[a], members[(a + step) % members.length], weight);
    }
  }
  return weights.map((row) =>
    [...row]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k)
      .map(([index, weight]) => ({ index, distance: 1 / (1 + weight) })),
  );
}
