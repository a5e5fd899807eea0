/**
 * Line-level markdown structure: which lines are code, where headings are, and the blocks they
 * make. Lines are split on `\n` only (a `\r` stays on its line), the way Smart Connections
 * splits, so our 1-based inclusive line ranges and its ranges name the same text.
 */

export interface Heading {
  /** 1-based line number. */
  line: number;
  level: number;
  text: string;
}

export interface Block {
  /**
   * Smart-Connections-compatible sub-key (append to the note path for the full key): `#A#B` for
   * `## B` under `# A`, `##B` for a level-2 heading under nothing, `#A[2]` for a repeated
   * top-level heading, `#A#B#{2}` for a repeated sub-heading, `#` for text before the first
   * heading, `#---frontmatter---` for the frontmatter.
   */
  key: string;
  /** Heading texts from the outermost to this block's heading; empty for `#` and frontmatter. */
  headingPath: string[];
  /** Heading level 1–6; 0 for the preamble and the frontmatter. */
  level: number;
  /** 1-based inclusive range, children included (the Smart Connections range). */
  start: number;
  end: number;
  /** Last line of this block's own text, before its first child heading. */
  bodyEnd: number;
  /** Whether its own text (after its heading, to `bodyEnd`) is a list of links (`isLinkList`); never the frontmatter. */
  linkList: boolean;
}

// Fences may sit in a blockquote or callout (`> ```css`) or be indented inside a list item.
const FENCE = /^[ \t]*(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*$/;

/**
 * Marks the lines inside fenced code (fence lines included). Fences close on the same character
 * with at least the opening length; an unclosed fence runs to the end, as in CommonMark.
 */
export function codeLineMask(lines: readonly string[], from = 0): Uint8Array {
  const mask = new Uint8Array(lines.length);
  let open: string | null = null;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (open === null) {
      if (fence && !(fence[1]!.startsWith('`') && line.slice(fence.index + fence[0].length).includes('`'))) {
        open = fence[1]!;
        mask[i] = 1;
      }
    } else {
      mask[i] = 1;
      if (fence && fence[1]![0] === open[0] && fence[1]!.length >= open.length && line.slice(fence[0].length).trim() === '') {
        open = null;
      }
    }
  }
  return mask;
}

/** Replaces inline code spans with spaces of the same length (line breaks kept), so offsets and lines stay valid. */
export function maskInlineCode(line: string): string {
  if (!line.includes('`')) return line;
  return line.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** A line that starts a new block (list item, heading, quote, fence, table row): a code span never runs into it. */
const BLOCK_START = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|#{1,6}(?:[ \t]|$)|>|```|~~~|\|)/;

/**
 * Each line with its inline code masked (`maskInlineCode`), code spans that run over a line end
 * included: as in CommonMark (and Obsidian), `` `a⏎#b` `` is one span within a paragraph, so
 * `#b` is no tag. Only a line with a backtick left open after its own spans are masked reads
 * on, through the paragraph's following lines (to a blank line, a fenced-code line or a new
 * block); lines outside code and paragraphs are returned as they are.
 */
export function maskInlineCodeLines(lines: readonly string[], code: Uint8Array, from = 0): string[] {
  const out = lines.slice();
  for (let i = from; i < lines.length; i++) {
    if (code[i]) continue;
    const masked = maskInlineCode(lines[i]!);
    out[i] = masked;
    if (!masked.includes('`')) continue;
    let end = i;
    while (end + 1 < lines.length && !code[end + 1] && lines[end + 1]!.trim() !== '' && !BLOCK_START.test(lines[end + 1]!)) end++;
    if (end === i) continue;
    const paragraph = maskInlineCode(lines.slice(i, end + 1).join('\n')).split('\n');
    for (let k = 0; k < paragraph.length; k++) out[i + k] = paragraph[k]!;
    i = end;
  }
  return out;
}

/** ATX headings outside code (Obsidian needs a space after the hashes; `#tag` is not a heading). */
export function findHeadings(lines: readonly string[], code: Uint8Array, from = 0): Heading[] {
  const headings: Heading[] = [];
  for (let i = from; i < lines.length; i++) {
    if (code[i]) continue;
    const line = lines[i]!;
    if (!line.includes('#')) continue;
    const match = HEADING.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!match) continue;
    const text = match[2]!.trim();
    if (text === '') continue;
    headings.push({ line: i + 1, level: match[1]!.length, text });
  }
  return headings;
}

/**
 * Heading blocks with Smart Connections keys and ranges, plus the preamble (`#`) when it has
 * text and the frontmatter block. Pure: lines and headings in, blocks out, in document order.
 */
export function buildBlocks(lines: readonly string[], headings: readonly Heading[], frontmatterLines: [number, number] | null, code?: Uint8Array): Block[] {
  const total = lines.length;
  const blocks: Block[] = [];
  if (frontmatterLines) {
    blocks.push({ key: '#---frontmatter---', headingPath: [], level: 0, start: frontmatterLines[0], end: frontmatterLines[1], bodyEnd: frontmatterLines[1], linkList: false });
  }
  const bodyFrom = frontmatterLines ? frontmatterLines[1] : 0;
  const firstHeadingLine = headings[0]?.line ?? total + 1;
  const preamble = firstNonBlank(lines, bodyFrom, firstHeadingLine - 1);
  if (preamble !== -1) {
    blocks.push({ key: '#', headingPath: [], level: 0, start: preamble + 1, end: firstHeadingLine - 1, bodyEnd: firstHeadingLine - 1, linkList: isLinkList(lines, preamble + 1, firstHeadingLine - 1, code) });
  }

  const topCounts = new Map<string, number>();
  const keyCounts = new Map<string, number>();
  const stack: { level: number; key: string; path: string[]; block: Block }[] = [];
  for (let h = 0; h < headings.length; h++) {
    const heading = headings[h]!;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= heading.level) {
      stack.pop()!.block.end = heading.line - 1;
    }
    const parent = stack[stack.length - 1];
    let title = heading.text;
    if (heading.level === 1) {
      const seen = (topCounts.get(title) ?? 0) + 1;
      topCounts.set(title, seen);
      if (seen > 1) title = `${title}[${seen}]`;
    }
    let key = (parent?.key ?? '') + '#'.repeat(heading.level - (parent?.level ?? 0)) + title;
    const repeats = (keyCounts.get(key) ?? 0) + 1;
    keyCounts.set(key, repeats);
    if (repeats > 1) key = `${key}#{${repeats}}`;
    const next = headings[h + 1];
    const path = [...(parent?.path ?? []), heading.text];
    const bodyEnd = next ? next.line - 1 : total;
    const block: Block = { key, headingPath: path, level: heading.level, start: heading.line, end: total, bodyEnd, linkList: isLinkList(lines, heading.line + 1, bodyEnd, code) };
    blocks.push(block);
    stack.push({ level: heading.level, key, path, block });
  }
  return blocks;
}

/** A list item that is a link and nothing else: `- [[Custom domains]]`, `1. [Sync](Sync.md)`. */
const LINK_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\[\[[^\]]+\]\]|\[[^\]]+\]\([^)]+\))[ \t]*\r?$/;

/** Of a section's lines that are not blank, the share that are links alone for it to be a list of links. */
const LINK_LIST_SHARE = 0.3;

/**
 * Whether lines `first`–`last` (1-based, inclusive) are a list of links: at least
 * `LINK_LIST_SHARE` of those not blank are list items holding one link and nothing else (lines
 * inside fenced code are not items). A map of content, an overview page, a "see also" list: its
 * words — the links' names, a line describing each — are about the notes it links to, and a
 * search reads its passage so (`PASSAGE_DEFAULTS.linkList`). Items that go on after the link
 * ("- [[Sync]] keeps your notes…") are prose; counting them cost the Obsidian help vault MRR.
 */
export function isLinkList(lines: readonly string[], first: number, last: number, code?: Uint8Array): boolean {
  let text = 0;
  let links = 0;
  for (let i = Math.max(0, first - 1); i < last && i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    text++;
    if (code?.[i] !== 1 && LINK_ITEM.test(line)) links++;
  }
  return text > 0 && links >= LINK_LIST_SHARE * text;
}

function firstNonBlank(lines: readonly string[], from: number, toExclusive: number): number {
  for (let i = from; i < toExclusive && i < lines.length; i++) {
    if (lines[i]!.trim() !== '') return i;
  }
  return -1;
}
