/**
 * Term positions: a note's tokens as (term id, chunk start) pairs in text order, derived once
 * from its text, so the passage stage compares integers with the query's term ids instead of
 * finding terms in the text at every query (a probe pattern, then tokenizing the chunks it stops
 * at: two-thirds of the stage). The pairs say exactly what `findMatches` (evidence.ts) would
 * find, for any query: the same tokens, each at its whitespace-delimited chunk's start, and each
 * marked when its chunk does not show the term's probe — a Porter2 irregular stem (`dying` →
 * `die`) that the probe pattern only finds when another query term's probe or a non-ASCII
 * character sits in the same chunk. Ids come from a vocabulary of the tokenizer's own (every
 * token it gives), not the index's: the scorer reads notes with the query tokenizer (a union of
 * the vault's languages), which the index build does not use, and a note read from disk may hold
 * words the index has not seen yet.
 */
import { scanWordSpans, type Tokenizer } from './tokenizer.js';
import { WordTable } from './word-table.js';

/** Length of the query-term prefix a plain-ASCII chunk must contain to be worth tokenizing (evidence.ts's probe pattern). */
export const PROBE_CHARS = 3;

export interface NotePositions {
  /** Whose ids these are (one vocabulary per tokenizer). */
  readonly vocabulary: PositionVocabulary;
  /**
   * The text they were derived from (the caller's own string, so checking that positions are
   * the text's is comparing two references, without reading the text's memory).
   */
  readonly text: string;
  /** The text every passage of the note is read with (its title and file name). */
  readonly context: string;
  /**
   * One array, in the order the scorer reads it (a note's first read of each array missed the
   * cache): the context's tokens' term ids in [0, `contextEnd`), the first token of each chunk
   * (the text between two spaces) as `~id`, so its readings are counted once; then per token of the text, in
   * text order, its term id and its chunk's start — or `~start` (negative) when the chunk is
   * plain ASCII that does not contain the term's probe, so the token counts only when another of
   * the query's probes is in the chunk — in [`contextEnd`, `tokensEnd`); then where line n
   * starts at `tokensEnd` + n − 1, and the text's length at `tokensEnd` + `lineCount`.
   */
  readonly data: Int32Array;
  readonly contextEnd: number;
  readonly tokensEnd: number;
  readonly lineCount: number;
}

/** A word's value in the vocabulary's table: no tokens (a stop word), or where its tokens are in `multi`. */
const NO_TOKENS = -1;
const MULTI = -2;

/**
 * Term ids for one tokenizer's tokens, a word table from words to their tokens' ids, and the
 * query's term slots (`select`). A word of one token that shows its own probe — nearly every
 * word — is one number in the table, so deriving a note's positions costs a hash and a compare
 * per word.
 */
export class PositionVocabulary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly words = new WordTable<number>();
  /** Words of several tokens or of a hidden one: at `MULTI - value`, the count, then (id, shows its probe) pairs. */
  private readonly multi: number[] = [];
  private multiKept = 0;
  /** Per term id, its index among the selected query terms, or −1. */
  private slots = new Int32Array(1024).fill(-1);
  private owner: object | null = null;
  private selected: readonly number[] = [];
  /** The note being derived (see `derive`). */
  private text = '';
  private out = new Int32Array(4096);
  private used = 0;
  private chunkFrom = 0;
  private scanned = 0;
  private deriving = false;

  constructor(readonly tokenize: Tokenizer) {}

  /** A term's id, minting one for a term not seen yet (a query term no note has read). */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  /**
   * The slot table with `ids` selected (id → its index in `ids`, others −1) for `owner` (a
   * scorer): one table shared by every scorer of this vocabulary, rewritten only when another
   * owner selected since, so a scorer pays for its terms once, not a table per query.
   */
  select(owner: object, ids: readonly number[]): Int32Array {
    if (this.owner === owner) return this.slots;
    for (const id of this.selected) this.slots[id] = -1;
    if (this.terms.length > this.slots.length) {
      const slots = new Int32Array(Math.max(this.terms.length, this.slots.length * 2)).fill(-1);
      this.slots = slots;
    }
    for (let i = 0; i < ids.length; i++) this.slots[ids[i]!] = i;
    this.owner = owner;
    this.selected = ids;
    return this.slots;
  }

  /** The positions of `text`, read with `context` (see `NotePositions`). */
  derive(text: string, context = ''): NotePositions {
    // The note being derived is the vocabulary's state: a tokenizer deriving while it is
    // called from a derivation (none does) would corrupt it, so that is refused.
    if (this.deriving) throw new Error('term positions derived from inside a derivation');
    this.deriving = true;
    try {
      this.used = 0;
      const lineStarts = lineStartsOf(text);
      // The context's tokens first (their chunks unused), then the text's.
      this.read(context);
      const contextPairs = this.used;
      this.read(text);
      const contextEnd = contextPairs / 2;
      const tokensEnd = contextEnd + this.used - contextPairs;
      const data = new Int32Array(tokensEnd + lineStarts.length);
      for (let i = 0, chunk = -1; i < contextEnd; i++) {
        const at = this.out[2 * i + 1]! < 0 ? ~this.out[2 * i + 1]! : this.out[2 * i + 1]!;
        data[i] = at === chunk ? this.out[2 * i]! : ~this.out[2 * i]!;
        chunk = at;
      }
      data.set(this.out.subarray(contextPairs, this.used), contextEnd);
      data.set(lineStarts, tokensEnd);
      return { vocabulary: this, text, context, data, contextEnd, tokensEnd, lineCount: lineStarts.length - 1 };
    } finally {
      this.text = '';
      this.deriving = false;
    }
  }

  /** Appends the (id, chunk) pairs of `text`'s tokens to `out`. */
  private read(text: string): void {
    this.text = text;
    this.chunkFrom = 0;
    this.scanned = 0;
    scanWordSpans(text, this.visitWord);
  }

  private readonly visitWord = (start: number, end: number, hash: number): void => {
    const { text } = this;
    // The chunk is what lies between whitespace: words hold none, so only the gap since the last word is read.
    for (let i = this.scanned; i < start; i++) if (isBreak(text.charCodeAt(i))) this.chunkFrom = i + 1;
    this.scanned = end;
    const value = this.words.lookup(text, start, end, this.expandIds, hash);
    if (value >= 0) this.push(value, this.chunkFrom);
    else if (value !== NO_TOKENS) {
      const at = MULTI - value;
      const { multi } = this;
      for (let i = at + 1, last = at + 2 * multi[at]!; i < last; i += 2) {
        const id = multi[i]!;
        const shown = multi[i + 1] === 1 || chunkShows(text, this.chunkFrom, [probeOf(this.terms[id]!)]);
        this.push(id, shown ? this.chunkFrom : ~this.chunkFrom);
      }
    }
  };

  private push(id: number, chunk: number): void {
    if (this.used + 2 > this.out.length) {
      const out = new Int32Array(this.out.length * 2);
      out.set(this.out);
      this.out = out;
    }
    this.out[this.used++] = id;
    this.out[this.used++] = chunk;
  }

  /** A new word's value: one visible token's id, NO_TOKENS, or MULTI minus where its tokens are kept. */
  private readonly expandIds = (word: string): number => {
    const tokens = this.tokenize.tokensOf(word);
    if (tokens.length === 0) return NO_TOKENS;
    const lower = word.toLowerCase();
    const ascii = isAscii(word);
    const shows = (token: string) => !ascii || lower.includes(probeOf(token));
    if (tokens.length === 1 && shows(tokens[0]!)) return this.idOf(tokens[0]!);
    // A word the full table will not remember is read at once: its tokens go past the kept
    // part of `multi`, overwritten by the next such word, so `multi` stays bounded.
    const remembered = !this.words.full;
    const at = (this.multi.length = this.multiKept);
    this.multi.push(tokens.length);
    for (const token of tokens) this.multi.push(this.idOf(token), shows(token) ? 1 : 0);
    if (remembered) this.multiKept = this.multi.length;
    return MULTI - at;
  };
}

const vocabularies = new WeakMap<Tokenizer, PositionVocabulary>();

/** The positions vocabulary of a tokenizer (made on first use, kept while the tokenizer lives). */
export function positionVocabulary(tokenize: Tokenizer): PositionVocabulary {
  let vocabulary = vocabularies.get(tokenize);
  if (vocabulary === undefined) vocabularies.set(tokenize, (vocabulary = new PositionVocabulary(tokenize)));
  return vocabulary;
}

/** A note's term positions as `tokenize` reads it, with the context its passages are read with (see `NotePositions`). */
export function notePositions(text: string, tokenize: Tokenizer, context?: string): NotePositions {
  return positionVocabulary(tokenize).derive(text, context);
}

/** What the probe pattern looks for of a term, lower-cased as the case-insensitive pattern compares. */
export function probeOf(term: string): string {
  return term.slice(0, PROBE_CHARS).toLowerCase();
}

/**
 * Whether the probe pattern stops in the chunk starting at `from`: it holds a non-ASCII
 * character, or (ASCII, case-insensitively) one of `probes`. A non-ASCII probe never matches
 * ASCII text under the pattern's case folding, nor under `includes`.
 */
export function chunkShows(text: string, from: number, probes: readonly string[]): boolean {
  let to = from;
  while (to < text.length && !isBreak(text.charCodeAt(to))) {
    if (text.charCodeAt(to) >= 128) return true;
    to++;
  }
  const chunk = text.slice(from, to).toLowerCase();
  return probes.some((probe) => chunk.includes(probe));
}

/**
 * Where a query's terms occur in a note, in text order: the line, the term's index and the
 * chunk's start of match i < `count` at i of each array. The arrays are reused from note to note
 * and only grow (a fresh set per note was most of the passage stage's allocation).
 */
export interface MatchList {
  lines: Int32Array;
  terms: Int32Array;
  offsets: Int32Array;
  count: number;
}

export function emptyMatchList(capacity = 64): MatchList {
  return { lines: new Int32Array(capacity), terms: new Int32Array(capacity), offsets: new Int32Array(capacity), count: 0 };
}

/** Appends a match to `list`, growing its arrays when full. */
export function addMatch(list: MatchList, line: number, term: number, offset: number): void {
  const at = list.count++;
  if (at === list.lines.length) {
    const grow = (from: Int32Array) => {
      const grown = new Int32Array(from.length * 2);
      grown.set(from);
      return grown;
    };
    list.lines = grow(list.lines);
    list.terms = grow(list.terms);
    list.offsets = grow(list.offsets);
  }
  list.lines[at] = line;
  list.terms[at] = term;
  list.offsets[at] = offset;
}

/**
 * A 32-bit filter of term ids: bit `id mod 32` set for each of `ids`. A token whose bit is clear
 * is none of them, which a register test says without reading the slot table (a look-up at a
 * random place per token; a query has a few terms, so most tokens stop here).
 */
export function idMask(ids: readonly number[]): number {
  let mask = 0;
  for (const id of ids) mask |= 1 << (id & 31);
  return mask;
}

/**
 * The query's matches in a note from its positions, appended to `out` as `findMatches` writes
 * them: the line, the term's index (`slots`, see `PositionVocabulary.select`, and `mask` their
 * `idMask`) and the chunk's start of each token that is a query term, in text order. `probes`
 * are the query's (`probeOf`), read only for a token whose chunk does not show its own.
 */
export function matchPositions(positions: NotePositions, slots: Int32Array, mask: number, probes: readonly string[], out: MatchList): void {
  const { data, contextEnd, tokensEnd, lineCount, text } = positions;
  const known = slots.length;
  let line = 1;
  for (let i = contextEnd; i < tokensEnd; i += 2) {
    const id = data[i]!;
    if (((mask >>> (id & 31)) & 1) === 0 || id >= known) continue;
    const t = slots[id]!;
    if (t < 0) continue;
    let chunk = data[i + 1]!;
    if (chunk < 0) {
      chunk = ~chunk;
      if (!chunkShows(text, chunk, probes)) continue;
    }
    while (line < lineCount && data[tokensEnd + line]! <= chunk) line++;
    addMatch(out, line, t, chunk);
  }
}

/** Line starts as evidence.ts's `lineStartsOf` writes them: line n at n − 1, then the text's length. */
function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(count + 1);
  let n = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts[n++] = at + 1;
  starts[n] = text.length;
  return starts;
}

function isAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) >= 128) return false;
  return true;
}

/** Whitespace and the line break: no token spans one (evidence.ts's chunks end at these). */
function isBreak(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 11;
}
