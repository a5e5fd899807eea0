/**
 * Whether a note is private, read so that a doubt counts as private. Pure: the note's raw text
 * (and the tags the index found) in, a verdict out. It does not trust the index's parse alone:
 * a human who writes `Tags: [private]`, `TAGS: private`, `private: true` or `#Private/health`
 * means private, and a note whose frontmatter cannot be read may say so in the part that could
 * not be read — so it is private until it can be read.
 */
import { parseDocument } from 'yaml';

export const PRIVACY_DEFAULTS = {
  /** Tags that make a note private, with their nested forms (`private/health`). */
  privateTags: ['private'] as readonly string[],
  /** Frontmatter keys (any case) whose value lists tags. */
  tagKeys: ['tags', 'tag'] as readonly string[],
  /** Frontmatter keys (any case) that make the note private when true (`private: true`). */
  flagKeys: ['private'] as readonly string[],
  /** Frontmatter keys (any case) that make the note private when their value says so (`visibility: private`). */
  levelKeys: ['visibility', 'privacy', 'access'] as readonly string[],
  /** Words of a `levelKeys` value that mean private. */
  privateLevels: ['private', 'secret', 'confidential'] as readonly string[],
} as const;

export type PrivacyVerdict = { private: false } | { private: true; reason: 'tagged' | 'frontmatter' | 'unreadable-frontmatter'; detail: string };

export interface PrivacyOptions {
  /** Tags the index stored for the note (lower-cased, without `#`). */
  tags?: readonly string[];
  privateTags?: readonly string[];
}

/** Decides whether a note may leave the machine. Total: never throws. */
export function notePrivacy(text: string, options: PrivacyOptions = {}): PrivacyVerdict {
  const privateTags = (options.privateTags ?? PRIVACY_DEFAULTS.privateTags).map((tag) => tag.toLowerCase());
  const isPrivateTag = (raw: string): boolean => {
    const tag = raw.trim().replace(/^#+/, '').replace(/\/+$/, '').normalize('NFC').toLowerCase();
    return privateTags.some((p) => tag === p || tag.startsWith(`${p}/`));
  };
  const indexed = (options.tags ?? []).find(isPrivateTag);
  if (indexed !== undefined) return { private: true, reason: 'tagged', detail: `tagged #${indexed}` };
  const front = frontmatterSource(text);
  if (front !== null) {
    const raw = scanFrontmatter(front.source, isPrivateTag);
    if (raw) return { private: true, reason: 'frontmatter', detail: raw };
    const parsed = readMapping(front.source);
    if (!parsed.ok) return { private: true, reason: 'unreadable-frontmatter', detail: `its frontmatter cannot be read (${parsed.why}); fix the YAML to have it extracted` };
    const marked = walkFrontmatter(parsed.data, isPrivateTag);
    if (marked) return { private: true, reason: 'frontmatter', detail: marked };
  }
  const inline = inlinePrivateTag(text, privateTags);
  if (inline) return { private: true, reason: 'tagged', detail: `tagged #${inline}` };
  return { private: false };
}

/**
 * The frontmatter text: from a first line `---` (after a BOM) to the next `---` or `...` line.
 * With no closing fence Obsidian shows the file as text; the whole text is then scanned as if
 * it were frontmatter, since `tags: private` there still says what the writer meant.
 */
function frontmatterSource(text: string): { source: string; closed: boolean } | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if ((lines[0] ?? '').trim() !== '---') return null;
  const close = lines.findIndex((line, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(line));
  return close === -1 ? { source: lines.slice(1).join('\n'), closed: false } : { source: lines.slice(1, close).join('\n'), closed: true };
}

/**
 * A line-by-line reading of frontmatter that needs no YAML parser, so it works on text the
 * parser refuses: each `key:` line (any case, any indentation) owns the lines under it until the
 * next key, and its words are checked.
 */
function scanFrontmatter(source: string, isPrivateTag: (tag: string) => boolean): string | null {
  let key: string | null = null;
  let original = '';
  const owned = new Map<string, { key: string; words: string[] }>();
  for (const line of source.split('\n')) {
    const keyed = /^\s*(?:-\s+)?["']?([A-Za-z_][\w -]*?)["']?\s*:(?:\s|$)(.*)$/.exec(line);
    let rest = line;
    if (keyed) {
      original = keyed[1]!.trim();
      key = original.toLowerCase();
      rest = keyed[2] ?? '';
    }
    if (key === null) continue;
    const entry = owned.get(key) ?? { key: original, words: [] };
    entry.words.push(...rest.split(/[\s,[\]{}"'|>]+/).filter((word) => word !== '' && word !== '-'));
    owned.set(key, entry);
  }
  for (const [key, { key: spelled, words }] of owned) {
    if (PRIVACY_DEFAULTS.tagKeys.includes(key)) {
      const hit = words.find(isPrivateTag);
      if (hit) return `frontmatter ${spelled}: ${hit}`;
    }
    if (PRIVACY_DEFAULTS.flagKeys.includes(key) && words.some((word) => /^(?:true|yes|y|on|1)$/i.test(word))) return `frontmatter ${spelled}: ${words.join(' ')}`;
    if (PRIVACY_DEFAULTS.levelKeys.includes(key)) {
      const hit = words.find((word) => PRIVACY_DEFAULTS.privateLevels.includes(word.toLowerCase()));
      if (hit) return `frontmatter ${spelled}: ${hit}`;
    }
  }
  return null;
}

/** Parses the frontmatter on its own terms, bounded (an alias bomb is "cannot be read", not a hang). */
function readMapping(source: string): { ok: true; data: Record<string, unknown> } | { ok: false; why: string } {
  if (source.trim() === '') return { ok: true, data: {} };
  try {
    const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: false });
    if (doc.errors.length > 0) return { ok: false, why: (doc.errors[0]!.message.split('\n')[0] ?? 'malformed YAML').slice(0, 120) };
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) return { ok: true, data: {} };
    if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, why: 'not a key: value mapping' };
    return { ok: true, data: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, why: (error instanceof Error ? error.message.split('\n')[0]! : String(error)).slice(0, 120) };
  }
}

/** The parsed frontmatter, keys in any case, nested mappings included. */
function walkFrontmatter(data: Record<string, unknown>, isPrivateTag: (tag: string) => boolean, depth = 0): string | null {
  if (depth > 8) return null;
  for (const [spelled, value] of Object.entries(data)) {
    const key = spelled.toLowerCase();
    const words = wordsOf(value);
    if (PRIVACY_DEFAULTS.tagKeys.includes(key)) {
      const hit = words.find(isPrivateTag);
      if (hit) return `frontmatter ${spelled}: ${hit}`;
    }
    if (PRIVACY_DEFAULTS.flagKeys.includes(key) && (value === true || value === 1 || words.some((word) => /^(?:true|yes|y|on|1)$/i.test(word)))) return `frontmatter ${spelled}: ${String(value)}`;
    if (PRIVACY_DEFAULTS.levelKeys.includes(key)) {
      const hit = words.find((word) => PRIVACY_DEFAULTS.privateLevels.includes(word.toLowerCase()));
      if (hit) return `frontmatter ${spelled}: ${hit}`;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
      const nested = walkFrontmatter(value as Record<string, unknown>, isPrivateTag, depth + 1);
      if (nested) return nested;
    }
  }
  return null;
}

/** The words of a scalar or list value, split as Obsidian splits a tag string (commas, spaces). */
function wordsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value.flat(4) : [value];
  return items
    .filter((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
    .flatMap((item) => String(item).split(/[\s,]+/))
    .filter((word) => word !== '');
}

/**
 * An inline `#private` or `#private/…` anywhere in the text, any case — code blocks included,
 * since an example that happens to say `#private` costs one note's extraction, and a miss costs
 * the note.
 */
function inlinePrivateTag(text: string, privateTags: readonly string[]): string | null {
  for (const match of text.matchAll(/(?:^|[^\p{L}\p{N}\p{M}_&/#-])#([\p{L}\p{N}\p{M}_\-/]+)/gu)) {
    const tag = match[1]!.replace(/\/+$/, '').normalize('NFC').toLowerCase();
    if (privateTags.some((p) => tag === p || tag.startsWith(`${p}/`))) return tag;
  }
  return null;
}
