/**
 * Per-note term statistics: how often each term occurs in each field, and each field's length.
 * Encoded as one compact blob per note (term ids from a shared vocabulary), so start-up decodes
 * typed arrays instead of re-tokenizing the vault, and a changed note rewrites only its own row.
 *
 * Layout (Uint32, little-endian): [FORMAT, fieldCount, len_0 … len_{F-1}, (termId, field << 24 | tf)*],
 * pairs sorted by term id then field.
 */
import { FIELDS, type FieldTexts } from './fields.js';
import type { Tokenizer } from './tokenizer.js';

const FORMAT = 1;
const HEADER = 2 + FIELDS.length;
const MAX_TF = (1 << 24) - 1;

export interface TermStats {
  /** Token count per field, in FIELDS order. */
  fieldLengths: Uint32Array;
  termIds: Uint32Array;
  fields: Uint8Array;
  tfs: Uint32Array;
}

/** Counts (term, field) occurrences; `idOf` maps a term to its vocabulary id (minting new ones). */
export function countTerms(texts: FieldTexts, tokenize: Tokenizer, idOf: (term: string) => number): TermStats {
  const fieldLengths = new Uint32Array(FIELDS.length);
  const counts = new Map<number, number>(); // termId * 8 + field → tf
  const tokens: string[] = [];
  FIELDS.forEach((field, f) => {
    tokens.length = 0;
    tokenize(texts[field], tokens);
    fieldLengths[f] = tokens.length;
    for (const token of tokens) {
      const key = idOf(token) * 8 + f;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  });
  const keys = [...counts.keys()].sort((a, b) => a - b);
  const termIds = new Uint32Array(keys.length);
  const fields = new Uint8Array(keys.length);
  const tfs = new Uint32Array(keys.length);
  keys.forEach((key, i) => {
    termIds[i] = Math.floor(key / 8);
    fields[i] = key % 8;
    tfs[i] = Math.min(counts.get(key)!, MAX_TF);
  });
  return { fieldLengths, termIds, fields, tfs };
}

export function encodeTermStats(stats: TermStats): Buffer {
  const words = new Uint32Array(HEADER + stats.termIds.length * 2);
  words[0] = FORMAT;
  words[1] = FIELDS.length;
  words.set(stats.fieldLengths, 2);
  for (let i = 0; i < stats.termIds.length; i++) {
    words[HEADER + 2 * i] = stats.termIds[i]!;
    words[HEADER + 2 * i + 1] = (stats.fields[i]! << 24) | stats.tfs[i]!;
  }
  return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
}

export function decodeTermStats(blob: Uint8Array): TermStats {
  // SQLite hands back Buffers at arbitrary offsets: copy when unaligned for a Uint32 view.
  const aligned = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 4));
  if (words[0] !== FORMAT || words[1] !== FIELDS.length) throw new Error(`unknown term-stats format ${words[0]}/${words[1]}`);
  const count = (words.length - HEADER) / 2;
  const termIds = new Uint32Array(count);
  const fields = new Uint8Array(count);
  const tfs = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    termIds[i] = words[HEADER + 2 * i]!;
    const packed = words[HEADER + 2 * i + 1]!;
    fields[i] = packed >>> 24;
    tfs[i] = packed & MAX_TF;
  }
  return { fieldLengths: words.slice(2, HEADER), termIds, fields, tfs };
}
