/**
 * The no-LLM extractor: entities from what the vault states plainly. A note is an entity by its
 * own frontmatter `type` (or `kind`) — `person`, `project`, `company`… — or, naming no type, by
 * its folder (`People/Ana.md` is a person). Its frontmatter names others: fields such as
 * `author`, `attendees`, `project`, `company` say the type of what they name, a wikilink in any
 * field names the note it links to (an entity when that note is one), and `related:` lists
 * notes it is related to. Links in the text to entity notes, and tags as topics, too. A value
 * naming an entity note (`project: atlas`, the alias of `Atlas — Search Index Migration`) is
 * that note's entity, so the graph has one Atlas, not two. Deterministic and free; every
 * entity carries the line that states it (its provenance).
 */
import { linkTargetName, noteName } from '../vault/index.js';
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
  presenters: 'person',
  speaker: 'person',
  speakers: 'person',
  participants: 'person',
  members: 'person',
  requested_by: 'person',
  note_author: 'person',
  reviewer: 'person',
  reviewers: 'person',
  assignee: 'person',
  assignees: 'person',
  contact: 'person',
  contacts: 'person',
  lead: 'person',
  manager: 'person',
  org: 'organization',
  organization: 'organization',
  company: 'organization',
  companies: 'organization',
  vendor: 'organization',
  vendors: 'organization',
  client: 'organization',
  customer: 'organization',
  employer: 'organization',
  publisher: 'organization',
  project: 'project',
  projects: 'project',
  source: 'source',
  sources: 'source',
  domain: 'domain',
  area: 'domain',
  areas: 'domain',
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

/**
 * Folders whose notes are entities of a type when their frontmatter names no type: the
 * conventions of People/, Projects/, Companies/ folders. Only a note directly inside one (a
 * note in `Projects/Atlas/` is about Atlas, not a project of its own) and not the folder's own
 * note (`People/People.md`, `People/index.md`).
 */
const FOLDER_TYPES: Record<string, EntityType> = {
  people: 'person',
  persons: 'person',
  contacts: 'person',
  projects: 'project',
  organizations: 'organization',
  organisations: 'organization',
  companies: 'organization',
  orgs: 'organization',
  clients: 'organization',
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

/** How the extractor looks notes up in the index (`select.ts` implements it over the notes table). */
export interface NoteDirectory {
  /** A note by its vault path. */
  byPath(path: string): LinkedNote | null;
  /** The entity note whose title, file name or alias is `name` (normalized); null when none, or when several name different entities. */
  entityNamed(name: string): LinkedNote | null;
}

/** The entity type a note is by its frontmatter `type` (else `kind`), or, naming none, by its folder; null when it is not an entity. */
export function noteEntityType(path: string, type: unknown): EntityType | null {
  const declared = typeof type === 'string' ? type.trim().toLowerCase() : '';
  if (declared !== '') return NOTE_TYPES[declared] ?? null;
  const segments = path.split('/');
  if (segments.length < 2) return null;
  const folder = segments[segments.length - 2]!.toLowerCase();
  const name = noteName(path).toLowerCase();
  if (name === folder || name === 'index' || name.startsWith('_')) return null;
  return FOLDER_TYPES[folder] ?? null;
}

/** One note's entities, keyed by normalized name, first statement wins. */
class Collected {
  readonly entities = new Map<string, ExtractedEntity>();

  add(name: string, type: EntityType, evidence: string, aliases: string[] = []): void {
    const clean = name
      .replace(/^\[\[|\]\]$/g, '')
      .split('|')[0]!
      .split('#')[0]!
      .trim();
    if (clean === '' || clean.length > 80 || /[/\\]/.test(clean)) return;
    const key = normalizeName(clean);
    if (!this.entities.has(key)) this.entities.set(key, { name: clean, type, aliases, evidence });
  }

  /** A note's entity (its title, type and aliases), when it is one. */
  addNote(note: LinkedNote, evidence: string): boolean {
    const type = noteEntityType(note.path, note.type);
    if (type) this.add(note.title, type, evidence, note.aliases);
    return type !== null;
  }
}

export function createStructuralExtractor(directory: NoteDirectory | ((path: string) => LinkedNote | null)): Extractor {
  const notes: NoteDirectory = typeof directory === 'function' ? { byPath: directory, entityNamed: () => null } : directory;
  return {
    backend: 'structural',
    model: 'structural',
    promptVersion: 'structural-2',
    async extract(input: ExtractionInput): Promise<Extraction> {
      const found = new Collected();
      // The note itself, when it is an entity: what it names become its relations.
      const selfType = noteEntityType(input.path, input.frontmatter?.type ?? input.frontmatter?.kind);
      if (selfType) found.add(input.title, selfType, `the note ${input.title}`, flatten(input.frontmatter?.aliases ?? input.frontmatter?.alias));
      for (const [key, value] of Object.entries(input.frontmatter ?? {})) frontmatterField(key, value, input, notes, found);
      for (const path of input.links) {
        const linked = notes.byPath(path);
        if (linked) found.addNote(linked, evidenceLine(input.text, linked.title, path));
      }
      const ownType = String(input.frontmatter?.type ?? input.frontmatter?.kind ?? '').toLowerCase();
      for (const tag of input.tags) {
        const segments = tag.split('/');
        // `#meeting` on a note of `type: meeting` restates its type; it is not a topic.
        if (NOT_TOPICS.has(segments[0]!) || tag === ownType) continue;
        const type = segments.length > 1 ? (TAG_TYPES[segments[0]!] ?? 'topic') : 'topic';
        const name = segments[segments.length - 1]!.replace(/[-_]/g, ' ');
        // `#project/harbor` names the project whose note answers to Harbor.
        const note = type === 'topic' ? null : notes.entityNamed(name);
        if (!(note && noteEntityType(note.path, note.type) === type && found.addNote(note, `#${tag}`))) found.add(name, type, `#${tag}`);
      }
      const list = [...found.entities.values()];
      const relations: ExtractedRelation[] = [];
      if (selfType) {
        for (const other of list) {
          if (normalizeName(other.name) === normalizeName(input.title)) continue;
          relations.push({ ...relationBetween(input.title, selfType, other.name, other.type), evidence: other.evidence });
        }
      }
      return { entities: list, relations, usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } };
    },
  };
}

/** Aliases and tags are the note's own; `type`/`kind` made it what it is. */
const NOT_NAMING = new Set(['aliases', 'alias', 'tags', 'tag', 'type', 'kind', 'title', 'cssclasses', 'cssclass', 'permalink']);

/**
 * One frontmatter field's entities: each value naming an entity note is that note's entity; in a
 * field that says a type (`author`, `project`…) any other value is an entity of that type; in
 * `related:` and every other field, only wikilinks and names of entity notes count.
 */
function frontmatterField(key: string, value: unknown, input: ExtractionInput, notes: NoteDirectory, found: Collected): void {
  const field = key.toLowerCase().replace(/[\s-]+/g, '_');
  if (NOT_NAMING.has(field)) return;
  const type = KEYS[field];
  for (const item of type || field === 'related' ? flatten(value) : wikilinks(value)) {
    const note = resolveItem(item, input.links, notes);
    if (note && found.addNote(note, `${key}: ${item}`)) continue;
    if (type) found.add(item, type, `${key}: ${item}`);
  }
}

/** The note a frontmatter value names: a wikilink (resolved among the note's own links, as the index resolved it), a path, or an entity note's name. */
function resolveItem(item: string, links: readonly string[], notes: NoteDirectory): LinkedNote | null {
  const link = /^\[\[([^[\]|#]*)(?:#[^[\]|]*)?(?:\|[^[\]]*)?\]\]$/.exec(item.trim());
  const target = (link ? link[1]! : item).trim();
  if (target === '') return null;
  const name = linkTargetName(target);
  const suffix = target.toLowerCase().replace(/\.md$/, '');
  const path = links.find((candidate) => linkTargetName(candidate) === name && candidate.toLowerCase().replace(/\.md$/, '').endsWith(suffix));
  if (path) return notes.byPath(path);
  if (target.includes('/')) return notes.byPath(target.endsWith('.md') ? target : `${target}.md`);
  return notes.entityNamed(target);
}

/** How the note's own entity relates to another it names: people work at organizations and on projects, and author sources. */
function relationBetween(self: string, selfType: EntityType, other: string, otherType: EntityType): Pick<ExtractedRelation, 'from' | 'to' | 'relation'> {
  if (selfType === 'person' && otherType === 'organization') return { from: self, to: other, relation: 'works_at' };
  if (selfType === 'person' && otherType === 'project') return { from: self, to: other, relation: 'works_on' };
  if (selfType === 'project' && otherType === 'person') return { from: other, to: self, relation: 'works_on' };
  if (selfType === 'source' && otherType === 'person') return { from: other, to: self, relation: 'authored' };
  return { from: self, to: other, relation: 'related_to' };
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

/** Every wikilink in a frontmatter value, at any depth. */
function wikilinks(value: unknown): string[] {
  if (typeof value === 'string') return value.includes('[[') ? (value.match(/\[\[[^[\]\n]+?\]\]/g) ?? []) : [];
  if (Array.isArray(value)) return value.flatMap(wikilinks);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(wikilinks);
  return [];
}

/** The first line of the note that names the linked note, as evidence. */
function evidenceLine(text: string, title: string, path: string): string {
  const name = noteName(path);
  const line = text.split('\n').find((candidate) => candidate.includes(`[[${name}`) || candidate.includes(`[[${path.replace(/\.md$/i, '')}`) || candidate.includes(title));
  return (line ?? `links to ${title}`).trim().slice(0, 200);
}
