/**
 * BM25L (Lv & Zhai 2011) over BM25F-style weighted term frequencies. The scoring function
 * stands alone: the ranking loop and `--explain` both call `termScore`, so an explanation is
 * the score, not a story about it.
 *
 *   c'    = tf / (1 − b + b·dl/avgdl)              (tf and dl are field-weighted)
 *   score = Σ idf · (k1 + 1)(c' + δ) / (k1 + c' + δ)   over query terms present in the note
 *   idf   = ln((N + 1) / (df + 0.5))
 */

export interface Bm25Params {
  /** Term-frequency saturation; 1.2 by default; ≥ 0. */
  k1: number;
  /** Length normalization, 0 (none) to 1 (full); 0.75 by default. */
  b: number;
  /**
   * BM25L's lower bound for long documents; 0 (Okapi BM25) by default since passages came in:
   * a long note is now found by its best passage, and δ = 0.5 had made long notes win on words
   * they merely contain (sample vault MRR 0.886 → 0.913 with δ 0; SciFact nDCG@10 0.7025 → 0.704).
   */
  delta: number;
  /**
   * `bm25l`: ln((N+1)/(df+0.5)), never negative. `lucene`: ln(1 + (N−df+0.5)/(df+0.5)), the
   * Okapi idf that wink-bm25-text-search uses (our differential-test oracle).
   */
  idf: 'bm25l' | 'lucene';
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75, delta: 0, idf: 'bm25l' };

export function inverseDocumentFrequency(documents: number, documentFrequency: number, kind: Bm25Params['idf']): number {
  return kind === 'bm25l' ? Math.log((documents + 1) / (documentFrequency + 0.5)) : Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One term's contribution to one note's score. `norm` is 1 − b + b·dl/avgdl. */
export function termScore(tf: number, norm: number, idf: number, params: Bm25Params): number {
  const c = tf / norm + params.delta;
  return (idf * (params.k1 + 1) * c) / (params.k1 + c);
}
