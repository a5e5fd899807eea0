import assert from 'node:assert/strict';
import { mkdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStateDb, runIndex } from '../../src/index/index.js';
import { lexicalExtension, textLayout, VaultSearch } from '../../src/search/index.js';
import { NoteTexts } from '../../src/search/note-texts.js';
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

test("a kept note's layout (its line starts) is made once and is the text's as it is now", (t) => {
  const vault = makeVault(t, { 'Plan.md': '# Plan\nThe rollout\nstarts on Monday.\n' });
  const abs = join(vault.root, 'Plan.md');
  const texts = new NoteTexts();
  const first = texts.read(abs);
  assert.ok(first.ok);
  const layout = texts.layout(abs, first.text);
  assert.deepEqual(layout, textLayout(first.text));
  assert.equal(layout.lineCount, 4);
  const again = texts.read(abs);
  assert.ok(again.ok);
  assert.equal(texts.layout(abs, again.text), layout, 'kept with the text, not made again');
  writeFileSync(abs, '# Plan\nThe rollout starts on Tuesday.\n');
  const changed = texts.read(abs);
  assert.ok(changed.ok);
  assert.deepEqual(texts.layout(abs, changed.text), textLayout('# Plan\nThe rollout starts on Tuesday.\n'));
  assert.equal(texts.layout(abs, changed.text).lineCount, 3);
  // A text the engine did not keep (not the one read) gets a layout of its own.
  assert.deepEqual(texts.layout(abs, 'one line'), { lineStarts: Int32Array.from([0, 8]), lineCount: 1 });
});
