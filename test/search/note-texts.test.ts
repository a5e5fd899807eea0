import assert from 'node:assert/strict';
import { mkdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStateDb, runIndex } from '../../src/index/index.js';
import { lexicalExtension, VaultSearch } from '../../src/search/index.js';
import { makeVault } from '../helpers/vault.js';

test('a note edited after a search is quoted as it is now by the same engine: in place, same size and time, or replaced by a rename', (t) => {
  const vault = makeVault(t, { 'Notes/Plan.md': '# Plan\nThe rollout starts on Monday.\n' });
  mkdirSync(vault.home, { recursive: true });
  const { db } = openStateDb(vault.home);
  runIndex(db, { root: vault.root, extensions: [lexicalExtension()] });
  const engine = VaultSearch.open(db, vault.root);
  const abs = join(vault.root, 'Notes/Plan.md');
  const excerpt = () => engine.search({ query: 'rollout', mode: 'keyword' }).results[0]!.excerpt;
  assert.equal(excerpt(), 'The rollout starts on Monday.');
  assert.equal(excerpt(), 'The rollout starts on Monday.', 'read again (or kept) unchanged');

  // Another size.
  writeFileSync(abs, '# Plan\nThe rollout starts on Tuesday now.\n');
  assert.equal(excerpt(), 'The rollout starts on Tuesday now.');

  // The same size, another modification time.
  const before = statSync(abs);
  writeFileSync(abs, '# Plan\nThe rollout starts on Friday! now.\n');
  utimesSync(abs, before.atime, new Date(before.mtimeMs + 10_000));
  assert.equal(excerpt(), 'The rollout starts on Friday! now.');

  // The same size and modification time, another file (an editor's write by rename).
  const stamp = statSync(abs);
  const temp = join(vault.root, 'Notes/.Plan.md.tmp');
  writeFileSync(temp, '# Plan\nThe rollout starts on Sunday! now.\n');
  utimesSync(temp, stamp.atime, stamp.mtime);
  renameSync(temp, abs);
  assert.equal(statSync(abs).size, stamp.size);
  assert.equal(statSync(abs).mtimeMs, stamp.mtimeMs);
  assert.equal(excerpt(), 'The rollout starts on Sunday! now.');
  db.close();
});
