/**
 * Adding entries to a note's `related:` list, touching nothing else: every byte outside the
 * `related:` field stays as it was (other fields, their order, comments, quoting, the body). Pure.
 * A block list is appended to in its own indentation and form (text entries, or rich items when
 * the list already holds them); an empty or flow list becomes a block list; a note without the
 * field gets it before the closing fence, and a note without frontmatter gets one. The result is
 * parsed back and compared with the original, field by field, before it is offered.
 */
import { readFrontmatter } from './frontmatter.js';

export interface RelatedEntry {
  /** The wikilink to write (`[[Atlas]]`). */
  link: string;
  /** The target's id, written instead of the link where the list holds ids (Smart Relations' form). */
  id: string | null;
}

export type RelatedEdit = { ok: true; text: string } | { ok: false; reason: string };

const KEY = /^related[ \t]*:(.*)$/;

export function addRelatedEntries(text: string, entries: readonly RelatedEntry[]): RelatedEdit {
  if (entries.length === 0) return { ok: true, text };
  const lines = text.split('\n');
  const front = readFrontmatter(lines);
  if (front.lines === null) {
    if (/^---[ \t]*\r?$/.test(lines[0] ?? '')) return { ok: false, reason: 'the note opens with --- but its frontmatter has no closing ---; fix that first' };
    return { ok: true, text: `---\nrelated:\n${entries.map((entry) => `  - ${quote(entry.link)}`).join('\n')}\n---\n${text}` };
  }
  if (front.data === null) return { ok: false, reason: `${front.warning ?? 'the frontmatter cannot be read'}; fix it before adding relations` };
  const close = front.lines[1] - 1; // 0-based index of the closing fence
  const at = lines.findIndex((line, i) => i > 0 && i < close && KEY.test(line));
  let next: string[];
  if (at === -1) {
    next = [...lines.slice(0, close), 'related:', ...entries.map((entry) => `  - ${quote(entry.link)}`), ...lines.slice(close)];
  } else {
    const current = front.data.related;
    if (current !== null && current !== undefined && !Array.isArray(current)) return { ok: false, reason: 'related: is not a list; make it one (related: ["[[Note]]"]) before adding to it' };
    let end = at + 1;
    while (end < close && /^([ \t]|-([ \t]|$))/.test(lines[end]!) && lines[end]!.trim() !== '') end++;
    const block = lines.slice(at + 1, end);
    const inline = KEY.exec(lines[at]!)![1]!
      .replace(/\s+#.*$/, '')
      .trim();
    const items = inline === '' && block.length > 0 ? appendToBlock(block, entries, current ?? []) : rewriteInline(current ?? [], entries);
    if (typeof items === 'string') return { ok: false, reason: items };
    next = [...lines.slice(0, at), inline === '' && block.length > 0 ? lines[at]! : 'related:', ...items, ...lines.slice(end)];
  }
  const result = next.join('\n');
  const problem = onlyRelatedChanged(front.data, result);
  return problem === null ? { ok: true, text: result } : { ok: false, reason: problem };
}

/** The block's lines with the entries appended in its indentation and form. */
function appendToBlock(block: readonly string[], entries: readonly RelatedEntry[], current: readonly unknown[]): string[] | string {
  const first = /^([ \t]*)-[ \t]/.exec(block.find((line) => /^[ \t]*-/.test(line)) ?? '');
  const indent = first?.[1] ?? '  ';
  const rich = current.some((item) => item !== null && typeof item === 'object');
  const byId = !rich && current.length > 0 && current.every((item) => typeof item === 'string' && !item.includes('[['));
  const added = entries.flatMap((entry) => {
    if (rich) return entry.id ? [`${indent}- id: ${quote(entry.id)}`, `${indent}  auto: true`] : [`${indent}- link: ${quote(entry.link)}`, `${indent}  auto: true`];
    return [`${indent}- ${quote(byId && entry.id ? entry.id : entry.link)}`];
  });
  return [...block, ...added];
}

/** An empty or flow list rewritten as a block list: its text entries kept, the new ones after. */
function rewriteInline(current: readonly unknown[], entries: readonly RelatedEntry[]): string[] | string {
  if (current.some((item) => typeof item !== 'string')) return 'related: is written inline with items that are not text; write it as a block list before adding to it';
  return [...(current as string[]), ...entries.map((entry) => entry.link)].map((item) => `  - ${quote(item)}`);
}

/** Null when the new text's frontmatter equals the old one in every field but `related`. */
function onlyRelatedChanged(before: Record<string, unknown>, text: string): string | null {
  const after = readFrontmatter(text.split('\n')).data;
  if (after === null) return 'adding the entries would break the frontmatter; nothing was changed';
  const strip = (data: Record<string, unknown>) => JSON.stringify(Object.entries(data).filter(([key]) => key !== 'related'));
  return strip(before) === strip(after) ? null : 'adding the entries would change other fields; nothing was changed';
}

/** A YAML double-quoted scalar (JSON's string syntax is valid YAML). */
function quote(value: string): string {
  return JSON.stringify(value);
}
