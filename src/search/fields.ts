/**
 * What of a note the keyword ranker reads, split into weighted fields. The fields are disjoint
 * (a heading line is in `headings`, not also in `body`), so a weight means what it says.
 */
import { noteName, type Note } from '../vault/index.js';

export const FIELDS = ['title', 'aliases', 'headings', 'tags', 'body'] as const;
export type FieldName = (typeof FIELDS)[number];
export type FieldTexts = Record<FieldName, string>;
export type FieldWeights = Record<FieldName, number>;

/** Frontmatter keys that have fields of their own; every other string value is body text. */
const OWN_FIELD_KEYS = new Set(['title', 'aliases', 'alias', 'tags', 'tag']);

export function noteFieldTexts(note: Note, text: string): FieldTexts {
  const name = noteName(note.path);
  const title = name.toLowerCase() === note.title.toLowerCase() ? note.title : `${note.title}\n${name}`;
  const headingLines = new Set<number>();
  const headings: string[] = [];
  let bodyFrom = 0;
  for (const block of note.blocks) {
    if (block.key === '#---frontmatter---') bodyFrom = block.end;
    else if (block.level > 0) {
      headingLines.add(block.start);
      headings.push(block.headingPath[block.headingPath.length - 1]!);
    }
  }
  const lines = text.split('\n');
  const body: string[] = [];
  if (note.frontmatter) {
    for (const [key, value] of Object.entries(note.frontmatter)) {
      if (!OWN_FIELD_KEYS.has(key.toLowerCase())) collectStrings(value, body);
    }
  }
  for (let i = bodyFrom; i < lines.length; i++) {
    if (!headingLines.has(i + 1)) body.push(withoutTaskBox(lines[i]!));
  }
  return {
    title,
    aliases: note.aliases.join('\n'),
    headings: headings.join('\n'),
    tags: note.tags.join('\n'),
    body: body.join('\n'),
  };
}

/** A task's checkbox (`- [x] `, `1. [/] `, `> - [x] ` in a callout): its status mark is no word (`x` was a term of every done task). */
const TASK_BOX = /^(\s*(?:>\s*)*(?:[-*+]|\d+[.)])\s+)\[[^\]]\](?=\s|$)/;

function withoutTaskBox(line: string): string {
  return line.includes('[') ? line.replace(TASK_BOX, '$1') : line;
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, out);
}
