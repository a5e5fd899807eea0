import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { forEachLine, parseAjsonLine, parseLegacyAjson, splitAjsonKey } from '../../src/smart-env/ajson.js';
import { makeVault } from '../helpers/vault.js';

// Checklist 7: the key is a JSON string with escapes; the collection ends at the first `:` only.
test('key parsing: escapes, colons, hashes, quotes and emoji in the item key', () => {
  const key = 'smart_sources:a:b#c "q" 🙂\\d.md';
  const entry = parseAjsonLine(`${JSON.stringify(key)}: {"path":"x"},`);
  assert.deepEqual(entry, { key, value: { path: 'x' } });
  assert.deepEqual(splitAjsonKey(key), { collection: 'smart_sources', item: 'a:b#c "q" 🙂\\d.md' });
  assert.deepEqual(splitAjsonKey('SmartSource:x.md'), { collection: 'smart_sources', item: 'x.md' });
  assert.deepEqual(splitAjsonKey('SmartNote:x.md'), { collection: 'smart_sources', item: 'x.md' });
  assert.deepEqual(splitAjsonKey('SmartBlock:x.md#h'), { collection: 'smart_blocks', item: 'x.md#h' });
  assert.equal(splitAjsonKey('nocolon'), null);
  assert.deepEqual(parseAjsonLine('  "smart_sources:n.md": null,  '), { key: 'smart_sources:n.md', value: null });
  assert.deepEqual(parseAjsonLine('"k\\"ey:x": 1'), { key: 'k"ey:x', value: 1 }, 'a trailing comma is optional');
});

// Checklist 8: a half-written append or garbage is not a record, and never throws.
test('half-written and garbage lines are not records', () => {
  for (const bad of ['"smart_sources:a.md": {"path":"a.md","blocks_da', '"smart_sources:a.md', 'garbage', '{"x":1}', '"unterminated: 1', '"k" 1,', '', '   ', '"k": ,']) {
    assert.equal(parseAjsonLine(bad), null, bad);
  }
});

// Checklist 25: 2.x files are one object; records share lines; the oldest have no commas.
test('legacy files: shared lines, missing commas, duplicates (last wins), torn tail', () => {
  const shared = '"SmartSource:a.md": {"v":1}, "SmartBlock:a.md#h": {"v":2},\n"SmartSource:a.md": {"v":3},';
  assert.deepEqual(parseLegacyAjson(shared), {
    entries: [
      { key: 'SmartSource:a.md', value: { v: 3 } },
      { key: 'SmartBlock:a.md#h', value: { v: 2 } },
    ],
    damaged: 0,
  });
  const noCommas = '"SmartSource:a.md": {"v":1}\n"SmartBlock:a.md#h": {"v":2}\n';
  assert.equal(parseLegacyAjson(noCommas).entries.length, 2);
  const torn = '"SmartSource:a.md": {"v":1},\n"SmartBlock:a.md#h": {"v":2},\n"SmartBlock:a.md#i": {"v"';
  assert.deepEqual(parseLegacyAjson(torn), {
    entries: [
      { key: 'SmartSource:a.md', value: { v: 1 } },
      { key: 'SmartBlock:a.md#h', value: { v: 2 } },
    ],
    damaged: 1,
  });
  assert.deepEqual(parseLegacyAjson('  \n'), { entries: [], damaged: 0 });
});

// Checklist 29: lines are streamed in chunks; a line may span many chunks and split a character.
test('forEachLine: long lines across chunks, multi-byte characters split at a boundary, no final newline', (t) => {
  const vault = makeVault(t);
  const long = `"smart_sources:🙂.md": ${JSON.stringify({ text: 'é🙂ü'.repeat(5000) })},`;
  const content = ['first', long, '', 'çà last'].join('\n');
  const path = join(vault.root, 'log.ajson');
  writeFileSync(path, content);
  for (const chunk of [1, 3, 7, 64, 1 << 20]) {
    const lines: string[] = [];
    forEachLine(path, (l) => lines.push(l), chunk);
    assert.deepEqual(lines, ['first', long, '', 'çà last'], `chunk ${chunk}`);
  }
  writeFileSync(path, 'a\n');
  const lines: string[] = [];
  forEachLine(path, (l) => lines.push(l), 1);
  assert.deepEqual(lines, ['a']);
});
