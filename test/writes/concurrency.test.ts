/**
 * The write layer across real processes. Two children append to the same note at once through
 * VaultWriter.write and nothing is lost; a child rewriting a large note is SIGKILLed at random
 * moments and the note is always one whole version, never a torn one, with no stray files.
 * The children are small scripts written into the test's temp dir, run with tsx from the repo.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { acquireLock } from '../../src/index/index.js';
import { hashContent } from '../../src/vault/index.js';
import { agent, VaultWriter } from '../../src/writes/index.js';
import { REPO } from '../helpers/cli.js';
import { journalRows, writerVault } from './fixture.js';

const WRITES_URL = pathToFileURL(join(REPO, 'src/writes/index.ts')).href;
const INDEX_URL = pathToFileURL(join(REPO, 'src/index/index.ts')).href;

/** A child that opens the state database and a writer; `body` runs after "go" on stdin (if `waitForGo`). */
function childScript(body: string, waitForGo: boolean): string {
  return `
import { agent, VaultWriter } from ${JSON.stringify(WRITES_URL)};
import { openStateDb } from ${JSON.stringify(INDEX_URL)};
const [root, stateDir, tag, countText] = process.argv.slice(2);
const count = Number(countText);
const { db } = openStateDb(stateDir);
const writer = new VaultWriter({ root, db, stateDir, agentRoot: 'Claude', runId: tag });
${
  waitForGo
    ? `process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));`
    : ''
}
${body}
db.close();
process.exit(0);
`;
}

function run(script: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Resolves when the child prints `line` on stdout; rejects if it exits first. */
function waitFor(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(line)) {
        child.stdout.off('data', onData);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code, signal) => reject(new Error(`child exited (${code ?? signal}) before "${line}": ${err}`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr })));
}

test('two processes appending 50 lines each to the same note at once lose nothing', async (t) => {
  const fx = writerVault(t, { 'Claude/Inbox.md': '# Inbox\n' });
  const script = join(fx.root, '..', 'append.mts');
  // Between captures each child pauses 0–3 ms, as an agent doing other work would, so the two
  // really take turns at the lock rather than one finishing before the other gets it.
  writeFileSync(
    script,
    childScript(
      `
const start = Date.now();
for (let i = 0; i < count; i++) {
  writer.write({ by: agent('capture'), path: 'Claude/Inbox.md', next: (current) => (current ?? '') + '- [' + tag + '] capture ' + i + '\\n' });
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
}
process.stdout.write('span ' + start + ' ' + Date.now() + '\\n');
`,
      true,
    ),
  );
  const children = ['alpha', 'beta'].map((tag) => run(script, [fx.root, fx.vault.home, tag, '50']));
  const results = children.map(exited);
  const spans = children.map(
    (child) =>
      new Promise<[number, number]>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /span (\d+) (\d+)/.exec(out);
          if (match) resolve([Number(match[1]), Number(match[2])]);
        });
      }),
  );
  await Promise.all(children.map((child) => waitFor(child, 'ready')));
  for (const child of children) child.stdin.end('go\n');
  for (const result of await Promise.all(results)) assert.equal(result.code, 0, result.stderr);
  const [[startA, endA], [startB, endB]] = (await Promise.all(spans)) as [[number, number], [number, number]];
  assert.ok(startA < endB && startB < endA, `the two children wrote at the same time (${startA}–${endA}, ${startB}–${endB})`);

  const lines = readFileSync(join(fx.root, 'Claude/Inbox.md'), 'utf8').split('\n');
  assert.equal(lines.shift(), '# Inbox');
  assert.equal(lines.pop(), '', 'ends with a newline');
  const expected = ['alpha', 'beta'].flatMap((tag) => Array.from({ length: 50 }, (_, i) => `- [${tag}] capture ${i}`));
  assert.deepEqual([...lines].sort(), [...expected].sort(), 'all 100 lines, each exactly once');
  assert.equal(new Set(lines).size, 100);
  const switches = lines.filter((line, i) => i > 0 && line.slice(0, 8) !== lines[i - 1]!.slice(0, 8)).length;
  t.diagnostic(`the two writers took turns ${switches} times`);
  // Each process's own lines stay in its order.
  for (const tag of ['alpha', 'beta']) {
    assert.deepEqual(
      lines.filter((line) => line.includes(`[${tag}]`)),
      expected.filter((line) => line.includes(`[${tag}]`)),
    );
  }

  // The journal is one chain: each write started from the bytes the previous one left.
  const rows = journalRows(fx.db);
  assert.equal(rows.length, 100);
  for (let i = 1; i < rows.length; i++) assert.equal(rows[i]!.before_hash, rows[i - 1]!.after_hash, `journal row ${i + 1} follows row ${i}`);
  assert.equal(rows.at(-1)!.after_hash, hashContent(readFileSync(join(fx.root, 'Claude/Inbox.md'))));
  assert.deepEqual(new Set(rows.map((row) => row.run_id)), new Set(['alpha', 'beta']));
  const audit = readFileSync(join(fx.root, 'Claude/Audit.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('- '));
  assert.equal(audit.length, 100);
  assert.deepEqual(readdirSync(join(fx.root, 'Claude')).sort(), ['Audit.md', 'Inbox.md'], 'no temporary file left');
});

test('SIGKILL during large rewrites leaves one whole version, never a torn one, and no stray files', async (t) => {
  const size = 500_000;
  const A = `${'A'.repeat(size - 1)}\n`;
  const B = `${'B'.repeat(size - 1)}\n`;
  const fx = writerVault(t, { 'Claude/Big.md': A, 'Home.md': '# Home\n' });
  const script = join(fx.root, '..', 'rewrite.mts');
  writeFileSync(
    script,
    childScript(
      `
const A = 'A'.repeat(${size - 1}) + '\\n';
const B = 'B'.repeat(${size - 1}) + '\\n';
for (let i = 0; ; i++) {
  writer.write({ by: agent('write_note'), path: 'Claude/Big.md', next: () => (i % 2 === 0 ? B : A) });
  if (i === 0) process.stdout.write('writing\\n');
}
`,
      false,
    ),
  );

  const kills = 6;
  const delays: number[] = [];
  let leftovers = 0;
  for (let k = 0; k < kills; k++) {
    const child = run(script, [fx.root, fx.vault.home, `run${k}`, '0']);
    const result = exited(child);
    await waitFor(child, 'writing');
    const delay = Math.floor(Math.random() * 60);
    delays.push(delay);
    await new Promise((resolve) => setTimeout(resolve, delay));
    child.kill('SIGKILL');
    const { signal, stderr } = await result;
    assert.equal(signal, 'SIGKILL', `kill ${k} landed while the child was still writing: ${stderr}`);

    const bytes = readFileSync(join(fx.root, 'Claude/Big.md'), 'utf8');
    assert.ok(bytes === A || bytes === B, `after kill ${k} (at +${delay} ms) the note is ${bytes.length} bytes: ${bytes.slice(0, 1)}…${bytes.slice(-2, -1)}`);
    const audit = readFileSync(join(fx.root, 'Claude/Audit.md'), 'utf8');
    assert.ok(audit.startsWith('# Engram write audit\n'), `Audit.md is whole after kill ${k}`);
    assert.deepEqual(readdirSync(fx.root).sort(), ['Claude', 'Home.md']);
    const names = readdirSync(join(fx.root, 'Claude'));
    const stray = names.filter((name) => name !== 'Big.md' && name !== 'Audit.md' && !name.startsWith('.'));
    assert.deepEqual(stray, [], `after kill ${k}: only dot-named temporary files may be left`);
    leftovers += names.filter((name) => name.startsWith('.')).length;

    // Never a change without a record: the note holds the newest journal row's before or after.
    const newest = journalRows(fx.db).at(-1)!;
    assert.ok([newest.before_hash, newest.after_hash].includes(hashContent(Buffer.from(bytes, 'utf8'))), `after kill ${k} the note matches the newest journal row`);
  }
  t.diagnostic(`kill delays ${delays.join(', ')} ms; ${leftovers} dot temp file(s) seen; ${journalRows(fx.db).length} writes journaled`);

  // A dead writer's lock is taken over; a temporary file younger than a minute (it may be
  // another writer's, in flight) is left alone, one older than a minute is swept.
  writeFileSync(join(fx.root, 'Claude', '.engram-write-Big.md.deadbeef'), 'half a write');
  const writerAt = (now: () => number) => new VaultWriter({ root: fx.root, db: fx.db, stateDir: fx.vault.home, agentRoot: 'Claude', runId: 'after-kills', now });
  writerAt(Date.now).write({ by: agent('write_note'), path: 'Claude/Big.md', next: () => A });
  assert.ok(readdirSync(join(fx.root, 'Claude')).includes('.engram-write-Big.md.deadbeef'), 'a fresh temporary file is kept');
  writerAt(() => Date.now() + 120_000).write({ by: agent('write_note'), path: 'Claude/Big.md', next: () => B });
  assert.deepEqual(readdirSync(join(fx.root, 'Claude')).sort(), ['Audit.md', 'Big.md']);
  assert.equal(readFileSync(join(fx.root, 'Claude/Big.md'), 'utf8'), B);
});

test('stale temporary files: removed at start-up under the write lock whatever their age; left while another writer holds the lock', (t) => {
  const fx = writerVault(t, { 'Home.md': '# Home\n' });
  fx.writer.write({ by: agent('write_note'), path: 'Claude/Deep/Note.md', next: () => '# x\n' });
  const fresh = ['Claude/Deep/.engram-write-000000000001', 'Claude/.engram-write-000000000002'];
  for (const path of fresh) writeFileSync(join(fx.root, path), 'half a write');
  mkdirSync(join(fx.root, 'Elsewhere'));
  writeFileSync(join(fx.root, 'Elsewhere', '.engram-write-000000000003'), 'a folder Engram never wrote to');

  const held = acquireLock(fx.vault.home, 'write', { purpose: 'a vault write' });
  assert.equal(fx.writer.sweepStaleTemps(), 0, 'another writer is mid-write: nothing is touched');
  for (const path of fresh) assert.ok(existsSync(join(fx.root, path)));
  held.release();

  assert.equal(fx.writer.sweepStaleTemps(), 2);
  for (const path of fresh) assert.equal(existsSync(join(fx.root, path)), false, path);
  assert.ok(existsSync(join(fx.root, 'Elsewhere', '.engram-write-000000000003')));
});
