/**
 * A note's identity and its explicit relations, from its frontmatter. Pure and total: any value
 * reads as something, and what cannot be read becomes a warning naming the field and the fix.
 *
 * Identity is the frontmatter `id` (Smart Relations' legacy `uuid` when `id` is absent): a UUID
 * or any stable string. Relations are `related:` in either of Smart Relations' forms — a list of
 * wikilinks, paths or ids, or rich items (`id`/`uuid`/`link`, `type`/`rel`, optional `note`).
 * An entry naming an id is tried as an id first, then as a path, so `related: [Atlas]` works in
 * a vault with no ids at all.
 */
import type { Frontmatter } from './frontmatter.js';
import { parseWikilink, type Link } from './links.js';

export interface RelationLink extends Link {
  kind: 'related';
  /** The id this entry names (tried before the path), or null for a wikilink. */
  id: string | null;
  /** The relation's type (`supports`, `references`…), or null. */
  type: string | null;
  note: string | null;
}

/** Case-, width- and space-insensitive id key, so `ABC-1` and `abc-1 ` are one id. */
export function idKey(raw: string): string {
  return raw.normalize('NFC').trim().toLowerCase();
}

/** The note's id key, or null, and a warning when the field is there but unusable. */
export function readNoteId(data: Frontmatter | null): { id: string | null; warning: string | null } {
  if (!data) return { id: null, warning: null };
  const field = data.id !== undefined ? 'id' : data.uuid !== undefined ? 'uuid' : null;
  if (field === null) return { id: null, warning: null };
  const value = data[field];
  if (typeof value === 'string') {
    if (value.trim() === '') return { id: null, warning: `${field} is empty; the note has no stable identity (give it a unique value, e.g. a UUID)` };
    return { id: idKey(value), warning: null };
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return { id: idKey(String(value)), warning: `${field} is a number (${value}); it is read as the text "${value}" — quote it so leading zeros and long digits survive` };
  }
  return { id: null, warning: `${field} is ${describe(value)}, not text; the note has no stable identity (use a string such as a UUID)` };
}

/** `related:` as typed links (`kind: 'related'`), with a warning for each entry it cannot read. */
export function readRelations(data: Frontmatter | null): { links: RelationLink[]; warnings: string[] } {
  const links: RelationLink[] = [];
  const warnings: string[] = [];
  if (!data || !('related' in data)) return { links, warnings };
  const value = data.related;
  if (value === null || value === undefined) return { links, warnings };
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string' && value.includes('[[')) {
    // A text property holding wikilinks, as Obsidian writes one: each link is an entry.
    items = [...value.matchAll(/\[\[[^[\]\n]+?\]\]/g)].map((match) => match[0]);
  } else if (typeof value === 'string' || typeof value === 'number') {
    warnings.push(`related: is a single ${typeof value === 'string' ? 'text' : 'number'}, not a list; it is read as one entry (write it as a list: related: ["[[Note]]"])`);
    items = [value];
  } else if (typeof value === 'object') {
    warnings.push('related: is a map, not a list; it is read as one rich entry (write it as a list of items)');
    items = [value];
  } else {
    warnings.push(`related: is ${describe(value)}; it is ignored (write a list of links or ids)`);
    return { links, warnings };
  }
  items.forEach((item, i) => {
    const link = readEntry(item);
    if (typeof link === 'string') warnings.push(`related: entry ${i + 1} ${link}; it is skipped`);
    else links.push(link);
  });
  return { links, warnings };
}

/** One entry, or why it cannot be read. */
function readEntry(item: unknown): RelationLink | string {
  if (item === null || item === undefined) return 'is empty';
  if (typeof item === 'string' || typeof item === 'number') return fromText(String(item), null, null, null) ?? 'is empty';
  if (Array.isArray(item)) return 'is a nested list (write one link or id per entry)';
  if (typeof item !== 'object') return `is ${describe(item)}`;
  const rich = item as Record<string, unknown>;
  const text = (key: string): string | null => (typeof rich[key] === 'string' && (rich[key] as string).trim() !== '' ? (rich[key] as string).trim() : typeof rich[key] === 'number' ? String(rich[key]) : null);
  const id = text('id') ?? text('uuid');
  const link = text('link') ?? text('path');
  const type = text('type') ?? text('rel');
  const note = text('note');
  if (id === null && link === null) return 'has neither id nor link (a rich entry needs one of them)';
  if (link !== null) {
    const found = fromText(link, type, note, id);
    if (found) return found;
  }
  return { kind: 'related', target: id!, subpath: null, display: null, line: 0, id: idKey(id!), type, note };
}

/**
 * A text entry: a wikilink is a link; anything else is an id to try first and a path after
 * (`rich id` overrides the id when a rich item has both).
 */
function fromText(raw: string, type: string | null, note: string | null, richId: string | null): RelationLink | null {
  const text = raw.trim();
  if (text === '') return null;
  const wiki = /^!?\[\[([^[\]\n]+?)\]\]$/.exec(text);
  if (wiki) {
    const parsed = parseWikilink(wiki[1]!, 'wikilink', 0);
    if (!parsed) return null;
    return { ...parsed, kind: 'related', id: richId === null ? null : idKey(richId), type, note };
  }
  return { kind: 'related', target: text, subpath: null, display: null, line: 0, id: idKey(richId ?? text), type, note };
}

function describe(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `a ${typeof value === 'boolean' ? 'true/false value' : typeof value}`;
}
