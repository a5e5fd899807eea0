/**
 * Notes related to a note through the graph: notes that mention the same entities (one hop), and
 * with `hops: 2` notes that mention entities related to those. Each shared entity counts
 * 1 / ln(2 + degree) — a hub mentioned by half the vault links everything, so it says little —
 * and a second hop counts half. Every result carries the chain that connects it.
 */
import type Database from 'better-sqlite3';

export interface RelatedNote {
  path: string;
  title: string;
  score: number;
  /** How it connects: `note —mentions→ entity ←mentions— result`, or through a relation. */
  chains: string[];
}

export function relatedNotes(db: Database.Database, path: string, options: { hops: 1 | 2; limit: number }): RelatedNote[] | null {
  const note = db.prepare('SELECT id, title FROM notes WHERE path = ?').get(path) as { id: number; title: string } | undefined;
  if (!note) return null;
  const degree = db.prepare('SELECT count(*) FROM mentions WHERE entity_id = ?').pluck();
  const mentionedBy = db.prepare('SELECT n.id, n.path, n.title FROM mentions m JOIN notes n ON n.id = m.note_id WHERE m.entity_id = ? AND n.id != ?');
  const own = db.prepare('SELECT e.id, e.name FROM mentions m JOIN entities e ON e.id = m.entity_id WHERE m.note_id = ?').all(note.id) as { id: number; name: string }[];
  const results = new Map<string, RelatedNote>();
  const credit = (target: { path: string; title: string }, weight: number, chain: string) => {
    let entry = results.get(target.path);
    if (!entry) results.set(target.path, (entry = { path: target.path, title: target.title, score: 0, chains: [] }));
    entry.score += weight;
    if (entry.chains.length < 3) entry.chains.push(chain);
  };
  // Hub damping, counted once per entity (a hub is mentioned by every note it credits).
  const weights = new Map<number, number>();
  const weightOf = (entity: number) => {
    let weight = weights.get(entity);
    if (weight === undefined) weights.set(entity, (weight = 1 / Math.log(2 + (degree.get(entity) as number))));
    return weight;
  };
  for (const entity of own) {
    const weight = weightOf(entity.id);
    for (const other of mentionedBy.all(entity.id, note.id) as { path: string; title: string }[]) {
      credit(other, weight, `${note.title} —mentions→ ${entity.name} ←mentions— ${other.title}`);
    }
  }
  if (options.hops === 2) {
    const neighbours = db.prepare(`SELECT r.relation, e.id, e.name FROM relations r JOIN entities e ON e.id = r.to_id WHERE r.from_id = @id
      UNION SELECT r.relation, e.id, e.name FROM relations r JOIN entities e ON e.id = r.from_id WHERE r.to_id = @id`);
    const ownIds = new Set(own.map((entity) => entity.id));
    for (const entity of own) {
      for (const next of neighbours.all({ id: entity.id }) as { relation: string; id: number; name: string }[]) {
        if (ownIds.has(next.id)) continue;
        for (const other of mentionedBy.all(next.id, note.id) as { path: string; title: string }[]) {
          credit(other, 0.5 * weightOf(entity.id) * weightOf(next.id), `${note.title} —mentions→ ${entity.name} —${next.relation}— ${next.name} ←mentions— ${other.title}`);
        }
      }
    }
  }
  return [...results.values()]
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
    .slice(0, options.limit)
    .map((entry) => ({ ...entry, score: Math.round(entry.score * 10000) / 10000 }));
}

export interface GraphStats {
  entities: Record<string, number>;
  relations: number;
  mentions: number;
  /** Entities no note mentions any more (proposed for retirement). */
  orphans: number;
  extracted_notes: number;
  failed_notes: number;
  last_extraction: string | null;
  cost_usd: number;
  tokens: { input: number; output: number };
}

export function graphStats(db: Database.Database): GraphStats {
  const byType = db.prepare('SELECT type, count(*) AS n FROM entities WHERE merged_into IS NULL GROUP BY type ORDER BY type').all() as { type: string; n: number }[];
  const sums = db
    .prepare(
      `SELECT count(*) FILTER (WHERE status = 'ok') AS ok, count(*) FILTER (WHERE status IN ('failed', 'transient')) AS failed,
    max(at) AS last, coalesce(sum(cost_usd), 0) AS cost, coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output FROM extractions`,
    )
    .get() as { ok: number; failed: number; last: string | null; cost: number; input: number; output: number };
  return {
    entities: Object.fromEntries(byType.map((row) => [row.type, row.n])),
    relations: db.prepare('SELECT count(*) FROM relations').pluck().get() as number,
    mentions: db.prepare('SELECT count(*) FROM mentions').pluck().get() as number,
    orphans: db.prepare('SELECT count(*) FROM entities e WHERE e.merged_into IS NULL AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)').pluck().get() as number,
    extracted_notes: sums.ok,
    failed_notes: sums.failed,
    last_extraction: sums.last,
    cost_usd: Math.round(sums.cost * 1e6) / 1e6,
    tokens: { input: sums.input, output: sums.output },
  };
}
