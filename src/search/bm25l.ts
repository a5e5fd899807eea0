/**
 * BM25L (Lv & Zhai 2011) over BM25F term frequencies (Robertson, Zaragoza & Taylor 2004). The
 * scoring function stands alone: the ranking loop and `--explain` both call `termScore`, so an
 * explanation is the score, not a story about it.
 *
 *   c'    = Σ_f w_f · tf_f / (1 − b + b·len_f/avglen_f)   (lengths: 'field', the default)
 *         = Σ_f w_f · tf_f / (1 − b + b·dl/avgdl)         (lengths: 'note'; dl = Σ_f w_f · len_f)
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
  /**
   * What a term count is normalized by. `field` (BM25F): each field by its own length against
   * that field's average among the notes that have it, so a title match weighs the same in a
   * long note as in a short one — normalized by the whole note, the body's length diluted the
   * title of every long note (SciFact nDCG@10 0.704 → 0.708, sample vault s@5 0.941 → 0.947;
   * Obsidian help MRR 0.915 → 0.907 and Portuguese 0.946 → 0.944, one question each). `note`:
   * the note's field-weighted length, as wink-bm25-text-search does (the differential test's oracle).
   */
  lengths: 'field' | 'note';
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75, delta: 0, idf: 'bm25l', lengths: 'field' };

export function inverseDocumentFrequency(documents: number, documentFrequency: number, kind: Bm25Params['idf']): number {
  return kind === 'bm25l' ? Math.log((documents + 1) / (documentFrequency + 0.5)) : Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One term's contribution to one note's score. `norm` is 1 − b + b·dl/avgdl, or 1 when `tf` is normalized per field already. */
export function termScore(tf: number, norm: number, idf: number, params: Bm25Params): number {
  const c = tf / norm + params.delta;
  return (idf * (params.k1 + 1) * c) / (params.k1 + c);
}
