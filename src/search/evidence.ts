/**
 * Blocks as evidence: for a hit, the heading section that carries the most query-term weight
 * gives the excerpt, the section path and the 1-based inclusive line range. Pure: the note's
 * text and block rows in, evidence out.
 */
import { addMatch, emptyMatchList, idMask, matchPositions, probeOf, type MatchList, type NotePositions, type PositionVocabulary } from './positions.js';
import { scanWordSpans, type Tokenizer } from './tokenizer.js';

export interface EvidenceBlock {
  key: string;
  headingPath: string[];
  level: number;
  start: number;
  /** Last line of the block's own text (before its first child heading). */
  bodyEnd: number;
  /** Whether the block's own text is a list of links (the parser's `isLinkList`): its passage keeps `linkList` of its score. */
  linkList?: boolean;
}

export interface Evidence {
  excerpt: string;
  /** Heading path joined with ` > `; empty for text before the first heading. */
  section: string;
  lines: [number, number] | null;
  /**
   * In a section longer than a paragraph, the lines of its best window (the first and last
   * holding a match): what earned the score, where `lines` is the whole section. A conversation
   * log is one section of many turns, and one or two of them answer.
   */
  passage?: [number, number];
}

/** Characters of context an excerpt keeps around its best line. */
const EXCERPT_CHARS = 240;

/**
 * Where the query's terms occur in a note, as (line, term index, chunk offset) triples in text
 * order, written into `matches` (reused: evidence runs for every hit of every search, and its
 * per-hit arrays were most of a search's allocation). Tokenizing every line of every hit was
 * most of a search's server time, so one case-insensitive pattern walks the note
 * for the query terms' first characters (stems start like the words they come from) and for
 * non-ASCII characters (whose folded form no probe can see); only the whitespace-delimited
 * chunk around each place is tokenized — tokens never span whitespace, so those are the chunks
 * whose tokens can match. Porter2's few irregular stems (`dying` → `die`) can hide a match
 * here; that changes which line is quoted, never which notes rank. `matches.lineStarts` must
 * hold the text's line starts (`lineStartsOf`).
 */
function findMatches(text: string, places: RegExp, termOf: ReadonlyMap<string, number>, tokenize: Tokenizer, matches: Matches): void {
  matches.count = 0;
  let line = 1;
  // Where to look next is kept here, not in the shared pattern's `lastIndex`.
  for (let next = 0; ;) {
    places.lastIndex = next;
    if (!places.test(text)) break;
    // The match's last character: inside the chunk, as probes hold no whitespace.
    const at = places.lastIndex - 1;
    let start = at;
    while (start > 0 && !isBreak(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && !isBreak(text.charCodeAt(end))) end++;
    // The walk resumes after this chunk, so chunks come once each and in order.
    next = end;
    // From the line starts, not an `indexOf` per line: that was a sixth of this walk.
    while (line < matches.lineCount && matches.lineStarts[line]! <= start) line++;
    // Most chunks are one plain word with punctuation around it: its tokens come straight from
    // the tokenizer's word cache, looked up in place (a string per chunk was a third of the walk).
    let from = start;
    let to = end;
    while (from < to && isAsciiPunctuation(text.charCodeAt(from))) from++;
    while (to > from && isAsciiPunctuation(text.charCodeAt(to - 1))) to--;
    const tokens = !isPlainSpan(text, from, to) ? tokenize(text.slice(start, end)) : tokenize.expandSpan ? tokenize.expandSpan(text, from, to) : tokenize.expand(text.slice(from, to));
    for (let i = 0; i < tokens.length; i++) {
      const term = termOf.get(tokens[i]!);
      if (term !== undefined) addMatch(matches, line, term, start);
    }
  }
}

/** The pattern of places worth tokenizing for a set of probes (made once per scorer). */
function placesPattern(probes: readonly string[]): RegExp {
  const alternatives = [...probes.map((probe) => probe.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), '[^\\x00-\\x7f]'];
  // Consuming, not a zero-width lookahead: V8 scans for a plain alternation 2.5× faster.
  return new RegExp(alternatives.join('|'), 'gi');
}

/** Whether `text[from, to)` is a non-empty run of ASCII letters and digits. */
function isPlainSpan(text: string, from: number, to: number): boolean {
  if (from === to) return false;
  for (let i = from; i < to; i++) if (!isAlnum(text.charCodeAt(i))) return false;
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

/** The note being scored's matches and line starts (reused: one set per search would be garbage for every hit). */
const shared: Matches = { ...emptyMatchList(), lineStarts: new Int32Array(1024), lineBase: 0, lineCount: 0 };
/** Set while `findMatches` fills the reused arrays. */
let matching = false;

/**
 * How a note's best passage answers the query: its heading section with the highest passage
 * score — BM25 over the section's own term counts (length-normalized in characters against a
 * typical section) plus a proximity bonus for query terms found close together (Büttcher,
 * Clarke & Lushman 2006: each pair of distinct terms adds the smaller idf over the squared
 * distance, in approximate words, of their closest occurrences). A focused section thus beats
 * a long note whose matches are scattered, and the excerpt is the section that earned it.
 */
export interface PassageScore {
  /** The best section's score (0 when no query term occurs in the note). */
  score: number;
  /** Its proximity share. */
  proximity: number;
  block: EvidenceBlock | null;
  /** The best line in it (-1 when none matched). */
  line: number;
  /**
   * The note's line count, and where `line` starts and ends in its text (−1 when none): the
   * evidence is cut from them, without another walk over the text.
   */
  lineCount: number;
  lineFrom: number;
  lineTo: number;
  /** In a section read as windows (longer than `sectionChars`), the best window's first and last matched lines; −1 otherwise. */
  windowFirst: number;
  windowLast: number;
  /**
   * Every query word is in the note's name ("who is Ines?" for `Inês Carvalho`): the name is the
   * match, the text only echoes it, so the evidence quotes the note's opening, not the line
   * that repeats the name most ("Example: [[2026-05-07 1-1 Inês]]").
   */
  named: boolean;
}

export const PASSAGE_DEFAULTS = {
  /** Term-frequency saturation inside a section. */
  k1: 1.2,
  /** Section length normalization, 0–1. */
  b: 0.5,
  /** A typical section, in characters (about a paragraph). */
  sectionChars: 600,
  /**
   * A section longer than `sectionChars` is read as windows this wide (about fifty words, a
   * turn or two of a conversation): on LoCoMo session logs 300 beat 600 by +0.007 MRR, with
   * the sectioned sets unchanged.
   */
  windowChars: 300,
  /** Weight of the proximity bonus against the section's term score. */
  proximity: 1,
  /** Characters per word, to turn a gap in characters into a distance in words. */
  charsPerWord: 6,
  /**
   * What a list of links keeps of its passage score (the parser's `isLinkList`, kept with each
   * block): its words describe the notes it links to. Obsidian help vault MRR 0.907 → 0.916,
   * its blind set 0.739 → 0.759 (the same from 0.3 to 0.8); no other set moved.
   */
  linkList: 0.5,
};

export interface PassageQuery {
  options?: typeof PASSAGE_DEFAULTS;
  /** The query word each term came from: terms of one word (a compound's parts) never count as near. */
  wordOf?: (term: string) => number;
  /** Text every passage is read with, such as the note's title and file name. */
  context?: string;
}

/** Scores one note's passages for a query (see `passageScorer`). */
export type PassageScorer = (text: string, blocks: readonly EvidenceBlock[], context?: string, positions?: NotePositions) => PassageScore;

export function scorePassages(text: string, blocks: readonly EvidenceBlock[], queryTerms: readonly string[], weightOf: (term: string) => number, tokenize: Tokenizer, query: PassageQuery = {}): PassageScore {
  return passageScorer(queryTerms, weightOf, tokenize, query)(text, blocks, query.context);
}

/**
 * `scorePassages` for many notes of one query: the query's terms, weights, word groups, probe
 * pattern and scratch arrays are made once (a search scores its best notes with one scorer;
 * made per note they were a fifth of the passage stage), then each call scores one note.
 */
export function passageScorer(queryTerms: readonly string[], weightOf: (term: string) => number, tokenize: Tokenizer, query: Omit<PassageQuery, 'context'> = {}): PassageScorer {
  const options = query.options ?? PASSAGE_DEFAULTS;
  const terms = passageTerms(queryTerms, weightOf, query.wordOf ?? (() => -1));
  const n = terms.terms.length;
  const scratch = { counts: new Float64Array(n), lastSeen: new Float64Array(n), closest: new Float64Array(n * n), countedOn: new Int32Array(n) };
  // The query's terms as ids of the positions' vocabulary (made on the first note that has positions).
  const owner = {};
  let ids: { vocabulary: PositionVocabulary; ids: number[]; mask: number } | null = null;
  const idsIn = (vocabulary: PositionVocabulary): { ids: number[]; mask: number } => {
    if (ids === null || ids.vocabulary !== vocabulary) {
      const inVocabulary = terms.terms.map((term) => vocabulary.idOf(term));
      ids = { vocabulary, ids: inVocabulary, mask: idMask(inVocabulary) };
    }
    return ids;
  };
  return (text, blocks, context, positions) => {
    // Positions stand for the text only when they were derived from it by this tokenizer.
    const known = positions !== undefined && positions.text === text && positions.vocabulary.tokenize === tokenize ? positions : null;
    const termIds = known === null ? null : idsIn(known.vocabulary);
    const slots = known === null ? null : known.vocabulary.select(owner, termIds!.ids);
    readName(terms, context, tokenize, slots !== null && known!.context === (context ?? '') ? known : null, slots);
    const matches = known === null ? collectMatches(text, terms, tokenize) : positionMatches(known, terms, slots!, termIds!.mask);
    if (terms.spelled) oneReadingPerToken(matches, terms);
    if (blocks[0]?.key === FRONTMATTER && matches.count > 0) dropNameLines(matches, text, blocks[0]);
    const { lines, count, lineStarts, lineBase, lineCount } = matches;
    const contextOnly = termScoreOf(terms.context, terms.weights, 1, options.k1);
    let best = contextOnly;
    let bestProximity = 0;
    let bestBlock: EvidenceBlock | null = null;
    let bestFrom = -1;
    let bestTo = -1;
    let bestWindowed = false;
    for (const block of blocks) {
      // Frontmatter values are body text to the ranker (Notion and Dataview notes keep their
      // prose there), so the frontmatter is a passage like any section.
      const last = Math.min(block.bodyEnd, lineCount);
      const from = firstAtOrAfter(lines, count, block.start);
      let to = from;
      while (to < count && lines[to]! <= last) to++;
      if (to === from) continue;
      const span = lineStarts[lineBase + last]! - (block.start >= 1 ? lineStarts[lineBase + block.start - 1]! : 0);
      const chars = block.key === FRONTMATTER ? Math.max(span, options.sectionChars) : span;
      const passage = scoreBlock(matches, from, to, chars, terms, scratch, options);
      if (block.linkList === true) {
        passage.score *= options.linkList;
        passage.proximity *= options.linkList;
      }
      if (passage.score + passage.proximity > best) {
        best = passage.score + passage.proximity;
        bestProximity = passage.proximity;
        bestBlock = block;
        bestFrom = passage.from;
        bestTo = passage.to;
        bestWindowed = chars > options.sectionChars;
      }
    }
    // No section matched: the note's name alone, quoted from its first section (looked up only
    // then: a note's block objects are memory a search has not read yet).
    if (bestBlock === null && contextOnly > 0) bestBlock = blocks.find((block) => block.key !== FRONTMATTER) ?? null;
    const named = contextOnly > 0 && nameHoldsEveryWord(terms);
    const score: PassageScore = { score: best, proximity: bestProximity, block: bestBlock, line: -1, lineCount, lineFrom: -1, lineTo: -1, windowFirst: -1, windowLast: -1, named };
    // The best line only for the winning section (a search scores many notes of many sections).
    if (bestFrom !== -1) {
      score.line = bestLineOf(matches, terms.weights, bestFrom, bestTo, bestBlock!, scratch.countedOn);
      score.lineFrom = lineStarts[lineBase + score.line - 1]!;
      // Without the line's break (the next line's start is one past it); after the last line, the text's length.
      score.lineTo = score.line < lineCount ? lineStarts[lineBase + score.line]! - 1 : lineStarts[lineBase + lineCount]!;
      if (bestWindowed) [score.windowFirst, score.windowLast] = [lines[bestFrom]!, lines[bestTo - 1]!];
    }
    return score;
  };
}

/** Whether each query word (a term, or one of its group's readings) occurs in the note's name. */
function nameHoldsEveryWord(terms: PassageTerms): boolean {
  const { context, group } = terms;
  for (let t = 0; t < context.length; t++) {
    if (context[t]! > 0) continue;
    let held = false;
    for (let u = 0; u < context.length && !held; u++) held = group[u] === group[t] && context[u]! > 0;
    if (!held) return false;
  }
  return true;
}

/** One note as a `PassageScorer` takes it. */
export interface PassageNote {
  text: string;
  blocks: readonly EvidenceBlock[];
  context?: string;
  positions?: NotePositions;
}

/** What `scoreNotes` read ahead, kept so that the reads are not optimized away as unused. */
const readAhead = { sum: 0 };

/**
 * A search's candidates scored by one scorer, in order. Each note's positions and first block
 * are read before any note is scored: a search's notes are memory it has not read yet, so each
 * first read waits on main memory — one note after another when each is read as it is scored,
 * but together when one short loop reads them all first (the bench's search with passages 0.89–
 * 0.91× at p50; those first reads were most of the passage stage).
 */
export function scoreNotes(score: PassageScorer, notes: readonly PassageNote[]): PassageScore[] {
  let first = 0;
  for (const note of notes) first += (note.positions?.data[0] ?? 0) + (note.blocks[0]?.start ?? 0);
  readAhead.sum = first;
  return notes.map((note) => score(note.text, note.blocks, note.context, note.positions));
}

const FRONTMATTER = '#---frontmatter---';

/** The query's distinct terms with their weights, their counts in the note's name, their word groups and probes. */
interface PassageTerms {
  terms: string[];
  /** Each term's position in `terms`. */
  index: Map<string, number>;
  weights: number[];
  /** Occurrences in the note's name, which every passage is read with (per note). */
  context: Float64Array;
  /** Terms of one query word share a group (and are never "near" each other); others have their own. */
  group: number[];
  /** Whether some group has several terms (a word's spellings in two languages, a compound's parts): only then can one chunk match a query word twice. */
  spelled: boolean;
  /** Scratch: the terms one chunk of the name holds (`countChunk`). */
  chunk: number[];
  /**
   * Where a term may start, or null when there are no terms; made for the first note scored
   * without positions (a pattern costs its parse even when it never runs).
   */
  places: RegExp | null | undefined;
  /**
   * The terms' first characters, lower-cased (`probeOf`): the pattern's alternatives (it matches
   * case-insensitively), and read from positions only for a token whose chunk hides its own.
   */
  probes: string[];
}

function passageTerms(queryTerms: readonly string[], weightOf: (term: string) => number, wordOf: (term: string) => number): PassageTerms {
  const terms = [...new Set(queryTerms)];
  const group = terms.map((term, i) => (wordOf(term) === -1 ? -1 - i : wordOf(term)));
  return {
    terms,
    index: new Map(terms.map((term, i) => [term, i])),
    weights: terms.map(weightOf),
    context: new Float64Array(terms.length),
    group,
    spelled: new Set(group).size < group.length,
    chunk: [],
    places: undefined,
    probes: [...new Set(terms.map(probeOf))],
  };
}

/**
 * One match per chunk (the text between two spaces, where matches are placed) and query word.
 * In a vault of two languages a word is read in both (`Casa` is `casa` to English and `cas` to
 * Portuguese), and a compound as its whole and its parts (`GitHub`: `github`, `git`, `hub`);
 * all are terms of one query word, found at one place. Counted each, such a word weighed double
 * in a passage and its nearness to every other word four times over, while the index counts it
 * once (a note is indexed in its own language). The reading with the larger weight is kept, in
 * place. The note's name is read the same way (`countChunk`).
 */
function oneReadingPerToken(matches: MatchList, terms: PassageTerms): void {
  const { lines, terms: matched, offsets, count } = matches;
  const { group, weights } = terms;
  // Nothing moves before the first chunk that one query word matched twice.
  let run = 0;
  while (run < count && !readTwice(matched, offsets, group, run, count)) {
    const at = offsets[run];
    while (run < count && offsets[run] === at) run++;
  }
  let kept = run;
  while (run < count) {
    // The matches of one chunk are consecutive (they share its start).
    let end = run + 1;
    while (end < count && offsets[end] === offsets[run]) end++;
    const first = kept;
    for (let i = run; i < end; i++) {
      const t = matched[i]!;
      let same = first;
      while (same < kept && group[matched[same]!] !== group[t]) same++;
      if (same < kept) {
        if (weights[t]! > weights[matched[same]!]!) matched[same] = t;
        continue;
      }
      lines[kept] = lines[i]!;
      matched[kept] = t;
      offsets[kept] = offsets[i]!;
      kept++;
    }
    run = end;
  }
  matches.count = kept;
}

/** Whether the chunk whose matches start at `run` has two of one query word. */
function readTwice(matched: Int32Array, offsets: Int32Array, group: readonly number[], run: number, count: number): boolean {
  for (let i = run + 1; i < count && offsets[i] === offsets[run]; i++) {
    for (let j = run; j < i; j++) if (group[matched[j]!] === group[matched[i]!]) return true;
  }
  return false;
}

/**
 * The query terms in the note's name (`context`), counted into `terms.context`: from the term
 * positions when they were read with this name, else from the name's text. A query word with
 * several readings counts once per chunk (`countChunk`).
 */
function readName(terms: PassageTerms, context: string | undefined, tokenize: Tokenizer, positions: NotePositions | null, slots: Int32Array | null): void {
  terms.context.fill(0);
  terms.chunk.length = 0;
  if (positions !== null && slots !== null) {
    const { data, contextEnd } = positions;
    for (let i = 0; i < contextEnd; i++) {
      let id = data[i]!;
      // The first token of each chunk is stored as ~id.
      if (id < 0) {
        id = ~id;
        endChunk(terms);
      }
      const t = id < slots.length ? slots[id]! : -1;
      if (t >= 0) nameTerm(terms, t);
    }
  } else if (context) {
    // Chunks as the positions read them: a new one after any break between two words.
    let scanned = 0;
    scanWordSpans(context, (start, end) => {
      for (let i = scanned; i < start; i++) {
        if (isBreak(context.charCodeAt(i))) {
          endChunk(terms);
          break;
        }
      }
      scanned = end;
      for (const token of tokenize.expandSpan ? tokenize.expandSpan(context, start, end) : tokenize.expand(context.slice(start, end))) {
        const t = terms.index.get(token);
        if (t !== undefined) nameTerm(terms, t);
      }
    });
  }
  endChunk(terms);
}

/** A query term of the name: counted at once, or, for a query with several readings of a word, when its chunk ends. */
function nameTerm(terms: PassageTerms, t: number): void {
  if (terms.spelled) terms.chunk.push(t);
  else terms.context[t]!++;
}

function endChunk(terms: PassageTerms): void {
  if (terms.spelled) countChunk(terms.chunk, terms);
}

/** Counts one chunk of the name's terms into `terms.context`: each query word once, by its heaviest reading (as `oneReadingPerToken`); empties `chunk`. */
function countChunk(chunk: number[], terms: PassageTerms): void {
  // Nearly every chunk is one word of one reading.
  if (chunk.length === 1) terms.context[chunk[0]!]!++;
  else
    for (let i = 0; i < chunk.length; i++) {
      const t = chunk[i]!;
      let heaviest = true;
      for (let j = 0; j < chunk.length && heaviest; j++) {
        const u = chunk[j]!;
        // The first of equal weights counts.
        if (j !== i && terms.group[u] === terms.group[t] && (terms.weights[u]! > terms.weights[t]! || (terms.weights[u] === terms.weights[t] && j < i))) heaviest = false;
      }
      if (heaviest) terms.context[t]!++;
    }
  chunk.length = 0;
}

/**
 * Where the terms occur, in line order, and the text's line starts (line n's at `lineBase` + n −
 * 1; after the last, the text's end): the shared buffers unless a search runs inside this one.
 */
interface Matches extends MatchList {
  lineStarts: Int32Array;
  lineBase: number;
  lineCount: number;
}

function collectMatches(text: string, terms: PassageTerms, tokenize: Tokenizer): Matches {
  const nested = matching;
  // A search run by the tokenizer (inside `findMatches`) gets buffers of its own.
  const matches = nested ? { ...emptyMatchList(), lineStarts: new Int32Array(64), lineBase: 0, lineCount: 0 } : shared;
  matching = true;
  try {
    lineStartsOf(text, matches);
    if (terms.places === undefined) terms.places = terms.probes.length > 0 ? placesPattern(terms.probes) : null;
    if (terms.places !== null) findMatches(text, terms.places, terms.index, tokenize, matches);
    else matches.count = 0;
  } finally {
    matching = nested;
  }
  return matches;
}

/** `collectMatches` from a note's positions: the same matches, with no walk over its text. */
function positionMatches(positions: NotePositions, terms: PassageTerms, slots: Int32Array, mask: number): Matches {
  const matches = matching ? { ...emptyMatchList(), lineStarts: positions.data, lineBase: 0, lineCount: 0 } : positionShared;
  matches.count = 0;
  matches.lineStarts = positions.data;
  matches.lineBase = positions.tokensEnd;
  matches.lineCount = positions.lineCount;
  matchPositions(positions, slots, mask, terms.probes, matches);
  return matches;
}

/** `shared` for notes scored from positions (whose line starts are the positions' own, not a buffer to fill). */
const positionShared: Matches = { ...emptyMatchList(), lineStarts: new Int32Array(0), lineBase: 0, lineCount: 0 };

/**
 * One block's passage from its matches [from, to): the section, or for a section longer than
 * `sectionChars` its best `windowChars` window (a conversation log is one section of many turns,
 * and one or two of them answer); its term score, and the proximity bonus of the terms *in it*
 * — measured over a whole long section, a pair close together anywhere lent its bonus to a window
 * elsewhere (Portuguese set MRR 0.952 → 0.968). Returns the passage's matches [from, to).
 */
function scoreBlock(
  matches: Matches,
  from: number,
  to: number,
  chars: number,
  terms: PassageTerms,
  scratch: { counts: Float64Array; lastSeen: Float64Array; closest: Float64Array },
  options: typeof PASSAGE_DEFAULTS,
): { score: number; proximity: number; from: number; to: number } {
  const { counts, lastSeen, closest } = scratch;
  const n = terms.terms.length;
  let score = -1;
  if (chars > options.sectionChars) {
    const window = bestWindow(matches.terms, matches.offsets, from, to, counts, terms.context, terms.weights, options);
    score = window.score;
    from = window.from;
    to = window.to;
  }
  counts.set(terms.context);
  lastSeen.fill(-1);
  closest.fill(0);
  for (let i = from; i < to; i++) {
    const t = matches.terms[i]!;
    counts[t]!++;
    lastSeen[t] = matches.offsets[i]!;
    // The closest earlier occurrence of every other term: a pair counts once, at its nearest.
    for (let u = 0; u < n; u++) {
      if (u === t || lastSeen[u]! < 0 || terms.group[u] === terms.group[t]) continue;
      const apart = Math.max(1, Math.round((matches.offsets[i]! - lastSeen[u]!) / options.charsPerWord));
      const pair = t < u ? t * n + u : u * n + t;
      const near = 1 / (apart * apart);
      if (near > closest[pair]!) closest[pair] = near;
    }
  }
  if (score < 0) score = termScoreOf(counts, terms.weights, 1 - options.b + (options.b * chars) / options.sectionChars, options.k1);
  let proximity = 0;
  for (let t = 0; t < n; t++) {
    for (let u = t + 1; u < n; u++) proximity += Math.min(terms.weights[t]!, terms.weights[u]!) * closest[t * n + u]!;
  }
  return { score, proximity: proximity * options.proximity, from, to };
}

function termScoreOf(counts: Float64Array, weights: readonly number[], norm: number, k1: number): number {
  let score = 0;
  for (let t = 0; t < counts.length; t++) {
    const tf = counts[t]!;
    if (tf > 0) score += (weights[t]! * tf * (k1 + 1)) / (tf + k1 * norm);
  }
  return score;
}

/** A frontmatter key whose values are the note's other names (`aliases: [Inês, Ines]`), tried at a line's start (sticky: no string per line). */
const NAME_KEY = /(?:aliases|alias):/iy;

/**
 * Drops the matches on the frontmatter's `aliases` lines. They are the note's names, which the
 * name boost credits already; read as passage text they made `aliases:` the best passage of a
 * person's note ("who is Ines?" quoted "Inês"), not the text about the person.
 */
function dropNameLines(matches: Matches, text: string, frontmatter: EvidenceBlock): void {
  const { lines, terms, offsets, lineStarts, lineBase } = matches;
  const last = Math.min(frontmatter.bodyEnd, matches.lineCount);
  let from = -1;
  let to = -1;
  for (let n = frontmatter.start; n <= last; n++) {
    const at = lineStarts[lineBase + n - 1]!;
    if (from === -1) {
      NAME_KEY.lastIndex = at;
      if (NAME_KEY.test(text)) from = to = n;
    } else if (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 9 || text.charCodeAt(at) === 45)
      to = n; // an indented or `- ` item of the list
    else break;
  }
  if (from === -1) return;
  let kept = 0;
  for (let i = 0; i < matches.count; i++) {
    if (lines[i]! >= from && lines[i]! <= to) continue;
    lines[kept] = lines[i]!;
    terms[kept] = terms[i]!;
    offsets[kept] = offsets[i]!;
    kept++;
  }
  matches.count = kept;
}

/** The `windowChars`-wide window of matches in [from, to) with the best term score, as matches [from, to); `counts` is scratch. */
function bestWindow(
  matched: Int32Array,
  offsets: Int32Array,
  from: number,
  to: number,
  counts: Float64Array,
  context: Float64Array,
  weights: readonly number[],
  options: typeof PASSAGE_DEFAULTS,
): { score: number; from: number; to: number } {
  counts.set(context);
  const best = { score: 0, from, to: from + 1 };
  for (let left = from, right = from; right < to; right++) {
    counts[matched[right]!]!++;
    while (offsets[right]! - offsets[left]! > options.windowChars) counts[matched[left++]!]!--;
    const score = termScoreOf(counts, weights, 1, options.k1);
    if (score > best.score) {
      best.score = score;
      best.from = left;
      best.to = right + 1;
    }
  }
  return best;
}

/** The line of a block's matches with the most query-term weight (a body line wins a tie with the heading). */
function bestLineOf(matches: MatchList, weights: readonly number[], from: number, to: number, block: EvidenceBlock, countedOn: Int32Array): number {
  const { lines, terms: matched } = matches;
  let bestLine = -1;
  let bestWeight = 0;
  // Which line last counted each term (scratch): distinct terms per line without a set per line.
  countedOn.fill(-1);
  for (let i = from; i < to;) {
    const n = lines[i]!;
    let weight = 0;
    let distinct = 0;
    for (; i < to && lines[i] === n; i++) {
      const t = matched[i]!;
      weight += weights[t]!;
      if (countedOn[t] !== n) {
        countedOn[t] = n;
        distinct++;
      }
    }
    weight *= distinct;
    const isHeading = block.level > 0 && n === block.start;
    if (weight > bestWeight || (weight > 0 && weight === bestWeight && bestLine === block.start && !isHeading)) {
      bestWeight = weight;
      bestLine = n;
    }
  }
  return bestLine;
}

/** Writes the text's line starts and count into `matches` (growing its buffer as needed). */
function lineStartsOf(text: string, matches: Matches): void {
  matches.lineBase = 0;
  let n = 1;
  let starts = matches.lineStarts;
  starts[0] = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (n + 1 >= starts.length) {
      const grown = new Int32Array(starts.length * 2);
      grown.set(starts);
      starts = matches.lineStarts = grown;
    }
    starts[n++] = at + 1;
  }
  starts[n] = text.length;
  matches.lineCount = n;
}

/** The evidence of a scored passage: its best line as the excerpt, its heading path and line range. */
export function passageEvidence(text: string, passage: PassageScore, blocks: readonly EvidenceBlock[]): Evidence {
  const lineCount = passage.lineCount;
  const block = passage.block;
  if (block === null || passage.named) return openingOf(text, blocks, lineCount);
  // A heading is in `section` already: when only it matched, its first line of text says more.
  const matched = passage.line !== -1 && !(block.level > 0 && passage.line === block.start);
  const line = matched ? passage.line : firstContentLine(text.split('\n'), block);
  const quoted = matched ? text.slice(passage.lineFrom, passage.lineTo) : line === -1 ? '' : lineAt(text, line);
  return {
    excerpt: line === -1 ? '' : clip(cleanLine(quoted), EXCERPT_CHARS),
    section: block.headingPath.join(' > '),
    lines: [block.start, Math.min(block.bodyEnd, lineCount)],
    ...(passage.windowFirst === -1 ? {} : { passage: [passage.windowFirst, passage.windowLast] as [number, number] }),
  };
}

export function findEvidence(text: string, blocks: readonly EvidenceBlock[], queryTerms: readonly string[], weightOf: (term: string) => number, tokenize: Tokenizer): Evidence {
  return passageEvidence(text, scorePassages(text, blocks, queryTerms, weightOf, tokenize), blocks);
}

/**
 * The note's opening, for a note matched by its name alone: the first line of text after the
 * frontmatter (a heading is in `section` already), with the section holding it.
 */
function openingOf(text: string, blocks: readonly EvidenceBlock[], lineCount: number): Evidence {
  // One walk down the lines (blocks are in the note's order), stopping at the first line of text: no split of a long note.
  let n = 1;
  let start = 0;
  for (const block of blocks) {
    if (block.key === FRONTMATTER) continue;
    const first = block.level > 0 ? block.start + 1 : block.start;
    const last = Math.min(block.bodyEnd, lineCount);
    for (; n <= last && start <= text.length; n++) {
      const end = text.indexOf('\n', start);
      const stop = end === -1 ? text.length : end;
      const line = n >= first ? cleanLine(text.slice(start, stop)) : '';
      start = stop + 1;
      if (line !== '' && line !== '---') return { excerpt: clip(line, EXCERPT_CHARS), section: block.headingPath.join(' > '), lines: [block.start, last] };
    }
  }
  // No text under any heading (a note of frontmatter only): its first line that says something.
  const head = blocks.find((candidate) => candidate.key !== FRONTMATTER);
  return { excerpt: firstText(text.split('\n'), head ? head.start : 1, lineCount), section: head ? head.headingPath.join(' > ') : '', lines: head ? [head.start, Math.min(head.bodyEnd, lineCount)] : null };
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

/** The first index whose value is ≥ `value` in the first `count` values of an ascending array. */
function firstAtOrAfter(values: Int32Array, count: number, value: number): number {
  let low = 0;
  let high = count;
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

/** List, quote and heading markers at a line's start. */
const MARKERS = /^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[.\]\s+)?|\d+[.)]\s+)?/;
/** A character `MARKERS` can start with: a line starting otherwise has none (and is not copied). */
const MARKER_START = /^[\s>#*+\-\d]/;

/** Drops list, quote and heading markers (and a line's `\r`) so an excerpt reads as text. */
function cleanLine(line: string): string {
  const text = line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
  return (MARKER_START.test(text) ? text.replace(MARKERS, '') : text).trim();
}

/** A UTF-16 surrogate, half of a code point's pair. */
const SURROGATE = /[\ud800-\udfff]/;

/** At most `max` characters (code points), with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text; // never more code points than code units
  // No pair before the cut (nearly every line): the first `max` code points are code units. The
  // pattern finds that 6× faster than counting code points below, which was a tenth of the stage.
  const pair = text.search(SURROGATE);
  if (pair === -1 || pair >= max) return `${text.slice(0, max - 1)}…`;
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
