/**
 * The in-memory keyword index: compressed sparse rows of postings (term → notes and weighted
 * term frequencies) in typed arrays, built from stored per-note statistics. Querying touches
 * only the postings of the query's terms: a note that contains none of them is never scored,
 * so nothing pads a result list.
 */
import { FIELDS, type FieldWeights } from './fields.js';
import { BM25_DEFAULTS, inverseDocumentFrequency, termScore, type Bm25Params } from './bm25l.js';
import type { TermStats } from './term-stats.js';

export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { title: 3, aliases: 3, headings: 1.5, tags: 2, body: 1 };

export interface IndexedDocument {
  /** The caller's id (a note id, or a BEIR document's position). */
  id: number;
  stats: TermStats;
}

export interface ScoredDocument {
  /** Position in the index's document list. */
  doc: number;
  score: number;
}

export interface TermExplanation {
  term: string;
  tf: number;
  df: number;
  idf: number;
  score: number;
}

/**
 * Document frequencies to rank some terms with instead of their own: the spellings one query
 * word has in a vault's several languages (`estrutur` in Portuguese notes, `estrutura` in a note
 * read as English) share the word's document frequency, the sum of theirs. Each alone would make
 * the rarer spelling a rare word — one note mis-read as English outranked every Portuguese note.
 */
export type PooledFrequencies = ReadonlyMap<string, number>;

/** Receives each note `forEachScored` scores. */
export interface ScoreVisitor {
  visit(doc: number, score: number): void;
}

export class LexicalIndex {
  readonly documentCount: number;
  readonly ids: Int32Array;
  private readonly terms: Map<string, number>;
  private readonly offsets: Int32Array;
  /**
   * Posting p's note at 2p of `postingDocs`, its weighted tf at 2p + 1 of `postingTfs` (a view
   * of the same memory): side by side, filling a posting in the build's scatter is one cache
   * miss, not two (that scatter was most of the build's time on a busy machine), and scoring
   * reads both from one line.
   */
  private readonly postingDocs: Int32Array;
  private readonly postingTfs: Float32Array;
  private readonly norms: Float32Array;
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  /**
   * @param vocabulary term → id, as stored; ids are remapped to a dense range here.
   */
  constructor(
    documents: readonly IndexedDocument[],
    vocabulary: ReadonlyMap<string, number>,
    readonly weights: FieldWeights = DEFAULT_FIELD_WEIGHTS,
    readonly params: Bm25Params = BM25_DEFAULTS,
  ) {
    const fieldWeights = Float64Array.from(FIELDS, (field) => weights[field]);
    const D = documents.length;
    this.documentCount = D;
    this.ids = new Int32Array(D);
    for (let d = 0; d < D; d++) this.ids[d] = documents[d]!.id;

    // Dense term numbering over the terms that occur (the vocabulary keeps ids of deleted notes' terms).
    let maxStoredId = 0;
    for (const id of vocabulary.values()) if (id > maxStoredId) maxStoredId = id;
    const dense = new Int32Array(maxStoredId + 1).fill(-1);
    // Per dense term: its notes (at most one dense term per stored id).
    const counts = new Int32Array(maxStoredId + 1);
    let T = 0;
    const lengths = new Float64Array(D);
    let total = 0;
    documents.forEach((document, d) => {
      const { termIds, fieldLengths } = document.stats;
      let previous = -1;
      for (let i = 0; i < termIds.length; i++) {
        const stored = termIds[i]!;
        if (stored > maxStoredId) continue; // a term id the vocabulary does not know: ignore it
        if (dense[stored] === -1) dense[stored] = T++;
        if (stored !== previous) counts[dense[stored]!]!++;
        previous = stored;
      }
      let length = 0;
      for (let f = 0; f < FIELDS.length; f++) length += fieldLengths[f]! * fieldWeights[f]!;
      lengths[d] = length;
      total += length;
    });
    this.offsets = new Int32Array(T + 1);
    for (let t = 0; t < T; t++) this.offsets[t + 1] = this.offsets[t]! + counts[t]!;
    this.postingDocs = new Int32Array(2 * this.offsets[T]!);
    this.postingTfs = new Float32Array(this.postingDocs.buffer);
    const cursor = this.offsets.slice(0, T);
    // Per field (BM25F): each field's weight over its length normalization, per note.
    const perField = params.lengths === 'field';
    const fieldAverages = fieldAverageLengths(documents);
    const fieldScale = Float64Array.from(fieldWeights);
    documents.forEach((document, d) => {
      const { termIds, fields, tfs, fieldLengths } = document.stats;
      if (perField) for (let f = 0; f < FIELDS.length; f++) fieldScale[f] = fieldWeights[f]! / (1 - params.b + (params.b * fieldLengths[f]!) / fieldAverages[f]!);
      for (let i = 0; i < termIds.length;) {
        const stored = termIds[i]!;
        let tf = 0;
        while (i < termIds.length && termIds[i] === stored) {
          tf += tfs[i]! * fieldScale[fields[i]!]!;
          i++;
        }
        if (stored > maxStoredId || tf <= 0) continue;
        const t = dense[stored]!;
        const p = cursor[t]!++;
        this.postingDocs[2 * p] = d;
        this.postingTfs[2 * p + 1] = tf;
      }
    });
    this.terms = new Map();
    vocabulary.forEach((stored, term) => {
      const t = stored <= maxStoredId ? dense[stored]! : -1;
      if (t !== -1) this.terms.set(term, t);
    });
    const avgdl = D === 0 ? 1 : total / D || 1;
    this.norms = new Float32Array(D);
    for (let d = 0; d < D; d++) this.norms[d] = perField ? 1 : 1 - params.b + (params.b * lengths[d]!) / avgdl;
    this.scores = new Float64Array(D);
    this.touched = new Int32Array(D);
  }

  /** Query terms the index knows, deduplicated, in query order. */
  knownTerms(queryTerms: readonly string[]): string[] {
    return [...new Set(queryTerms)].filter((term) => this.terms.has(term));
  }

  /** Every term some document contains. */
  vocabulary(): IterableIterator<string> {
    return this.terms.keys();
  }

  documentFrequency(term: string): number {
    const t = this.terms.get(term);
    return t === undefined ? 0 : this.offsets[t + 1]! - this.offsets[t]!;
  }

  /** Calls `visit` with each document containing `term`, in document order. */
  forEachDocumentWith(term: string, visit: (doc: number) => void): void {
    const t = this.terms.get(term);
    if (t === undefined) return;
    for (let p = this.offsets[t]!, end = this.offsets[t + 1]!; p < end; p++) visit(this.postingDocs[2 * p]!);
  }

  /** A term's idf; `pooled` gives the document frequency to use instead of its own (see `PooledFrequencies`). */
  idf(term: string, pooled?: PooledFrequencies): number {
    return inverseDocumentFrequency(this.documentCount, pooled?.get(term) ?? this.documentFrequency(term), this.params.idf);
  }

  /**
   * Scores every document containing at least one of the terms and calls `visit` for each, in
   * no particular order. Allocation-free: scores accumulate in a reused array (a 50k-note
   * query touching 20k notes must not make 20k objects for the collector).
   */
  forEachScored(queryTerms: readonly string[], visitor: ScoreVisitor, pooled?: PooledFrequencies): void {
    const { scores, touched, params, postingDocs, postingTfs } = this;
    const { k1, delta } = params;
    // Per-field lengths are normalized in the tfs already and every norm is 1 (x / 1 is x):
    // skipping the look-up spares a read at a random note per posting.
    const norms = params.lengths === 'field' ? null : this.norms;
    let count = 0;
    for (const term of new Set(queryTerms)) {
      const t = this.terms.get(term);
      if (t === undefined) continue;
      const start = this.offsets[t]!;
      const end = this.offsets[t + 1]!;
      const idf = inverseDocumentFrequency(this.documentCount, pooled?.get(term) ?? end - start, params.idf);
      // `termScore` written out with the term's constants taken out of the loop (the same
      // operations in the same order, so the same bits; a test holds them to it): 7 % of a
      // query's ranking, as V8 kept reading the parameters per posting.
      const scale = idf * (k1 + 1);
      for (let p = start; p < end; p++) {
        const d = postingDocs[2 * p]!;
        const tf = postingTfs[2 * p + 1]!;
        const c = (norms === null ? tf : tf / norms[d]!) + delta;
        const score = scores[d]!;
        if (score === 0) touched[count++] = d;
        scores[d] = score + (scale * c) / (k1 + c);
      }
    }
    for (let i = 0; i < count; i++) {
      const d = touched[i]!;
      const score = scores[d]!;
      scores[d] = 0;
      visitor.visit(d, score);
    }
  }

  /** Every matching document with its score, unsorted (for tests and small callers). */
  score(queryTerms: readonly string[]): ScoredDocument[] {
    const out: ScoredDocument[] = [];
    this.forEachScored(queryTerms, { visit: (doc, score) => out.push({ doc, score }) });
    return out;
  }

  /** The per-term parts of one document's score, from the same `termScore` as `score`. */
  explain(doc: number, queryTerms: readonly string[], pooled?: PooledFrequencies): TermExplanation[] {
    const parts: TermExplanation[] = [];
    for (const term of new Set(queryTerms)) {
      const t = this.terms.get(term);
      if (t === undefined) continue;
      const start = this.offsets[t]!;
      const end = this.offsets[t + 1]!;
      for (let p = start; p < end; p++) {
        if (this.postingDocs[2 * p] !== doc) continue;
        const df = pooled?.get(term) ?? end - start;
        const idf = inverseDocumentFrequency(this.documentCount, df, this.params.idf);
        const tf = this.postingTfs[2 * p + 1]!;
        parts.push({ term, tf, df, idf, score: termScore(tf, this.norms[doc]!, idf, this.params) });
        break;
      }
    }
    return parts;
  }
}

/**
 * Each field's typical length among the notes that have it (as Lucene's): averaged over every
 * note, a field few notes use (tags, aliases) would be "long" wherever it appears and its
 * matches crushed. 1 for a field no note has.
 */
function fieldAverageLengths(documents: readonly IndexedDocument[]): Float64Array {
  const totals = new Float64Array(FIELDS.length);
  const holders = new Float64Array(FIELDS.length);
  for (const { stats } of documents) {
    for (let f = 0; f < FIELDS.length; f++) {
      totals[f]! += stats.fieldLengths[f]!;
      if (stats.fieldLengths[f]! > 0) holders[f]!++;
    }
  }
  return totals.map((total, f) => total / holders[f]! || 1);
}
