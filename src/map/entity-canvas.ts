/**
 * The knowledge graph as a JSON Canvas: the most-mentioned entities, a group per entity type
 * (people, projects, concepts…), each entity a file node on its entity note under the agent
 * folder's `Graph/` (a text node when that note is not written yet), and the relations between
 * drawn entities as labelled edges. Bounded, so a large graph stays a readable canvas.
 */
import type Database from 'better-sqlite3';
import type { Canvas, CanvasEdge, CanvasNode, GroupNode } from './canvas.js';
import { facingSides, stableId } from './vault-canvas.js';

export const ENTITY_CANVAS_DEFAULTS = {
  maxEntities: 300,
  maxEdges: 1000,
  nodeWidth: 220,
  nodeHeight: 60,
  gap: 30,
  /** Entities per row inside a type's group. */
  columns: 6,
  groupGap: 120,
  groupPadding: 40,
} as const;

export interface EntityRowForMap {
  id: number;
  name: string;
  type: string;
  /** The entity note's path when it is an indexed note, else null. */
  note: string | null;
  mentions: number;
}

export interface RelationRowForMap {
  from: number;
  to: number;
  relation: string;
  count: number;
}

export function readEntityGraph(db: Database.Database, maxEntities: number = ENTITY_CANVAS_DEFAULTS.maxEntities): { entities: EntityRowForMap[]; relations: RelationRowForMap[]; total: number } {
  const total = db.prepare('SELECT count(*) FROM entities WHERE merged_into IS NULL').pluck().get() as number;
  const entities = db
    .prepare(
      `SELECT e.id, e.name, e.type, (SELECT n.path FROM notes n WHERE n.path = e.note_path) AS note, (SELECT count(*) FROM mentions m WHERE m.entity_id = e.id) AS mentions
       FROM entities e WHERE e.merged_into IS NULL ORDER BY mentions DESC, e.name, e.id LIMIT ?`,
    )
    .all(maxEntities) as EntityRowForMap[];
  const relations = db.prepare('SELECT from_id AS "from", to_id AS "to", relation, count(*) AS count FROM relations GROUP BY from_id, to_id, relation').all() as RelationRowForMap[];
  return { entities, relations, total };
}

export function entityCanvas(entities: readonly EntityRowForMap[], relations: readonly RelationRowForMap[]): Canvas {
  const { nodeWidth: w, nodeHeight: h, gap, columns, groupGap, groupPadding: pad } = ENTITY_CANVAS_DEFAULTS;
  const byType = new Map<string, EntityRowForMap[]>();
  for (const entity of entities) byType.set(entity.type, [...(byType.get(entity.type) ?? []), entity]);
  const types = [...byType.keys()].sort();
  const groups: GroupNode[] = [];
  const nodes = new Map<number, CanvasNode>();
  let left = 0;
  types.forEach((type, t) => {
    const members = byType.get(type)!;
    const cols = Math.min(columns, members.length);
    members.forEach((entity, i) => {
      const x = left + pad + (i % cols) * (w + gap);
      const y = pad + Math.floor(i / cols) * (h + gap);
      const id = stableId('en', String(entity.id));
      nodes.set(entity.id, entity.note ? { id, type: 'file', file: entity.note, x, y, width: w, height: h } : { id, type: 'text', text: `**${entity.name}**\n${type}`, x, y, width: w, height: h });
    });
    const width = cols * (w + gap) - gap + 2 * pad;
    const height = Math.ceil(members.length / cols) * (h + gap) - gap + 2 * pad;
    groups.push({ id: `group-${type}`, type: 'group', label: `${type} · ${members.length}`, color: String((t % 6) + 1), x: left, y: 0, width, height });
    left += width + groupGap;
  });
  return { nodes: [...groups, ...nodes.values()], edges: relationEdges(relations, nodes) };
}

/** One edge per related pair of drawn entities, labelled by its commonest relation, the most-asserted pairs first. */
function relationEdges(relations: readonly RelationRowForMap[], nodes: ReadonlyMap<number, CanvasNode>): CanvasEdge[] {
  const pairs = new Map<string, { from: number; to: number; relation: string; best: number; total: number }>();
  for (const row of relations) {
    if (!nodes.has(row.from) || !nodes.has(row.to) || row.from === row.to) continue;
    const key = `${row.from}>${row.to}`;
    const seen = pairs.get(key);
    if (!seen) pairs.set(key, { from: row.from, to: row.to, relation: row.relation, best: row.count, total: row.count });
    else {
      seen.total += row.count;
      if (row.count > seen.best || (row.count === seen.best && row.relation < seen.relation)) Object.assign(seen, { relation: row.relation, best: row.count });
    }
  }
  return [...pairs.values()]
    .sort((a, b) => b.total - a.total || a.from - b.from || a.to - b.to)
    .slice(0, ENTITY_CANVAS_DEFAULTS.maxEdges)
    .map((pair) => {
      const from = nodes.get(pair.from)!;
      const to = nodes.get(pair.to)!;
      return { id: stableId('er', `${pair.from}>${pair.to}`), fromNode: from.id, toNode: to.id, ...facingSides(from, to), toEnd: 'arrow' as const, label: pair.relation };
    });
}
