/**
 * BEIR-format evaluation of the keyword lane: `corpus.jsonl` (`_id`, `title`, `text`),
 * `queries.jsonl` (`_id`, `text`), `qrels/<split>.tsv` (`query-id corpus-id score`, header).
 * Documents are indexed in memory with the production tokenizer, fields and ranking core.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { analyzeQuery, BM25_DEFAULTS, compileFilter, createTokenizer, countDocuments, DEFAULT_FIELD_WEIGHTS, LexicalIndex, rankDocuments, type Bm25Params, type FieldWeights, type NoteMeta, type TokenizerOptions } from '../search/index.js';
import { mean, ndcgAt, percentile, reciprocalRank, recallAt } from './metrics.js';

export interface BeirData {
  documents: { id: string; title: string; text: string }[];
  queries: Map<string, string>;
  /** query id → (document id → graded relevance) */
  qrels: Map<string, Map<string, number>>;
}

export function loadBeir(dir: string, split = 'test'): BeirData {
  const paths = { corpus: join(dir, 'corpus.jsonl'), queries: join(dir, 'queries.jsonl'), qrels: join(dir, 'qrels', `${split}.tsv`) };
  for (const [what, path] of Object.entries(paths)) {
    if (!existsSync(path)) throw new EngramError('NOT_FOUND', `not a BEIR folder: ${path} is missing (${what}); expected corpus.jsonl, queries.jsonl and qrels/${split}.tsv`);
  }
  const documents = readJsonl(paths.corpus).map((row) => ({ id: String(row._id), title: String(row.title ?? ''), text: String(row.text ?? '') }));
  const queries = new Map(readJsonl(paths.queries).map((row) => [String(row._id), String(row.text ?? '')]));
  const qrels = new Map<string, Map<string, number>>();
  const lines = readFileSync(paths.qrels, 'utf8').split('\n');
  for (const line of lines.slice(1)) {
    const [query, doc, score] = line.trim().split('\t');
    if (!query || !doc) continue;
    const relevance = Number(score ?? 1);
    if (!(relevance > 0)) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)!.set(doc, relevance);
  }
  return { documents, queries, qrels };
}

function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new EngramError('INVALID_INPUT', `${path} line ${i + 1} is not JSON`);
      }
    });
}

export interface BeirOptions {
  tokenizer?: Partial<TokenizerOptions>;
  weights?: FieldWeights;
  params?: Bm25Params;
}

export interface BeirReport {
  documents: number;
  queries: number;
  ndcg10: number;
  recall100: number;
  mrr10: number;
  index_ms: number;
  query_ms: { p50: number; p95: number; mean: number };
}

/** The statistics of a corpus, computed once; `evaluateBeir` can then try many settings cheaply. */
export function prepareBeir(data: BeirData, tokenizer: Partial<TokenizerOptions> = {}) {
  const tokenize = createTokenizer(tokenizer);
  const started = performance.now();
  const { vocabulary, documents } = countDocuments(
    data.documents.map((document) => ({ title: document.title, aliases: '', headings: '', tags: '', body: document.text })),
    tokenize,
  );
  return { tokenize, vocabulary, documents, tokenizeMs: performance.now() - started };
}

export function evaluateBeir(data: BeirData, options: BeirOptions = {}, prepared = prepareBeir(data, options.tokenizer)): BeirReport {
  const started = performance.now();
  const index = new LexicalIndex(prepared.documents, prepared.vocabulary, options.weights ?? DEFAULT_FIELD_WEIGHTS, options.params ?? BM25_DEFAULTS);
  const indexMs = prepared.tokenizeMs + performance.now() - started;
  const metas: NoteMeta[] = data.documents.map((document) => ({ path: document.id, title: document.title, folders: [], tags: [], type: null, mtimeMs: 0 }));
  const filter = compileFilter({});
  return scoreBeirRun(data, (text) => rankDocuments(index, metas, analyzeQuery(text, prepared.tokenize).content, { limit: 100, filter }).hits.map((hit) => metas[hit.doc]!.path), indexMs);
}

/**
 * Runs every judged query through `rank` (ids best first, at least 100 deep) and scores the run:
 * nDCG@10, recall@100, MRR@10 and query times. Shared by Engram's run and the FTS5 baseline's.
 */
export function scoreBeirRun(data: BeirData, rank: (text: string) => string[], indexMs: number): BeirReport {
  const ndcg: number[] = [];
  const recall: number[] = [];
  const mrr: number[] = [];
  const times: number[] = [];
  for (const [queryId, relevant] of data.qrels) {
    const text = data.queries.get(queryId);
    if (text === undefined) continue;
    const t0 = performance.now();
    const ranked = rank(text);
    times.push(performance.now() - t0);
    const relevantSet = new Set(relevant.keys());
    ndcg.push(ndcgAt(ranked, relevant, 10));
    recall.push(recallAt(ranked, relevantSet, 100));
    mrr.push(reciprocalRank(ranked, relevantSet, 10));
  }
  const r = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
  return {
    documents: data.documents.length,
    queries: ndcg.length,
    ndcg10: r(mean(ndcg)),
    recall100: r(mean(recall)),
    mrr10: r(mean(mrr)),
    index_ms: Math.round(indexMs),
    query_ms: { p50: r(percentile(times, 50), 3), p95: r(percentile(times, 95), 3), mean: r(mean(times), 3) },
  };
}
