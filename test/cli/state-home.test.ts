/** ENGRAM_HOME where no folder can be made: one line and exit 1 (it spun at full CPU under /proc). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPO } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const ENTRY = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

test('ENGRAM_HOME under /proc or below a file: a one-line error naming the variable, exit 1', { skip: process.platform !== 'linux' ? '/proc is Linux' : false }, (t) => {
  const vault = makeVault(t, { 'A.md': '# A\n' });
  writeFileSync(join(vault.root, 'not-a-folder'), '');
  for (const home of ['/proc/engram-home', join(vault.root, 'not-a-folder', 'engram')]) {
    // A spawned process, with a kill long after any honest run, so the old endless loop fails the test instead of hanging it.
    const result = spawnSync(process.execPath, ['--import', 'tsx', ENTRY, 'status', '--vault', vault.root], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', ENGRAM_HOME: home, ENGRAM_OFFLINE: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(result.signal, null, `${home}: the process ended by itself`);
    assert.equal(result.status, 1, `${home}: ${result.stderr}`);
    assert.match(result.stderr, /^engram: cannot create the state directory .*; set ENGRAM_HOME to a writable folder\n$/);
  }
});
