/**
 * The local page on a real `engram daemon --http` process: the daemon names the page's URL, the
 * token opens it, its status is the daemon's, and a proposal approved on the page is made by the
 * daemon, journaled, and undone by `engram undo move:N` from the command line.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { recordProposals } from '../../src/librarian/index.js';
import { runCli, spawnCliAsync } from '../helpers/cli.js';
import { LIBRARIAN_VAULT } from '../helpers/librarian.js';
import { raw } from '../helpers/page.js';
import { makeVault } from '../helpers/vault.js';

const TOKEN = 'daemon-page-token';

test('engram daemon --http serves the page: token → cookie, the daemon status, approve → the move is made and undone by the CLI', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'none', ENGRAM_SCHEDULE_BACKLOG: '0 0 1 1 *', ENGRAM_SCHEDULE_SWEEP: '0 0 1 1 *', ENGRAM_HTTP_TOKEN: TOKEN };
  assert.equal((await runCli(['index'], env)).code, 0);
  const db = new Database(join(vault.home, readdirSync(vault.home)[0]!, 'engram.db'));
  const hash = db.prepare('SELECT hash FROM notes WHERE path = ?').pluck().get('Claude/Inbox/Walrus Plan.md') as string;
  const [proposal] = recordProposals(db, [{ kind: 'propose', path: 'Claude/Inbox/Walrus Plan.md', hash, target: 'Projects/Zoo', share: 0.6, reason: 'low confidence', neighbours: [] }], 'test-run', new Date().toISOString());
  db.close();

  const child = spawnCliAsync(['daemon', '--http', '0', '--no-index'], env);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  const page = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /the page on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`daemon exited ${code}: ${stderr}`)));
  });
  const port = Number(new URL(page).port);
  assert.equal((await raw(port, '/')).status, 401);
  const granted = await raw(port, `/?token=${TOKEN}`);
  assert.equal(granted.status, 303);
  const cookie = String(granted.headers['set-cookie']).split(';')[0]!;
  const status = JSON.parse((await raw(port, '/api/status', { cookie })).body) as { daemon: { pid: number }; notes: number };
  assert.equal(status.daemon.pid, child.pid, 'the status is the daemon’s');
  const { proposals } = JSON.parse((await raw(port, '/api/proposals', { cookie })).body) as { proposals: { id: number; subject: string }[] };
  assert.deepEqual(
    proposals.map((p) => p.id),
    [proposal!.id],
  );
  const decided = await raw(
    port,
    '/api/decide',
    { cookie, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
    'POST',
    JSON.stringify({ kind: 'filing', id: proposal!.id, decision: 'approve', subject: proposals[0]!.subject }),
  );
  assert.equal(decided.status, 200, decided.body);
  const { undo } = JSON.parse(decided.body) as { undo: string };
  assert.ok(existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')));

  child.kill('SIGTERM');
  assert.equal(await exited, 0, stderr);
  const undone = await runCli(['undo', undo], env);
  assert.equal(undone.code, 0, undone.stderr);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')) && !existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')), 'undone from the command line');
});
