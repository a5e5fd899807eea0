/**
 * update_note's text edits, pure: a note's text (`\n` line endings, no BOM — the writer strips
 * and restores both) and an edit in, the new text out. A section is named by its heading, or by
 * a heading path `A > B` when titles repeat; it runs from the line after its heading to the next
 * heading of the same or a higher level. Headings inside fenced code blocks are not headings.
 */
import { EngramError } from '../../errors.js';
import { insertText } from './insert-text.js';

export type UpdateMode = 'append' | 'prepend' | 'replace_section' | 'insert_under_heading';

interface HeadingLine {
  line: number;
  level: number;
  title: string;
  /** Titles of the enclosing headings, outermost first, then this one. */
  path: string[];
}

/** The note's headings outside code fences, and the heading-like lines inside them. */
function scanHeadings(lines: readonly string[]): { headings: HeadingLine[]; fenced: string[] } {
  const headings: HeadingLine[] = [];
  const fenced: string[] = [];
  const stack: HeadingLine[] = [];
  let fence: string | null = null;
  for (let i = bodyStart(lines); i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
      continue;
    }
    const match = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!match) continue;
    if (fence !== null) {
      fenced.push(match[2]!);
      continue;
    }
    const level = match[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    const heading = { line: i, level, title: match[2]!, path: [...stack.map((h) => h.title), match[2]!] };
    stack.push(heading);
    headings.push(heading);
  }
  return { headings, fenced };
}

/** The first line after the frontmatter (0 when there is none). */
function bodyStart(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  const close = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  return close === -1 ? 0 : close + 1;
}

const norm = (title: string) =>
  title
    .replace(/^#+\s*/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** `A > B` as its segments; `>` inside a title is written `\>`. */
export function parseHeadingPath(heading: string): string[] {
  return heading
    .split(/(?<!\\)>/)
    .map((segment) => norm(segment.replace(/\\>/g, '>')))
    .filter((segment) => segment !== '');
}

/** True when `wanted` ends with the heading and its other segments are ancestors, in order. */
function pathMatches(heading: HeadingLine, wanted: readonly string[]): boolean {
  const path = heading.path.map(norm);
  if (path[path.length - 1] !== wanted[wanted.length - 1]) return false;
  let at = 0;
  for (const ancestor of path.slice(0, -1)) if (at < wanted.length - 1 && ancestor === wanted[at]) at++;
  return at === wanted.length - 1;
}

/** The section a heading path names: its heading line and the line its body ends before. */
export function findSection(lines: readonly string[], heading: string): { line: number; end: number } {
  const wanted = parseHeadingPath(heading);
  if (wanted.length === 0) throw new EngramError('INVALID_INPUT', 'the heading is empty; give its text without #, or a path like "Plan > Risks"');
  const { headings, fenced } = scanHeadings(lines);
  const found = headings.filter((candidate) => pathMatches(candidate, wanted));
  if (found.length === 0) {
    if (fenced.some((title) => norm(title) === wanted[wanted.length - 1])) {
      throw new EngramError('INVALID_INPUT', `"${heading}" is inside a code block, not a heading of the note; name a real heading (read_note shows them)`);
    }
    const known = headings.slice(0, 12).map((h) => h.path.join(' > '));
    throw new EngramError('INVALID_INPUT', `no heading "${heading}" in the note${known.length > 0 ? `; its headings: ${known.join(' | ')}` : ' (it has no headings)'}`);
  }
  if (found.length > 1) {
    throw new EngramError(
      'INVALID_INPUT',
      `"${heading}" names ${found.length} headings (${found.map((h) => `${h.path.join(' > ')} on line ${h.line + 1}`).join('; ')}); give the path from an enclosing heading, e.g. "${found[0]!.path.join(' > ')}"`,
    );
  }
  const section = found[0]!;
  const next = headings.find((h) => h.line > section.line && h.level <= section.level);
  return { line: section.line, end: next?.line ?? lines.length };
}

/** The note's text after the edit. `heading` is required by the two section modes. */
export function updateText(current: string, mode: UpdateMode, content: string, heading?: string): string {
  if (mode === 'append') return insertText(current, content, 'end');
  if (mode === 'prepend') return insertText(current, content, 'start');
  if (heading === undefined) throw new EngramError('INVALID_INPUT', `${mode} needs the heading (its text, or a path like "Plan > Risks")`);
  const lines = current.split('\n');
  const { line, end } = findSection(lines, heading);
  const addition = content.replace(/^\n+|\s+$/g, '').split('\n');
  if (mode === 'insert_under_heading') {
    // Directly under the heading, keeping a blank line the section had after it.
    const gap = lines[line + 1]?.trim() === '' ? 1 : 0;
    const rest = lines.slice(line + 1 + gap);
    // A blank line keeps the addition its own paragraph, except between list items (one list).
    const listItem = /^\s*([-*+]|\d+[.)])\s/;
    const joins = rest.length === 0 || rest[0]!.trim() === '' || (listItem.test(addition[addition.length - 1]!) && listItem.test(rest[0]!));
    const separate = joins ? [] : [''];
    return [...lines.slice(0, line + 1 + gap), ...addition, ...separate, ...rest].join('\n');
  }
  // replace_section: the heading stays; its body becomes the content, with the blank lines it
  // had around it (one after the heading if it had one, one before the next heading).
  const body = lines.slice(line + 1, end);
  const lead = body.length > 0 && body[0]!.trim() === '' ? [''] : [];
  const replaced = content.trim() === '' ? [] : [...lead, ...addition];
  return [...lines.slice(0, line + 1), ...replaced, '', ...lines.slice(end)].join('\n');
}
