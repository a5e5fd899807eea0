/** Resolving pointers into `mf_*` files, and telling fresh vectors from stale ones. */
import assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeFloat32LE, readSmartEnv } from '../../src/smart-env/index.js';
import { makeVault } from '../helpers/vault.js';
import { BGE, BGE_FP, NOTE, NOTE_BLOCKS, line, mfBytes, rows, same, sliceOf, sourceRecord, unitVector, writeSmartEnv } from './fixture.js';

const read = (root: string) => readSmartEnv({ vaultRoot: root, modelKey: BGE });
const byKey = (vectors: { key: string; fresh: boolean }[]) => Object.fromEntries(vectors.map((v) => [v.key === '' ? '(source)' : v.key, v.fresh]));

function standardVault(t: Parameters<typeof makeVault>[0]) {
  const vault = makeVault(t, { 'a.md': NOTE });
  writeSmartEnv(vault, {
    lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 1, blocks: NOTE_BLOCKS }))],
    sourceRows: rows(100, 101),
    blockRows: rows(200, 201),
  });
  return vault;
}

// Checklist 3: a missing vector file or a pointer past the end means "no vector", counted.
test('a missing vector file, a truncated file and a damaged file: no vector, counted, said', (t) => {
  const vault = standardVault(t);
  vault.remove(`.smart-env/smart_blocks/${BGE_FP}`);
  const missing = read(vault.root);
  assert.deepEqual(
    missing.vectors.map((v) => v.kind),
    ['source'],
  );
  assert.equal(missing.report.unresolvablePointers, 2);
  assert.match(missing.report.warnings.join('\n'), /2 Smart Connections vector pointer\(s\) lead to smart_blocks\/mf_ccarbz, which does not exist/);

  vault.write(`.smart-env/smart_blocks/${BGE_FP}`, mfBytes(rows(200, 201)));
  truncateSync(join(vault.root, `.smart-env/smart_blocks/${BGE_FP}`), 1536 + 1000); // row 1 cut short
  const cut = read(vault.root);
  assert.deepEqual(
    cut.vectors.map((v) => v.key),
    ['', '#Alpha#{1}'],
  );
  assert.equal(cut.report.unresolvablePointers, 1);
  assert.match(cut.report.warnings.join('\n'), /lead past the end of smart_blocks\/mf_ccarbz/);
  assert.match(cut.report.warnings.join('\n'), /smart_blocks\/mf_ccarbz ends in a partial row/);

  truncateSync(join(vault.root, `.smart-env/smart_blocks/${BGE_FP}`), 1536 + 2); // not float32-aligned: the plugin refuses it
  const damaged = read(vault.root);
  assert.equal(damaged.report.blocks.withVector, 0);
  assert.equal(damaged.report.unresolvablePointers, 2);
});

// Checklist 4: `smart_sources/mf_x` and `smart_blocks/mf_x` share a name, not rows.
test('source and block files with the same name are resolved separately', (t) => {
  const vault = standardVault(t);
  const vectors = read(vault.root).vectors;
  assert.ok(same(vectors[0]!.vector, unitVector(101)), 'source row 1 from smart_sources/');
  assert.ok(same(vectors[1]!.vector, unitVector(200)), 'block row 0 from smart_blocks/');
  assert.ok(same(vectors[2]!.vector, unitVector(201)));
});

// Checklist 18: rows are garbage unless a live pointer names them.
test('garbage rows are never returned as vectors', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 3 }))], sourceRows: rows(0, 1, 2, 3, 4, 5) });
  const { report, vectors } = read(vault.root);
  assert.equal(vectors.length, 1);
  assert.equal(report.sources.withVector, 1);
  assert.ok(same(vectors[0]!.vector, unitVector(3)));
});

// Checklist 12: fresh only when pointer hash == record hash == hash of the current text (or line slice).
test('editing a note makes its source vector and the touched blocks stale, the others stay fresh', (t) => {
  const vault = standardVault(t);
  assert.deepEqual(byKey(read(vault.root).vectors), { '(source)': true, '#Alpha#{1}': true, '#Alpha#Beta': true });
  vault.write('a.md', NOTE.replace('Beta text line two.', 'Beta text, edited.'));
  const edited = read(vault.root);
  assert.deepEqual(byKey(edited.vectors), { '(source)': false, '#Alpha#{1}': true, '#Alpha#Beta': false });
  assert.deepEqual(edited.report.sources, { records: 1, withVector: 1, fresh: 0, stale: 1 });
  assert.deepEqual(edited.report.blocks, { withVector: 2, fresh: 1, stale: 1 });
});

test('a pointer computed from an older read is stale even when the note matches the record', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const record = sourceRecord('a.md', NOTE, { row: 0 });
  (record.embedding as { default: Record<string, { read_hash: string }> }).default[BGE_FP]!.read_hash = 'older';
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)], sourceRows: rows(0) });
  assert.equal(read(vault.root).vectors[0]!.fresh, false);
});

test('a CRLF note is hashed as it is on disk, carriage returns included', (t) => {
  const crlf = NOTE.replace(/\n/g, '\r\n');
  const vault = makeVault(t, { 'a.md': crlf });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', sourceRecord('a.md', crlf, { row: 0, blocks: NOTE_BLOCKS }))], sourceRows: rows(0), blockRows: rows(1, 2) });
  assert.deepEqual(byKey(read(vault.root).vectors), { '(source)': true, '#Alpha#{1}': true, '#Alpha#Beta': true });
});

// Checklist 15: `lines` are 1-based and inclusive.
test('block ranges are 1-based inclusive; an off-by-one or out-of-range block is stale', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const record = sourceRecord('a.md', NOTE, {
    blocks: [
      { key: '#Alpha#{1}', lines: [5, 6], row: 0 },
      { key: '#B', lines: [7, 9], row: 1 },
      { key: '#C', lines: [8, 9], row: 2 },
    ],
  });
  const blocks = record.blocks_data as Record<string, { lines: number[]; last_read: { hash: string } }>;
  assert.equal(sliceOf(NOTE, [5, 6]), 'First paragraph of alpha.\n');
  blocks['#B']!.lines = [6, 8]; // shifted by one: the hash no longer matches
  blocks['#C']!.lines = [8, 10]; // the note has 9 lines
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)], blockRows: rows(0, 1, 2) });
  const { vectors } = read(vault.root);
  assert.deepEqual(byKey(vectors), { '#Alpha#{1}': true, '#B': false, '#C': false });
  assert.deepEqual(vectors[0]!.lines, [5, 6]);
});

// Checklists 14 and 16: keys are taken from the enclosing record, never by splitting on `#`; sizes are not trusted.
test('paths and block keys containing `#`, brackets and emoji come through intact', (t) => {
  const path = 'C# notes/🧠 a#b.md';
  const text = ['---', 'x: 1', '---', 'intro 🙂', '# Title', 'one', '# Title', 'two', '## Sub #2', 'three', 'four'].join('\n');
  const blocks = [
    { key: '#---frontmatter---', lines: [1, 3] as [number, number], row: 0 },
    { key: '#{1}', lines: [4, 4] as [number, number], row: 1 },
    { key: '#Title', lines: [5, 6] as [number, number], row: 2 },
    { key: '#Title[2]', lines: [7, 11] as [number, number], row: 3 },
    { key: '#Title[2]#Sub #2', lines: [9, 11] as [number, number], row: 4 },
    { key: '#Title[2]#Sub #2#{2}', lines: [11, 11] as [number, number], row: 5 },
  ];
  const vault = makeVault(t, { [path]: text });
  const record = sourceRecord(path, text, { row: 0, blocks });
  for (const data of Object.values(record.blocks_data as Record<string, { size: number }>)) data.size = 999_999; // never used
  (record.last_import as { size: number }).size = 1;
  // A block written under its full key (legacy shape) is read as its sub-key.
  const data = record.blocks_data as Record<string, unknown>;
  data[`${path}#Title`] = data['#Title'];
  delete data['#Title'];
  writeSmartEnv(vault, { lines: [line(`smart_sources:${path}`, record)], sourceRows: rows(0), blockRows: rows(0, 1, 2, 3, 4, 5) });
  const { vectors } = read(vault.root);
  assert.deepEqual(
    vectors.map((v) => [v.path, v.key, v.fresh]),
    [[path, '', true], ...blocks.map((block) => [path, block.key, true])],
  );
});

// Checklist 20: a Buffer at an odd offset cannot back a Float32Array; values are copied out.
test('decoding float32 rows from an unaligned buffer', () => {
  const values = [0.5, -1.25, 3.4028234663852886e38, 1e-7];
  const backing = Buffer.alloc(1 + values.length * 4);
  values.forEach((value, i) => backing.writeFloatLE(value, 1 + i * 4));
  const unaligned = backing.subarray(1);
  assert.equal(unaligned.byteOffset % 4, 1);
  assert.throws(() => new Float32Array(unaligned.buffer, unaligned.byteOffset, values.length), RangeError);
  const decoded = decodeFloat32LE(unaligned, 0, values.length);
  assert.deepEqual(
    [...decoded],
    values.map((v) => Math.fround(v)),
  );
  decoded[0] = 9;
  assert.equal(unaligned.readFloatLE(0), 0.5, 'a copy, not a view');
});

test('returned vectors are copies: changing one does not change the next read', (t) => {
  const vault = standardVault(t);
  const first = read(vault.root).vectors[0]!;
  first.vector.fill(0);
  assert.ok(same(read(vault.root).vectors[0]!.vector, unitVector(101)));
});

test('a note starting with a byte-order mark is fresh whether or not the plugin kept the mark', (t) => {
  const vault = makeVault(t, { 'a.md': `\uFEFF${NOTE}`, 'b.md': `\uFEFF${NOTE}` });
  writeSmartEnv(vault, {
    lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0, blocks: NOTE_BLOCKS })), line('smart_sources:b.md', sourceRecord('b.md', `\uFEFF${NOTE}`, { row: 0 }))],
    sourceRows: rows(0),
    blockRows: rows(1, 2),
  });
  assert.ok(read(vault.root).vectors.every((v) => v.fresh));
});

test('a block vector without a line range is not returned, and is counted', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const record = sourceRecord('a.md', NOTE, { blocks: NOTE_BLOCKS });
  delete (record.blocks_data as Record<string, { lines?: unknown }>)['#Alpha#Beta']!.lines;
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)], blockRows: rows(1, 2) });
  const { report, vectors } = read(vault.root);
  assert.deepEqual(
    vectors.map((v) => v.key),
    ['#Alpha#{1}'],
  );
  assert.equal(report.unresolvablePointers, 1);
  assert.match(report.warnings.join('\n'), /1 block vector\(s\) of a\.md have no line range/);
});
