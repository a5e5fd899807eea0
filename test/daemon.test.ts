/**
 * `engram daemon` as a user runs it: a real process with the watcher, the schedules and the HTTP
 * MCP endpoint. Creates, edits, renames and deletes show in search within seconds; a scheduled
 * sweep runs and can be undone byte for byte; SIGTERM stops it cleanly.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runCli, spawnCliAsync } from './helpers/cli.js';
import { eventually } from './helpers/eventually.js';
import { LIBRARIAN_VAULT, LIBRARIAN_WORDS } from './helpers/librarian.js';
import { writeTinyModel } from './helpers/tiny-model.js';
import { makeVault } from './helpers/vault.js';

function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

async function startDaemon(t: TestContext, env: Record<string, string>, extra: string[] = []) {
  const child = spawnCliAsync(['daemon', '--http', '0', ...extra], env);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`daemon exited ${code}: ${stderr}`)));
  });
  const client = new Client({ name: 'daemon-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  // SIGTERM while the client's session is still open: the daemon must not wait for the client.
  const stop = async () => {
    child.kill('SIGTERM');
    const code = await exited;
    await client.close().catch(() => {});
    return { code, stderr };
  };
  return { url, client, stop, stderr: () => stderr };
}

function health(url: string): Promise<Record<string, unknown>> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/health', headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve(JSON.parse(body)));
    })
      .on('error', reject)
      .end();
  });
}

function setup(t: TestContext) {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const modelDir = join(vault.home, '..', 'models');
  writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'), { words: LIBRARIAN_WORDS });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir, ENGRAM_EXTRACTOR: 'structural', ENGRAM_SCHEDULE_BACKLOG: '0 0 1 1 *', ENGRAM_SCHEDULE_SWEEP: '0 0 1 1 *' };
  return { vault, env };
}

test('the daemon picks up create, edit, rename and delete, reports status, and stops cleanly', async (t) => {
  const { vault, env } = setup(t);
  const daemon = await startDaemon(t, env);
  const paths = async (query: string) => {
    const result = (await daemon.client.callTool({ name: 'search_brain', arguments: { query, mode: 'keyword' } })) as { structuredContent?: { results: { path: string; lanes: { keyword?: unknown } }[] } };
    // The keyword lane, so the index: the substring lane reads the files and would see an edit first.
    return (result.structuredContent?.results ?? []).filter((hit) => hit.lanes.keyword !== undefined).map((hit) => hit.path);
  };
  await eventually(async () => (await paths('walrus feeding')).includes('Projects/Zoo/Walrus Feeding.md'), 'the catch-up index ran');

  writeFileSync(join(vault.root, 'Garden/Okra.md'), '# Okra\nOkra pods grow fast in the heat.\n');
  await eventually(async () => (await paths('okra pods')).includes('Garden/Okra.md'), 'create');
  writeFileSync(join(vault.root, 'Garden/Okra.md'), '# Okra\nOkra seedlings want warmth and patience.\n');
  await eventually(async () => (await paths('seedlings patience')).includes('Garden/Okra.md'), 'edit');
  assert.deepEqual(await paths('pods'), [], 'the old text is gone');
  renameSync(join(vault.root, 'Garden/Okra.md'), join(vault.root, 'Garden/Gumbo Okra.md'));
  await eventually(async () => {
    const hits = await paths('seedlings patience');
    return hits.includes('Garden/Gumbo Okra.md') && !hits.includes('Garden/Okra.md');
  }, 'rename');
  rmSync(join(vault.root, 'Garden/Gumbo Okra.md'));
  await eventually(async () => (await paths('seedlings patience')).length === 0, 'delete');
  // Dot-folders are not watched into the index.
  writeFileSync(join(vault.root, '.hidden.md'), 'okra secret\n');

  const info = await health(daemon.url);
  assert.equal(info.ok, true);
  const status = info.daemon as { pid: number; next: { sweep: string } };
  assert.ok(status.pid > 0);
  assert.match(status.next.sweep, /-01-01T00:00/, 'the next sweep follows the schedule');
  const second = await runCli(['daemon'], env);
  assert.equal(second.code, 1);
  assert.match(second.stderr, /engram daemon is already running \(pid \d+/);
  assert.match(second.stderr, new RegExp(`stop it with \`kill ${status.pid}\``), 'says how to stop the running daemon');
  assert.doesNotMatch(second.stderr, /wait for it to finish/, 'a daemon never finishes');
  const cli = await runCli(['status'], env);
  assert.match(cli.stdout, /daemon {7}running \(pid \d+/);
  assert.match(cli.stdout, /librarian {4}no sweep yet/);

  const stopped = await daemon.stop();
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stderr, /engram daemon: stopped/);
  const [id] = readdirSync(vault.home);
  assert.equal(existsSync(join(vault.home, id!, 'daemon.json')), false, 'status file removed');
  assert.equal(existsSync(join(vault.home, id!, 'daemon.lock')), false, 'lock released');
  assert.match((await runCli(['status'], env)).stdout, /daemon {7}not running/);
});

test('a scheduled sweep runs on its schedule, never twice at once, and undoing it restores every file byte for byte', async (t) => {
  const { vault, env } = setup(t);
  assert.equal((await runCli(['index'], env)).code, 0);
  const before = hashTree(vault.root);
  const daemon = await startDaemon(t, { ...env, ENGRAM_SCHEDULE_SWEEP: '*/2 * * * * *', ENGRAM_TIMEZONE: 'Europe/Lisbon' }, ['--no-index']);
  let last: { run_id: string } | undefined;
  await eventually(async () => {
    last = ((await health(daemon.url)).daemon as { last: { sweep?: { run_id: string } } }).last.sweep;
    return last !== undefined;
  }, 'a sweep ran on the schedule');
  assert.ok(last);
  const librarian = (await daemon.client.callTool({ name: 'librarian_status', arguments: {} })) as unknown as { structuredContent: { last_run: string } };
  assert.match(librarian.structuredContent.last_run, /^sweep-/);
  const stopped = await daemon.stop();
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.ok(existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')), 'the sweep filed the Inbox note');
  assert.doesNotMatch(stopped.stderr, /failed/);

  // Every sweep it ran, newest first, undone: the vault is as before (the audit trail records the undo).
  const db = (await import('better-sqlite3')).default;
  const [id] = readdirSync(vault.home);
  const state = new db(join(vault.home, id!, 'engram.db'), { readonly: true });
  const rows = state.prepare("SELECT id, started_at, finished_at FROM runs WHERE kind = 'sweep' ORDER BY started_at").all() as { id: string; started_at: string; finished_at: string }[];
  state.close();
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i]!.started_at >= rows[i - 1]!.finished_at, 'sweeps never overlap');
  const runs = rows.map((row) => row.id).reverse();
  assert.ok(runs.length >= 1);
  for (const run of runs) {
    const undo = await runCli(['undo', run], env);
    assert.equal(undo.code, 0, undo.stderr);
  }
  const after = hashTree(vault.root);
  delete after['Claude/Audit.md'];
  // The caretaker lease is the daemon's, not a sweep's: handed back at stop, it stays for the next daemon.
  assert.match(readFileSync(join(vault.root, 'Claude/Caretaker.md'), 'utf8'), /^released: "/m);
  delete after['Claude/Caretaker.md'];
  assert.deepEqual(after, before);
});

test('bad schedules and time zones are one clear error before anything starts', async (t) => {
  const { env } = setup(t);
  const schedule = await runCli(['daemon'], { ...env, ENGRAM_SCHEDULE_SWEEP: 'every night' });
  assert.equal(schedule.code, 1);
  assert.match(schedule.stderr, /ENGRAM_SCHEDULE_SWEEP "every night" is not a cron expression/);
  const zone = await runCli(['daemon'], { ...env, ENGRAM_TIMEZONE: 'Mars/Olympus' });
  assert.equal(zone.code, 1);
  assert.match(zone.stderr, /ENGRAM_TIMEZONE "Mars\/Olympus" is not a time zone/);
});
