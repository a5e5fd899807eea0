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
 * Counts (term, field) occurrences for one note at a time. A word's term ids are cached (words
 * repeat), and counting goes through scratch arrays indexed by term id, not a Map per note:
 * indexing calls this once per note and these were most of its cost. Each term the note uses
 * gets a row of per-field counts in first-seen order, so the pairs come out grouped by term
 * with no sort (a per-note sort was ~15 % of indexing).
 */
export class TermCounter {
  private readonly words = new WordTable<readonly number[]>();
  private stamp = 0;
  /** Per term id: the note (stamp) that last used it, and its row in `counts`. */
  private seen = new Uint32Array(1024);
  private row = new Uint32Array(1024);
  /** Per row: the term id, and FIELDS.length counts. */
  private rowTerm = new Uint32Array(256);
  private counts = new Uint32Array(256 * FIELDS.length);

  /** `idOf` maps a term to its vocabulary id, minting new ones. */
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly idOf: (term: string) => number,
  ) {}

  count(texts: FieldTexts): TermStats {
    const F = FIELDS.length;
    const fieldLengths = new Uint32Array(F);
    const stamp = ++this.stamp;
    let rows = 0;
    let pairs = 0;
    for (let f = 0; f < F; f++) {
      const text = texts[FIELDS[f]!];
      let length = 0;
      scanWordSpans(text, (start, end, hash) => {
        const ids = this.words.lookup(text, start, end, this.expandIds, hash);
        length += ids.length;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          if (id >= this.seen.length) this.growTerms(id);
          let r: number;
          if (this.seen[id] !== stamp) {
            if (rows === this.rowTerm.length) this.growRows();
            this.seen[id] = stamp;
            this.row[id] = r = rows++;
            this.rowTerm[r] = id;
            for (let k = r * F; k < r * F + F; k++) this.counts[k] = 0;
          } else r = this.row[id]!;
          if (this.counts[r * F + f]!++ === 0) pairs++;
        }
      });
      fieldLengths[f] = length;
    }
    const termIds = new Uint32Array(pairs);
    const fields = new Uint8Array(pairs);
    const tfs = new Uint32Array(pairs);
    const { rowTerm, counts } = this;
    let p = 0;
    for (let r = 0; r < rows; r++) {
      for (let f = 0; f < F; f++) {
        const tf = counts[r * F + f]!;
        if (tf === 0) continue;
        termIds[p] = rowTerm[r]!;
        fields[p] = f;
        tfs[p++] = Math.min(tf, MAX_TF);
      }
    }
    return { fieldLengths, termIds, fields, tfs };
  }

  private readonly expandIds = (word: string): number[] => this.tokenizer.tokensOf(word).map(this.idOf);

  private growTerms(id: number): void {
    const size = Math.max(id + 1, this.seen.length * 2);
    const seen = new Uint32Array(size);
    seen.set(this.seen);
    const row = new Uint32Array(size);
    row.set(this.row);
    this.seen = seen;
    this.row = row;
  }

  private growRows(): void {
    const rowTerm = new Uint32Array(this.rowTerm.length * 2);
    rowTerm.set(this.rowTerm);
    const counts = new Uint32Array(this.counts.length * 2);
    counts.set(this.counts);
    this.rowTerm = rowTerm;
    this.counts = counts;
  }
}

/** Scratch for encoding: grown to the largest note seen (5 bytes bound a varint below 2^32). */
let scratch = new Uint8Array(1 << 16);

export function encodeTermStats(stats: TermStats): Buffer {
  const pairs = stats.termIds.length;
  const bound = 5 * (3 + FIELDS.length + 2 * pairs);
  if (bound > scratch.length) scratch = new Uint8Array(Math.max(bound, scratch.length * 2));
  const out = scratch;
  let at = 0;
  const put = (value: number): void => {
    while (value >= 0x80) {
      out[at++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    out[at++] = value;
  };
  put(FORMAT);
  put(FIELDS.length);
  for (let f = 0; f < FIELDS.length; f++) put(stats.fieldLengths[f]!);
  put(pairs);
  for (let i = 0; i < pairs; i++) {
    put(stats.termIds[i]!);
    put(stats.tfs[i]! * 8 + stats.fields[i]!);
  }
  return Buffer.from(out.subarray(0, at));
}

export function decodeTermStats(blob: Uint8Array): TermStats {
  if (blob[0] === 1) return decodeLayout1(blob);
  // A whole stream ends on a byte without the continuation bit, so no varint runs off the end.
  if (blob.length === 0 || blob[blob.length - 1]! >= 0x80) throw new Error('truncated term-stats blob');
  cursor = 0;
  const format = varint(blob);
  const fieldCount = varint(blob);
  if (format !== FORMAT || fieldCount !== FIELDS.length) throw new Error(`unknown term-stats format ${format}/${fieldCount}`);
  const fieldLengths = new Uint32Array(fieldCount);
  for (let f = 0; f < fieldCount; f++) fieldLengths[f] = varint(blob);
  const count = varint(blob);
  // Each pair takes at least two bytes: a count the blob cannot hold is corruption, not an allocation.
  if (count * 2 > blob.length - cursor) throw new Error('truncated term-stats blob');
  const termIds = new Uint32Array(count);
  const fields = new Uint8Array(count);
  const tfs = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    termIds[i] = varint(blob);
    const packed = varint(blob);
    if ((packed & 7) >= fieldCount) throw new Error(`corrupt term-stats blob: field ${packed & 7}`);
    fields[i] = packed & 7;
    tfs[i] = packed >>> 3;
  }
  if (cursor !== blob.length) throw new Error('truncated term-stats blob');
  return { fieldLengths, termIds, fields, tfs };
}

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
