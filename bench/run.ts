/**
 * `npm run bench`: indexing speed and memory on deterministic synthetic vaults, and search
 * latency against SQLite FTS5 and wink-bm25-text-search on the same documents (synthetic vaults,
 * and SciFact when ../shared/corpora/scifact is present). Each step runs in its own process.
 * Results print as tables and are appended to bench/results.jsonl.
 * Usage: npm run bench -- [--sizes 1000,10000,50000] [--suites index,search,mcp,graph,librarian,map,sessions]
 * (`sessions`, 8 stdio sessions standalone vs attached to a daemon, runs only when named.)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateVault } from './generate-vault.js';
import { SCIFACT } from './search-datasets.js';
import { benchMcp } from './mcp-bench.js';
import { benchSessions } from './sessions-bench.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000' }, suites: { type: 'string', default: 'index,search,mcp,graph,librarian,map' } } });
const sizes = values
  .sizes!.split(',')
  .map(Number)
  .filter((n) => n > 0);
const suites = new Set(values.suites!.split(','));

interface Step {
  mode: string;
  ms: number;
  maxRssMb: number;
  indexMs?: number;
  notes: number;
}

function step(mode: string, vault: string, home: string, editPath = ''): Step {
  const out = execFileSync(process.execPath, [join(here, 'index-worker.mjs'), mode, vault, home, editPath], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Step;
}

/**
 * A fresh copy of the synthetic vault. `changes`: the suite will edit it (index) or add notes
 * to it (graph, librarian), so it loses the marker that lets the search and MCP suites reuse it
 * — they regenerate it instead of measuring a vault grown by thousands of entity notes.
 */
function vaultFor(size: number, changes = false): { root: string; paths: string[] } {
  const root = join(here, '.vaults', String(size));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const { paths } = generateVault(root, size);
  if (!changes) writeFileSync(join(root, '.generated'), 'deterministic synthetic vault; safe to delete\n');
  return { root, paths };
}

const rows: Record<string, string | number>[] = [];
for (const size of suites.has('index') ? sizes : []) {
  process.stderr.write(`generating ${size} notes…\n`);
  const { root, paths } = vaultFor(size, true);
  const home = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  try {
    step('floor', root, home); // warm the page cache so every step reads from memory
    const floor = step('floor', root, home);
    const full = step('full', root, home);
    const again = step('again', root, home);
    const edit = step('edit', root, home, paths[Math.floor(paths.length / 2)]!);
    const editPath = step('edit-path', root, home, paths[Math.floor(paths.length / 3)]!);
    const query = step('query', root, home) as Step & { openMs: number; p50: number; p95: number };
    const hybrid = step('hybrid', root, home) as Step & { vectors: number; vectorLoadMs: number; p50: number; p95: number; rssDeltaMb: number; vectorMb: number };
    const row = {
      notes: size,
      'full index (s)': +(full.indexMs! / 1000).toFixed(2),
      'notes/s': Math.round(size / (full.indexMs! / 1000)),
      'vs read+hash floor': `${(full.indexMs! / floor.ms).toFixed(1)}×`,
      'no-change (ms)': Math.round(again.indexMs!),
      'no-change process (ms)': Math.round(again.ms),
      'one edit, scan (ms)': Math.round(edit.indexMs!),
      'one edit, by path (ms)': +editPath.indexMs!.toFixed(1),
      'peak RSS full (MB)': Math.round(full.maxRssMb),
      'search: load (ms)': Math.round(query.openMs),
      'search p50 (ms)': +query.p50.toFixed(2),
      'search p95 (ms)': +query.p95.toFixed(2),
      'search RSS (MB)': Math.round(query.maxRssMb),
      vectors: hybrid.vectors,
      'vector load (ms)': Math.round(hybrid.vectorLoadMs),
      'hybrid p50 (ms)': +hybrid.p50.toFixed(2),
      'hybrid p95 (ms)': +hybrid.p95.toFixed(2),
      'MB per 100k vectors': Math.round((hybrid.vectorMb / hybrid.vectors) * 100_000),
      'search RSS growth with vectors (MB)': Math.round(hybrid.rssDeltaMb),
    };
    rows.push(row);
    appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'index', cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, ...row }) + '\n');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
if (rows.length > 0) console.table(rows);

interface SearchStep {
  engine: string;
  dataset: string;
  documents: number;
  buildMs: number;
  /** The second pass over the queries (steady state); `firstPass*` the first (see search-worker.ts). */
  p50: number;
  p95: number;
  firstPassP50: number;
  firstPassP95: number;
  maxRssMb: number;
}

if (suites.has('mcp')) {
  const mcpRows: Record<string, string | number>[] = [];
  for (const size of sizes.filter((n) => n >= 10_000).concat(sizes.some((n) => n >= 10_000) ? [] : [10_000])) {
    process.stderr.write(`mcp round trips at ${size} notes…\n`);
    const row = await benchMcp(size);
    mcpRows.push(row);
    appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'mcp', cpus: cpus().length, node: process.version, ...row }) + '\n');
  }
  console.table(mcpRows);
}

if (suites.has('sessions')) {
  const sessionRows: Record<string, string | number>[] = [];
  // At 10k notes unless sizes name others (a smaller vault for a quick look).
  for (const size of sizes.length > 0 ? sizes : [10_000]) {
    process.stderr.write(`8 sessions at ${size} notes, standalone then attached to a daemon…\n`);
    const row = await benchSessions(size);
    sessionRows.push(row);
    appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'sessions', cpus: cpus().length, node: process.version, ...row }) + '\n');
  }
  console.table(sessionRows);
}

if (suites.has('graph')) {
  // The structural graph on the synthetic vault: no peer exists for entity extraction, so the
  // ratio is against indexing the same vault in the same process.
  const graphRows: Record<string, string | number>[] = [];
  for (const size of sizes) {
    process.stderr.write(`graph at ${size} notes…\n`);
    const { root } = vaultFor(size, true);
    const home = mkdtempSync(join(tmpdir(), 'engram-bench-graph-'));
    try {
      const out = execFileSync(process.execPath, [join(here, 'graph-worker.mjs'), root, home], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const r = JSON.parse(out.trim().split('\n').pop()!) as {
        indexMs: number;
        graphMs: number;
        againMs: number;
        consolidateMs: number;
        processed: number;
        entities: number;
        entityNotes: number;
        againProcessed: number;
        proposals: number;
        maxRssMb: number;
      };
      const row = {
        notes: size,
        entities: r.entities,
        'entity notes': r.entityNotes,
        'extract+write (s)': +(r.graphMs / 1000).toFixed(2),
        'notes/s': Math.round(r.processed / (r.graphMs / 1000)),
        'vs full index': `${(r.graphMs / r.indexMs).toFixed(1)}×`,
        'no-change (ms)': Math.round(r.againMs),
        'consolidate (ms)': Math.round(r.consolidateMs),
        proposals: r.proposals,
        'peak RSS (MB)': r.maxRssMb,
      };
      graphRows.push(row);
      appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'graph', cpus: cpus().length, node: process.version, ...row }) + '\n');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  console.table(graphRows);
}

if (suites.has('librarian')) {
  // A caretaker sweep as `engram librarian` runs it (built CLI, structural extractor, no model):
  // the dry run on an indexed vault, the first real sweep (extraction, cleanup, organize,
  // consolidation slice, health, report), and a second sweep with nothing changed; the ratio is
  // against `engram index` of the same vault in the same run.
  const cli = join(here, '..', 'dist', 'cli', 'main.js');
  const libRows: Record<string, string | number>[] = [];
  for (const size of sizes) {
    process.stderr.write(`librarian at ${size} notes…\n`);
    const { root } = vaultFor(size, true);
    const home = mkdtempSync(join(tmpdir(), 'engram-bench-lib-'));
    const env = { ...process.env, ENGRAM_HOME: home, ENGRAM_OFFLINE: '1', ENGRAM_EXTRACTOR: 'structural', ENGRAM_MODEL_DIR: join(home, 'no-models') };
    const timed = (args: string[]) => {
      const started = performance.now();
      const out = execFileSync(process.execPath, [cli, ...args, '--vault', root], { env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
      return { ms: performance.now() - started, out };
    };
    try {
      const index = timed(['index', '--quiet', '--no-embed']);
      const dry = timed(['librarian', '--dry-run', '--json']);
      const first = timed(['librarian', '--json']);
      const again = timed(['librarian', '--json']);
      const report = JSON.parse(first.out) as { phases: { name: string; durationMs: number; counts: Record<string, number> }[] };
      const extract = report.phases.find((phase) => phase.name === 'extract');
      const slowest = [...report.phases]
        .sort((a, b) => b.durationMs - a.durationMs)
        .slice(0, 2)
        .map((phase) => `${phase.name} ${(phase.durationMs / 1000).toFixed(1)} s`)
        .join(', ');
      const row = {
        notes: size,
        'index (s)': +(index.ms / 1000).toFixed(2),
        'dry run (s)': +(dry.ms / 1000).toFixed(2),
        'first sweep (s)': +(first.ms / 1000).toFixed(2),
        'vs index': `${(first.ms / index.ms).toFixed(1)}×`,
        'notes extracted': extract?.counts.processed ?? 0,
        'slowest phases': slowest,
        'second sweep, nothing changed (s)': +(again.ms / 1000).toFixed(2),
      };
      libRows.push(row);
      appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'librarian', cpus: cpus().length, node: process.version, ...row }) + '\n');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  console.table(libRows);
}

if (suites.has('map')) {
  // `engram map` as a user runs it (built CLI): a first map of a vault whose notes all have
  // vectors (synthetic, 384-d — the layout is measured, not embedding), the same again with
  // nothing changed, after one edited note (placed into the cached layout), and with --full; then
  // the model-free map of the same vault without vectors.
  const cli = join(here, '..', 'dist', 'cli', 'main.js');
  const mapRows: Record<string, string | number>[] = [];
  for (const size of sizes) {
    process.stderr.write(`map at ${size} notes…\n`);
    const { root, paths } = vaultFor(size, true);
    const home = mkdtempSync(join(tmpdir(), 'engram-bench-map-'));
    const env = { ...process.env, ENGRAM_HOME: home, ENGRAM_OFFLINE: '1', ENGRAM_MODEL_DIR: join(home, 'no-models') };
    const timed = (args: string[]) => {
      const started = performance.now();
      const out = execFileSync(process.execPath, [cli, ...args, '--vault', root], { env, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
      return { ms: performance.now() - started, report: JSON.parse(out) as { mode: string; source: string; drawn: number } };
    };
    try {
      execFileSync(process.execPath, [cli, 'index', '--quiet', '--no-embed', '--vault', root], { env, stdio: 'ignore' });
      const stateDir = execFileSync(process.execPath, [cli, 'status', '--json', '--vault', root], { env, encoding: 'utf8' });
      const dir = (JSON.parse(stateDir) as { state_dir: string }).state_dir;
      execFileSync(process.execPath, ['--import', 'tsx', join(here, 'map-vectors.ts'), dir], { encoding: 'utf8' });
      const first = timed(['map', '--json']);
      const again = timed(['map', '--json']);
      appendFileSync(join(root, paths[Math.floor(paths.length / 2)]!), '\nOne more line.\n');
      const edited = timed(['map', '--json']);
      const full = timed(['map', '--json', '--full']);
      execFileSync(process.execPath, ['-e', `const D=require('better-sqlite3');const d=new D(${JSON.stringify(join(dir, 'engram.db'))});d.exec('DELETE FROM vectors');d.close()`], { cwd: join(here, '..') });
      const signals = timed(['map', '--json']);
      const row = {
        notes: size,
        drawn: first.report.drawn,
        'first map, vectors (s)': +(first.ms / 1000).toFixed(2),
        'nothing changed (s)': +(again.ms / 1000).toFixed(2),
        'one edit (s)': +(edited.ms / 1000).toFixed(2),
        'one edit mode': edited.report.mode,
        '--full (s)': +(full.ms / 1000).toFixed(2),
        'no vectors, links+tags (s)': +(signals.ms / 1000).toFixed(2),
        'no-vector source': signals.report.source,
      };
      mapRows.push(row);
      appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'map', cpus: cpus().length, node: process.version, ...row }) + '\n');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  console.table(mapRows);
}

/**
 * `engram` is the keyword core (query analysis, names, BM25L: what decides which notes match);
 * `engram+passages` adds the best-15 re-scoring by passage that the production search runs
 * after it, and each hit's excerpt (it reads each candidate's text, so it is measured apart).
 * `fts5+snippet` is FTS5 returning the same kind of answer: each hit with an excerpt.
 * Latency is the second of two passes over the queries (a daemon's steady state); the first
 * pass's p50 is shown beside it.
 */
const ENGINES = ['engram', 'engram+passages', 'fts5', 'fts5+snippet', 'wink'];

if (suites.has('search')) {
  const datasets = [...sizes.map((size) => `synthetic:${size}`), ...(existsSync(SCIFACT) ? ['scifact'] : [])];
  const searchRows: Record<string, string | number>[] = [];
  for (const dataset of datasets) {
    if (dataset.startsWith('synthetic:')) vaultFor(Number(dataset.split(':')[1])); // generate outside the timed workers
    const results: Record<string, SearchStep> = {};
    for (const engine of ENGINES) {
      process.stderr.write(`search ${engine} on ${dataset}…\n`);
      const out = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'search-worker.ts'), engine, dataset], { encoding: 'utf8' });
      results[engine] = JSON.parse(out.trim().split('\n').pop()!) as SearchStep;
    }
    const ours = results.engram!;
    const passages = results['engram+passages']!;
    for (const engine of ENGINES) {
      const step = results[engine]!;
      const row = {
        dataset,
        engine,
        docs: step.documents,
        'build (ms)': Math.round(step.buildMs),
        'p50 (ms)': +step.p50.toFixed(3),
        'p95 (ms)': +step.p95.toFixed(3),
        'first-pass p50 (ms)': +step.firstPassP50.toFixed(3),
        'engram p50 ×': engine === 'engram' ? '1' : `${(ours.p50 / step.p50).toFixed(2)}`,
        'engram build ×': engine === 'engram' ? '1' : `${(ours.buildMs / step.buildMs).toFixed(2)}`,
        'with passages p50 ×': `${(passages.p50 / step.p50).toFixed(2)}`,
        'peak RSS (MB)': Math.round(step.maxRssMb),
      };
      searchRows.push(row);
      // The first pass's p95 too, in the record only (the table is wide enough).
      const record = { at: new Date().toISOString(), suite: 'search', cpus: cpus().length, node: process.version, ...row, 'first-pass p95 (ms)': +step.firstPassP95.toFixed(3) };
      appendFileSync(join(here, 'results.jsonl'), JSON.stringify(record) + '\n');
    }
  }
  console.table(searchRows);
}
