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

test('an unknown command is repeated by its start on one line; one that starts with - says how to search for it or where options go', async () => {
  const note = '---\ntitle: "Atlas — the search index migration"\ntags: [project/atlas]\n---\nTantivy replaces the old cluster.\n';
  for (const [argv, stderr] of [
    [[note], 'engram: unknown command "---\\ntitle: \\"Atlas — the search index mi…"; to search for text that starts with -, put it after --: engram search [options] -- QUERY\n'],
    [['-paris lisbon'], 'engram: unknown command "-paris lisbon"; to search for text that starts with -, put it after --: engram search -- "-paris lisbon"\n'],
    [['---'], 'engram: unknown command "---"; to search for text that starts with -, put it after --: engram search -- "---"\n'],
    [['--vault', '/tmp/v', 'search', 'x'], 'engram: unknown command "--vault": options go after the command name (engram search [options]); run `engram --help` for the list\n'],
    [['-x'], 'engram: unknown command "-x": options go after the command name (engram COMMAND [options]); run `engram --help` for the list\n'],
    [['title: Atlas\ntags: [project/atlas]\nTantivy replaces the old cluster.'], 'engram: unknown command "title: Atlas\\ntags: [project/atlas]\\nTant…"; run `engram --help` for the list\n'],
  ] as [string[], string][]) {
    const result = await runCli(argv);
    assert.equal(result.code, 2, JSON.stringify(argv));
    assert.equal(result.stderr, stderr);
  }
  // The advice works: `engram search -- "$NOTE"` reads the note as the query.
  const dashed = await runCli(['search', '--', note]);
  assert.equal(dashed.code, 2);
  assert.equal(dashed.stderr, 'engram: no vault given: pass --vault PATH or set ENGRAM_VAULT to your vault folder\n', 'past the command line: only the vault is missing');
});

test('every value an error message repeats is its first 40 characters, on one line, and so is the --json error', async (t) => {
  const vault = makeVault(t, { 'Zoo/Walrus care.md': '---\ntags: [zoo]\n---\n# Walrus care\nThe walrus colony.\n', 'Zoo/Feeding.md': '---\ntags: [zoo]\n---\n# Feeding\nFish for the walrus colony.\n' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['index', '--no-embed'], env)).code, 0);
  // A pasted note: its end must never reach the message, nor its line breaks.
  const pasted = `title: Atlas\ntags: [project/atlas]\n${'Tantivy replaces the old cluster. '.repeat(3)}THE-END`;
  const digits = '9'.repeat(80);
  // The reviewer's two: the whole 80 characters were repeated.
  const by = await runCli(['related', 'Zoo/Walrus care.md', '--by', 'v'.repeat(80), '--json'], env);
  assert.equal(by.stderr, `engram: --by must be all or vectors, not "${'v'.repeat(39)}…"\n`);
  assert.deepEqual(JSON.parse(by.stdout), { error: `--by must be all or vectors, not "${'v'.repeat(39)}…"`, exit_code: 2 });
  const limit = await runCli(['related', 'Zoo/Walrus care.md', '--limit', digits], env);
  assert.equal(limit.stderr, `engram: --limit must be a whole number from 1 to 100, not "${'9'.repeat(39)}…"\n`);
  const cases: [string[], number, Record<string, string>?][] = [
    [['related', 'Zoo/Walrus care.md', '--by', pasted], 2],
    [['related', 'Zoo/Walrus care.md', '--weights', `terms=${pasted}`], 2],
    [['related', pasted], 1],
    [['related', join(vault.root, '..', pasted)], 2],
    [['relate', 'Zoo/Walrus care.md', '--limit', digits], 2],
    [['relate', 'Zoo/Walrus care.md', '--apply', '--target', pasted], 2],
    [['model', pasted], 2],
    [['model', 'pull', pasted], 2],
    [['model', 'pull', '--dtype', pasted], 2],
    [['model', 'pull', '--timeout', pasted], 2],
    [['eval', '--baseline', pasted], 2],
    [['eval', '--k1', pasted], 2],
    [['index', '--embed-budget', pasted], 2],
    [['map', '--seed', digits], 2],
    [['verify', '--sample', digits], 2],
    [['graph', 'stats', '--apply', pasted], 2],
    [['librarian', '--phases', pasted], 2],
    [['undo', pasted], 2],
    [['daemon', '--http', digits], 2],
    [['status'], 2, { ENGRAM_FUSION_WEIGHTS: `keyword=${pasted}` }],
    [['status'], 2, { ENGRAM_SWEEP_MAX_NOTES: pasted }],
    [['status'], 2, { ENGRAM_HTTP_MAX_SESSIONS: `1.${'5'.repeat(80)}` }],
  ];
  for (const [argv, code, extra] of cases) {
    const what = `${argv.join(' ')} ${JSON.stringify(extra ?? {})}`;
    const result = await runCli([...argv, '--json'], { ...env, ...extra });
    assert.equal(result.code, code, `${what}: ${result.stderr}`);
    const line = /^engram: (.*)\n$/.exec(result.stderr);
    assert.ok(line, `${what} prints one line: ${result.stderr}`);
    assert.match(line[1]!, /…/, `${what} cuts the value: ${line[1]}`);
    assert.doesNotMatch(line[1]!, /THE-END|9{40}|5{40}/, `${what} repeats 40 characters at most`);
    assert.deepEqual(JSON.parse(result.stdout), { error: line[1], exit_code: code }, what);
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
