/**
 * Per-note term statistics: how often each term occurs in each field, and each field's length.
 * Encoded as one compact blob per note (term ids from a shared vocabulary), so start-up decodes
 * typed arrays instead of re-tokenizing the vault, and a changed note rewrites only its own row.
 *
 * Layout 2 (unsigned LEB128 varints): [2, fieldCount, len_0 … len_{F-1}, pairCount,
 * (termId, tf << 3 | field)*], pairs grouped by term (a term's pairs adjacent, fields ascending),
 * terms in no set order. About 3 bytes a pair: a 10k-note vault's statistics went from 20.8 MB
 * (layout 1) to 7 MB, and writing them was a fifth of building the keyword index.
 * Layout 1 (Uint32, little-endian; still read): [1, fieldCount, len_0 … len_{F-1},
 * (termId, field << 24 | tf)*].
 */
import { FIELDS, type FieldTexts } from './fields.js';
import { scanWordSpans, type Tokenizer } from './tokenizer.js';
import { WordTable } from './word-table.js';

const FORMAT = 2;
const MAX_TF = (1 << 24) - 1;

export interface TermStats {
  /** Token count per field, in FIELDS order. */
  fieldLengths: Uint32Array;
  termIds: Uint32Array;
  fields: Uint8Array;
  tfs: Uint32Array;
}

/**
 * Where the arrays of many notes' statistics are cut from: each note's arrays are views into
 * shared chunks, not typed arrays of their own. Three arrays per note (30k at 10k notes), each
 * with a backing store of its own, cost more to allocate than the counting that filled them,
 * and were left behind as freed small blocks after a load (~10 MB more RSS after the first);
 * a chunk is one allocation, freed whole once none of its notes' statistics is held.
 */
export class StatsArena {
  private termIds = new Uint32Array(0);
  private fields = new Uint8Array(0);
  private tfs = new Uint32Array(0);
  private lengths = new Uint32Array(0);
  private used = 0;
  private lengthsUsed = 0;

  /** `pairs` entries in each array, zeroed, and `fieldCount` zeroed field lengths. */
  take(pairs: number, fieldCount: number): TermStats {
    if (this.used + pairs > this.termIds.length) {
      const size = Math.max(ARENA_CHUNK, pairs);
      this.termIds = new Uint32Array(size);
      this.fields = new Uint8Array(size);
      this.tfs = new Uint32Array(size);
      this.used = 0;
    }
    if (this.lengthsUsed + fieldCount > this.lengths.length) {
      this.lengths = new Uint32Array(Math.max(ARENA_CHUNK / 16, fieldCount));
      this.lengthsUsed = 0;
    }
    const from = this.used;
    const to = (this.used += pairs);
    const at = this.lengthsUsed;
    this.lengthsUsed += fieldCount;
    return {
      fieldLengths: this.lengths.subarray(at, at + fieldCount),
      termIds: this.termIds.subarray(from, to),
      fields: this.fields.subarray(from, to),
      tfs: this.tfs.subarray(from, to),
    };
  }
}

/** Pairs per arena chunk: a few hundred notes' worth (a 10k-note vault's average is ~250 a note). */
const ARENA_CHUNK = 1 << 16;

/** A word's value in the counter's table: no terms (a stop word), or where its ids start in `multi`. */
const NO_TERMS = -1;
const MULTI = -2;

/**
 * Counts (term, field) occurrences for one note at a time. A word's term ids are cached (words
 * repeat) as one number — the term id itself for the usual word of one token, so counting it
 * reads no array — and counting goes through scratch arrays indexed by term id, not a Map per
 * note: indexing calls this once per note and these were most of its cost. Each term the note
 * uses gets a row of per-field counts in first-seen order, so the pairs come out grouped by
 * term with no sort (a per-note sort was ~15 % of indexing).
 */
export class TermCounter {
  private readonly words = new WordTable<number>();
  /** The ids of words of several tokens: at `MULTI - value`, the count, then the ids. */
  private readonly multi: number[] = [];
  private readonly arena = new StatsArena();
  private stamp = 0;
  /**
   * Per term id, side by side (one cache line, not two): at 2·id the note (stamp) that last
   * used it, at 2·id + 1 its row in `counts`.
   */
  private seen = new Uint32Array(2 * 1024);
  /** Per row: the term id, and FIELDS.length counts. */
  private rowTerm = new Uint32Array(256);
  private counts = new Uint32Array(256 * FIELDS.length);
  /**
   * Per row: a bit per field that has a count. A field's count is valid only under its bit, so
   * a new row clears one byte instead of FIELDS.length counts, and collecting visits only the
   * fields a term is in (most are in one).
   */
  private rowFields = new Uint8Array(256);
  /** The note being counted: its rows, its (term, field) pairs so far, its field lengths. */
  private rows = 0;
  private pairs = 0;
  private readonly lengths = new Uint32Array(FIELDS.length);
  /** The field being counted: its text, its index in FIELDS, its tokens so far. */
  private text = '';
  private field = 0;
  private length = 0;
  /** How much of `multi` belongs to remembered words (a full word table remembers no more). */
  private multiKept = 0;

  /** `idOf` maps a term to its vocabulary id, minting new ones. */
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly idOf: (term: string) => number,
  ) {}

  count(texts: FieldTexts): TermStats {
    this.stamp++;
    this.rows = this.pairs = 0;
    for (let f = 0; f < FIELDS.length; f++) {
      this.text = texts[FIELDS[f]!];
      this.field = f;
      this.length = 0;
      scanWordSpans(this.text, this.visitWord);
      this.lengths[f] = this.length;
    }
    this.text = '';
    return this.collect(this.lengths);
  }

  /** Counts one word of `text` (made once, not a closure per field of every note). */
  private readonly visitWord = (start: number, end: number, hash: number): void => {
    const value = this.words.lookup(this.text, start, end, this.expandIds, hash);
    if (value >= 0) {
      this.length++;
      this.tally(value);
    } else if (value !== NO_TERMS) {
      const { multi } = this;
      const at = MULTI - value;
      const n = multi[at]!;
      this.length += n;
      for (let i = at + 1; i <= at + n; i++) this.tally(multi[i]!);
    }
  };

  /** One occurrence of term `id` in the field being counted. */
  private tally(id: number): void {
    const F = FIELDS.length;
    const { stamp } = this;
    if (2 * id >= this.seen.length) this.growTerms(id);
    let r: number;
    if (this.seen[2 * id] !== stamp) {
      if (this.rows === this.rowTerm.length) this.growRows();
      this.seen[2 * id] = stamp;
      this.seen[2 * id + 1] = r = this.rows++;
      this.rowTerm[r] = id;
      this.rowFields[r] = 0;
    } else r = this.seen[2 * id + 1]!;
    const bit = 1 << this.field;
    if ((this.rowFields[r]! & bit) === 0) {
      this.rowFields[r]! |= bit;
      this.counts[r * F + this.field] = 1;
      this.pairs++;
    } else this.counts[r * F + this.field]!++;
  }

  /** The note's pairs, grouped by term in first-seen order, fields ascending. */
  private collect(lengths: Uint32Array): TermStats {
    const F = FIELDS.length;
    const stats = this.arena.take(this.pairs, F);
    stats.fieldLengths.set(lengths);
    const { termIds, fields, tfs } = stats;
    const { rowTerm, rowFields, counts, rows } = this;
    let p = 0;
    for (let r = 0; r < rows; r++) {
      // The row's fields, lowest bit (first field) first.
      for (let bits = rowFields[r]!; bits !== 0; bits &= bits - 1) {
        const f = 31 - Math.clz32(bits & -bits);
        termIds[p] = rowTerm[r]!;
        fields[p] = f;
        tfs[p++] = Math.min(counts[r * F + f]!, MAX_TF);
      }
    }
    return stats;
  }

  /** A new word's value: its one term id, NO_TERMS, or MULTI minus where its ids are kept. */
  private readonly expandIds = (word: string): number => {
    const tokens = this.tokenizer.tokensOf(word);
    if (tokens.length === 0) return NO_TERMS;
    if (tokens.length === 1) return this.idOf(tokens[0]!);
    // A word the full table will not remember is counted at once: its ids go past the kept
    // part of `multi`, overwritten by the next such word, so `multi` stays bounded.
    const remembered = !this.words.full;
    const at = (this.multi.length = this.multiKept);
    this.multi.push(tokens.length);
    for (const token of tokens) this.multi.push(this.idOf(token));
    if (remembered) this.multiKept = this.multi.length;
    return MULTI - at;
  };

  private growTerms(id: number): void {
    const seen = new Uint32Array(Math.max(2 * (id + 1), this.seen.length * 2));
    seen.set(this.seen);
    this.seen = seen;
  }

  private growRows(): void {
    const rowTerm = new Uint32Array(this.rowTerm.length * 2);
    rowTerm.set(this.rowTerm);
    const counts = new Uint32Array(this.counts.length * 2);
    counts.set(this.counts);
    const rowFields = new Uint8Array(this.rowFields.length * 2);
    rowFields.set(this.rowFields);
    this.rowTerm = rowTerm;
    this.counts = counts;
    this.rowFields = rowFields;
  }
}

/** Scratch for encoding: grown to the largest note seen (5 bytes bound a varint below 2^32). */
let scratch = Buffer.alloc(1 << 16);

export function encodeTermStats(stats: TermStats): Buffer {
  const pairs = stats.termIds.length;
  const bound = 5 * (3 + FIELDS.length + 2 * pairs);
  if (bound > scratch.length) scratch = Buffer.alloc(Math.max(bound, scratch.length * 2));
  let at = put(scratch, 0, FORMAT);
  at = put(scratch, at, FIELDS.length);
  for (let f = 0; f < FIELDS.length; f++) at = put(scratch, at, stats.fieldLengths[f]!);
  at = put(scratch, at, pairs);
  const { termIds, tfs, fields } = stats;
  for (let i = 0; i < pairs; i++) {
    at = put(scratch, at, termIds[i]!);
    at = put(scratch, at, tfs[i]! * 8 + fields[i]!);
  }
  // Copied out (a small Buffer comes from Node's pool): the scratch is the next note's.
  const blob = Buffer.allocUnsafe(at);
  scratch.copy(blob, 0, 0, at);
  return blob;
}

/** Writes `value` as an unsigned LEB128 varint at `at`; returns where the next one goes. */
function put(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/**
 * A blob's statistics. With an `arena` (a caller decoding every note at once), its arrays are
 * views into the arena's chunks; without, arrays of their own.
 */
export function decodeTermStats(blob: Uint8Array, arena?: StatsArena): TermStats {
  if (blob[0] === 1) return decodeLayout1(blob);
  // A whole stream ends on a byte without the continuation bit, so no varint runs off the end.
  if (blob.length === 0 || blob[blob.length - 1]! >= 0x80) throw new Error('truncated term-stats blob');
  cursor = 0;
  const format = varint(blob);
  const fieldCount = varint(blob);
  if (format !== FORMAT || fieldCount !== FIELDS.length) throw new Error(`unknown term-stats format ${format}/${fieldCount}`);
  const lengths = FIELD_LENGTHS;
  for (let f = 0; f < fieldCount; f++) lengths[f] = varint(blob);
  const count = varint(blob);
  // Each pair takes at least two bytes: a count the blob cannot hold is corruption, not an allocation.
  if (count * 2 > blob.length - cursor) throw new Error('truncated term-stats blob');
  const stats = arena ? arena.take(count, fieldCount) : { fieldLengths: new Uint32Array(fieldCount), termIds: new Uint32Array(count), fields: new Uint8Array(count), tfs: new Uint32Array(count) };
  stats.fieldLengths.set(lengths);
  const { termIds, fields, tfs } = stats;
  for (let i = 0; i < count; i++) {
    termIds[i] = varint(blob);
    const packed = varint(blob);
    if ((packed & 7) >= fieldCount) throw new Error(`corrupt term-stats blob: field ${packed & 7}`);
    fields[i] = packed & 7;
    tfs[i] = packed >>> 3;
  }
  if (cursor !== blob.length) throw new Error('truncated term-stats blob');
  return stats;
}

/** A blob's field lengths, read before its pairs' count says how much to take from an arena. */
const FIELD_LENGTHS = new Uint32Array(FIELDS.length);

/** Where `varint` reads next. */
let cursor = 0;

/**
 * The unsigned LEB128 value at `cursor`, which it advances. Unrolled: nearly every value takes
 * one or two bytes, and a loop with a float shift decoded three times slower than layout 1.
 */
function varint(blob: Uint8Array): number {
  let byte = blob[cursor++]!;
  if (byte < 0x80) return byte;
  let value = byte & 0x7f;
  byte = blob[cursor++]!;
  value |= (byte & 0x7f) << 7;
  if (byte < 0x80) return value;
  byte = blob[cursor++]!;
  value |= (byte & 0x7f) << 14;
  if (byte < 0x80) return value;
  byte = blob[cursor++]!;
  value |= (byte & 0x7f) << 21;
  if (byte < 0x80) return value;
  byte = blob[cursor++]!;
  if (byte >= 0x10) throw new Error('corrupt term-stats blob: a value past 32 bits');
  return value + byte * 2 ** 28;
}

function decodeLayout1(blob: Uint8Array): TermStats {
  // SQLite hands back Buffers at arbitrary offsets: copy when unaligned for a Uint32 view.
  const aligned = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 4));
  const header = 2 + FIELDS.length;
  if (words[1] !== FIELDS.length) throw new Error(`unknown term-stats format ${words[0]}/${words[1]}`);
  const count = (words.length - header) / 2;
  const termIds = new Uint32Array(count);
  const fields = new Uint8Array(count);
  const tfs = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    termIds[i] = words[header + 2 * i]!;
    const packed = words[header + 2 * i + 1]!;
    if (packed >>> 24 >= FIELDS.length) throw new Error(`corrupt term-stats blob: field ${packed >>> 24}`);
    fields[i] = packed >>> 24;
    tfs[i] = packed & MAX_TF;
  }
  return { fieldLengths: words.slice(2, header), termIds, fields, tfs };
}

/**
 * Term statistics for documents held in memory (BEIR corpora, tests): a fresh vocabulary with
 * ids in first-seen order, one TermStats per document.
 */
export function countDocuments(texts: readonly FieldTexts[], tokenize: Tokenizer): { vocabulary: Map<string, number>; documents: { id: number; stats: TermStats }[] } {
  const vocabulary = new Map<string, number>();
  const counter = new TermCounter(tokenize, (term) => {
    let id = vocabulary.get(term);
    if (id === undefined) vocabulary.set(term, (id = vocabulary.size + 1));
    return id;
  });
  return { vocabulary, documents: texts.map((fields, i) => ({ id: i, stats: counter.count(fields) })) };
}
