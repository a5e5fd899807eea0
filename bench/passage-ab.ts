/**
 * The passage stage of two source trees, compared in one process: the best PASSAGE_DEPTH notes
 * of each query re-scored by passage and the top 10's excerpts, as `search-worker.ts
 * engram+passages` runs them, with tree A's and tree B's evidence code alternating query by
 * query. On a shared machine the worker's p50 moves by a third from run to run; alternating in
 * one process puts both under the same load, JIT and garbage collector. Whichever tree is
 * imported second ran 3–6 % slower in an A/A run, so each comparison runs in both orders (two
 * processes) and reports the geometric mean of B/A. Also checks that both give the same
 * passages and excerpts, byte for byte.
 *
 *   node --import tsx bench/passage-ab.ts TREE_A TREE_B [QUERIES]
 *
 * QUERIES (default 3000): the synthetic 10k bench's 300 queries, then more drawn the same way;
 * 300 is the worker's own run, more is a server that has answered many. Prints one JSON line.
 *
 * A tree with term positions (`notePositions`) gets every note's before the queries, as the
 * worker holds them; with PASSAGE_AB_POSITIONS=lazy, as a search engine's NoteTexts gives them:
 * none the first time a note is scored, derived inside the timed stage the second time.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [treeA, treeB, count = '3000', order] = process.argv.slice(2);
if (!treeA || !treeB) {
  process.stderr.write('usage: node --import tsx bench/passage-ab.ts TREE_A TREE_B [QUERIES]\n');
  process.exit(2);
}

if (order === undefined) {
  // Both orders, each in a process of its own.
  const run = (first: string, second: string) => {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, first, second, count, 'one'], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').pop()!) as Side;
  };
  const ab = run(treeA, treeB);
  const ba = run(treeB, treeA);
  const ratio = (key: 'p50' | 'mean') => Math.sqrt((ab.second[key] / ab.first[key]) * (ba.first[key] / ba.second[key]));
  process.stdout.write(JSON.stringify({ a: resolve(treeA), b: resolve(treeB), queries: Number(count), ab, ba, bOverA: { p50: round(ratio('p50')), mean: round(ratio('mean')) }, differences: ab.differences + ba.differences }) + '\n');
} else {
  process.stdout.write(JSON.stringify(await compare(treeA, treeB, Number(count))) + '\n');
}

interface Stats {
  p50: number;
  p90: number;
  mean: number;
  /** Milliseconds to derive every note's term positions (0: the tree has none). */
  positionsMs?: number;
}
interface Side {
  first: Stats;
  second: Stats;
  differences: number;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- two trees' modules, typed alike only by convention
type Search = any;

async function load(tree: string): Promise<{ search: Search; vault: Search; datasets: Search; generator: Search }> {
  const at = (path: string) => import(pathToFileURL(resolve(tree, path)).href);
  return { search: await at('src/search/index.ts'), vault: await at('src/vault/index.ts'), datasets: await at('bench/search-datasets.ts'), generator: await at('bench/generate-vault.ts') };
}

async function compare(first: string, second: string, count: number): Promise<Side> {
  const A = await load(first);
  const B = await load(second);
  const { documents, queries: own } = A.datasets.loadDataset('synthetic:10000') as { documents: { id: string; title: string; body: string }[]; queries: string[] };
  const queries = [...own];
  const random = A.generator.seededRandom(424242) as () => number;
  while (queries.length < count) {
    const words = documents[Math.floor(random() * documents.length)]!.body.match(/\p{L}{4,}/gu) ?? ['nothing'];
    queries.push(Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]).join(' '));
  }
  queries.length = count;
  // One index (tree A's ranking); each tree's tokenizer reads every note, as the worker's build does, so their word caches hold the same words.
  const tokenizers = [A.search.createTokenizer(), B.search.createTokenizer()];
  const vocabulary = new Map<string, number>();
  const idOf = (term: string) => vocabulary.get(term) ?? (vocabulary.set(term, vocabulary.size + 1), vocabulary.size);
  const counters = [new A.search.TermCounter(tokenizers[0], idOf), new B.search.TermCounter(tokenizers[1], idOf)];
  const stored = documents.map((d, id) => ({ id, stats: counters.map((counter) => counter.count({ title: d.title, aliases: '', headings: '', tags: '', body: d.body }))[0] }));
  const index = new A.search.LexicalIndex(stored, vocabulary);
  const blocks = documents.map((d) => A.vault.parseNote(`${d.id}.md`, d.body).blocks);
  const metas = documents.map((d) => ({ path: d.id, title: d.title, folders: [], tags: [], type: null, mtimeMs: 0 }));
  // A tree whose passage stage reads term positions gets every note's, derived as the worker's build derives them.
  const lazy = process.env.PASSAGE_AB_POSITIONS === 'lazy';
  const derived = [A, B].map((tree, side) => {
    if (typeof tree.search.notePositions !== 'function') return { positions: null, ms: 0 };
    if (process.env.PASSAGE_AB_POSITIONS === 'none') return { positions: null, ms: 0 };
    if (lazy) return { positions: [] as unknown[], ms: 0 };
    const t0 = performance.now();
    const positions = documents.map((d) => tree.search.notePositions(d.body, tokenizers[side], d.title));
    return { positions, ms: Math.round(performance.now() - t0) };
  });
  const filter = A.search.compileFilter({});
  const prepared = queries.map((text) => {
    const analyzed = A.search.analyzeQuery(text, tokenizers[0]);
    const terms = index.knownTerms(analyzed.content);
    return { analyzed, terms, hits: A.search.rankDocuments(index, metas, terms, { limit: A.search.PASSAGE_DEPTH, filter }).hits as { doc: number; score: number }[] };
  });
  const stage = (side: number, q: (typeof prepared)[number]) => {
    const search = side === 0 ? A.search : B.search;
    const scorer = search.passageScorer(q.terms, (term: string) => index.idf(term), tokenizers[side], { wordOf: (term: string) => q.analyzed.wordOf.get(term) ?? -1 });
    const notes = q.hits.map((hit) => {
      const d = documents[hit.doc]!;
      const held = derived[side]!.positions;
      if (lazy && held !== null) held[hit.doc] = held[hit.doc] === undefined ? null : (held[hit.doc] ?? search.notePositions(d.body, tokenizers[side], d.title));
      return { text: d.body, blocks: blocks[hit.doc], context: d.title, positions: held?.[hit.doc] ?? undefined };
    });
    // A tree with `scoreNotes` scores a search's notes together, as its `VaultSearch` does.
    const passages = search.scoreNotes ? search.scoreNotes(scorer, notes) : notes.map((note) => scorer(note.text, note.blocks, note.context, note.positions));
    const scored = q.hits.map((hit, i) => ({ doc: hit.doc, score: hit.score + passages[i].score, passage: passages[i] }));
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, 10).map((hit) => ({ ...hit, evidence: search.passageEvidence(documents[hit.doc]!.body, hit.passage, blocks[hit.doc]) }));
  };
  const shown = (top: ReturnType<typeof stage>) => JSON.stringify(top.map((hit) => ({ ...hit, passage: { ...hit.passage, block: hit.passage.block?.key ?? null } })));
  // The worker's warm-up: its first 20 queries.
  for (const q of prepared.slice(0, 20)) for (const side of [0, 1]) stage(side, q);
  const times: number[][] = [[], []];
  let differences = 0;
  prepared.forEach((q, i) => {
    const out: string[] = [];
    for (const side of i % 2 ? [0, 1] : [1, 0]) {
      const t0 = performance.now();
      const top = stage(side, q);
      times[side]!.push((performance.now() - t0) * 1000);
      out[side] = shown(top);
    }
    if (out[0] !== out[1]) differences++;
  });
  return { first: { ...stats(times[0]!), positionsMs: derived[0]!.ms }, second: { ...stats(times[1]!), positionsMs: derived[1]!.ms }, differences };
}

/** Per-query microseconds: p50, p90, mean. */
function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(sorted[sorted.length >> 1]!), p90: round(sorted[Math.floor(sorted.length * 0.9)]!), mean: round(values.reduce((a, b) => a + b, 0) / values.length) };
}
