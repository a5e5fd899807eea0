import assert from 'node:assert/strict';
import { readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStateDb, runIndex } from '../../src/index/index.js';
import { spawnCliAsync } from '../helpers/cli.js';
import { dumpState, withoutIds } from '../helpers/state.js';
import { makeVault } from '../helpers/vault.js';

test('killing engram index mid-run and re-running gives the same database as one uninterrupted run', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) {
    const folder = `f${i % 7}`;
    files[`${folder}/Note ${i}.md`] = `---\ntags: [t${i % 5}]\n---\n# Note ${i}\nLinks to [[Note ${(i * 7) % 3000}]] and [[Gone ${i % 3}]].\n## Part\n- [ ] task ${i} 📅 2026-01-0${1 + (i % 9)}\n`;
  }
  const vault = makeVault(t, files);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };

  const child = spawnCliAsync(['index', '--batch-size', '50'], env);
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/indexed \d+\/\d+/.test(stderr)) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`index exited (${code}) before it could be killed: ${stderr}`)));
  });
  await new Promise((resolve) => child.on('close', resolve));

  const stateDir = join(vault.home, readdirSync(vault.home)[0]!);
  const killed = openStateDb(stateDir);
  const partial = killed.db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  assert.ok(partial > 0 && partial < 3000, `the kill landed mid-run (${partial} notes committed)`);
  runIndex(killed.db, { root: vault.root });

  const cleanHome = join(vault.home, '..', 'clean-home');
  mkdirSync(cleanHome, { recursive: true });
  const clean = openStateDb(cleanHome);
  runIndex(clean.db, { root: vault.root });

  assert.deepEqual(withoutIds(dumpState(killed.db)), withoutIds(dumpState(clean.db)));
  killed.db.close();
  clean.db.close();
});
