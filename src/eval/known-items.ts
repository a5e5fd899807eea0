/**
 * Known-item evaluation, with no labels to write: every note's title and each alias is a query
 * whose answer is that note. A query counts as found at 1 when the first hit is the note, or a
 * note carrying the same name (two notes may share an alias; either answer is right). Scored as
 * a golden run scores its queries (the note expected, the name's other holders accepted), so the
 * same metrics, and the same floors, apply to both.
 */
import type { GoldenQuery } from './golden.js';
import { runGolden, type GoldenMetrics } from './run-golden.js';

export interface KnownItemNote {
  path: string;
  title: string;
  aliases: readonly string[];
}

export interface KnownItemReport {
  titles: { queries: number; first: number };
  aliases: { queries: number; first: number };
  /** success@k, recall@k, MRR and nDCG@10 over every query, as a golden run reports them. */
  overall: GoldenMetrics;
  /** The same per kind of query: `title` and `alias`. */
  categories: Record<string, GoldenMetrics>;
  misses: { kind: 'title' | 'alias'; query: string; want: string; got: string | null; rank: number | null }[];
}

/** The query's ranked paths, best first, at least `depth` deep when there are that many. */
export type KnownItemSearch = (query: string, depth: number) => string[];

export function runKnownItems(notes: readonly KnownItemNote[], search: KnownItemSearch): KnownItemReport {
  const holders = new Map<string, Set<string>>();
  const hold = (name: string, path: string) => {
    const key = name.toLowerCase();
    if (!holders.has(key)) holders.set(key, new Set());
    holders.get(key)!.add(path);
  };
  for (const note of notes) {
    hold(note.title, note.path);
    for (const alias of note.aliases) hold(alias, note.path);
  }
  const queries: GoldenQuery[] = [];
  const query = (kind: 'title' | 'alias', text: string, want: string): GoldenQuery => ({
    id: String(queries.length),
    query: text,
    expect: [want],
    accept: [...(holders.get(text.toLowerCase()) ?? [])].filter((path) => path !== want),
    tags: [],
    folder: null,
    category: kind,
    note: null,
  });
  for (const note of notes) {
    queries.push(query('title', note.title, note.path));
    for (const alias of note.aliases) queries.push(query('alias', alias, note.path));
  }
  const ranked: string[][] = [];
  const golden = runGolden(queries, (asked, depth) => {
    const hits = search(asked.query, depth);
    ranked[Number(asked.id)] = hits;
    return hits;
  });
  const report: KnownItemReport = { titles: { queries: 0, first: 0 }, aliases: { queries: 0, first: 0 }, overall: golden.overall, categories: golden.categories, misses: [] };
  golden.results.forEach((result, i) => {
    const asked = queries[i]!;
    const kind = asked.category as 'title' | 'alias';
    const tally = kind === 'title' ? report.titles : report.aliases;
    tally.queries++;
    if (result.success1 === 1) {
      tally.first++;
      return;
    }
    const hits = ranked[i] ?? [];
    const want = asked.expect[0]!;
    const index = hits.indexOf(want);
    report.misses.push({ kind, query: asked.query, want, got: hits[0] ?? null, rank: index === -1 ? null : index + 1 });
  });
  return report;
}
