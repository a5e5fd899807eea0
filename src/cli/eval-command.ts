import { appendFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngramError, UsageError } from '../errors.js';
import {
  alsoList,
  checkFloors,
  describeComparison,
  evaluateBeir,
  evaluateBeirFts5,
  Fts5Baseline,
  loadBeir,
  loadGolden,
  loadLocomo,
  writeLocomoVault,
  runGolden,
  runGoldenFts5,
  runKnownItems,
  vaultDocuments,
  GOLDEN_DEPTH,
  type BeirReport,
  type Floor,
  type FloorScores,
  type GoldenQuery,
  type GoldenReport,
} from '../eval/index.js';
import { BM25_DEFAULTS, DEFAULT_FIELD_WEIGHTS, searchWordings, wordingTexts, type Bm25Params, type FieldWeights, type NoteMeta, type QueryVector } from '../search/index.js';
import { numberValue, refuseEmptyValue, shownArg, type Command, type CommandContext, type OptionValue } from './command.js';
import { openConfiguredEmbedder, queryInput } from '../embed/index.js';
import { openSession } from './context.js';
import { TODAY_OPTION, todayOption } from './filter-options.js';
import { graphEval, graphFloors } from './graph-eval.js';
import type { VaultSession } from '../session/index.js';

/** The search floors and the metric each checks (`--min-mrr` is MRR@10 in a BEIR run). */
const FLOOR_OPTIONS = {
  'min-success5': 'success5',
  'min-success10': 'success10',
  'min-recall10': 'recall10',
  'min-mrr': 'mrr',
  'min-ndcg10': 'ndcg10',
} as const;
const GRAPH_FLOOR_OPTIONS = ['min-entity-f1', 'min-relation-f1'] as const;

/** The kinds of run, named by the option that asks for each. */
type EvalMode = 'graph' | 'beir' | 'known-items' | 'locomo' | 'golden';

/** What each kind of run measures, and the floors it checks; any other floor given is refused. */
const SEARCH_FLOORS = { measures: 'search', floors: Object.keys(FLOOR_OPTIONS) };
const MODE_FLOORS: Record<EvalMode, { measures: string; floors: readonly string[] }> = {
  golden: SEARCH_FLOORS,
  locomo: SEARCH_FLOORS,
  'known-items': SEARCH_FLOORS,
  beir: { measures: 'nDCG@10, recall@100 and MRR@10', floors: ['min-ndcg10', 'min-mrr'] },
  graph: { measures: 'extraction', floors: GRAPH_FLOOR_OPTIONS },
};

/** The files and folders eval reads, each with an example for the message when it is given nothing. */
const PATH_VALUES: Record<string, OptionValue> = {
  golden: { noun: 'golden file', example: 'evals/golden.yaml' },
  beir: { noun: 'BEIR folder', example: 'path/to/scifact' },
  split: { noun: 'qrels split', example: 'test' },
  locomo: { noun: 'LoCoMo file or folder', example: 'locomo10.json' },
  graph: { noun: 'graph gold file', example: 'evals/graph-gold.yaml' },
  also: { noun: 'rephrasings file', example: 'evals/golden-blind.also.json' },
};

export const evalCommand: Command = {
  name: 'eval',
  summary:
    'Measure search quality: a golden query set over a vault (--golden), LoCoMo conversation logs (--locomo), or a BEIR-format dataset for the keyword lane (--beir); --baseline fts5 adds SQLite FTS5 side by side. --graph GOLD measures extraction quality instead.',
  options: {
    golden: { type: 'string', value: 'FILE', description: 'golden queries (YAML or JSON) whose paths are relative to --vault' },
    'known-items': { type: 'boolean', description: 'every note title and alias of --vault as a query for its own note' },
    locomo: { type: 'string', value: 'DATA', description: 'LoCoMo conversation logs (a .json file or a folder of them): one note per session written into --vault OUT, questions as queries' },
    beir: { type: 'string', value: 'DIR', description: 'a BEIR folder: corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv' },
    split: { type: 'string', value: 'NAME', description: 'BEIR qrels split (default test)' },
    'min-success5': { type: 'string', value: 'X', description: '--golden, --locomo, --known-items: exit 1 when overall success@5 is below X' },
    'min-success10': { type: 'string', value: 'X', description: '--golden, --locomo, --known-items: exit 1 when overall success@10 is below X' },
    'min-recall10': { type: 'string', value: 'X', description: '--golden, --locomo, --known-items: exit 1 when overall recall@10 is below X' },
    'min-mrr': { type: 'string', value: 'X', description: 'exit 1 when overall MRR (with --beir, MRR@10) is below X' },
    'min-ndcg10': { type: 'string', value: 'X', description: 'exit 1 when overall nDCG@10 is below X' },
    k1: { type: 'string', value: 'X', description: `BM25L k1 (default ${BM25_DEFAULTS.k1})` },
    b: { type: 'string', value: 'X', description: `BM25L b (default ${BM25_DEFAULTS.b})` },
    delta: { type: 'string', value: 'X', description: `BM25L δ (default ${BM25_DEFAULTS.delta})` },
    'title-weight': { type: 'string', value: 'X', description: `title field weight (default ${DEFAULT_FIELD_WEIGHTS.title})` },
    'no-history': { type: 'boolean', description: 'do not append this run to the eval history' },
    also: {
      type: 'string',
      value: 'FILE',
      description: "rephrasings per query, a JSON object {id: [up to 4 strings]}, searched with each query as search_brain's alternatives and fused with it (FTS5 gets the same wordings, fused the same way)",
    },
    baseline: { type: 'string', value: 'ENGINE', description: 'also run fts5 (SQLite FTS5, porter unicode61, bm25() with the same field weights) on the same documents and queries, side by side' },
    graph: { type: 'string', value: 'GOLD', description: 'extraction quality: the configured extractor (ENGRAM_EXTRACTOR) over the notes of a graph gold file; precision, recall and F1 for entities (by type) and relations, cost and time' },
    'min-entity-f1': { type: 'string', value: 'X', description: '--graph: exit 1 when entity F1 (name and type) is below X' },
    'min-relation-f1': { type: 'string', value: 'X', description: '--graph: exit 1 when relation F1 is below X' },
    mode: { type: 'string', value: 'MODE', description: 'hybrid (default: fused when the model and vectors are there, else keyword) or keyword' },
    today: {
      ...TODAY_OPTION,
      description: 'read relative dates in the queries ("last week"), spans up to today ("since June 1"), and dates without a year ("in June"), against this day, YYYY-MM-DD, where a query gives no day of its own (default: today)',
    },
  },
  async run(args, context) {
    const { env, io } = context;
    const values = args.values;
    // Refused before any file is read: a file named by nothing, a bad floor, a floor the run does not measure.
    for (const [option, value] of Object.entries(PATH_VALUES)) refuseEmptyValue(option, values[option], value);
    for (const option of Object.keys(FLOOR_OPTIONS)) nonNegative(values, option);
    graphFloors(values);
    const mode = evalMode(values);
    refuseUnmeasuredFloors(values, mode);
    if (mode === 'graph') return graphEval(String(values.graph), values, context);
    const tuning: Tuning = {
      params: { ...BM25_DEFAULTS, ...defined({ k1: nonNegative(values, 'k1'), b: nonNegative(values, 'b'), delta: nonNegative(values, 'delta') }) },
      weights: { ...DEFAULT_FIELD_WEIGHTS, ...defined({ title: nonNegative(values, 'title-weight') }) },
    };
    if (tuning.params.b > 1) throw new UsageError('--b must be between 0 and 1');
    todayOption(values.today as string | undefined); // a bad --today is refused before any file is read

    const baseline = values.baseline as string | undefined;
    if (baseline !== undefined && baseline !== 'fts5') throw new UsageError(`--baseline must be fts5, not ${shownArg(baseline)}`);

    if (mode === 'beir') return runBeir(values, { ...tuning, baseline: baseline !== undefined }, io);
    if (baseline && mode === 'known-items') throw new UsageError('--baseline works with --golden, --locomo or --beir, not --known-items');
    if (mode === null) throw new UsageError('say what to evaluate: --golden FILE or --known-items (with --vault), --locomo DATA --vault OUT, or --beir DIR');
    const golden = goldenQueries(values, io);
    const session = openSession(values.vault as string | undefined, env);
    try {
      // Scores over a stale index would mislead: a held lock is an error here, not a notice.
      const refreshed = await session.refreshIndex();
      if (refreshed.status === 'locked') throw new EngramError('LOCKED', refreshed.reason);
      if (mode === 'known-items') return knownItems(session, values, tuning, io);
      return await goldenEval(session, values, { ...golden, ...tuning, baseline: baseline !== undefined }, { env, io });
    } finally {
      session.close();
    }
  },
};

type Values = Record<string, unknown>;
type Io = CommandContext['io'];
interface Tuning {
  params: Bm25Params;
  weights: FieldWeights;
}

/** The kind of run the options ask for, in the order `run` dispatches them; null when none. */
function evalMode(values: Values): EvalMode | null {
  if (values.graph !== undefined) return 'graph';
  if (values.beir !== undefined) return 'beir';
  if (values['known-items']) return 'known-items';
  if (values.locomo !== undefined) return 'locomo';
  return values.golden !== undefined ? 'golden' : null;
}

/** A floor the run does not measure would pass over without a word: bad usage, naming the floors the run has. */
function refuseUnmeasuredFloors(values: Values, mode: EvalMode | null): void {
  if (mode === null) return;
  const { measures, floors } = MODE_FLOORS[mode];
  const unmeasured = [...Object.keys(FLOOR_OPTIONS), ...GRAPH_FLOOR_OPTIONS].find((option) => values[option] !== undefined && !floors.includes(option));
  if (unmeasured === undefined) return;
  const names = floors.map((option) => `--${option}`);
  throw new UsageError(`--${unmeasured} does not apply to --${mode}, which measures ${measures}: its floors are ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
}

/** A numeric option, ≥ 0, or undefined when absent. */
function nonNegative(values: Values, name: string): number | undefined {
  const raw = values[name] as string | undefined;
  if (raw === undefined) return undefined;
  const value = numberValue(raw);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`--${name} must be a number ≥ 0, not ${shownArg(raw)}`);
  return value;
}

/** Every note title and alias as a query for its own note. */
function knownItems(session: VaultSession, values: Values, tuning: Tuning, io: Io): number {
  const notes = (session.db.prepare('SELECT path, title, aliases FROM notes ORDER BY path').all() as { path: string; title: string; aliases: string }[]).map((row) => ({
    path: row.path,
    title: row.title,
    aliases: JSON.parse(row.aliases) as string[],
  }));
  const engine = session.search(tuning);
  const report = runKnownItems(notes, (query, depth) => engine.search({ query, limit: depth }).results.map((hit) => hit.path));
  const { overall } = report;
  io.out(
    values.json
      ? JSON.stringify(report, null, 2)
      : [
          `titles first: ${report.titles.first}/${report.titles.queries}; aliases first: ${report.aliases.first}/${report.aliases.queries}`,
          `overall: s@5 ${overall.success5}  s@10 ${overall.success10}  r@10 ${overall.recall10}  MRR ${overall.mrr}  nDCG@10 ${overall.ndcg10}`,
          ...report.misses.map((miss) => `  ${miss.kind} "${miss.query}" → ${miss.got ?? 'nothing'} (want ${miss.want}, rank ${miss.rank ?? `>${GOLDEN_DEPTH}`})`),
        ].join('\n'),
  );
  return belowFloors(values, report, io) ? 1 : 0;
}

/** A golden query set through the search pipeline (and FTS5 beside it with --baseline): history, report, floors. */
async function goldenEval(session: VaultSession, values: Values, run: Tuning & { queries: GoldenQuery[]; file: string | null; baseline: boolean }, { env, io }: CommandContext): Promise<number> {
  const { queries } = run;
  checkGoldenPaths(session, queries);
  const engine = session.search({ params: run.params, weights: run.weights, model: env.model });
  const mode = values.mode === 'keyword' ? 'keyword' : 'hybrid';
  if (values.mode !== undefined && values.mode !== 'keyword' && values.mode !== 'hybrid') throw new UsageError(`--mode must be hybrid or keyword, not ${shownArg(String(values.mode))}`);
  const { vectors, vectorReason } = mode === 'hybrid' && engine.vectors.size > 0 ? await embedQueries(queries, env, io) : { vectors: new Map<string, Float32Array>(), vectorReason: `no note has a ${env.model} vector yet` };
  const modes = new Set<string>();
  const today = todayOption(values.today as string | undefined);
  // The production pipeline: the query and its rephrasings (`also`) fused as search_brain fuses them.
  const vectorOf = (text: string): QueryVector => {
    const vector = vectors.get(text);
    return vector ? { queryVector: vector } : { vectorUnavailable: vectorReason };
  };
  const report = runGolden(queries, (query, depth) => {
    const response = searchWordings(
      engine,
      {
        query: query.query,
        alternatives: query.also ?? [],
        limit: depth,
        mode,
        filters: { tags: query.tags, folders: query.folder ? [query.folder] : [] },
        ...(query.today === undefined ? today : { today: query.today }),
      },
      vectorOf,
    );
    modes.add(response.mode);
    return response.results.map((hit) => hit.path);
  });
  const modeUsed = [...modes].join(' + ');
  const fts5 = run.baseline ? fts5Report(session.vault, engine.metas, queries, run.weights) : null;
  if (!values['no-history']) {
    appendFileSync(
      join(session.stateDir, 'eval-history.jsonl'),
      JSON.stringify({
        at: new Date().toISOString(),
        golden: run.file,
        mode: modeUsed,
        overall: report.overall,
        categories: report.categories,
        ...(fts5 ? { fts5: { overall: fts5.overall, categories: fts5.categories } } : {}),
      }) + '\n',
    );
  }
  const header = `mode: ${modeUsed}${modeUsed === 'keyword' && mode === 'hybrid' ? ` (${vectorReason})` : ''}`;
  if (values.json) io.out(JSON.stringify({ mode: modeUsed, ...report, ...(fts5 ? { baseline: { engine: 'fts5', ...fts5 } } : {}) }, null, 2));
  else io.out(`${header}\n${fts5 ? `${describeComparison({ engram: report, fts5 })}\n${describeMisses(report)}` : describeGolden(report)}`);
  return belowFloors(values, report, io) ? 1 : 0;
}

/** A golden file naming notes the vault does not have would score them as misses: refused, naming a few. */
function checkGoldenPaths(session: VaultSession, queries: readonly GoldenQuery[]): void {
  const known = new Set(session.db.prepare('SELECT path FROM notes').pluck().all() as string[]);
  const missing = queries.flatMap((query) => [...query.expect, ...query.accept].filter((path) => !known.has(path)).map((path) => `${query.id}: ${path}`));
  if (missing.length > 0) {
    throw new EngramError('INVALID_INPUT', `the golden file names notes that are not in the vault (${missing.slice(0, 3).join('; ')}${missing.length > 3 ? `; and ${missing.length - 3} more` : ''}); fix the paths or the --vault`);
  }
}

/** Every wording (query and rephrasings) embedded once, up front, for the semantic lane, keyed by the text the pipeline asks for; or why there are no query vectors. */
async function embedQueries(queries: readonly GoldenQuery[], env: CommandContext['env'], io: Io): Promise<{ vectors: Map<string, Float32Array>; vectorReason: string }> {
  const vectors = new Map<string, Float32Array>();
  const opened = await openConfiguredEmbedder(env, io);
  if ('reason' in opened) return { vectors, vectorReason: opened.reason };
  const texts = [...new Set(queries.flatMap((query) => wordingTexts({ query: query.query, alternatives: query.also ?? [] })))].filter((text) => text !== '');
  try {
    const embedded = await opened.embedder.embed(texts.map((text) => queryInput(env.model, text)));
    texts.forEach((text, i) => {
      const vector = embedded[i];
      if (vector) vectors.set(text, vector);
    });
  } finally {
    await opened.embedder.close();
  }
  return { vectors, vectorReason: `no note has a ${env.model} vector yet` };
}

/** The --min-* floors the overall scores fall below, said on stderr; true when any. */
function belowFloors(values: Values, report: FloorScores, io: Io): boolean {
  const floors: Floor[] = [];
  for (const [option, metric] of Object.entries(FLOOR_OPTIONS)) {
    const min = nonNegative(values, option);
    if (min !== undefined) floors.push({ metric, min, category: null });
  }
  const failures = checkFloors(report, floors);
  if (failures.length > 0) io.err(`engram: below the floor: ${failures.join('; ')}`);
  return failures.length > 0;
}

function runBeir(values: Values, options: { params: Bm25Params; weights: FieldWeights; baseline: boolean }, io: Io): number {
  const data = loadBeir(values.beir as string, (values.split as string | undefined) ?? 'test');
  const report = evaluateBeir(data, { params: options.params, weights: options.weights });
  const fts5 = options.baseline ? evaluateBeirFts5(data, options.weights) : null;
  io.out(
    values.json
      ? JSON.stringify(fts5 ? { ...report, baseline: { engine: 'fts5', ...fts5 } } : report, null, 2)
      : [
          `BEIR ${String(values.beir)} (${report.documents} documents, ${report.queries} queries)`,
          ...(fts5
            ? [beirLine('engram', report), beirLine('fts5', fts5)]
            : [`nDCG@10 ${report.ndcg10}   recall@100 ${report.recall100}   MRR@10 ${report.mrr10}`, `index ${report.index_ms} ms; query p50 ${report.query_ms.p50} ms, p95 ${report.query_ms.p95} ms`]),
        ].join('\n'),
  );
  // Engram's scores, not the baseline's; --min-mrr is MRR@10 here, the MRR BEIR reports.
  return belowFloors(values, { overall: { ndcg10: report.ndcg10, mrr: report.mrr10 }, categories: {} }, io) ? 1 : 0;
}

/** The queries to run: a golden file's, or a LoCoMo log's after writing its notes into --vault. */
function goldenQueries(values: Values, io: Io): { queries: GoldenQuery[]; file: string | null } {
  const read = readQueries(values, io);
  return values.also === undefined ? read : { ...read, queries: withRephrasings(read.queries, values.also as string) };
}

function readQueries(values: Values, io: Io): { queries: GoldenQuery[]; file: string | null } {
  if (values.locomo === undefined) return { queries: values.golden === undefined ? [] : loadGolden(values.golden as string), file: (values.golden as string | undefined) ?? null };
  // The notes are written into --vault: never default it to ENGRAM_VAULT, the user's own vault.
  if (values.golden !== undefined) throw new UsageError('give --locomo or --golden, not both');
  if (typeof values.vault !== 'string' || values.vault === '') throw new UsageError('--locomo needs --vault OUT: a new or empty folder to write the session notes into');
  const converted = loadLocomo(values.locomo as string);
  const file = writeLocomoVault(resolve(values.vault), converted);
  io.err(`engram: ${converted.notes.length} session notes and ${converted.queries.length} questions (${converted.skipped} left out) written; golden file ${file}`);
  return { queries: converted.queries, file };
}

/** The queries with the rephrasings of an --also file (id → strings); an id no query has is refused, as a typo would silently measure nothing. */
function withRephrasings(queries: readonly GoldenQuery[], file: string): GoldenQuery[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EngramError('INVALID_INPUT', `cannot read the --also file ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new EngramError('INVALID_INPUT', `${file} must be a JSON object mapping query ids to lists of rephrasings`);
  const byId = raw as Record<string, unknown>;
  const ids = new Set(queries.map((query) => query.id));
  const unknown = Object.keys(byId).filter((id) => !ids.has(id));
  if (unknown.length > 0) throw new EngramError('INVALID_INPUT', `${file} names queries the set does not have (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}); check it belongs to this set`);
  return queries.map((query) => {
    const also = alsoList(byId[query.id], `${file}: "${query.id}"`);
    return also.length === 0 ? query : { ...query, also };
  });
}

/** The same queries through FTS5 over the same notes, read from the vault as indexed. */
function fts5Report(vault: string, metas: readonly NoteMeta[], queries: readonly GoldenQuery[], weights: FieldWeights): GoldenReport {
  const reference = new Fts5Baseline(vaultDocuments(vault, metas), weights);
  try {
    return runGoldenFts5(queries, reference, metas);
  } finally {
    reference.close();
  }
}

function beirLine(engine: string, report: BeirReport): string {
  return `${engine.padEnd(7)} nDCG@10 ${report.ndcg10}   recall@100 ${report.recall100}   MRR@10 ${report.mrr10}   index ${report.index_ms} ms; query p50 ${report.query_ms.p50} ms`;
}

function describeGolden(report: GoldenReport): string {
  const row = (name: string, m: GoldenReport['overall']) =>
    `${name.padEnd(16)} ${String(m.queries).padStart(4)}  ${fmt(m.success1)}  ${fmt(m.success5)}  ${fmt(m.success10)}  ${fmt(m.recall5)}  ${fmt(m.recall10)}  ${fmt(m.mrr)}  ${fmt(m.ndcg10)}`;
  const lines = [`${'category'.padEnd(16)} ${'n'.padStart(4)}  s@1    s@5    s@10   r@5    r@10   MRR    nDCG@10`];
  for (const [category, metrics] of Object.entries(report.categories)) lines.push(row(category, metrics));
  lines.push(row('overall', report.overall));
  return [lines.join('\n'), describeMisses(report)].filter((part) => part !== '').join('\n');
}

/** Enough misses to see a pattern; a dev set of hundreds of questions would bury the table. */
const MISSES_SHOWN = 30;

function describeMisses(report: GoldenReport): string {
  const lines: string[] = [];
  const misses = report.results.filter((result) => result.rank === null || result.rank > 5);
  if (misses.length > 0) {
    lines.push('', 'not in the top 5:');
    for (const miss of misses.slice(0, MISSES_SHOWN)) lines.push(`  ${miss.id} (${miss.category}): rank ${miss.rank ?? '>20'} — "${miss.query}"; top: ${miss.top[0] ?? 'nothing'}`);
    if (misses.length > MISSES_SHOWN) lines.push(`  … and ${misses.length - MISSES_SHOWN} more (--json lists every query)`);
  }
  return lines.join('\n');
}

function fmt(value: number): string {
  return value.toFixed(3).padEnd(5);
}

function defined<T extends Record<string, number | undefined>>(values: T): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<Record<keyof T, number>>;
}
