/**
 * Blocks as evidence: for a hit, the heading section that carries the most query-term weight
 * gives the excerpt, the section path and the 1-based inclusive line range. Pure: the note's
 * text and block rows in, evidence out.
 */
import type { Tokenizer } from './tokenizer.js';

export interface EvidenceBlock {
  key: string;
  headingPath: string[];
  level: number;
  start: number;
  /** Last line of the block's own text (before its first child heading). */
  bodyEnd: number;
}

export interface Evidence {
  excerpt: string;
  /** Heading path joined with ` > `; empty for text before the first heading. */
  section: string;
  lines: [number, number] | null;
}

/** Characters of context an excerpt keeps around its best line. */
const EXCERPT_CHARS = 240;

/** Length of the query-term prefix a plain-ASCII line must contain to be worth tokenizing. */
const PROBE_CHARS = 3;

/**
 * The query-relevant tokens of one line. Tokenizing every line of every hit was most of a
 * search's server time, so the line is searched for the query terms' first characters (stems
 * start like the words they come from) and only the whitespace-delimited chunks holding one are
 * tokenized — tokens never span whitespace, so those are the line's tokens that can match —
 * plus every chunk with a non-ASCII character, whose folded form the probe cannot see. Porter2's
 * few irregular stems (`dying` → `die`) can hide a match here; that changes which line is quoted,
 * never which notes rank.
 */
function candidateTokens(line: string, probes: readonly string[], tokenize: Tokenizer, out: string[]): string[] {
  out.length = 0;
  if (probes.length === 0) return out;
  const lower = line.toLowerCase();
  // Lower-casing that changes the length (a few Unicode letters) would shift offsets: whole line.
  if (lower.length !== line.length) return tokenize(line, out);
  let seen: number[] | null = null;
  const chunk = (at: number) => {
    let start = at;
    while (start > 0 && !isSpace(line.charCodeAt(start - 1))) start--;
    if (seen?.includes(start)) return;
    (seen ??= []).push(start);
    let end = at + 1;
    while (end < line.length && !isSpace(line.charCodeAt(end))) end++;
    // Most chunks are one plain word with punctuation around it: its tokens come straight from
    // the tokenizer's word cache, without scanning.
    let from = start;
    let to = end;
    while (from < to && !isAlnum(line.charCodeAt(from))) from++;
    while (to > from && !isAlnum(line.charCodeAt(to - 1))) to--;
    if (isPlainWord(line, from, to)) {
      const tokens = tokenize.expand(line.slice(from, to));
      for (let i = 0; i < tokens.length; i++) out.push(tokens[i]!);
    } else {
      tokenize(line.slice(start, end), out);
    }
  };
  for (const probe of probes) {
    for (let at = lower.indexOf(probe); at !== -1; at = lower.indexOf(probe, at + 1)) chunk(at);
  }
  // Chunks with other characters (accents, CJK, emoji) cannot be probed by their ASCII prefix:
  // they are tokenized whole.
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) > 127) {
      chunk(i);
      while (i < line.length && !isSpace(line.charCodeAt(i))) i++;
    }
  }
  return out;
}

function isPlainWord(text: string, from: number, to: number): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) if (!isAlnum(text.charCodeAt(i))) return false;
  return true;
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 12 || code === 11;
}

export function findEvidence(
  text: string,
  blocks: readonly EvidenceBlock[],
  queryTerms: readonly string[],
  weightOf: (term: string) => number,
  tokenize: Tokenizer,
): Evidence {
  const lines = text.split('\n');
  const wanted = new Set(queryTerms);
  const probes = [...wanted].map((term) => term.slice(0, PROBE_CHARS));
  const candidates = blocks.filter((block) => block.key !== '#---frontmatter---');
  const scratch: string[] = [];
  let best: { block: EvidenceBlock; weight: number; line: number } | null = null;
  for (const block of candidates) {
    const counts = new Map<string, number>();
    let bestLine = -1;
    let bestLineWeight = 0;
    for (let n = block.start; n <= block.bodyEnd && n <= lines.length; n++) {
      let lineWeight = 0;
      const line = lines[n - 1]!;
      for (const token of candidateTokens(line, probes, tokenize, scratch)) {
        if (!wanted.has(token)) continue;
        counts.set(token, (counts.get(token) ?? 0) + 1);
        lineWeight += weightOf(token);
      }
      // The heading line names the section; a matching line under it says more, so it wins ties.
      const isHeading = block.level > 0 && n === block.start;
      if (lineWeight > bestLineWeight || (lineWeight > 0 && lineWeight === bestLineWeight && bestLine === block.start && !isHeading)) {
        bestLineWeight = lineWeight;
        bestLine = n;
      }
    }
    let weight = 0;
    for (const [term, tf] of counts) weight += weightOf(term) * (1 + Math.log(tf));
    if (best === null || weight > best.weight) best = { block, weight, line: bestLine };
  }
  if (best === null) return { excerpt: firstText(lines, 1, lines.length), section: '', lines: null };
  const { block } = best;
  const line = best.weight > 0 ? best.line : firstContentLine(lines, block);
  return {
    excerpt: line === -1 ? '' : clip(cleanLine(lines[line - 1] ?? ''), EXCERPT_CHARS),
    section: block.headingPath.join(' > '),
    lines: [block.start, Math.min(block.bodyEnd, lines.length)],
  };
}

function firstContentLine(lines: readonly string[], block: EvidenceBlock): number {
  for (let n = block.level > 0 ? block.start + 1 : block.start; n <= block.bodyEnd && n <= lines.length; n++) {
    if (cleanLine(lines[n - 1]!) !== '') return n;
  }
  return block.level > 0 ? block.start : -1;
}

function firstText(lines: readonly string[], from: number, to: number): string {
  for (let n = from; n <= to; n++) {
    const line = cleanLine(lines[n - 1] ?? '');
    if (line !== '' && line !== '---') return clip(line, EXCERPT_CHARS);
  }
  return '';
}

/** Drops list, quote and heading markers so an excerpt reads as text. */
function cleanLine(line: string): string {
  return line.replace(/\r$/, '').replace(/^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[.\]\s+)?|\d+[.)]\s+)?/, '').trim();
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
