/** Which vectors are ours: pointers are picked by the configured model's fingerprint, never by age. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSmartEnv } from '../../src/smart-env/index.js';
import { makeVault } from '../helpers/vault.js';
import { BGE, BGE_FP, E5, E5_FP, NOTE, NOTE_BLOCKS, hash, line, mfBytes, modelRecord, ref, same, settings, sourceRecord, unitVector, writeSmartEnv } from './fixture.js';

const NEWER = 1_787_000_000_000;

// Checklist 1: the newer ref belongs to another model; the configured model's (older) ref wins.
test('pointers are picked by fingerprint, not by the newest `at`', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const record = sourceRecord('a.md', NOTE, { row: 1, refs: { [E5_FP]: ref(0, hash(NOTE), NEWER, E5_FP) } });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)], sourceRows: [unitVector(1), unitVector(2)] });
  vault.write(`.smart-env/smart_sources/${E5_FP}`, mfBytes([unitVector(99)]));
  const { report, vectors } = readSmartEnv({ vaultRoot: vault.root, modelKey: BGE });
  assert.equal(report.fingerprint, BGE_FP);
  assert.equal(vectors.length, 1);
  assert.ok(same(vectors[0]!.vector, unitVector(2)), 'row 1 of the bge file, not the newer e5 row');
  assert.equal(vectors[0]!.fresh, true);
});

// Checklist 2: the plugin switched to e5 (whose file is absent); bge vectors are still ours, said plainly.
test('active model differs from the configured one: configured vectors only, model mismatch reported', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE, 'b.md': 'only e5 vectors here\n' });
  const blocks = NOTE_BLOCKS.map((block) => ({ ...block, refs: { [E5_FP]: ref(9, 'x', NEWER, E5_FP) } }));
  writeSmartEnv(vault, {
    lines: [
      line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0, blocks, refs: { [E5_FP]: ref(3, hash(NOTE), NEWER, E5_FP) } })),
      line('smart_sources:b.md', sourceRecord('b.md', 'only e5 vectors here\n', { refs: { [E5_FP]: ref(4, hash('only e5 vectors here\n'), NEWER, E5_FP) } })),
    ],
    sourceRows: [unitVector(1)],
    blockRows: [unitVector(10), unitVector(11)],
  });
  vault.write('.smart-env/smart_env.json', settings('transformers#2'));
  vault.write('.smart-env/embedding_models/embedding_models.ajson', [modelRecord('transformers#1', BGE), modelRecord('transformers#2', E5)].join('\n'));

  const bge = readSmartEnv({ vaultRoot: vault.root, modelKey: BGE });
  assert.equal(bge.report.activeModel, E5);
  assert.equal(bge.report.modelMatches, false);
  assert.equal(bge.report.fingerprint, BGE_FP);
  assert.deepEqual(
    bge.vectors.map((v) => `${v.path}${v.key}`),
    ['a.md', 'a.md#Alpha#{1}', 'a.md#Alpha#Beta'],
  );
  assert.equal(bge.report.unresolvablePointers, 0, 'no e5 pointer was followed');
  const warning = bge.report.warnings.join('\n');
  assert.match(warning, /Smart Connections embeds with "Xenova\/multilingual-e5-small" but Engram is configured for "TaylorAI\/bge-micro-v2"/);
  assert.match(warning, /1 note\(s\) with vectors from another model only/);

  // Configured for e5 while its file is absent: nothing is returned, and the gap is named.
  const e5 = readSmartEnv({ vaultRoot: vault.root, modelKey: E5 });
  assert.equal(e5.report.modelMatches, true);
  assert.equal(e5.report.fingerprint, E5_FP);
  assert.equal(e5.vectors.length, 0);
  assert.equal(e5.report.unresolvablePointers, 2 + NOTE_BLOCKS.length);
  assert.match(e5.report.warnings.join('\n'), /lead to smart_sources\/mf_7gwptj, which does not exist/);
});

// Checklist 2 (never mix spaces even at equal dims): both files present, each model gets its own rows.
test('two models of equal dimension never mix', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const record = sourceRecord('a.md', NOTE, { row: 0, refs: { [E5_FP]: ref(0, hash(NOTE), NEWER, E5_FP) } });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)], sourceRows: [unitVector(1)] });
  vault.write(`.smart-env/smart_sources/${E5_FP}`, mfBytes([unitVector(2)]));
  const bge = readSmartEnv({ vaultRoot: vault.root, modelKey: BGE }).vectors;
  const e5 = readSmartEnv({ vaultRoot: vault.root, modelKey: E5 }).vectors;
  assert.ok(same(bge[0]!.vector, unitVector(1)));
  assert.ok(same(e5[0]!.vector, unitVector(2)));
});

// Checklist 17: the pre-migration shape (`default` is a ref, older ones in `history`) still resolves.
test('legacy ref shape: `default.file` plus `history` resolves by fingerprint', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const record = sourceRecord('a.md', NOTE);
  record.embedding = {
    history: [
      { type: 'default', model_fingerprint: BGE_FP, file: BGE_FP, file_i: 0, read_hash: 'old', at: 1 },
      { type: 'default', model_fingerprint: E5_FP, file: E5_FP, file_i: 0, read_hash: hash(NOTE), at: NEWER },
    ],
    default: { file: BGE_FP, file_i: 2, read_hash: hash(NOTE), at: 5 },
  };
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)], sourceRows: [unitVector(1), unitVector(2), unitVector(3)] });
  const { vectors } = readSmartEnv({ vaultRoot: vault.root, modelKey: BGE });
  assert.equal(vectors.length, 1);
  assert.ok(same(vectors[0]!.vector, unitVector(3)), 'the current ref, not the superseded history row');
  assert.equal(vectors[0]!.fresh, true);
});

test('a model nobody describes is reported, and `modelSpec` names it', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  const spec = { provider_key: 'ollama', model_key: 'tiny-embed', dims: 4, max_tokens: 256 };
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0 }))] });
  const unknown = readSmartEnv({ vaultRoot: vault.root, modelKey: 'tiny-embed' });
  assert.equal(unknown.report.fingerprint, '');
  assert.equal(unknown.vectors.length, 0);
  assert.match(unknown.report.warnings.join('\n'), /"tiny-embed" is not described by this vault's Smart Connections model records/);

  const withSpec = readSmartEnv({ vaultRoot: vault.root, modelKey: 'tiny-embed', modelSpec: spec });
  const fp = withSpec.report.fingerprint;
  assert.match(fp, /^mf_[0-9a-z]+$/);
  const record = sourceRecord('a.md', NOTE, { refs: { [fp]: ref(1, hash(NOTE), 1, fp) } });
  writeSmartEnv(vault, { lines: [line('smart_sources:a.md', record)] });
  vault.write(`.smart-env/smart_sources/${fp}`, mfBytes([new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 0, 0])]));
  const read = readSmartEnv({ vaultRoot: vault.root, modelKey: 'tiny-embed', modelSpec: spec });
  assert.equal(read.report.dims, 4);
  assert.deepEqual([...read.vectors[0]!.vector], [0, 1, 0, 0]);
});
