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
 * Where the query's terms occur in a note, as (line, term index) pairs in line order, written
 * into `lines` and `terms` (reused: evidence runs for every hit of every search, and its
 * per-hit arrays were most of a search's allocation). Tokenizing every line of every hit was
 * most of a search's server time, so one case-insensitive, zero-width pattern walks the note
 * for the query terms' first characters (stems start like the words they come from) and for
 * non-ASCII characters (whose folded form no probe can see); only the whitespace-delimited
 * chunk around each place is tokenized — tokens never span whitespace, so those are the chunks
 * whose tokens can match. Porter2's few irregular stems (`dying` → `die`) can hide a match
 * here; that changes which line is quoted, never which notes rank.
 */
function findMatches(text: string, places: RegExp, termOf: ReadonlyMap<string, number>, tokenize: Tokenizer, lines: number[], terms: number[]): void {
  lines.length = 0;
  terms.length = 0;
  let line = 1;
  let nextBreak = text.indexOf('\n');
  // Where to look next is kept here, not in the shared pattern's `lastIndex`.
  for (let next = 0; ; ) {
    places.lastIndex = next;
    if (!places.test(text)) break;
    const at = places.lastIndex;
    let start = at;
    while (start > 0 && !isBreak(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && !isBreak(text.charCodeAt(end))) end++;
    // The walk resumes after this chunk, so chunks come once each and in order.
    next = end;
    while (nextBreak !== -1 && nextBreak < start) {
      line++;
      nextBreak = text.indexOf('\n', nextBreak + 1);
    }
    // Most chunks are one plain word with punctuation around it: its tokens come straight from
    // the tokenizer's word cache, without scanning.
    let from = start;
    let to = end;
    while (from < to && isAsciiPunctuation(text.charCodeAt(from))) from++;
    while (to > from && isAsciiPunctuation(text.charCodeAt(to - 1))) to--;
    const word = text.slice(from, to);
    for (const token of isPlainWord(word) ? tokenize.expand(word) : tokenize(text.slice(start, end))) {
      const term = termOf.get(token);
      if (term === undefined) continue;
      lines.push(line);
      terms.push(term);
    }
  }
}

/** The pattern of places worth tokenizing for a set of probes; the last one is kept (a search asks once per hit). */
let placesFor = { key: '', pattern: /$^/g };

function placesPattern(probes: readonly string[]): RegExp {
  const key = probes.join('\u0000');
  if (placesFor.key !== key) {
    const alternatives = [...probes.map((probe) => probe.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), '[^\\x00-\\x7f]'];
    placesFor = { key, pattern: new RegExp(`(?=${alternatives.join('|')})`, 'gi') };
  }
  return placesFor.pattern;
}

function isPlainWord(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i++) if (!isAlnum(word.charCodeAt(i))) return false;
  return true;
}

/** Trimmed off a chunk's ends before the plain-word check (`(atlas),` → `atlas`); `é` is not. */
function isAsciiPunctuation(code: number): boolean {
  return code < 128 && !isAlnum(code);
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whitespace and the line break: no token spans one. */
function isBreak(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 11;
}

const sharedLines: number[] = [];
const sharedTerms: number[] = [];
/** Set while `findMatches` fills the reused arrays. */
let matching = false;

export function findEvidence(
  text: string,
  blocks: readonly EvidenceBlock[],
  queryTerms: readonly string[],
  weightOf: (term: string) => number,
  tokenize: Tokenizer,
): Evidence {
  const terms = [...new Set(queryTerms)];
  const weights = terms.map(weightOf);
  const termOf = new Map(terms.map((term, i) => [term, i]));
  const probes = [...new Set(terms.map((term) => term.slice(0, PROBE_CHARS)))];
  // The tokenizer runs inside `findMatches`: should it ever search (a nested call), that call
  // gets arrays of its own instead of clearing these. Nothing after it calls out.
  const nested = matching;
  const matchLines = nested ? [] : sharedLines;
  const matchTerms = nested ? [] : sharedTerms;
  matching = true;
  try {
    if (probes.length > 0) findMatches(text, placesPattern(probes), termOf, tokenize, matchLines, matchTerms);
    else matchLines.length = matchTerms.length = 0;
  } finally {
    matching = nested;
  }
  const lineCount = countLines(text);
  const lineCounts = new Float64Array(terms.length);
  const blockCounts = new Float64Array(terms.length);
  let best: { block: EvidenceBlock; weight: number; line: number } | null = null;
  for (const block of blocks) {
    if (block.key === '#---frontmatter---') continue;
    blockCounts.fill(0);
    let bestLine = -1;
    let bestLineWeight = 0;
    const last = Math.min(block.bodyEnd, lineCount);
    for (let i = firstAtOrAfter(matchLines, block.start); i < matchLines.length && matchLines[i]! <= last; ) {
      const n = matchLines[i]!;
      lineCounts.fill(0);
      for (; i < matchLines.length && matchLines[i] === n; i++) lineCounts[matchTerms[i]!]!++;
      let lineWeight = 0;
      for (let t = 0; t < terms.length; t++) {
        lineWeight += lineCounts[t]! * weights[t]!;
        blockCounts[t]! += lineCounts[t]!;
      }
      // The heading line names the section; a matching line under it says more, so it wins ties.
      const isHeading = block.level > 0 && n === block.start;
      if (lineWeight > bestLineWeight || (lineWeight > 0 && lineWeight === bestLineWeight && bestLine === block.start && !isHeading)) {
        bestLineWeight = lineWeight;
        bestLine = n;
      }
    }
    let weight = 0;
    for (let t = 0; t < terms.length; t++) if (blockCounts[t]! > 0) weight += weights[t]! * (1 + Math.log(blockCounts[t]!));
    if (best === null || weight > best.weight) best = { block, weight, line: bestLine };
  }
  if (best === null) return { excerpt: firstText(text.split('\n'), 1, lineCount), section: '', lines: null };
  const { block } = best;
  const line = best.weight > 0 ? best.line : firstContentLine(text.split('\n'), block);
  return {
    excerpt: line === -1 ? '' : clip(cleanLine(lineAt(text, line)), EXCERPT_CHARS),
    section: block.headingPath.join(' > '),
    lines: [block.start, Math.min(block.bodyEnd, lineCount)],
  };
}

function countLines(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Line `n` (1-based) of a text. */
function lineAt(text: string, n: number): string {
  let start = 0;
  for (let line = 1; line < n; line++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? text.length : end);
}

/** The first index whose value is ≥ `value` in an ascending array. */
function firstAtOrAfter(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
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

/** At most `max` characters (code points), with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text; // never more code points than code units
  let end = 0;
  let cut = 0;
  for (let kept = 0; end < text.length; kept++) {
    if (kept === max - 1) cut = end;
    if (kept === max) return `${text.slice(0, cut)}…`;
    const code = text.charCodeAt(end);
    const low = text.charCodeAt(end + 1);
    end += code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return text;
}
