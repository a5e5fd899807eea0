/**
 * The Librarian end to end through the CLI: a dry run that changes nothing (vault and state
 * hashed before and after) and makes no paid call, a full sweep with the real Anthropic SDK
 * against a fake server and the tiny model through transformers.js, a move with its link
 * rewrites, the report, proposals that survive sweeps, and `engram undo RUN_ID`.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { runCli, spawnCliAsync } from '../helpers/cli.js';
import { startFakeAnthropic, toolUseReply, type FakeAnthropic, type ScriptStep } from '../helpers/fake-anthropic.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { makeVault } from '../helpers/vault.js';
import { LIBRARIAN_VAULT, LIBRARIAN_WORDS } from '../helpers/librarian.js';

const KEY = 'sk-ant-test-0123456789abcdef0123456789abcdef';

const GOOD = { entities: [{ name: 'Walrus', type: 'topic', aliases: [], evidence: 'walrus' }], relations: [] };

function hashTree(dir: string, skip: (path: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const rel = relative(dir, path);
      if (statSync(path).isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(path);
      } else if (!skip(rel)) {
        out[rel] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(dir);
  return out;
}

async function fake(t: TestContext, steps: number, delayMs = 0): Promise<FakeAnthropic> {
  const reply = toolUseReply(GOOD);
  const step: ScriptStep = (body, request) => ({ ...reply(body, request), delayMs });
  const server = await startFakeAnthropic(Array.from({ length: steps }, () => step));
  t.after(() => server.close());
  return server;
}

function setup(t: TestContext, files = LIBRARIAN_VAULT) {
  const vault = makeVault(t, files);
  const modelDir = join(vault.home, '..', 'models');
  writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'), { words: LIBRARIAN_WORDS });
  return { vault, env: (server: FakeAnthropic) => ({ ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir, ENGRAM_EXTRACTOR: 'anthropic', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }) };
}

function stateDb(home: string): Database.Database {
  const [id] = readdirSync(home);
  return new Database(join(home, id!, 'engram.db'), { readonly: true });
}

test('dry run: no state directory is created, nothing in the vault changes, no paid call, and the plan says what a sweep would do', async (t) => {
  const { vault, env } = setup(t);
  const server = await fake(t, 20);
  const before = hashTree(vault.root);
  const dry = await runCli(['librarian', '--dry-run', '--json'], env(server));
  assert.equal(dry.code, 0, dry.stderr);
  const report = JSON.parse(dry.stdout);
  assert.equal(report.dryRun, true);
  assert.equal(report.phases.find((p: { name: string }) => p.name === 'index').counts.added, 16);
  const extract = report.phases.find((p: { name: string }) => p.name === 'extract');
  assert.equal(extract.counts.waiting, 16, 'notes the index would add count as waiting for extraction');
  assert.equal(report.phases.find((p: { name: string }) => p.name === 'embed').counts.waiting, 16);
  assert.ok(report.phases.every((p: { status: string }) => p.status === 'planned' || p.status === 'skipped'));
  assert.equal(server.requests.length, 0, 'no paid call');
  assert.equal(existsSync(vault.home), false, 'no state directory was created');
  assert.deepEqual(hashTree(vault.root), before);
});

test('a full sweep: backlogs drained, Inbox note filed with every link kept, report written; a dry run before it changes nothing; undo restores every file', async (t) => {
  const { vault, env } = setup(t);
  const server = await fake(t, 40);
  const original = hashTree(vault.root);
  assert.equal((await runCli(['index', '--no-embed'], env(server))).code, 0);

  // Dry run on an existing state: the state directory and the vault stay byte-identical.
  const stateBefore = hashTree(vault.home);
  const vaultBefore = hashTree(vault.root);
  const dry = await runCli(['librarian', '--dry-run', '--json'], env(server));
  assert.equal(dry.code, 0, dry.stderr);
  const plan = JSON.parse(dry.stdout);
  const extractPlan = plan.phases.find((p: { name: string }) => p.name === 'extract');
  assert.equal(extractPlan.counts.waiting, 16);
  assert.ok(extractPlan.estimatedCostUsd > 0, 'the plan estimates the cost of the paid extraction');
  assert.equal(server.requests.length, 0);
  assert.deepEqual(hashTree(vault.home), stateBefore, 'state directory byte-identical');
  assert.deepEqual(hashTree(vault.root), vaultBefore, 'vault byte-identical');

  const run = await runCli(['librarian', '--json'], env(server));
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const report = JSON.parse(run.stdout);
  const phase = (name: string) => report.phases.find((p: { name: string }) => p.name === name);
  assert.ok(
    report.phases.every((p: { status: string }) => p.status === 'ok'),
    JSON.stringify(report.phases.filter((p: { status: string }) => p.status !== 'ok')),
  );
  assert.equal(phase('embed').counts.embedded, 16, 'the tiny model embedded every note');
  assert.equal(phase('extract').counts.processed, 16);
  assert.equal(server.requests.length, 16, 'one paid call per note');
  assert.ok(phase('extract').costUsd > 0);

  // The Inbox note about walruses went to the Zoo folder; every link form still finds it.
  assert.deepEqual(
    report.moves.map((m: { from: string; to: string }) => [m.from, m.to]),
    [['Claude/Inbox/Walrus Plan.md', 'Projects/Zoo/Walrus Plan.md']],
  );
  assert.ok(existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')));
  assert.ok(!existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')));
  assert.equal(
    readFileSync(join(vault.root, 'Home.md'), 'utf8'),
    ['# Home', 'bare [[Walrus Plan]], qualified [[Projects/Zoo/Walrus Plan|plan]], with md [[Projects/Zoo/Walrus Plan.md#Walrus plan]]', 'embed ![[Projects/Zoo/Walrus Plan]] and markdown [plan](Projects/Zoo/Walrus%20Plan.md)', ''].join(
      '\n',
    ),
  );
  assert.equal(readFileSync(join(vault.root, 'Claude/Sessions/2026-11-01 Zoo.md'), 'utf8'), '# Zoo session\nSee [the plan](../../Projects/Zoo/Walrus%20Plan.md) and [[Projects/Zoo/Walrus Plan]].\n');
  const db = stateDb(vault.home);
  const unresolved = db.prepare("SELECT count(*) FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path IN ('Home.md', 'Claude/Sessions/2026-11-01 Zoo.md') AND l.resolved_path IS NULL").pluck().get();
  const toMoved = db.prepare("SELECT count(*) FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path IN ('Home.md', 'Claude/Sessions/2026-11-01 Zoo.md') AND l.resolved_path = 'Projects/Zoo/Walrus Plan.md'").pluck().get();
  db.close();
  assert.equal(unresolved, 0, 'no link broke');
  assert.equal(toMoved, 7, 'all seven links resolve to the new place');

  // A note whose name another note has is not moved (bare links could change meaning): a
  // proposal, listed in the report with a link.
  assert.equal(report.proposals.organize.length, 1);
  assert.equal(report.proposals.organize[0].path, 'Claude/Inbox/Rota.md');
  assert.match(report.proposals.organize[0].reason, /same name/);
  const note = readFileSync(join(vault.root, 'Claude/Librarian.md'), 'utf8');
  assert.match(note, /^# Librarian\n/);
  assert.match(note, new RegExp(`## Sweep .*\\n\\nrun \`${report.runId}\``));
  assert.match(note, /\[\[Projects\/Zoo\/Walrus Plan\]\] from `Claude\/Inbox\/Walrus Plan.md`/);
  assert.match(note, /filing #\d+: \[\[Claude\/Inbox\/Rota\]\]/);

  // A second sweep: only the relinked notes (their text changed) are extracted again, the
  // proposal is the same record, the report has two sections.
  const again = JSON.parse((await runCli(['librarian', '--json'], env(server))).stdout);
  assert.equal(report.moves[0].rewritten, 3, 'Home, the session and the Walrus entity note');
  assert.equal(again.phases.find((p: { name: string }) => p.name === 'extract').counts.processed, 2);
  assert.equal(again.moves.length, 0);
  assert.deepEqual(
    again.proposals.organize.map((p: { id: number }) => p.id),
    report.proposals.organize.map((p: { id: number }) => p.id),
  );
  assert.equal(readFileSync(join(vault.root, 'Claude/Librarian.md'), 'utf8').match(/^## Sweep /gm)!.length, 2);

  const entities = async () => Object.values(JSON.parse((await runCli(['graph', 'stats', '--json'], env(server))).stdout).entities as Record<string, number>).reduce((a, b) => a + b, 0);
  assert.ok((await entities()) > 0, 'the sweeps built a graph');
  // Undo the second sweep, then the first: every file is as it was, except the audit trail,
  // which records the undo itself.
  for (const id of [again.runId, report.runId]) {
    const undo = await runCli(['undo', id], env(server));
    assert.equal(undo.code, 0, undo.stderr);
  }
  assert.deepEqual(
    hashTree(vault.root, (path) => path === join('Claude', 'Audit.md')),
    original,
  );
  assert.equal(await entities(), 0, 'the graph cache follows the restored entity notes');
  // Undoing it again says so, instead of reporting "0 reverted" as if it had worked.
  const twice = await runCli(['undo', report.runId], env(server));
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, new RegExp(`run ${report.runId} was undone already \\(20\\d\\d-`));
});

test('undo refuses, naming the file, when a note changed after the sweep; nothing is reverted', async (t) => {
  const { vault, env } = setup(t);
  const server = await fake(t, 20);
  const report = JSON.parse((await runCli(['librarian', '--json'], env(server))).stdout);
  assert.equal(report.moves.length, 1);
  vault.write('Home.md', `${readFileSync(join(vault.root, 'Home.md'), 'utf8')}an edit after the sweep\n`);
  const before = hashTree(vault.root);
  const undo = await runCli(['undo', report.runId], env(server));
  assert.equal(undo.code, 1);
  assert.match(undo.stderr, /Home\.md changed since the move/);
  assert.deepEqual(hashTree(vault.root), before, 'nothing was reverted');
  const move = await runCli(['undo', `move:${report.moves[0].moveId}`], env(server));
  assert.equal(move.code, 1);
  assert.match(move.stderr, /cannot be undone without losing changes/);
});

test('two sweeps started together: one runs, the other exits with a clear message; a killed sweep is re-run cleanly', async (t) => {
  const { vault, env } = setup(t);
  const server = await fake(t, 40, 150);
  const start = () => {
    const child = spawnCliAsync(['librarian'], env(server));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return { child, done: new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr }))) };
  };
  const [a, b] = [start(), start()];
  const results = await Promise.all([a.done, b.done]);
  const codes = results.map((r) => r.code).sort();
  assert.deepEqual(codes, [0, 1], results.map((r) => r.stderr).join('\n'));
  assert.match(results.find((r) => r.code === 1)!.stderr, /a Librarian sweep is already running \(pid \d+/);

  // Kill a sweep mid-extraction, then sweep again: the stale lock is taken over, the work completes.
  vault.write('Garden/Beans.md', '# Beans\nBeans climb the garden fence.\n');
  vault.write('Garden/Peas.md', '# Peas\nPeas want water in the garden.\n');
  const killed = start();
  const deadline = Date.now() + 20_000;
  const startedWith = server.requests.length;
  while (server.requests.length === startedWith && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  killed.child.kill('SIGKILL');
  await killed.done;
  const rerun = await runCli(['librarian', '--json'], env(server));
  assert.equal(rerun.code, 0, rerun.stderr);
  const report = JSON.parse(rerun.stdout);
  assert.equal(report.phases.find((p: { name: string }) => p.name === 'extract').counts.remaining, 0);
  const db = stateDb(vault.home);
  const statuses = db.prepare('SELECT status FROM runs ORDER BY started_at').pluck().all();
  const extracted = db.prepare("SELECT count(*) FROM extractions WHERE status = 'ok'").pluck().get();
  db.close();
  assert.deepEqual(statuses, ['ok', 'running', 'ok'], 'the killed run is left as interrupted; the others finished');
  assert.equal(extracted, 18, 'every note extracted once: the sixteen, then the two added');
});

test('bad input: unknown phase and unknown run id are one-line errors', async (t) => {
  const { vault } = setup(t);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const phases = await runCli(['librarian', '--phases', 'index,nap'], env);
  assert.equal(phases.code, 2);
  assert.match(phases.stderr, /"nap" is not one/);
  const undo = await runCli(['undo', 'sweep-nope'], env);
  assert.equal(undo.code, 1);
  assert.match(undo.stderr, /no run sweep-nope/);
  assert.equal(undo.stderr.trim().split('\n').length, 1);
});

test('with a golden set configured, health scores it each sweep and flags a drop since the last one', async (t) => {
  const { vault } = setup(t);
  const golden = join(vault.home, '..', 'golden.yaml');
  writeFileSync(golden, ['- { id: q1, query: walrus feeding, expect: [Projects/Zoo/Walrus Feeding.md] }', '- { id: q2, query: each morning, expect: [Garden/Tomatoes.md] }', ''].join('\n'));
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'none', ENGRAM_GOLDEN: golden };
  const evalOf = async () => {
    const run = await runCli(['librarian', '--json', '--phases', 'index,health'], env);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    return { eval: report.eval, check: report.health.find((c: { name: string }) => c.name === 'eval') };
  };
  const first = await evalOf();
  assert.deepEqual([first.eval.value, first.eval.previous, first.check.ok], [1, null, true]);
  assert.match(first.check.examples[0], /success@5 1\.000 over 2 queries \(first measurement\)/);
  vault.write('Garden/Tomatoes.md', '# Tomatoes\nPlants in beds.\n');
  const second = await evalOf();
  assert.deepEqual([second.eval.value, second.eval.previous, second.check.ok], [0.5, 1, false]);
  assert.match(second.check.examples[0], /-0\.500 since the last sweep/);
});
