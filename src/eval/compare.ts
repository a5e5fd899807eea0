/**
 * Engram next to the FTS5 baseline: the same queries over the same documents in one run, the
 * two reports side by side per category. Pure apart from reading note files for the baseline.
 */
import { join } from 'node:path';
import { compileFilter, fuseRrf, noteFieldTexts, planWordings, WORDING_DEPTH, WORDING_FUSION, type FieldWeights, type NoteMeta } from '../search/index.js';
import { parseNote, readNoteText } from '../vault/index.js';
import { scoreBeirRun, type BeirData, type BeirReport } from './beir.js';
import { Fts5Baseline, type Fts5Document } from './fts5.js';
import type { GoldenQuery } from './golden.js';
import { runGolden, type GoldenMetrics, type GoldenReport } from './run-golden.js';

/** The indexed notes of a vault as FTS5 documents, with the fields the keyword lane reads. */
export function vaultDocuments(root: string, metas: readonly NoteMeta[]): Fts5Document[] {
  const documents: Fts5Document[] = [];
  for (const meta of metas) {
    const read = readNoteText(join(root, meta.path));
    if (!read.ok) continue;
    documents.push({ id: meta.path, fields: noteFieldTexts(parseNote(meta.path, read.text), read.text) });
  }
  return documents;
}

/**
 * The golden queries through FTS5, with each query's tag and folder filters applied; a query with
 * rephrasings (`also`) runs each wording and fuses them by reciprocal rank, as Engram's pipeline
 * does, each wording giving its top `WORDING_DEPTH` — so both engines are given the same help.
 */
export function runGoldenFts5(queries: readonly GoldenQuery[], baseline: Fts5Baseline, metas: readonly NoteMeta[]): GoldenReport {
  const byPath = new Map(metas.map((meta) => [meta.path, meta]));
  return runGolden(queries, (query, depth) => {
    const filter = compileFilter({ tags: query.tags, folders: query.folder ? [query.folder] : [] });
    const keep = filter.active
      ? (id: string) => {
          const meta = byPath.get(id);
          return meta !== undefined && filter.test(meta) === null;
        }
      : undefined;
    const { wordings } = planWordings(query.query, query.also ?? []);
    if (wordings.length === 1) return baseline.search(query.query, depth, keep);
    const ids: string[] = [];
    const number = new Map<string, number>();
    const lanes: Record<string, number[]> = {};
    wordings.forEach((wording, i) => {
      lanes[`w${i}`] = baseline.search(wording, Math.max(depth, WORDING_DEPTH), keep).map((id) => {
        if (!number.has(id)) number.set(id, ids.push(id) - 1);
        return number.get(id)!;
      });
    });
    return fuseRrf(lanes, WORDING_FUSION)
      .slice(0, depth)
      .map(({ doc }) => ids[doc]!);
  });
}

export interface Comparison {
  engram: GoldenReport;
  fts5: GoldenReport;
}

const COLUMNS = ['success1', 'success5', 'mrr', 'ndcg10'] as const;

/** One table: per category and overall, Engram's and FTS5's numbers, then Engram − FTS5. */
export function describeComparison({ engram, fts5 }: Comparison): string {
  const cell = (value: number) => value.toFixed(3).padStart(6);
  const delta = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`.padStart(7);
  const heads = '   s@1    s@5    MRR  nDCG10';
  const lines = [`${''.padEnd(18)} ${''.padStart(4)}  ${'engram'.padEnd(heads.length)}  ${'fts5'.padEnd(heads.length)}  engram − fts5`, `${'category'.padEnd(18)} ${'n'.padStart(4)}  ${heads}  ${heads}     s@5     MRR`];
  const row = (name: string, a: GoldenMetrics, b: GoldenMetrics) =>
    [`${name.padEnd(18)} ${String(a.queries).padStart(4)} `, COLUMNS.map((column) => cell(a[column])).join(' '), ' ' + COLUMNS.map((column) => cell(b[column])).join(' '), ` ${delta(a.success5 - b.success5)} ${delta(a.mrr - b.mrr)}`].join(
      ' ',
    );
  for (const [category, metrics] of Object.entries(engram.categories)) lines.push(row(category, metrics, fts5.categories[category]!));
  lines.push(row('overall', engram.overall, fts5.overall));
  return lines.join('\n');
}

/** A BEIR dataset through FTS5, scored as `evaluateBeir` scores Engram. */
export function evaluateBeirFts5(data: BeirData, weights?: FieldWeights): BeirReport {
  const baseline = new Fts5Baseline(
    data.documents.map((document) => ({
      id: document.id,
      fields: { title: document.title, aliases: '', headings: '', tags: '', body: document.text },
    })),
    weights,
  );
  try {
    return scoreBeirRun(data, (text) => baseline.search(text, 100), baseline.buildMs);
  } finally {
    baseline.close();
  }
}
