/**
 * A golden-set run: every query through the caller's search function (the production path),
 * scored per query, per category and overall. Pure apart from the search function it is given.
 */
import type { GoldenQuery } from './golden.js';
import { firstRank, mean, ndcgAt, recallAt, reciprocalRank, successAt } from './metrics.js';

/** Retrieval depth: deep enough for the @10 metrics with room to see near misses. */
export const GOLDEN_DEPTH = 20;

export interface GoldenMetrics {
  queries: number;
  success1: number;
  success5: number;
  success10: number;
  recall5: number;
  recall10: number;
  mrr: number;
  ndcg10: number;
}

export interface GoldenQueryResult extends Omit<GoldenMetrics, 'queries'> {
  id: string;
  category: string;
  query: string;
  /** Rank of the first expected or accepted note, or null when not in the top 20. */
  rank: number | null;
  top: string[];
}

export interface GoldenReport {
  overall: GoldenMetrics;
  categories: Record<string, GoldenMetrics>;
  results: GoldenQueryResult[];
}

export type GoldenSearch = (query: GoldenQuery, depth: number) => string[];

export function runGolden(queries: readonly GoldenQuery[], search: GoldenSearch): GoldenReport {
  const results = queries.map((query): GoldenQueryResult => {
    const ranked = search(query, GOLDEN_DEPTH);
    const expected = new Set(query.expect);
    const relevant = new Set([...query.expect, ...query.accept]);
    const gains = new Map([...relevant].map((path) => [path, 1]));
    return {
      id: query.id,
      category: query.category,
      query: query.query,
      rank: firstRank(ranked, relevant),
      top: ranked.slice(0, 5),
      success1: successAt(ranked, relevant, 1),
      success5: successAt(ranked, relevant, 5),
      success10: successAt(ranked, relevant, 10),
      recall5: recallAt(ranked, expected, 5),
      recall10: recallAt(ranked, expected, 10),
      mrr: reciprocalRank(ranked, relevant),
      // The ideal is the expected notes; accepted ones may fill in for them but never exceed 1.
      ndcg10: ndcgAt(
        ranked,
        gains,
        10,
        query.expect.map(() => 1),
      ),
    };
  });
  const categories: Record<string, GoldenMetrics> = {};
  for (const category of [...new Set(results.map((result) => result.category))].sort()) {
    categories[category] = summarize(results.filter((result) => result.category === category));
  }
  return { overall: summarize(results), categories, results };
}

function summarize(results: readonly GoldenQueryResult[]): GoldenMetrics {
  const avg = (key: keyof GoldenMetrics & keyof GoldenQueryResult) => round(mean(results.map((result) => result[key] as number)));
  return {
    queries: results.length,
    success1: avg('success1'),
    success5: avg('success5'),
    success10: avg('success10'),
    recall5: avg('recall5'),
    recall10: avg('recall10'),
    mrr: avg('mrr'),
    ndcg10: avg('ndcg10'),
  };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

export interface Floor {
  metric: keyof Omit<GoldenMetrics, 'queries'>;
  min: number;
  /** A category name, or null for the overall numbers. */
  category: string | null;
}

/** Scores floors are checked against: a golden run's, or another run's that measures some of the same metrics (BEIR's nDCG@10 and MRR@10). */
export interface FloorScores {
  overall: Partial<Record<Floor['metric'], number>>;
  categories: Record<string, Partial<Record<Floor['metric'], number>>>;
}

/** The floors a report falls below, as readable lines; a floor on a metric the report lacks is one too. */
export function checkFloors(report: FloorScores, floors: readonly Floor[]): string[] {
  const failures: string[] = [];
  for (const floor of floors) {
    const metrics = floor.category === null ? report.overall : report.categories[floor.category];
    if (!metrics) {
      failures.push(`no queries in category "${floor.category}"`);
      continue;
    }
    const value = metrics[floor.metric];
    if (value === undefined) failures.push(`${floor.category ?? 'overall'} ${floor.metric} is not measured`);
    else if (value < floor.min) failures.push(`${floor.category ?? 'overall'} ${floor.metric} ${value} < ${floor.min}`);
  }
  return failures;
}
