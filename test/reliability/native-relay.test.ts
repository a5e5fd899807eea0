/**
 * The native relay (native/*.c, built into build/engram): the relay scenarios of
 * relay-scenarios.ts run through it, and what it computes on its own checked against the
 * TypeScript it mirrors — sha256 and the state directory (index/state-dir.ts), every refusal of
 * the attach file with the same message (attach/attach-file.ts), and the JSON scanner that finds
 * a line's top-level id and method. Built here first (quick); skipped, saying why, only when
 * there is no C compiler — where one exists, a missing binary fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findDaemon, locateState, RUNNING_VERSION } from '../../src/attach/index.js';
import { resolveVaultRoot, stateDirFor } from '../../src/index/index.js';
import { REPO } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';
import { relayScenarios } from './relay-scenarios.js';

const NATIVE = join(REPO, 'build', 'engram');
const CHECK = join(REPO, 'build', 'engram-native-check');

const build = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-native.mjs')], { encoding: 'utf8' });
const compiler = spawnSync(process.env.CC || 'cc', ['--version'], { encoding: 'utf8' }).status === 0;
const skip = existsSync(NATIVE) && existsSync(CHECK) ? undefined : `the native relay was not built: ${build.stdout.trim() || build.stderr.trim()}`;

test('where a C compiler exists, the native relay is built', () => {
  assert.ok(!compiler || skip === undefined, skip);
});

/** node, as the native relay runs it for everything but relaying (the test runs the TypeScript through tsx). */
function nodeWrapper(): string {
  const dir = mkdtempSync(join(REPO, 'build', 'test-node-')); // beside the relay: a tmpdir may be mounted noexec
  const path = join(dir, 'node');
  // The relay passes dist/cli/engram.js first; the tests run src/cli/engram.ts instead.
  writeFileSync(path, `#!/bin/sh\nshift\nexec '${process.execPath}' --import tsx '${join(REPO, 'src', 'cli', 'engram.ts')}' "$@"\n`, { mode: 0o755 });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return path;
}

function check(...args: string[]): string[] {
  const result = spawnSync(CHECK, args, { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split('\n').slice(0, -1);
}

test('sha256 and the state directory agree with node and index/state-dir.ts', { skip }, (t) => {
  for (const text of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'b'.repeat(119), '/Users/zoë/Notes — vault/✓']) {
    assert.equal(check('sha256', text)[0], createHash('sha256').update(text).digest('hex'), `sha256 of ${text.length} characters`);
  }
  const vault = makeVault(t, {});
  const link = join(vault.home, 'through a link');
  mkdirSync(vault.home, { recursive: true });
  symlinkSync(vault.root, link);
  for (const [home, given] of [
    [vault.home, vault.root],
    [`${vault.home}//x/../.`, `${link}/`],
    ['relative/home/..', link],
  ] as const) {
    const located = locateState(home, given)!;
    assert.deepEqual(check('state', home, given), [located.vault, located.stateDir], `${home} ${given}`);
    assert.equal(located.stateDir, stateDirFor(home, resolveVaultRoot(given)));
  }
});

test('the JSON scanner finds the top-level id and method only, with JSON.stringify(JSON.parse(id)) as the id', { skip }, () => {
  const cases: [string, string[]][] = [
    ['{"jsonrpc":"2.0","id":"a\\"b\\\\c","method":"x"}', ['1', '"a\\"b\\\\c"', '"x"']],
    ['{"params":{"id":5,"method":"nested"},"id":7}', ['1', '7', '-']],
    ['{"params":[{"id":5}],"method":"m","x":"\\"id\\":3"}', ['1', '-', '"m"']],
    ['{"id":1.0,"method":"m"}', ['1', '1', '"m"']],
    ['{"id":-0,"method":"m"}', ['1', '0', '"m"']],
    ['{"id":1e2}', ['1', '100', '-']],
    ['{"id":"\\u0041\\/\\u00e9\\ud83d\\ude00"}', ['1', '"A/é😀"', '-']],
    ['{"id":"\\u001f\\n"}', ['1', '"\\u001f\\n"', '-']],
    ['{"id":1,"id":2}', ['1', '2', '-']],
    ['{"\\u0069d":3}', ['1', '3', '-']],
    ['{"id": { "a" : [1, 2] } }', ['1', '{"a":[1,2]}', '-']],
    ['{"id":null,"method":"m"}', ['1', 'null', '"m"']],
  ];
  for (const [line, expected] of cases) {
    assert.deepEqual(check('scan', line), expected, line);
    const parsed = JSON.parse(line) as { id?: unknown };
    if (parsed.id !== undefined) assert.equal(expected[1], JSON.stringify(parsed.id), `as JSON.stringify has it: ${line}`);
  }
  for (const invalid of ['{"id":1', '[1 2]', '01', '{"id":1,}', '"\\x"', '{"id":1} x', '"a\nb"', '['.repeat(5000), 'tru', '-', '1.', '.5', '[1,]', '{"a" 1}']) {
    assert.equal(check('scan', `{"id":3,"p":${invalid}}`)[0], '0', invalid);
  }
  for (const notObject of ['[{"id":1}]', '"id"', '3', '']) assert.equal(check('scan', notObject)[0], '0', notObject);
});

test('every refusal of the attach file, with the message findDaemon gives', { skip }, (t) => {
  const vault = makeVault(t, {});
  const real = resolveVaultRoot(vault.root);
  const dir = stateDirFor(vault.home, real);
  const path = join(dir, 'attach.json');
  mkdirSync(dir, { recursive: true });
  const good = { host: '127.0.0.1', port: 1, secret: 's', vault: real, version: RUNNING_VERSION, pid: process.pid, started_at: '' };
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const cases: [string, string | null, number][] = [
    ['absent', null, 0o600],
    ['found', JSON.stringify(good), 0o600],
    ['stale', JSON.stringify({ ...good, pid: dead }), 0o600],
    ['another vault', JSON.stringify({ ...good, vault: '/elsewhere/vault' }), 0o600],
    ['no vault', JSON.stringify({ ...good, vault: undefined }), 0o600],
    ['another version', JSON.stringify({ ...good, version: '0.0.1-old' }), 0o600],
    ['readable by others', JSON.stringify(good), 0o644],
    ['not JSON', '{"port":', 0o600],
    ['no secret', JSON.stringify({ ...good, secret: 5 }), 0o600],
  ];
  const compare = (what: string) => {
    const node = findDaemon(dir, real, RUNNING_VERSION, process.getuid!());
    const native = check('find', dir, real, RUNNING_VERSION);
    if ('found' in node) assert.deepEqual(native, ['found', String(node.found.pid)], what);
    else if ('absent' in node) assert.deepEqual(native, ['absent', ''], what);
    else assert.deepEqual(native, ['refused', node.refused], what);
  };
  for (const [what, content, mode] of cases) {
    rmSync(path, { force: true, recursive: true });
    if (content !== null) writeFileSync(path, content, { mode });
    if (content !== null) chmodSync(path, mode);
    compare(what);
  }
  rmSync(path, { force: true });
  mkdirSync(path);
  compare('a folder');
  rmSync(path, { recursive: true });
  symlinkSync(join(dir, 'elsewhere.json'), path);
  compare('a symlink');
  if (process.getuid!() === 0) {
    rmSync(path);
    writeFileSync(path, JSON.stringify(good), { mode: 0o600 });
    chownSync(path, 65534, 65534);
    compare('another owner');
  }
});

relayScenarios({ name: 'native relay', command: NATIVE, args: [], env: skip ? {} : { ENGRAM_NODE: nodeWrapper() }, program: NATIVE, skip });
