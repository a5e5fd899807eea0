/**
 * The extraction eval: a hand-labelled gold set (the entities each note asserts, with types, and
 * the relations between them) against what an extractor returns for the same notes. Scored per
 * note and summed (micro-averaged): entities by name and type, per type, by name alone; relations
 * by label and direction, and by endpoints alone. Names match through either side's aliases,
 * with case, spacing and diacritics folded. Pure except `loadGraphGold` (reads the file).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { EngramError } from '../errors.js';
import { ENTITY_TYPES, normalizeName, RELATION_TYPES, type EntityType, type ExtractedEntity, type ExtractedRelation, type RelationType } from '../graph/index.js';

export interface GoldEntity {
  name: string;
  type: EntityType;
  aliases: string[];
}

export interface GoldRelation {
  from: string;
  relation: RelationType;
  to: string;
}

export interface GoldNote {
  path: string;
  entities: GoldEntity[];
  relations: GoldRelation[];
}

export interface GraphGold {
  /** The vault the paths are relative to, relative to the gold file; `--vault` wins. */
  vault: string | null;
  notes: GoldNote[];
}

/** Relations that read the same both ways. */
const SYMMETRIC: ReadonlySet<RelationType> = new Set(['knows', 'related_to']);

export function loadGraphGold(file: string): GraphGold {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EngramError('INVALID_INPUT', `cannot read the graph gold file ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  return validateGraphGold(raw, file);
}

/** Checks the gold file's shape; every problem names the note and the item. */
export function validateGraphGold(raw: unknown, file = 'the gold file'): GraphGold {
  const bad = (what: string) => new EngramError('INVALID_INPUT', `${file}: ${what}`);
  const doc = raw as { vault?: unknown; notes?: unknown } | null;
  if (typeof doc !== 'object' || doc === null || !Array.isArray(doc.notes) || doc.notes.length === 0) throw bad('expected a mapping with a non-empty `notes:` list');
  const seen = new Set<string>();
  const notes = doc.notes.map((item: unknown, i: number): GoldNote => {
    const note = item as { path?: unknown; entities?: unknown; relations?: unknown };
    if (typeof note?.path !== 'string' || note.path === '') throw bad(`notes[${i}] has no path`);
    if (seen.has(note.path)) throw bad(`${note.path} is listed twice`);
    seen.add(note.path);
    const entities = (Array.isArray(note.entities) ? note.entities : []).map((entity: unknown, j: number) => goldEntity(entity, `${note.path} entities[${j}]`, bad));
    const names = new Set(entities.flatMap((entity) => [entity.name, ...entity.aliases].map(normalizeName)));
    const relations = (Array.isArray(note.relations) ? note.relations : []).map((relation: unknown, j: number) => goldRelation(relation, names, `${note.path} relations[${j}]`, bad));
    return { path: note.path, entities, relations };
  });
  return { vault: typeof doc.vault === 'string' ? doc.vault : null, notes };
}

function goldEntity(raw: unknown, where: string, bad: (what: string) => Error): GoldEntity {
  const entity = raw as { name?: unknown; type?: unknown; aliases?: unknown };
  if (typeof entity?.name !== 'string' || entity.name.trim() === '') throw bad(`${where} has no name`);
  if (typeof entity.type !== 'string' || !(ENTITY_TYPES as readonly string[]).includes(entity.type)) throw bad(`${where} (${entity.name}) has type ${String(entity.type)}, not one of ${ENTITY_TYPES.join(', ')}`);
  const aliases = Array.isArray(entity.aliases) ? entity.aliases.filter((alias): alias is string => typeof alias === 'string') : [];
  return { name: entity.name, type: entity.type as EntityType, aliases };
}

function goldRelation(raw: unknown, names: ReadonlySet<string>, where: string, bad: (what: string) => Error): GoldRelation {
  const relation = raw as { from?: unknown; relation?: unknown; to?: unknown };
  if (typeof relation?.from !== 'string' || typeof relation.to !== 'string') throw bad(`${where} needs from and to`);
  if (typeof relation.relation !== 'string' || !(RELATION_TYPES as readonly string[]).includes(relation.relation)) throw bad(`${where} has relation ${String(relation.relation)}, not one of ${RELATION_TYPES.join(', ')}`);
  for (const end of [relation.from, relation.to]) if (!names.has(normalizeName(end))) throw bad(`${where} names "${end}", which is not among the note's entities`);
  return { from: relation.from, relation: relation.relation as RelationType, to: relation.to };
}

/** Matched, gold and predicted counts, and the scores they give. */
export interface Prf {
  gold: number;
  predicted: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface NoteCounts {
  entities: Counts;
  byType: Record<EntityType, Counts>;
  names: Counts;
  relations: Counts;
  relationsAnyLabel: Counts;
}

type Counts = Pick<Prf, 'gold' | 'predicted' | 'matched'>;

export interface GraphScore {
  entities: Prf;
  byType: Record<EntityType, Prf>;
  /** Entities by name alone, whatever type either side gave. */
  names: Prf;
  relations: Prf;
  /** Relations by their two endpoints alone, either direction, whatever the label. */
  relationsAnyLabel: Prf;
}

/** One note: what the extractor returned against the gold. */
export function countNote(gold: GoldNote, predicted: { entities: readonly ExtractedEntity[]; relations: readonly ExtractedRelation[] }): NoteCounts {
  const keysOf = (entity: { name: string; aliases: readonly string[] }) => new Set([entity.name, ...entity.aliases].map(normalizeName));
  const goldKeys = gold.entities.map(keysOf);
  const same = (p: ExtractedEntity, g: number) => goldKeys[g]!.has(normalizeName(p.name)) || keysOf(p).has(normalizeName(gold.entities[g]!.name));
  const match = ({ typed }: { typed: boolean }) => {
    const taken = new Set<number>();
    const pairs: [ExtractedEntity, GoldEntity][] = [];
    for (const p of predicted.entities) {
      const g = gold.entities.findIndex((entity, i) => !taken.has(i) && same(p, i) && (!typed || entity.type === p.type));
      if (g === -1) continue;
      taken.add(g);
      pairs.push([p, gold.entities[g]!]);
    }
    return pairs;
  };
  const typed = match({ typed: true });
  const byType = Object.fromEntries(
    ENTITY_TYPES.map((type) => [type, { gold: gold.entities.filter((e) => e.type === type).length, predicted: predicted.entities.filter((e) => e.type === type).length, matched: typed.filter(([p]) => p.type === type).length }]),
  ) as Record<EntityType, Counts>;
  // A relation's ends are read as the gold entity they name (through aliases), else as written.
  const canonical = (name: string) => {
    const key = normalizeName(name);
    const g = goldKeys.findIndex((keys) => keys.has(key));
    return g === -1 ? key : normalizeName(gold.entities[g]!.name);
  };
  const goldRelations = gold.relations.map((r) => ({ from: canonical(r.from), to: canonical(r.to), relation: r.relation }));
  const predictedRelations = predicted.relations.map((r) => ({ from: canonical(r.from), to: canonical(r.to), relation: r.relation }));
  const labelled = matchRelations(goldRelations, predictedRelations, (g, p) => g.relation === p.relation && ((g.from === p.from && g.to === p.to) || (SYMMETRIC.has(g.relation) && g.from === p.to && g.to === p.from)));
  const anyLabel = matchRelations(goldRelations, predictedRelations, (g, p) => (g.from === p.from && g.to === p.to) || (g.from === p.to && g.to === p.from));
  const total = { gold: gold.entities.length, predicted: predicted.entities.length };
  return {
    entities: { ...total, matched: typed.length },
    byType,
    names: { ...total, matched: match({ typed: false }).length },
    relations: { gold: goldRelations.length, predicted: predictedRelations.length, matched: labelled },
    relationsAnyLabel: { gold: goldRelations.length, predicted: predictedRelations.length, matched: anyLabel },
  };
}

type Edge = { from: string; to: string; relation: RelationType };

function matchRelations(gold: Edge[], predicted: Edge[], same: (g: Edge, p: Edge) => boolean): number {
  const taken = new Set<number>();
  for (const p of predicted) {
    const g = gold.findIndex((edge, i) => !taken.has(i) && same(edge, p));
    if (g !== -1) taken.add(g);
  }
  return taken.size;
}

/** Sums the notes' counts and scores them. */
export function scoreGraph(notes: readonly NoteCounts[]): GraphScore {
  const sum = (pick: (note: NoteCounts) => Counts) => prf(notes.map(pick).reduce((a, b) => ({ gold: a.gold + b.gold, predicted: a.predicted + b.predicted, matched: a.matched + b.matched }), { gold: 0, predicted: 0, matched: 0 }));
  return {
    entities: sum((note) => note.entities),
    byType: Object.fromEntries(ENTITY_TYPES.map((type) => [type, sum((note) => note.byType[type])])) as Record<EntityType, Prf>,
    names: sum((note) => note.names),
    relations: sum((note) => note.relations),
    relationsAnyLabel: sum((note) => note.relationsAnyLabel),
  };
}

export function prf(counts: Counts): Prf {
  const precision = counts.predicted === 0 ? 0 : counts.matched / counts.predicted;
  const recall = counts.gold === 0 ? 0 : counts.matched / counts.gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...counts, precision: round(precision), recall: round(recall), f1: round(f1) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
