/** Writers at work, old layouts, secrets, Unicode names, odd locations, hostile keys. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError } from '../../src/errors.js';
import { readSmartEnv } from '../../src/smart-env/index.js';
import { makeVault } from '../helpers/vault.js';
import { BGE, BGE_FP, NOTE, NOTE_BLOCKS, hash, line, mfBytes, rows, same, settings, sourceRecord, unitVector, writeSmartEnv } from './fixture.js';

const read = (root: string, extra = {}) => readSmartEnv({ vaultRoot: root, modelKey: BGE, ...extra });

function standardVault(t: Parameters<typeof makeVault>[0]) {
  const vault = makeVault(t, { 'a.md': NOTE });
  writeSmartEnv(vault, {
    lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0, blocks: NOTE_BLOCKS }))],
    sourceRows: rows(100),
    blockRows: rows(200, 201),
  });
  return vault;
}

// Checklist 19: the plugin rewrites a vector file (tmp → rename) while we read; the read is done again.
test('a vector file replaced mid-read causes a second attempt with the new content', (t) => {
  const vault = standardVault(t);
  const mf = join(vault.root, `.smart-env/smart_sources/${BGE_FP}`);
  const result = read(vault.root, {
    onRecordsRead: (attempt: number) => {
      if (attempt !== 1) return;
      writeFileSync(`${mf}.tmp`, mfBytes(rows(300)));
      renameSync(mf, `${mf}.bak`);
      renameSync(`${mf}.tmp`, mf);
    },
  });
  assert.equal(result.report.attempts, 2);
  assert.ok(same(result.vectors[0]!.vector, unitVector(300)));
});

test('data that keeps changing fails after maxAttempts with a clear error', (t) => {
  const vault = standardVault(t);
  const log = join(vault.root, '.smart-env/smart_sources/smart_sources.ajson');
  let calls = 0;
  assert.throws(
    () => read(vault.root, { maxAttempts: 2, onRecordsRead: () => writeFileSync(log, `${line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0 }))}\n`.repeat(++calls)) }),
    (error: unknown) => error instanceof EngramError && error.code === 'SMART_ENV_UNSTABLE' && /kept changing while being read \(2 attempts\); wait until Smart Connections has finished/.test(error.message),
  );
  assert.equal(calls, 2);
});

test('temporary and backup copies are never read as data', (t) => {
  const vault = standardVault(t);
  vault.write(`.smart-env/smart_sources/${BGE_FP}.bak`, mfBytes(rows(1)));
  vault.write(`.smart-env/smart_sources/${BGE_FP}.backup`, mfBytes(rows(2)));
  vault.write('.smart-env/smart_sources/smart_sources.ajson.tmp', line('smart_sources:a.md', null));
  vault.write('.smart-env/smart_sources/smart_sources.ajson.bak', line('smart_sources:a.md', null));
  const { report, vectors } = read(vault.root);
  assert.equal(report.tombstonesApplied, 0);
  assert.ok(same(vectors[0]!.vector, unitVector(100)));
});

test('a vector file missing while its .tmp twin exists is read again, then reported', (t) => {
  const vault = standardVault(t);
  renameSync(join(vault.root, `.smart-env/smart_blocks/${BGE_FP}`), join(vault.root, `.smart-env/smart_blocks/${BGE_FP}.tmp`));
  const seen: number[] = [];
  const { report } = read(vault.root, { onRecordsRead: (attempt: number) => seen.push(attempt) });
  assert.deepEqual(seen, [1, 2, 3], 'retried while the rename might complete');
  assert.equal(report.unresolvablePointers, 2, 'a leftover .tmp from a crash does not block the read forever');
});

// Checklist 25: the 2.x `multi/` layout: inline vectors, class-name keys, sha256 hashes; prefer smart_sources/.
test('legacy multi/ layout: oldest and late 2.x files, inline vectors by model name', (t) => {
  const oldText = '## Overview\nPARA is a system.\n## Projects\nShort-term efforts.\n';
  const newText = '# Late\nA late 2.x note with a block.\n';
  const vault = makeVault(t, { 'PKM/PARA Method.md': oldText, 'late.md': newText, 'gone.md': 'x' });
  const vec = (seed: number) => Array.from(unitVector(seed), (v) => Math.round(v * 1e8) / 1e8);
  const sha = '0123456789abcdef'.repeat(4);
  // Oldest: no trailing commas, sha256 hashes; two records share a line.
  const oldHash = createHash('sha256').update(oldText.trim()).digest('hex');
  vault.write(
    '.smart-env/multi/PKM_PARA_Method_md.ajson',
    [
      `"SmartSource:PKM/PARA Method.md": ${JSON.stringify({ path: 'PKM/PARA Method.md', blocks: { '##Overview': [1, 2], '##Projects': [3, 4] }, hash: oldHash, last_read_hash: oldHash, embeddings: { [BGE]: { vec: vec(1), tokens: 10 } } })}`,
      `"SmartBlock:PKM/PARA Method.md##Overview": ${JSON.stringify({ hash: sha, embeddings: { [BGE]: { vec: vec(2) } } })}, "SmartBlock:PKM/PARA Method.md##Projects": ${JSON.stringify({ hash: sha, embeddings: {} })}`,
      `"SmartBlock:PKM/PARA Method.md##Removed": ${JSON.stringify({ hash: sha, embeddings: { [BGE]: { vec: vec(3) } } })}`,
    ].join('\n'),
  );
  const blockHash = hash('# Late\nA late 2.x note with a block.');
  vault.write(
    '.smart-env/multi/late_md.ajson',
    [
      line('smart_sources:late.md', { path: 'late.md', blocks: { '#Late': [1, 2] }, last_read: { hash: hash(newText) }, embeddings: { [BGE]: { vec: vec(4), last_embed: { hash: hash(newText) } }, 'other/model': { vec: [1] } } }),
      line('smart_blocks:late.md#Late', { last_read: { hash: blockHash }, embeddings: { [BGE]: { vec: vec(5), last_embed: { hash: blockHash } } } }),
      line('smart_sources:gone.md', null),
    ].join('\n'),
  );
  vault.write('.smart-env/smart_env.json', JSON.stringify({ smart_sources: { embed_model: { model_key: BGE } } }));
  const { report, vectors } = read(vault.root);
  assert.equal(report.layout, 'legacy');
  assert.equal(report.activeModel, BGE);
  assert.equal(report.dims, 384);
  assert.deepEqual(
    vectors.map((v) => [v.path, v.key, v.fresh]),
    [
      ['PKM/PARA Method.md', '', true],
      ['PKM/PARA Method.md', '##Overview', true],
      ['late.md', '', true],
      ['late.md', '#Late', true],
    ],
    'the orphan block (not in its source map) and the block without a vector are skipped',
  );
  assert.ok(vectors.every((v) => v.vector.length === 384));

  vault.write('PKM/PARA Method.md', `${oldText}more\n`);
  assert.deepEqual(
    read(vault.root)
      .vectors.filter((v) => v.path.startsWith('PKM'))
      .map((v) => v.fresh),
    [false, false],
    'early 2.x blocks are as fresh as their note',
  );

  // Once smart_sources/ exists (after migration) it wins; multi/ stays on disk but is ignored.
  writeSmartEnv(vault, { lines: [line('smart_sources:late.md', sourceRecord('late.md', newText, { row: 0 }))], sourceRows: rows(9) });
  const migrated = read(vault.root);
  assert.equal(migrated.report.layout, 'v3');
  assert.deepEqual(
    migrated.vectors.map((v) => v.path),
    ['late.md'],
  );
});

// Checklist 26: smart_env.json may hold API keys; nothing beyond the fields read ever comes out.
test('settings secrets never reach the report, even when the file is malformed', (t) => {
  const vault = standardVault(t);
  const secret = 'sk-live-SECRET-0123456789';
  vault.write('.smart-env/smart_env.json', settings('transformers#1', { smart_sources: { embed_model: { adapter: 'openai', openai: { api_key: secret, model_key: 'text-embedding-3-small' } } }, chat: { api_key: secret } }));
  const good = read(vault.root);
  assert.equal(good.report.activeModel, BGE);
  assert.ok(!JSON.stringify(good).includes(secret));
  vault.write('.smart-env/smart_env.json', `{"api_key": "${secret}", oops`);
  const bad = read(vault.root);
  assert.ok(!JSON.stringify(bad.report).includes(secret));
  assert.match(bad.report.warnings.join('\n'), /smart_env\.json\) are not valid JSON/);
  assert.deepEqual(Object.keys(bad.report).sort(), ['activeModel', 'attempts', 'blocks', 'detected', 'dims', 'fingerprint', 'layout', 'missingOnDisk', 'modelMatches', 'sources', 'tombstonesApplied', 'unresolvablePointers', 'warnings']);
});

// Checklist 27: the log says NFC, the disk says NFD (macOS), or the reverse; output is NFC.
test('NFC and NFD spellings of a path are the same note', (t) => {
  const nfc = 'Análise de  Referência 🙂.md';
  const nfd = nfc.normalize('NFD');
  assert.notEqual(nfc, nfd);
  const vault = makeVault(t, { [nfd]: NOTE, [`Pasta é/${'b.md'}`.normalize('NFC')]: NOTE });
  writeSmartEnv(vault, {
    lines: [line(`smart_sources:${nfc}`, sourceRecord(nfc, NOTE, { row: 0 })), line(`smart_sources:${'Pasta é/b.md'.normalize('NFD')}`, sourceRecord('b', NOTE, { row: 1 }))],
    sourceRows: rows(0, 1),
  });
  const { report, vectors } = read(vault.root);
  assert.equal(report.missingOnDisk, 0);
  assert.deepEqual(
    vectors.map((v) => v.path),
    [nfc, 'Pasta é/b.md'.normalize('NFC')].sort(),
  );
  assert.ok(vectors.every((v) => v.path === v.path.normalize('NFC') && v.fresh));
});

// Checklist 28: the data folder may sit below the vault root; note paths are relative to its parent.
test('a data folder in a subfolder; one outside the vault is refused', (t) => {
  const vault = makeVault(t, { 'docs/a.md': NOTE, 'a.md': 'not this one' });
  writeSmartEnv(vault, { dataDir: 'docs/.smart-env', lines: [line('smart_sources:a.md', sourceRecord('a.md', NOTE, { row: 0 }))], sourceRows: rows(0) });
  const { report, vectors } = read(vault.root, { dataDir: 'docs/.smart-env' });
  assert.equal(report.detected, true);
  assert.deepEqual(
    vectors.map((v) => [v.path, v.fresh]),
    [['docs/a.md', true]],
  );
  assert.equal(read(vault.root).report.detected, false, 'nothing at the default location');
  assert.throws(
    () => read(vault.root, { dataDir: '../elsewhere/.smart-env' }),
    (error: unknown) => error instanceof EngramError && error.code === 'CONFIG_INVALID',
  );
});

test('hostile keys and symlinks never lead outside the vault', (t) => {
  const outside = makeVault(t, { 'secret.md': NOTE });
  const vault = makeVault(t, { 'a.md': NOTE });
  symlinkSync(join(outside.root, 'secret.md'), join(vault.root, 'link.md'));
  symlinkSync(outside.root, join(vault.root, 'linked'));
  const keys = ['../secret.md', `${outside.root}/secret.md`, 'link.md', 'linked/secret.md', 'a/../a.md'];
  const record = sourceRecord('a.md', NOTE, { row: 0 });
  (record.embedding as { default: Record<string, { file: string }> }).default[BGE_FP]!.file = '../smart_blocks/mf_ccarbz';
  writeSmartEnv(vault, { lines: [...keys.map((key) => line(`smart_sources:${key}`, sourceRecord(key, NOTE, { row: 0 }))), line('smart_sources:a.md', record)], sourceRows: rows(0), blockRows: rows(1) });
  const { report, vectors } = read(vault.root);
  assert.deepEqual(vectors, []);
  assert.equal(report.missingOnDisk, 3, 'the absolute path and both symlinks; `..` segments are dot segments, never notes');
  assert.equal(report.unresolvablePointers, 1, 'a pointer to a path, not a file name, is malformed');
});

test('a vault without Smart Connections data, and one with settings only', (t) => {
  const vault = makeVault(t, { 'a.md': NOTE });
  assert.deepEqual(read(vault.root), {
    report: {
      detected: false,
      layout: null,
      activeModel: null,
      modelMatches: false,
      fingerprint: BGE_FP,
      dims: 384,
      sources: { records: 0, withVector: 0, fresh: 0, stale: 0 },
      blocks: { withVector: 0, fresh: 0, stale: 0 },
      tombstonesApplied: 0,
      missingOnDisk: 0,
      unresolvablePointers: 0,
      attempts: 1,
      warnings: [],
    },
    vectors: [],
  });
  vault.write('.smart-env/smart_env.json', settings(null));
  const settingsOnly = read(vault.root).report;
  assert.equal(settingsOnly.detected, false);
  assert.equal(settingsOnly.activeModel, BGE);
});
