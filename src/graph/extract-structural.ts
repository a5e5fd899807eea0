/**
 * The no-LLM extractor: entities from what the vault already says structurally — links to notes
 * that are entities themselves (their frontmatter `type`), frontmatter keys such as `people`,
 * `author`, `org`, `project`, `source`, and tags as topics. Deterministic and free.
 */
import { noteName } from '../vault/index.js';
import { normalizeName, type EntityType, type Extraction, type ExtractionInput, type Extractor, type ExtractedEntity, type ExtractedRelation } from './model.js';

/** Frontmatter keys and the entity type their values name. */
const KEYS: Record<string, EntityType> = {
  people: 'person',
  person: 'person',
  author: 'person',
  authors: 'person',
  attendees: 'person',
  owner: 'person',
  presenter: 'person',
  org: 'organization',
  organization: 'organization',
  company: 'organization',
  vendor: 'organization',
  project: 'project',
  projects: 'project',
  source: 'source',
  sources: 'source',
  domain: 'domain',
  topic: 'topic',
  topics: 'topic',
};

/** Frontmatter `type` values that make a note an entity. */
const NOTE_TYPES: Record<string, EntityType> = {
  person: 'person',
  people: 'person',
  organization: 'organization',
  org: 'organization',
  company: 'organization',
  project: 'project',
  source: 'source',
  book: 'source',
  paper: 'source',
  domain: 'domain',
  topic: 'topic',
  concept: 'topic',
};

/** Tag namespaces that describe a note's state, not a topic. */
const NOT_TOPICS = new Set(['status', 'type', 'claude', 'session', 'private', 'todo', 'graph']);

/** Tag namespaces that name an entity of a type: `#project/atlas` is the project Atlas. */
const TAG_TYPES: Record<string, EntityType> = {
  project: 'project',
  projects: 'project',
  area: 'domain',
  domain: 'domain',
  person: 'person',
  people: 'person',
  org: 'organization',
  company: 'organization',
  source: 'source',
  topic: 'topic',
};

export interface LinkedNote {
  path: string;
  title: string;
  type: string | null;
  aliases: string[];
}

export function createStructuralExtractor(lookup: (path: string) => LinkedNote | null): Extractor {
  return {
    backend: 'structural',
    model: 'structural',
    promptVersion: 'structural-1',
    async extract(input: ExtractionInput): Promise<Extraction> {
      const entities = new Map<string, ExtractedEntity>();
      const add = (name: string, type: EntityType, evidence: string, aliases: string[] = []) => {
        const clean = name
          .replace(/^\[\[|\]\]$/g, '')
          .split('|')[0]!
          .split('#')[0]!
          .trim();
        if (clean === '' || clean.length > 80 || /[/\\]/.test(clean)) return;
        const key = normalizeName(clean);
        if (!entities.has(key)) entities.set(key, { name: clean, type, aliases, evidence });
      };
      // The note itself, when it is an entity: its links become relations.
      const selfType = NOTE_TYPES[String(input.frontmatter?.type ?? input.frontmatter?.kind ?? '').toLowerCase()];
      if (selfType) add(input.title, selfType, `the note ${input.title}`, flatten(input.frontmatter?.aliases ?? input.frontmatter?.alias));
      for (const [key, value] of Object.entries(input.frontmatter ?? {})) {
        const type = KEYS[key.toLowerCase()];
        if (!type) continue;
        for (const item of flatten(value)) add(item, type, `${key}: ${item}`);
      }
      for (const path of input.links) {
        const linked = lookup(path);
        const type = linked ? NOTE_TYPES[String(linked.type ?? '').toLowerCase()] : undefined;
        if (linked && type) add(linked.title, type, evidenceLine(input.text, linked.title, path), linked.aliases);
      }
      for (const tag of input.tags) {
        const segments = tag.split('/');
        if (NOT_TOPICS.has(segments[0]!)) continue;
        const type = segments.length > 1 ? (TAG_TYPES[segments[0]!] ?? 'topic') : 'topic';
        add(segments[segments.length - 1]!.replace(/[-_]/g, ' '), type, `#${tag}`);
      }
      const list = [...entities.values()];
      const relations: ExtractedRelation[] = [];
      if (selfType) {
        for (const other of list) {
          if (normalizeName(other.name) === normalizeName(input.title)) continue;
          const relation = selfType === 'project' && other.type === 'person' ? 'works_on' : 'related_to';
          const [from, to] = relation === 'works_on' ? [other.name, input.title] : [input.title, other.name];
          relations.push({ from, to, relation, evidence: other.evidence });
        }
      }
      return { entities: list, relations, usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } };
    },
  };
}

function flatten(value: unknown): string[] {
  if (typeof value === 'string')
    return value
      .split(/,\s*/)
      .map((item) => item.trim())
      .filter(Boolean);
  if (Array.isArray(value)) return value.flatMap(flatten);
  return [];
}

/** The first line of the note that names the linked note, as evidence. */
function evidenceLine(text: string, title: string, path: string): string {
  const name = noteName(path);
  const line = text.split('\n').find((candidate) => candidate.includes(`[[${name}`) || candidate.includes(`[[${path.replace(/\.md$/i, '')}`) || candidate.includes(title));
  return (line ?? `links to ${title}`).trim().slice(0, 200);
}
