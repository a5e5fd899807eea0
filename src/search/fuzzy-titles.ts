/**
 * Fuzzy names: when a query word is in no note at all — a typo (`Canvs`, `obsidan`, `grpah`) or
 * the start of a name (`Canv`) — the notes whose title, file name or alias comes closest. The
 * keyword lane cannot help there: a token no note holds scores nothing, so `Canvs` found no note.
 *
 * It reads the names the `NameIndex` already holds, as tokens (stemmed, folded): the stem of a
 * misspelling is as close to the stem of the word as the words are (`canvs` → `canv`, a prefix
 * of `canvas`; `dayly` → `dayli`, one letter from `daili`). A query token no note holds is read
 * as a name token within a small edit distance (optimal string alignment: a swapped pair of
 * letters is one edit) or as the start of one. Only such tokens make a match; the query's other
 * tokens then count where a matched name holds them too. A name scores like a Jaccard overlap
 * of query and name tokens, each match weighted by how close it is:
 *
 *   Σ quality / (query tokens + name tokens − matched)
 *
 * so `grpah view` reads `Graph view` (0.9) before `Graph` alone, and a long name sharing one
 * word scores low. Tokens with digits are never corrected (`2025` is not a typo of `2026`).
 * Pure; the dictionary (name tokens by padded trigram, and sorted for prefixes) is built on first use,
 * so a vault whose queries never miss pays nothing.
 */
import { boundedDistance } from './edit-distance.js';
import type { NameIndex } from './names.js';
import { scanWords, type Tokenizer } from './tokenizer.js';

export const FUZZY_DEFAULTS = {
  /** Least score a fuzzy hit needs. */
  minScore: 0.2,
  /** And at least this share of the best hit's score: near-misses of the best name, not every name sharing a word. */
  relative: 0.5,
  maxHits: 10,
  /** Shortest query token read as the start of a name token (`can` would start too many). */
  minPrefix: 4,
  /** Shortest token corrected by one edit; tokens from `twoEdits` letters on take two. */
  oneEdit: 4,
  twoEdits: 8,
} as const;

export interface FuzzyHit {
  doc: number;
  /** The note's name that matched, as written. */
  name: string;
  score: number;
  /** How each query token no note holds was read: `canv` as `canvas`. */
  readAs: { token: string; as: string }[];
}

interface Dictionary {
  /** Name tokens (no digits), by id. */
  terms: string[];
  /** Padded trigram → the ids of the tokens holding it: only tokens sharing enough trigrams are measured. */
  trigrams: Map<string, number[]>;
  /** Name tokens in code-unit order, for prefixes. */
  sorted: string[];
  /** Shared-trigram counts per token id, reused by every look-up (zeroed after). */
  counts: Uint8Array;
}

/** A query word: its content tokens (one per language the vault is in) and whether some note holds one. */
export interface QueryWord {
  tokens: readonly string[];
  known: boolean;
}

/** Per name, per unknown word: which of its tokens was read as which name token, how closely. */
interface Reading {
  token: string;
  quality: number;
  as: string;
}

export class FuzzyNames {
  private dictionary: Dictionary | null = null;

  constructor(
    private readonly names: NameIndex,
    private readonly settings: typeof FUZZY_DEFAULTS = FUZZY_DEFAULTS,
  ) {}

  /**
   * The notes whose names come close to the query (`fuzzyQueryWords`); `accept` is the caller's
   * filter. Best first; nothing unless some word is in no note.
   */
  match(words: readonly QueryWord[], accept: (doc: number) => boolean): FuzzyHit[] {
    // Per name, per unknown word: its best reading.
    const readings = new Map<number, Map<number, Reading>>();
    words.forEach((word, index) => {
      if (word.known) return;
      for (const token of word.tokens) {
        for (const [term, quality] of this.closeTerms(token)) {
          for (const id of this.names.namesWith(term)) {
            let byWord = readings.get(id);
            if (!byWord) readings.set(id, (byWord = new Map()));
            const known = byWord.get(index);
            if (!known || quality > known.quality) byWord.set(index, { token, quality, as: term });
          }
        }
      }
    });
    // The query's other words count where a name already read holds them as they are.
    const exact = new Map<number, number>();
    for (const word of words) {
      if (!word.known) continue;
      const holding = new Set<number>();
      for (const token of word.tokens) for (const id of this.names.namesWith(token)) if (readings.has(id)) holding.add(id);
      for (const id of holding) exact.set(id, (exact.get(id) ?? 0) + 1);
    }
    const best = new Map<number, FuzzyHit>();
    for (const [id, byWord] of readings) {
      const doc = this.names.docOf(id);
      if (!accept(doc)) continue;
      let sum = exact.get(id) ?? 0;
      let matched = sum;
      for (const reading of byWord.values()) {
        sum += reading.quality;
        matched++;
      }
      const size = this.names.wordsIn(id);
      const score = sum / Math.max(words.length + size - matched, words.length, size);
      if (score > (best.get(doc)?.score ?? 0)) {
        best.set(doc, { doc, name: this.names.spellingOf(id), score, readAs: [...byWord.values()].map(({ token, as }) => ({ token, as })) });
      }
    }
    const ranked = [...best.values()].sort((a, b) => b.score - a.score || a.doc - b.doc);
    const floor = Math.max(this.settings.minScore, (ranked[0]?.score ?? 0) * this.settings.relative);
    return ranked.filter((hit) => hit.score >= floor).slice(0, this.settings.maxHits);
  }

  /** Name tokens close to `token`, with a quality in (0, 1]: 1 − edits / longer length, or the share a prefix covers. */
  private closeTerms(token: string): Map<string, number> {
    const close = new Map<string, number>();
    if (/\p{N}/u.test(token)) return close;
    const dictionary = (this.dictionary ??= this.buildDictionary());
    const { oneEdit, twoEdits, minPrefix } = this.settings;
    const edits = token.length >= twoEdits ? 2 : token.length >= oneEdit ? 1 : 0;
    // Only the nearest readings: with a name token one edit away, those two away are noise (and,
    // among thousands of similar names, the cost).
    let nearest = edits;
    for (const id of candidates(dictionary, token, edits)) {
      const term = dictionary.terms[id]!;
      const distance = boundedDistance(token, term, nearest);
      if (distance > nearest || distance === 0) continue;
      if (distance < nearest) {
        close.clear();
        nearest = distance;
      }
      close.set(term, 1 - distance / Math.max(token.length, term.length));
    }
    const { sorted } = dictionary;
    if (token.length >= minPrefix) {
      for (let i = lowerBound(sorted, token); i < sorted.length && sorted[i]!.startsWith(token); i++) {
        const term = sorted[i]!;
        if (term.length === token.length) continue;
        const quality = token.length / term.length;
        if (quality > (close.get(term) ?? 0)) close.set(term, quality);
      }
    }
    return close;
  }

  /**
   * Whether a word of some note's name begins with `token` and is longer (`harb` of `Harbor`,
   * `lant` of `Lantern`; at least `minPrefix` letters): a name being typed, for this lane to list
   * rather than a spelling correction to read as another word (`harb` → `hard`).
   */
  beginsAName(token: string): boolean {
    if (token.length < this.settings.minPrefix || /\p{N}/u.test(token)) return false;
    const { sorted } = (this.dictionary ??= this.buildDictionary());
    for (let i = lowerBound(sorted, token); i < sorted.length && sorted[i]!.startsWith(token); i++) if (sorted[i]!.length > token.length) return true;
    return false;
  }

  private buildDictionary(): Dictionary {
    const terms: string[] = [];
    const trigrams = new Map<string, number[]>();
    for (const term of this.names.terms()) {
      if (/\p{N}/u.test(term)) continue;
      const id = terms.length;
      terms.push(term);
      for (const gram of trigramsOf(term)) {
        const ids = trigrams.get(gram);
        if (ids) ids.push(id);
        else trigrams.set(gram, [id]);
      }
    }
    return { terms, trigrams, sorted: [...terms].sort(), counts: new Uint8Array(terms.length) };
  }
}

/** A token's distinct trigrams, padded with two spaces each side (`  c`, ` ca`, … `s  `). */
function trigramsOf(term: string): Set<string> {
  const padded = `  ${term}  `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

/**
 * The ids of name tokens that can be within `edits` of `token`: length within `edits`, and at
 * least as many shared trigrams as the q-gram lemma leaves (each edit spoils at most three, a
 * transposition — one edit here — at most six).
 */
function candidates(dictionary: Dictionary, token: string, edits: number): number[] {
  const { trigrams, terms, counts } = dictionary;
  const touched: number[] = [];
  for (const gram of trigramsOf(token)) {
    for (const id of trigrams.get(gram) ?? []) {
      if (counts[id] === 0) touched.push(id);
      if (counts[id]! < 255) counts[id]!++;
    }
  }
  const needed = Math.max(1, token.length + 2 - 6 * edits);
  const found: number[] = [];
  for (const id of touched) {
    if (counts[id]! >= needed && Math.abs(terms[id]!.length - token.length) <= edits) found.push(id);
    counts[id] = 0;
  }
  return found;
}

/** What `fuzzyMerge` reads of a result. */
interface Listed {
  path: string;
  lanes: { name?: unknown; substring?: unknown; fuzzy?: unknown };
}

/**
 * A result list with the fuzzy hits in: exact matches first (a name the query spells, the
 * query's text as written), then the fuzzy hits best first, then the rest (notes holding only
 * the query's other words) — each note once, at most `limit`.
 */
export function fuzzyMerge<T extends Listed>(results: readonly T[], fuzzy: readonly T[], limit: number): T[] {
  const exact = results.filter((result) => result.lanes.name !== undefined || result.lanes.substring !== undefined);
  const seen = new Set(exact.map((result) => result.path));
  const merged = [...exact];
  for (const hit of [...fuzzy, ...results]) {
    if (seen.has(hit.path)) continue;
    seen.add(hit.path);
    merged.push(hit);
  }
  return merged.slice(0, limit);
}

/**
 * The query's content words, each with its tokens and whether a note holds any of them, and the
 * words as written. A word is unknown only when none of its tokens is known: a vault in English
 * and Portuguese reads `rankings` as `rank` and `rankings`, and the notes hold `rank`.
 */
export function fuzzyQueryWords(query: string, tokenize: Tokenizer, content: readonly string[], known: readonly string[]): (QueryWord & { word: string })[] {
  const contentTokens = new Set(content);
  const held = new Set(known);
  const words: (QueryWord & { word: string })[] = [];
  scanWords(query, (word) => {
    const tokens = [...new Set(tokenize.expand(word))].filter((token) => contentTokens.has(token));
    if (tokens.length > 0) words.push({ word, tokens, known: tokens.some((token) => held.has(token)) });
  });
  return words;
}

/** The first index whose value is ≥ `value` in an ascending array. */
function lowerBound(values: readonly string[], value: string): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
