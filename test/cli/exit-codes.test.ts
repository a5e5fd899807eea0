/**
 * Error codes reach the command line's exit status through the one table in
 * src/cli/exit-codes.ts: every code, through the real `main()`, as one line on stderr.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../src/cli/command.js';
import { EXIT, EXIT_CODES } from '../../src/cli/exit-codes.js';
import { main } from '../../src/cli/main.js';
import { EngramError, ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import { makeVault } from '../helpers/vault.js';
import { runCli } from '../helpers/cli.js';

/** A command whose work fails with `error`, run through the real argument parsing and error edge (`fail`, and `args` after it). */
async function exitFor(error: unknown, { args = [], env = {} }: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const failing: Command = {
    name: 'fail',
    summary: 'fails.',
    options: {},
    run: () => {
      throw error;
    },
  };
  let stdout = '';
  let stderr = '';
  const code = await main(
    ['fail', ...args],
    env,
    {
      out: (text) => {
        stdout += `${text}\n`;
      },
      err: (text) => {
        stderr += `${text}\n`;
      },
      errIsTty: false,
    },
    [failing],
  );
  return { code, stdout, stderr };
}

test('every error code reaches its exit status, with its message as one line', async () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const result = await exitFor(new EngramError(code, `it failed as ${code}; do this next`));
    assert.equal(result.code, EXIT_CODES[code], code);
    assert.equal(result.stderr, `engram: it failed as ${code}; do this next\n`, code);
  }
});

test('the promises scripts rely on: 2 is bad usage, 75 is try again later, every other failure 1', async () => {
  assert.equal((await exitFor(new EngramError('USAGE', 'x'))).code, 2);
  assert.equal((await exitFor(new EngramError('TRANSIENT', 'rate limited; retry later'))).code, 75);
  assert.equal((await exitFor(new EngramError('SMART_ENV_UNSTABLE', 'kept changing; try again'))).code, 75);
  for (const code of ['INVALID_INPUT', 'CONFIG_INVALID', 'NOT_FOUND', 'WRITE_REFUSED', 'CONFIRMATION_REQUIRED', 'PREVIEW_EXPIRED', 'CONFLICT', 'IO_FAILED', 'LOCKED'] as const) {
    assert.equal((await exitFor(new EngramError(code, 'x'))).code, 1, code);
  }
  assert.deepEqual(new Set(Object.values(EXIT_CODES)), new Set([EXIT.failure, EXIT.usage, EXIT.retryLater]));
  const unexpected = await exitFor(new Error('boom'));
  assert.equal(unexpected.code, 1);
  assert.match(unexpected.stderr, /^engram: unexpected error: boom \(set ENGRAM_DEBUG=1 to see the stack\)\n$/);
});

test('with --json every failure is also {error, exit_code} on stdout: expected ones, and a bug (its stack on stderr only)', async () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const result = await exitFor(new EngramError(code, `it failed as ${code}; do this next`), { args: ['--json'] });
    assert.equal(result.stderr, `engram: it failed as ${code}; do this next\n`, code);
    assert.deepEqual(JSON.parse(result.stdout), { error: `it failed as ${code}; do this next`, exit_code: EXIT_CODES[code] }, code);
  }
  const quiet = await exitFor(new EngramError('TRANSIENT', 'rate limited; retry later'));
  assert.equal(quiet.stdout, '', 'without --json, stdout stays empty');
  const bug = await exitFor(new Error('boom\nsecond line'), { args: ['--json'] });
  assert.equal(bug.code, 1);
  assert.deepEqual(JSON.parse(bug.stdout), { error: 'unexpected error: boom (set ENGRAM_DEBUG=1 to see the stack)', exit_code: 1 });
  const debug = await exitFor(new Error('boom'), { args: ['--json'], env: { ENGRAM_DEBUG: '1' } });
  assert.match(debug.stderr, /^engram: unexpected error: boom\nError: boom\n {4}at /);
  assert.deepEqual(JSON.parse(debug.stdout), { error: 'unexpected error: boom', exit_code: 1 });
});

test('real commands: NOT_FOUND and INVALID_INPUT exit 1 with their remedy; bad usage exits 2', async (t) => {
  const vault = makeVault(t, { 'Notes/A.md': '# A\n' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const missing = await runCli(['undo', 'sweep-nope'], env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^engram: no run sweep-nope; librarian_status and the report in Librarian\.md name the run ids\n$/);
  const semantic = await runCli(['search', 'x', '--mode', 'semantic'], env);
  assert.equal(semantic.code, 1);
  assert.match(semantic.stderr, /^engram: semantic search is not possible: .*; use mode "hybrid" or "keyword"\n$/);
  assert.equal((await runCli(['search', 'x', '--mode', 'fuzzy'], env)).code, 2);
});
