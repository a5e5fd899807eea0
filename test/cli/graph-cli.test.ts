/**
 * `engram graph` end to end: the structural extractor on a fixture vault, and the Anthropic
 * backend through the real SDK against a fake Messages API on 127.0.0.1 — entity notes written,
 * cost accounted, every note sent logged, a second run changes nothing.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { REPO, runCli, spawnCliAsync } from '../helpers/cli.js';
import { errorReply, errorStep, startFakeAnthropic, toolUseReply, type ScriptStep } from '../helpers/fake-anthropic.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'People/Lena.md': '---\ntype: person\n---\n# Lena\nVendor contact at Tessellate.\n',
  'Projects/Atlas.md': '---\ntype: project\npeople: ["[[Lena]]"]\n---\n# Atlas\nSearch migration with [[Lena]].\n',
  'Notes/Private.md': '---\ntags: [private]\n---\n# Private\nSecret plans with Tessellate.\n',
};

test('engram graph index (structural) writes entity notes; stats count them; a second run changes nothing', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const first = await runCli(['graph', 'index', '--json'], env);
  assert.equal(first.code, 0, first.stderr);
  const report = JSON.parse(first.stdout);
  assert.equal(report.extractor, 'structural');
  assert.ok(report.entityNotesWritten >= 2);
  assert.ok(existsSync(join(vault.root, 'Claude/Graph/People/Lena.md')));
  const second = JSON.parse((await runCli(['graph', 'index', '--json'], env)).stdout);
  assert.deepEqual([second.processed, second.entityNotesWritten], [0, 0]);
  const stats = JSON.parse((await runCli(['graph', 'stats', '--json'], env)).stdout);
  assert.ok(stats.entities.person >= 1);
  assert.equal((await runCli(['graph', 'frob'], env)).code, 2);
});

test('engram graph index with ENGRAM_EXTRACTOR=anthropic against a fake API: cost, egress, private notes never sent', async (t) => {
  const vault = makeVault(t, VAULT);
  const reply = toolUseReply(
    {
      entities: [
        { name: 'Tessellate', type: 'organization', aliases: [], evidence: 'Vendor contact at Tessellate' },
        { name: 'Lena', type: 'person', aliases: [], evidence: 'Lena' },
      ],
      relations: [{ from: 'Lena', to: 'Tessellate', relation: 'works_at', evidence: 'Vendor contact at Tessellate' }],
    },
    { input_tokens: 1000, output_tokens: 200 },
  );
  const fake = await startFakeAnthropic(Array.from({ length: 10 }, () => reply));
  t.after(() => fake.close());
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, ENGRAM_EXTRACT_MODEL: 'claude-haiku-test' };
  const result = await runCli(['graph', 'index', '--json'], env);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.extractor, 'anthropic');
  assert.equal(report.processed, 2);
  assert.equal(report.skippedPrivate, 1);
  assert.equal(report.inputTokens, 2000);
  assert.ok(report.costUsd > 0);
  assert.equal(fake.requests.length, 2, 'the private note was never sent');
  assert.ok(fake.requests.every((request) => !JSON.stringify(request.body).includes('Secret plans')));
  const lena = readFileSync(join(vault.root, 'Claude/Graph/People/Lena.md'), 'utf8');
  assert.match(lena, /works at \[\[Claude\/Graph\/Organizations\/Tessellate\|Tessellate\]\]/);
  const db = new Database(join(vault.home, readdirSync(vault.home)[0]!, 'engram.db'), { readonly: true });
  t.after(() => db.close());
  assert.deepEqual(db.prepare('SELECT note_path, backend, model FROM egress ORDER BY note_path').all(), [
    { note_path: 'People/Lena.md', backend: 'anthropic', model: 'claude-haiku-test' },
    { note_path: 'Projects/Atlas.md', backend: 'anthropic', model: 'claude-haiku-test' },
  ]);
  const again = JSON.parse((await runCli(['graph', 'index', '--json'], env)).stdout);
  assert.equal(again.processed, 0, 'nothing is sent twice');
  assert.equal(fake.requests.length, 2);
});

test('engram graph consolidate lists proposals, --apply merges, --undo reverses; bad ids are one-line usage errors', async (t) => {
  const vault = makeVault(t, {
    'People/Ana Silva.md': '---\ntype: person\n---\n# Ana Silva\nEngineer.\n',
    'Meetings/Retro.md': '---\nattendees: [Anna Silva]\n---\n# Retro\nA retro.\n',
  });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['graph', 'index'], env)).code, 0);
  const listed = await runCli(['graph', 'consolidate'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /1 new merge proposal; 1 pending\n {2}#1 person: "Anna Silva" → "Ana Silva"/);
  const bad = await runCli(['graph', 'consolidate', '--apply', 'one'], env);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  const unknown = await runCli(['graph', 'consolidate', '--apply', '7'], env);
  assert.equal(unknown.code, 1, 'an unknown proposal is not found, as over MCP (NOT_FOUND), not bad usage');
  assert.match(unknown.stderr, /^engram: .*#7/);
  assert.equal(unknown.stderr.trim().split('\n').length, 1);
  const applied = await runCli(['graph', 'consolidate', '--apply', '1'], env);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(readFileSync(join(vault.root, 'Claude/Graph/People/Anna Silva.md'), 'utf8'), /Merged into \[\[Claude\/Graph\/People\/Ana Silva\|Ana Silva\]\]/);
  const undone = await runCli(['graph', 'consolidate', '--undo', '1', '--json'], env);
  assert.deepEqual(JSON.parse(undone.stdout).undone, [1]);
  assert.doesNotMatch(readFileSync(join(vault.root, 'Claude/Graph/People/Anna Silva.md'), 'utf8'), /Merged into/);
});

test('a SIGKILLed anthropic extraction keeps every completed note: the rerun sends only the rest and writes all entity notes', async (t) => {
  const notes = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`Notes/N${i}.md`, `# N${i}\nMet Person ${i} at Org ${i}.\n`]));
  const vault = makeVault(t, notes);
  const entity = (i: number) => ({ entities: [{ name: `Person ${i}`, type: 'person', aliases: [], evidence: `Met Person ${i}` }], relations: [] });
  // Three replies come at once; every later request hangs until the process is killed.
  const first = await startFakeAnthropic(Array.from({ length: 8 }, (_, i) => (body) => ({ ...toolUseReply(entity(i))(body, undefined as never), ...(i >= 3 ? { delayMs: 120_000 } : {}) })));
  t.after(() => first.close());
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ENGRAM_EXTRACT_MODEL: 'claude-haiku-test' };
  const child = spawnCliAsync(['graph', 'index'], { ...env, ANTHROPIC_BASE_URL: first.url });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  for (let waited = 0; first.requests.length < 7 && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(first.requests.length, 7, `three answered and four in flight: ${stderr}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');

  const dbPath = join(vault.home, readdirSync(vault.home)[0]!, 'engram.db');
  const db = new Database(dbPath);
  const completed = db.prepare("SELECT count(*) FROM extractions WHERE status = 'ok'").pluck().get();
  db.close();
  assert.equal(completed, 3, 'the three answered notes were recorded before the kill');

  const second = await startFakeAnthropic(Array.from({ length: 8 }, (_, i) => toolUseReply(entity(10 + i))));
  t.after(() => second.close());
  const rerun = await runCli(['graph', 'index', '--json'], { ...env, ANTHROPIC_BASE_URL: second.url });
  assert.equal(rerun.code, 0, rerun.stderr);
  const report = JSON.parse(rerun.stdout);
  assert.deepEqual([report.processed, report.failed, report.remaining], [5, 0, 0]);
  assert.equal(second.requests.length, 5, 'completed notes are not sent again');
  const people = readdirSync(join(vault.root, 'Claude/Graph/People')).length;
  assert.equal(people, 8, 'entity notes of the notes extracted before the kill are written by the rerun');
});

test('the committed eval vault: structural entity notes whose every link resolves, ranked related notes with chains, an idempotent second run', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'engram-graph-eval-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const root = join(work, 'vault');
  cpSync(join(REPO, 'evals', 'vault'), root, { recursive: true });
  const env = { ENGRAM_HOME: join(work, 'home'), ENGRAM_VAULT: root };
  const first = JSON.parse((await runCli(['graph', 'index', '--json'], env)).stdout);
  // One note's frontmatter is malformed on purpose: it is private until it can be read.
  assert.deepEqual([first.processed, first.failed, first.remaining, first.skippedPrivate], [162, 0, 0, 1]);
  assert.deepEqual(first.unreadablePrivate, ['Reading/Thinking in Systems.md']);
  assert.ok(first.entities > 100, `entities: ${first.entities}`);
  // Every link Engram wrote (evidence quotes aside: they quote the source note verbatim) names a
  // file that exists by its full path, so Obsidian follows it whatever the vault's link settings.
  const graph = join(root, 'Claude', 'Graph');
  let links = 0;
  for (const folder of readdirSync(graph)) {
    for (const file of readdirSync(join(graph, folder))) {
      const text = readFileSync(join(graph, folder, file), 'utf8');
      assert.match(text, /^---\nentity: \w+\n/, `${folder}/${file}`);
      const ours = text
        .split('\n')
        .map((line) => line.replace(/ — ".*"$/, ''))
        .join('\n');
      for (const match of ours.matchAll(/\[\[([^|\]]+)/g)) {
        links++;
        assert.ok(existsSync(join(root, `${match[1]}.md`)), `${folder}/${file} links to a missing ${match[1]}`);
      }
    }
  }
  assert.ok(links > 500, `links checked: ${links}`);
  const second = JSON.parse((await runCli(['graph', 'index', '--json'], env)).stdout);
  assert.deepEqual([second.processed, second.entityNotesWritten], [0, 0]);
  const db = new Database(
    join(
      env.ENGRAM_HOME,
      readdirSync(env.ENGRAM_HOME).find((entry) => existsSync(join(env.ENGRAM_HOME, entry, 'engram.db')))!,
      'engram.db',
    ),
    { readonly: true },
  );
  t.after(() => db.close());
  const { relatedNotes } = await import('../../src/graph/index.js');
  const note = db.prepare("SELECT n.path FROM notes n JOIN mentions m ON m.note_id = n.id WHERE n.path NOT LIKE 'Claude/%' GROUP BY n.id ORDER BY count(*) DESC, n.path LIMIT 1").pluck().get() as string;
  const related = relatedNotes(db, note, { hops: 2, limit: 10 })!;
  assert.equal(related.length, 10);
  assert.ok(
    related.every((entry, i) => i === 0 || related[i - 1]!.score >= entry.score),
    'ranked',
  );
  assert.ok(related.every((entry) => entry.chains.length > 0 && entry.chains[0]!.includes('—mentions→')));
});

test('engram graph index with a refused key: one call, one line, exit 1, nothing charged; a note refused for itself is listed by stats and freed by --retry-failed', async (t) => {
  const vault = makeVault(t, VAULT);
  const good = toolUseReply({
    entities: [
      { name: 'Tessellate', type: 'organization', aliases: [], evidence: 'Tessellate' },
      { name: 'Lena', type: 'person', aliases: [], evidence: 'Lena' },
    ],
    relations: [],
  });
  const tooBig: ScriptStep = (body, request) => (/^path: People\/Lena\.md$/m.test(String(body.messages?.[0]?.content ?? '')) ? errorReply(413, 'request_too_large', 'Request exceeds the maximum size') : good(body, request));
  const refused = await startFakeAnthropic([errorStep(401, 'authentication_error', 'invalid x-api-key')]);
  const working = await startFakeAnthropic(Array.from({ length: 20 }, () => tooBig));
  t.after(() => Promise.all([refused.close(), working.close()]));
  const env = (url: string) => ({ ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url, ENGRAM_EXTRACT_MODEL: 'claude-haiku-test' });

  const paused = await runCli(['graph', 'index'], env(refused.url));
  assert.equal(paused.code, 1);
  assert.equal(refused.requests.length, 1);
  assert.match(paused.stdout, /^paused: the Anthropic API key is invalid or revoked; set a valid ANTHROPIC_API_KEY — 2 notes wait, none was charged/m);
  assert.doesNotMatch(paused.stdout, /^error:/m, 'no per-note errors');
  assert.match(paused.stderr, /^graph: extraction paused — the Anthropic API key is invalid/m);
  assert.match((await runCli(['status'], env(refused.url))).stdout, /^graph +extraction paused since .* — the Anthropic API key is invalid/m);

  assert.equal((await runCli(['graph', 'index'], env(working.url))).code, 0, 'Atlas extracted, Lena refused');
  for (let run = 0; run < 2; run++) assert.equal((await runCli(['graph', 'index'], env(working.url))).code, 1, 'only the failing note was tried');
  assert.doesNotMatch((await runCli(['status'], env(working.url))).stdout, /extraction paused/);
  const stats = await runCli(['graph', 'stats'], env(working.url));
  assert.match(stats.stdout, /^failed {7}1 notes, 1 left for a human \(retry with engram graph index --retry-failed\):$/m);
  assert.match(stats.stdout, /^ {2}People\/Lena\.md \(3 attempts, parked\): anthropic extraction of "People\/Lena\.md" failed: the API refused this note's request \(HTTP 413 request_too_large/m);
  const before = working.requests.length;
  await runCli(['graph', 'index'], env(working.url));
  assert.equal(working.requests.length, before, 'a parked note is not sent again');
  const retried = await runCli(['graph', 'index', '--retry-failed'], env(working.url));
  assert.match(retried.stderr, /^graph: 1 failed notes will be tried again$/m);
  assert.equal(working.requests.length, before + 1);
});
