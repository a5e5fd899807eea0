/** Replaying the log: which records are live, and which of them count. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSmartEnv } from '../../src/smart-env/index.js';
import { makeVault } from '../helpers/vault.js';
import { BGE, NOTE, NOTE_BLOCKS, line, log, same, rows, sourceRecord, unitVector, writeSmartEnv } from './fixture.js';

const read = (root: string, extra = {}) => readSmartEnv({ vaultRoot: root, modelKey: BGE, ...extra });
const keys = (vectors: { path: string; key: string }[]) => vectors.map((v) => `${v.path}${v.key}`);

// Checklist 5: full-snapshot replace, `null` deletes, a later line resurrects, unknown tombstones are no-ops.
test('last line wins; null deletes; a later line resurrects; a tombstone for an unknown key changes nothing', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE, 'b.md': NOTE, 'c.md': NOTE });
  writeSmartEnv(vault, {
    lines: [
      line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0, blocks: NOTE_BLOCKS })),
      line('smart_sources:b.md', sourceRecord('b.md', NOTE, { row: 1 })),
      line('smart_sources:b.md', null),
      line('smart_sources:b.md', sourceRecord('b.md', NOTE, { row: 2 })), // R N R
      line('smart_sources:c.md', sourceRecord('c.md', NOTE, { row: 0 })),
      line('smart_sources:c.md', null),
      line('smart_sources:c.md', null),
      line('smart_sources:never.md', null),
      line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 3 })), // a snapshot without blocks
    ],
    sourceRows: [unitVector(0), unitVector(1), unitVector(2), unitVector(3)],
    blockRows: [unitVector(10), unitVector(11)],
  });
  const { report, vectors } = read(vault.root);
  assert.deepEqual(keys(vectors), ['a.md', 'b.md'], 'a.md lost its blocks: the last snapshot replaces, never merges');
  assert.ok(same(vectors[0]!.vector, unitVector(3)));
  assert.ok(same(vectors[1]!.vector, unitVector(2)));
  assert.equal(report.sources.records, 2);
  assert.equal(report.tombstonesApplied, 2, 'b.md once and c.md once; the repeated and unknown tombstones are no-ops');
});

// Checklist 6: shards replay in numeric order (`_10` after `_9`), and shard 0 must exist.
test('shards are replayed in numeric order', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE, 'b.md': NOTE });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0 }))], sourceRows: rows(0, 1, 2, 3) });
  const shard = (n: number, lines: string[]) => vault.write(`.smart-env/smart_sources/smart_sources_${n}.ajson`, log(lines));
  for (let n = 1; n <= 10; n++) shard(n, []);
  shard(1, [line('smart_sources:b.md', sourceRecord('b.md', NOTE, { row: 1 }))]);
  shard(2, [line('smart_sources:b.md', null)]);
  shard(9, [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 2 }))]);
  shard(10, [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 3 }))]);
  vault.write('.smart-env/smart_sources/smart_sources_01.ajson', log([line('smart_sources:b.md', sourceRecord('b.md', NOTE, { row: 0 }))]));
  const { report, vectors } = read(vault.root);
  assert.deepEqual(keys(vectors), ['a.md'], 'b.md: set in shard 1, deleted in shard 2; `_01` is not a shard name');
  assert.ok(same(vectors[0]!.vector, unitVector(3)), 'shard 10 is replayed after shard 9');
  assert.equal(report.tombstonesApplied, 1);

  vault.remove('.smart-env/smart_sources/smart_sources.ajson');
  assert.equal(read(vault.root).report.detected, false, 'numbered shards without shard 0 are not a smart-env 3 log');
});

// Checklist 8: a half-written last line (no newline, append in progress) and garbage are skipped.
test('a half-written last line and garbage lines are skipped; the counts do not change', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0, blocks: NOTE_BLOCKS }))], sourceRows: [unitVector(0)], blockRows: [unitVector(1), unitVector(2)] });
  const clean = read(vault.root);
  const path = join(vault.root, '.smart-env/smart_sources/smart_sources.ajson');
  appendFileSync(path, '\nnot json at all\n"smart_sources:a.md": 42,\n' + line('smart_sources:a.md', null).slice(0, 12));
  const torn = read(vault.root);
  assert.deepEqual(torn.report.sources, clean.report.sources);
  assert.deepEqual(torn.report.blocks, clean.report.blocks);
  assert.equal(torn.vectors.length, clean.vectors.length);
  assert.match(torn.report.warnings.join('\n'), /^3 line\(s\) of the Smart Connections source log could not be read/m);
});

// Checklist 9: a record for a deleted note, with no tombstone, is dropped (the plugin does the same).
test('records for notes that no longer exist are dropped and counted', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  writeSmartEnv(vault, {
    lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0 })), line('smart_sources:gone/b.md', sourceRecord('gone/b.md', NOTE, { row: 1 }))],
    sourceRows: [unitVector(0), unitVector(1)],
  });
  const { report, vectors } = read(vault.root);
  assert.deepEqual(keys(vectors), ['a.md']);
  assert.equal(report.missingOnDisk, 1);
  assert.equal(report.sources.records, 1);
});

// Checklists 10 and 11: dot-folders and non-markdown records are not notes.
test('dot-folder and non-markdown records are skipped; a custom isIndexed is obeyed', (t) => {
  const files: Record<string, string> = {};
  const lines: string[] = [];
  const paths = ['a.md', '.trash/old.md', 'Noosphera/.trash/x.md', 'sub/.obsidian/y.md', 'board.canvas', 'table.base', 'paper.pdf', 'Archive/z.md'];
  paths.forEach((path, i) => {
    files[path] = NOTE;
    lines.push(line(`smart_sources:${path}`, sourceRecord(path, NOTE, { row: i })));
  });
  const vault = makeVault(t, files);
  writeSmartEnv(vault, { lines, sourceRows: paths.map((_, i) => unitVector(i)) });
  const all = read(vault.root);
  assert.deepEqual(keys(all.vectors), ['Archive/z.md', 'a.md']);
  assert.equal(all.report.sources.records, 2);
  assert.equal(all.report.missingOnDisk, 0, 'skipped records are not "missing"');
  const scoped = read(vault.root, { isIndexed: (path: string) => path.endsWith('.md') && !path.startsWith('Archive/') && !path.includes('/.') && !path.startsWith('.') });
  assert.deepEqual(keys(scoped.vectors), ['a.md']);
});

// Checklist 21: tiny notes have a record but no source vector; unselected blocks have no vector.
test('tiny notes and unselected blocks carry no vectors but still count as records', (t) => {
  const vault = makeVault(t, { 'tiny.md': 'hi\n', 'a.md': NOTE });
  writeSmartEnv(vault, {
    lines: [line('smart_sources:tiny.md', sourceRecord('tiny.md', 'hi\n')), line('smart_sources:a.md', sourceRecord('a.md', NOTE, { blocks: NOTE_BLOCKS }))],
    blockRows: [unitVector(1), unitVector(2)],
  });
  const { report, vectors } = read(vault.root);
  assert.equal(report.sources.records, 2);
  assert.equal(report.sources.withVector, 0);
  assert.deepEqual(keys(vectors), ['a.md#Alpha#{1}', 'a.md#Alpha#Beta'], 'the frontmatter and parent blocks were not selected');
});

// Checklist 29: a 2,000-block record on one line of several hundred KB.
test('a very long line with thousands of blocks is read', (t) => {
  const text = Array.from({ length: 2000 }, (_, i) => `## Heading ${i}`).join('\n');
  const blocks = Array.from({ length: 2000 }, (_, i) => ({ key: `##Heading ${i}`, lines: [i + 1, i + 1] as [number, number], ...(i % 500 === 0 ? { row: i / 500 } : {}) }));
  const vault = makeVault(t, { 'long.md': text });
  const record = line('smart_sources:long.md', sourceRecord('long.md', text, { blocks }));
  assert.ok(record.length > 300_000);
  writeSmartEnv(vault, { lines: [record], blockRows: rows(0, 1, 2, 3) });
  const { report } = read(vault.root);
  assert.deepEqual(report.blocks, { withVector: 4, fresh: 4, stale: 0 });
});

// Checklist 30: notes over the plugin's import limit have a zeroed record and nothing else.
test('a note too large for the plugin has a record without blocks or vectors', (t) => {
  const big = `# Big\n${'x'.repeat(400 * 1024)}\n`;
  const vault = makeVault(t, { 'big.md': big });
  const record = { class_name: 'SmartSource', last_read: { hash: null, at: 1 }, embedding: { history: [] }, path: 'big.md', last_import: { at: 0, hash: null, mtime: 0, size: 0 } };
  writeSmartEnv(vault, { lines: [line('smart_sources:big.md', record)] });
  const { report, vectors } = read(vault.root);
  assert.equal(report.sources.records, 1);
  assert.equal(vectors.length, 0);
  assert.deepEqual(report.warnings, []);
});
