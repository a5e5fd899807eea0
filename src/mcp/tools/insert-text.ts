/** Where append_note puts its text: the end, the start (after frontmatter), or the end of a named section. */
import { EngramError } from '../../errors.js';

/** Inserts `content` at the end, the start (after frontmatter) or the end of a named section. */
export function insertText(current: string, content: string, position: 'end' | 'start' | 'under_heading', heading?: string): string {
  const addition = content.trim();
  if (position === 'end') return `${current}${current.endsWith('\n') || current === '' ? '' : '\n'}${addition}\n`;
  const lines = current.split('\n');
  let bodyStart = 0;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
    if (close !== -1) bodyStart = close + 1;
  }
  if (position === 'start') return [...lines.slice(0, bodyStart), addition, ...lines.slice(bodyStart)].join('\n');
  const wanted = (heading ?? '')
    .replace(/^#+\s*/, '')
    .trim()
    .toLowerCase();
  let fence = false;
  let found = -1;
  let level = 0;
  for (let i = bodyStart; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i]!)) fence = !fence;
    if (fence) continue;
    const match = /^(#{1,6})\s+(.*?)\s*$/.exec(lines[i]!);
    if (!match) continue;
    if (found === -1 && match[2]!.toLowerCase() === wanted) {
      found = i;
      level = match[1]!.length;
    } else if (found !== -1 && match[1]!.length <= level) {
      return insertBefore(lines, i, addition);
    }
  }
  if (found === -1) throw new EngramError('INVALID_INPUT', `no heading "${heading}" in the note; use position "end", or one of its headings`);
  return insertBefore(lines, lines.length, addition);
}

/** Inserts `addition` after the last non-blank line before line `at` (the end of a section). */
function insertBefore(lines: string[], at: number, addition: string): string {
  let end = at;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  const rest = lines.slice(end);
  if (rest.length === 0 || rest.every((line) => line.trim() === '')) return [...lines.slice(0, end), addition, ''].join('\n');
  // Keep the blank lines that separated the section from the next heading; add one if there were none.
  return [...lines.slice(0, end), addition, ...(rest[0]!.trim() === '' ? rest : ['', ...rest])].join('\n');
}
