/**
 * Tags, as Obsidian reads them: `#tag` after a line start or whitespace, made of letters, digits, `_`, `-` and `/` for nesting, with at least one
 * character that is not a digit. Stored lower-cased without `#`, because Obsidian matches tags
 * case-insensitively. A `#` right after `[[` is a heading link, not a tag.
 */

const INLINE_TAG = /(^|\s)#([\p{L}\p{N}\p{M}_\-/]+)/gu;

/** Normalizes `#Area/Health/` → `area/health`; null when it is not a valid tag. */
export function normalizeTag(raw: string): string | null {
  const tag = raw.trim().replace(/^#+/, '').replace(/\/+$/, '').replace(/^\/+/, '').normalize('NFC').toLowerCase();
  if (tag === '' || /^[\p{N}/]+$/u.test(tag) || /[\s#]/u.test(tag)) return null;
  return tag;
}

/** Inline tags on one code-masked line. */
export function extractInlineTags(line: string, out: Set<string>): void {
  if (!line.includes('#')) return;
  for (const match of line.matchAll(INLINE_TAG)) {
    const tag = normalizeTag(match[2]!);
    if (tag) out.add(tag);
  }
}
