import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS } from '../../src/cli/main.js';
import { REPO, runCli, spawnCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

test('engram index then status --json on a small vault (real process)', (t) => {
  const vault = makeVault(t, { 'Home.md': '# Home\n[[Other]] [[Missing]] #tag\n- [x] done ✅ 2026-01-02\n', 'Other.md': 'other' });
  const env = { ENGRAM_HOME: vault.home };
  const index = spawnCli(['index', '--vault', vault.root], env);
  assert.equal(index.code, 0, index.stderr);
  assert.match(index.stdout, /2 changes \(2 new, 0 modified, 0 moved, 0 deleted\); 2 notes indexed/);
  const status = spawnCli(['status', '--json'], { ...env, ENGRAM_VAULT: vault.root });
  assert.equal(status.code, 0, status.stderr);
  const doc = JSON.parse(status.stdout);
  for (const key of ['vault', 'state_dir', 'notes', 'blocks', 'links', 'tags', 'tasks', 'skipped', 'last_indexed_at', 'warnings']) {
    assert.ok(key in doc, `status --json has ${key}`);
  }
  assert.equal(doc.notes, 2);
  assert.deepEqual(doc.links, { total: 2, resolved: 1, unresolved: 1, to_attachments: 0 });
  assert.equal(doc.tasks.done, 1);
  assert.match(doc.state_dir, /[0-9a-f]{12}$/);
  assert.equal(status.stderr, '');
});

test('expected failures are one line and exit 1; bad usage exits 2', async (t) => {
  const vault = makeVault(t, { 'a.md': 'a' });
  const env = { ENGRAM_HOME: vault.home };
  const cases: [string[], number, RegExp][] = [
    [['index', '--vault', join(vault.root, 'nope')], 1, /vault not found: .* does not exist; pass --vault PATH or set ENGRAM_VAULT/],
    [['index', '--vault', join(vault.root, 'a.md')], 1, /vault is not a folder: .* is a file/],
    [['index'], 2, /no vault given: pass --vault PATH or set ENGRAM_VAULT/],
    [['index', '--vault'], 2, /^engram: --vault needs a value: --vault PATH$/m],
    [['index', '--bogus'], 2, /Unknown option '--bogus'; see `engram index --help`/],
    [['status', 'extra'], 2, /unexpected argument "extra"/],
    // A pasted note is repeated by its first 40 characters, its line breaks escaped: one short line.
    [['status', `---\ntitle: ${'x'.repeat(60)}\n---\nbody`], 2, /^engram: Unknown option '---\\ntitle: x{28}…'; see `engram status --help`$/m],
    [['related', '--- Projects/Atlas.md'], 2, /^engram: "--- Projects\/Atlas\.md" reads as an option; put -- before a path that starts with -: engram related -- "--- Projects\/Atlas\.md"$/m],
    [['frobnicate'], 2, /unknown command "frobnicate"; run `engram --help`/],
  ];
  for (const [argv, code, message] of cases) {
    const result = await runCli(argv, env);
    assert.equal(result.code, code, `${argv.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, argv.join(' '));
    assert.equal(result.stderr.trim().split('\n').length, 1, `${argv.join(' ')} prints one line`);
    assert.doesNotMatch(result.stderr, /\bat .*\.ts:\d+/, 'no stack trace');
  }
});

test('a real process reports a missing vault in one line with exit 1', () => {
  const result = spawnCli(['status', '--vault', '/definitely/not/here'], { ENGRAM_HOME: '/tmp' });
  assert.equal(result.code, 1);
  assert.equal(result.stderr.trim().split('\n').length, 1);
  assert.match(result.stderr, /^engram: vault not found/);
});

test('every command has --help, and the README documents every command', async () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  for (const command of COMMANDS) {
    const result = await runCli([command.name, '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, new RegExp(`^engram ${command.name}`));
    assert.match(result.stdout, /--vault PATH/);
    assert.match(result.stdout, /--json/);
    for (const [name, spec] of Object.entries(command.options)) {
      assert.ok(spec.description.length > 0, `${command.name} --${name} has a description`);
      assert.match(result.stdout, new RegExp(`--${name}`));
    }
    assert.match(readme, new RegExp(`engram ${command.name}\\b`), `README mentions engram ${command.name}`);
  }
  const top = await runCli(['--help']);
  assert.equal(top.code, 0);
  for (const command of COMMANDS) assert.match(top.stdout, new RegExp(`\\n  ${command.name} `));
  const bare = await runCli([]);
  assert.equal(bare.code, 2, 'no command is bad usage');
});

test('index --json reports moves', async (t) => {
  const vault = makeVault(t, { 'a.md': 'unique content' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  await runCli(['index'], env);
  vault.remove('a.md');
  vault.write('sub/b.md', 'unique content');
  const result = await runCli(['index', '--json'], env);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(report.moved, [{ from: 'a.md', to: 'sub/b.md' }]);
  assert.equal(report.added, 0);
  assert.equal(report.deleted, 0);
});

test('an index run refuses to start while another holds the lock', async (t) => {
  const vault = makeVault(t, { 'a.md': 'a' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  await runCli(['index'], env);
  const { acquireLock } = await import('../../src/index/index.js');
  const { readdirSync } = await import('node:fs');
  const stateDir = join(vault.home, readdirSync(vault.home)[0]!);
  const lock = acquireLock(stateDir, 'index', { purpose: 'an index run' });
  try {
    const result = await runCli(['index'], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /an index run is already running \(pid \d+/);
  } finally {
    lock.release();
  }
});

test('index --full over an unchanged vault says so: no changes, every note re-parsed unchanged', async (t) => {
  const vault = makeVault(t, { 'a.md': '# A', 'b.md': '# B' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['index', '--no-embed'], env)).code, 0);
  const full = await runCli(['index', '--full', '--no-embed'], env);
  assert.equal(full.code, 0, full.stderr);
  assert.match(full.stdout, /^no changes; 2 notes indexed; 2 unchanged notes re-parsed in /);
  const json = JSON.parse((await runCli(['index', '--full', '--no-embed', '--json'], env)).stdout) as { modified: number; rebuilt: number };
  assert.deepEqual([json.modified, json.rebuilt], [0, 2]);
});
