/**
 * Retrieval metrics, pure. Ranks are 1-based; a query that retrieves nothing relevant scores 0.
 */

/** 1 when any relevant item is in the top k. */
export function successAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return ranked.slice(0, k).some((item) => relevant.has(item)) ? 1 : 0;
}

/** Share of `expected` found in the top k. */
export function recallAt(ranked: readonly string[], expected: ReadonlySet<string>, k: number): number {
  if (expected.size === 0) return 0;
  let found = 0;
  for (const item of ranked.slice(0, k)) if (expected.has(item)) found++;
  return found / expected.size;
}

/** 1 / rank of the first relevant item within the top k (0 when none). */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>, k = Infinity): number {
  const rank = firstRank(ranked, relevant);
  return rank !== null && rank <= k ? 1 / rank : 0;
}

export function firstRank(ranked: readonly string[], relevant: ReadonlySet<string>): number | null {
  const index = ranked.findIndex((item) => relevant.has(item));
  return index === -1 ? null : index + 1;
}

/**
 * nDCG@k with linear gains (BEIR's convention): DCG = Σ gain(item) / log2(rank + 1), divided by
 * the DCG of the ideal order of `idealGains`. Capped at 1 (extra acceptable items cannot push a
 * query above a perfect score).
 */
export function ndcgAt(ranked: readonly string[], gains: ReadonlyMap<string, number>, k: number, idealGains: readonly number[] = [...gains.values()]): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((item, i) => {
    const gain = gains.get(item) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  });
  const ideal = [...idealGains].sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  ideal.forEach((gain, i) => {
    idcg += gain / Math.log2(i + 2);
  });
  return idcg === 0 ? 0 : Math.min(1, dcg / idcg);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
