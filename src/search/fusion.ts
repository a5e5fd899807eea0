/**
 * Reciprocal Rank Fusion (Cormack et al. 2009): a note's fused score is Σ weight / (k + rank)
 * over the lanes that ranked it. Rank-based, so the keyword lane's unbounded BM25L scores and
 * bge-micro's compressed cosines (unrelated notes sit at 0.73–0.85) need no calibration. Pure;
 * `explainFusion` reads the same terms back.
 */

export interface FusionOptions {
  /** RRF's k; 60 by default, as in the paper and the peers. */
  k: number;
  /** Per-lane weights, default 1 each; change them only with eval numbers. */
  weights: Record<string, number>;
}

export const FUSION_DEFAULTS: FusionOptions = { k: 60, weights: { keyword: 1, semantic: 1 } };

export interface FusedDocument {
  doc: number;
  score: number;
  /** lane → 1-based rank in that lane. */
  ranks: Record<string, number>;
}

/** `lanes` maps a lane name to its ranked documents (best first). */
export function fuseRrf(lanes: Record<string, readonly number[]>, options: FusionOptions = FUSION_DEFAULTS): FusedDocument[] {
  const fused = new Map<number, FusedDocument>();
  for (const [lane, docs] of Object.entries(lanes)) {
    const weight = options.weights[lane] ?? 1;
    docs.forEach((doc, i) => {
      let entry = fused.get(doc);
      if (!entry) fused.set(doc, (entry = { doc, score: 0, ranks: {} }));
      entry.ranks[lane] = i + 1;
      entry.score += weight / (options.k + i + 1);
    });
  }
  // Ties (equal fused scores) go to the note ranked best in any lane, then to document order.
  return [...fused.values()].sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || a.doc - b.doc);
}

function bestRank(entry: FusedDocument): number {
  return Math.min(...Object.values(entry.ranks));
}
