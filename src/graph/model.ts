/**
 * The graph's vocabulary and the shape every extractor returns, with the validation that runs
 * before anything is written. Note text is untrusted input: an extraction can only ever become
 * entity notes under the graph folder, and only after it passes these checks.
 */

export const ENTITY_TYPES = ['person', 'organization', 'domain', 'topic', 'project', 'source'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const RELATION_TYPES = ['works_at', 'works_on', 'part_of', 'related_to', 'uses', 'authored', 'about', 'located_in', 'knows'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** The folder under `<agent root>/Graph/` for each type. */
export const TYPE_FOLDERS: Record<EntityType, string> = {
  person: 'People',
  organization: 'Organizations',
  domain: 'Domains',
  topic: 'Topics',
  project: 'Projects',
  source: 'Sources',
};

export interface ExtractedEntity {
  name: string;
  type: EntityType;
  aliases: string[];
  /** A short quote from the note that shows the mention. */
  evidence: string;
}

export interface ExtractedRelation {
  from: string;
  to: string;
  relation: RelationType;
  evidence: string;
}

export interface ExtractionUsage {
  inputTokens: number;
  outputTokens: number;
  /** Estimated from the model's published prices; 0 for local extractors. */
  costUsd: number;
}

export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
  usage: ExtractionUsage;
}

export interface ExtractionInput {
  path: string;
  title: string;
  text: string;
  frontmatter: Record<string, unknown> | null;
  tags: string[];
  /** Wikilink targets of the note that resolve to notes (vault-relative paths). */
  links: string[];
  /** Existing entities near this note, so the extractor reuses their names. */
  known: { name: string; type: EntityType; aliases: string[] }[];
}

export interface Extractor {
  readonly backend: 'anthropic' | 'claude-cli' | 'structural' | 'none';
  readonly model: string;
  /** Changes when the prompt or the rules change: notes are then extracted again. */
  readonly promptVersion: string;
  extract(input: ExtractionInput): Promise<Extraction>;
}

export const LIMITS = {
  maxNameChars: 80,
  maxEvidenceChars: 200,
  maxEntitiesPerNote: 40,
  maxRelationsPerNote: 60,
} as const;

/**
 * Checks and cleans a raw extraction (from an LLM or anywhere else): known types and relations
 * only, names short and not paths or URLs, relations between extracted entities. Invalid items
 * are dropped and counted, never written.
 */
export function validateExtraction(raw: unknown): { extraction: Omit<Extraction, 'usage'>; dropped: number } {
  const value = (raw ?? {}) as { entities?: unknown; relations?: unknown };
  let dropped = 0;
  const entities: ExtractedEntity[] = [];
  const seen = new Set<string>();
  for (const item of Array.isArray(value.entities) ? value.entities : []) {
    const entity = cleanEntity(item);
    if (!entity || seen.has(normalizeName(entity.name)) || entities.length >= LIMITS.maxEntitiesPerNote) {
      dropped++;
      continue;
    }
    seen.add(normalizeName(entity.name));
    entities.push(entity);
  }
  const relations: ExtractedRelation[] = [];
  for (const item of Array.isArray(value.relations) ? value.relations : []) {
    const relation = cleanRelation(item, seen);
    if (!relation || relations.length >= LIMITS.maxRelationsPerNote) {
      dropped++;
      continue;
    }
    relations.push(relation);
  }
  return { extraction: { entities, relations }, dropped };
}

/** Identity of a name: case, whitespace and diacritics folded. `José  Núñez` = `jose nunez`. */
export function normalizeName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

function cleanName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (name === '' || Array.from(name).length > LIMITS.maxNameChars) return null;
  // A name is never a path, a URL, a wikilink or markup: those are how injected text would try to
  // steer a write somewhere else. A colon is kept only before a space, as in a title and its
  // subtitle (`Dune: Part Two`, a paper's title); its file name has `-` there (`fileName`).
  if (/[/\\<>|?*#^[\]{}"`]|:(?!\s)|\.\.|^\.|\.md$/i.test(name) || /^[a-z][a-z0-9+.-]*:(?!\s)/i.test(name)) return null;
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(name)) return null;
  return name;
}

function cleanEvidence(value: unknown): string {
  if (typeof value !== 'string') return '';
  const text = value.replace(/\s+/g, ' ').trim();
  return Array.from(text).length > LIMITS.maxEvidenceChars
    ? `${Array.from(text)
        .slice(0, LIMITS.maxEvidenceChars - 1)
        .join('')}…`
    : text;
}

function cleanEntity(item: unknown): ExtractedEntity | null {
  if (typeof item !== 'object' || item === null) return null;
  const raw = item as Record<string, unknown>;
  const name = cleanName(raw.name);
  const type = typeof raw.type === 'string' ? raw.type.toLowerCase() : '';
  if (!name || !(ENTITY_TYPES as readonly string[]).includes(type)) return null;
  const aliases = (Array.isArray(raw.aliases) ? raw.aliases : []).map(cleanName).filter((alias): alias is string => alias !== null && normalizeName(alias) !== normalizeName(name));
  return { name, type: type as EntityType, aliases: [...new Set(aliases)].slice(0, 10), evidence: cleanEvidence(raw.evidence) };
}

function cleanRelation(item: unknown, entities: ReadonlySet<string>): ExtractedRelation | null {
  if (typeof item !== 'object' || item === null) return null;
  const raw = item as Record<string, unknown>;
  const from = cleanName(raw.from);
  const to = cleanName(raw.to);
  const relation = typeof raw.relation === 'string' ? raw.relation.toLowerCase() : '';
  if (!from || !to || normalizeName(from) === normalizeName(to)) return null;
  if (!(RELATION_TYPES as readonly string[]).includes(relation)) return null;
  if (!entities.has(normalizeName(from)) || !entities.has(normalizeName(to))) return null;
  return { from, to, relation: relation as RelationType, evidence: cleanEvidence(raw.evidence) };
}
