/**
 * The real pipeline (transformers.js + onnxruntime in a worker thread) on a tiny generated
 * BERT-shaped model: loading offline, dims, normalization, determinism, batching, long inputs,
 * stdout silence, and what happens when the model is absent or broken.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { EMBEDDER_DEFAULTS, locateModel, openEmbedder, trimToTokenBudget, type Embedder } from '../../src/embed/index.js';
import { embedTexts, loadExtractor, tokenCounter } from '../../src/embed/inference.js';
import { REPO } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

const base = mkdtempSync(join(tmpdir(), 'engram-embed-'));
const modelDir = join(base, 'models');
const tiny = writeTinyModel(join(modelDir, 'test', 'tiny-bert'));
let embedder: Embedder;
const logs: string[] = [];

before(async () => {
  // Hub-style id under modelDir, batches of 4 so a 10-text call spans three padded batches.
  const opened = await openEmbedder({ model: 'test/tiny-bert', modelDir, allowDownload: false, batchSize: 4, onLog: (line) => logs.push(line) });
  assert.ok(opened.ok, opened.ok ? '' : opened.reason);
  embedder = opened.embedder;
});

after(async () => {
  await embedder?.close();
  rmSync(base, { recursive: true, force: true });
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((max, x, i) => Math.max(max, Math.abs(x - b[i]!)), 0);

const TEXTS = [
  'the cat sat on the mat',
  'a cat sat on a mat',
  'quantum physics of black holes',
  'Projects > Atlas > Plan:\n# Plan\nShip the search index by Friday.',
  'x',
  '',
  'Café déjà vu — naïve résumé',
  'graph vault link tag project meeting daily todo task search query index embedding vector model',
  '日本語のテキスト',
  'the plumber sent a bill for 240 euros',
];

test("vectors: the model's dims, one per text, unit length, finite", async () => {
  assert.equal(embedder.model, 'test/tiny-bert');
  assert.equal(embedder.dims, 384);
  const vectors = await embedder.embed(TEXTS);
  assert.equal(vectors.length, TEXTS.length);
  for (const vector of vectors) {
    assert.ok(vector instanceof Float32Array);
    assert.equal(vector.length, 384);
    assert.ok(vector.every(Number.isFinite));
    assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-4);
    assert.equal(vector.byteOffset, 0, 'each vector owns its buffer');
    assert.equal(vector.buffer.byteLength, 384 * 4);
  }
  assert.deepEqual(await embedder.embed([]), []);
});

test('vectors: deterministic, distinct per text, closer when texts share words', async () => {
  const first = await embedder.embed(TEXTS);
  const again = await embedder.embed(TEXTS);
  first.forEach((vector, i) => assert.deepEqual(vector, again[i]));
  const [cat, cat2, physics] = first as [Float32Array, Float32Array, Float32Array];
  assert.ok(maxDiff(cat, cat2) > 1e-3, 'different texts, different vectors');
  assert.ok(dot(cat, cat2) > dot(cat, physics) + 0.1, `cat~cat ${dot(cat, cat2)} vs cat~physics ${dot(cat, physics)}`);
  const [query] = await embedder.embed(['unpaid plumber bill']);
  const ranked = TEXTS.map((text, i) => ({ text, score: dot(query!, first[i]!) })).sort((a, b) => b.score - a.score);
  assert.equal(ranked[0]!.text, 'the plumber sent a bill for 240 euros');
});

test('batching: a 10-text call (three padded batches) equals ten single calls', async () => {
  const batched = await embedder.embed(TEXTS);
  for (let i = 0; i < TEXTS.length; i++) {
    const [single] = await embedder.embed([TEXTS[i]!]);
    assert.ok(maxDiff(batched[i]!, single!) < 1e-6, `text ${i}`);
  }
});

test('concurrent callers take turns and each gets its own vectors in order', async () => {
  const backlog = Array.from({ length: 40 }, (_, i) => `note ${i} about the graph index`);
  const [expectedBacklog, expectedQuery] = [await embedder.embed(backlog), await embedder.embed(['cat'])];
  const order: string[] = [];
  const backlogDone = embedder.embed(backlog).then((v) => {
    order.push('backlog');
    return v;
  });
  const queryDone = embedder.embed(['cat']).then((v) => {
    order.push('query');
    return v;
  });
  const [gotBacklog, gotQuery] = await Promise.all([backlogDone, queryDone]);
  assert.deepEqual(order, ['query', 'backlog'], 'the query did not wait for the 10-batch backlog');
  gotBacklog.forEach((vector, i) => assert.ok(maxDiff(vector, expectedBacklog[i]!) < 1e-6));
  assert.ok(maxDiff(gotQuery[0]!, expectedQuery[0]!) < 1e-6);
});

test('a text far over 512 tokens is trimmed as the plugin does, then embedded without error', async (t) => {
  // In-process, to count with the real tokenizer; the tokenizer's model_max_length is bge-micro's 1e30.
  const extractor = await loadExtractor({ model: tiny, modelDir, allowDownload: false, dtype: 'fp32', verbose: false });
  t.after(() => extractor.dispose());
  assert.equal(extractor.tokenizer.model_max_length, 1e30, 'the trap: the tokenizer alone would not truncate');
  const count = tokenCounter(extractor);
  const long = Array.from({ length: 1500 }, (_, i) => ['graph', 'vault', 'note', 'search'][i % 4]).join(' ');
  assert.ok(count(long) > 1500);
  const trimmed = trimToTokenBudget(long, count, 512);
  assert.ok(count(trimmed) <= 512 && count(trimmed) > 400, `${count(trimmed)} tokens after trimming`);

  const direct = await embedTexts(extractor, [long], 512);
  assert.equal(direct.dims, 384);
  const [viaWorker, ofTrimmed] = await embedder.embed([long, trimmed]);
  assert.ok(maxDiff(viaWorker!, ofTrimmed!) < 1e-6, 'the long text embeds as its trimmed prefix');
  assert.ok(maxDiff(viaWorker!, direct.data) < 1e-6, 'worker and in-process agree');
});

test('maxTokens bounds the input: a smaller window embeds only the start of a text', async (t) => {
  const opened = await openEmbedder({ model: tiny, modelDir, allowDownload: false, maxTokens: 8, onLog: () => {} });
  assert.ok(opened.ok, opened.ok ? '' : opened.reason);
  t.after(() => opened.embedder.close());
  // 58 chars, 15 tokens > 8: cut to floor(58 · 8/15 · 0.9) = 27 chars, back to the last space: 6 words + [CLS] [SEP].
  const [whole, start, fits] = await opened.embedder.embed(['cat sat on the mat and then quantum physics of black holes', 'cat sat on the mat and', 'cat sat on the mat']);
  assert.ok(maxDiff(whole!, start!) < 1e-6, 'embedded as "cat sat on the mat and"');
  assert.ok(maxDiff(whole!, fits!) > 1e-3);
});

test('the worker is quiet: nothing from a verbose load reaches stdout; the log hook gets it', () => {
  const script = `
    const { openEmbedder } = await import(${JSON.stringify(new URL('../../src/embed/index.ts', import.meta.url).href)});
    const opened = await openEmbedder({ model: ${JSON.stringify(tiny)}, modelDir: ${JSON.stringify(modelDir)}, allowDownload: false, verbose: true });
    if (!opened.ok) { process.stderr.write('FAILED ' + opened.reason); process.exit(3); }
    const vectors = await opened.embedder.embed(['hello world', 'graph '.repeat(2000)]);
    process.stderr.write('EMBEDDED ' + vectors.length + '\\n');
    await opened.embedder.close();
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.status, 0, `exit ${child.status} ${child.signal ?? ''}: ${child.stderr}`);
  assert.equal(child.stdout, '', 'stdout is the MCP channel and stays empty');
  assert.match(child.stderr, /engram embed: loaded .*tiny-bert \(fp32, 384 dims\)/, "the worker's console.info went to the hook (default: stderr)");
  assert.match(child.stderr, /EMBEDDED 2/);
  // Exit 0 also means the child ended on its own after close(): a live worker would have kept it
  // running until the timeout killed it.
});

test('close() while the model runs a batch lets it finish: the process never aborts', () => {
  // Ended mid-batch, the worker's native code threw into a torn-down thread and aborted the
  // process ("terminate called after throwing an instance of 'Napi::Error'") — every run of
  // this loop did, before close() waited for the batch in flight.
  const script = `
    const { openEmbedder } = await import(${JSON.stringify(new URL('../../src/embed/index.ts', import.meta.url).href)});
    for (let i = 0; i < 15; i++) {
      const opened = await openEmbedder({ model: ${JSON.stringify(tiny)}, modelDir: ${JSON.stringify(modelDir)}, allowDownload: false, onLog: () => {} });
      if (!opened.ok) { process.stderr.write('FAILED ' + opened.reason); process.exit(3); }
      const pending = opened.embedder.embed(Array.from({ length: 400 }, (_, j) => ('text ' + j + ' ').repeat(50))).catch(() => 'rejected');
      await new Promise((resolve) => setTimeout(resolve, 5 + i * 3));
      await opened.embedder.close();
      if ((await pending) !== 'rejected') process.exit(4);
    }
    process.stderr.write('CLOSED 15\\n');
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
  assert.equal(child.status, 0, `exit ${child.status} ${child.signal ?? ''}: ${child.stderr}`);
  assert.match(child.stderr, /CLOSED 15/);
  assert.doesNotMatch(child.stderr, /terminate called/);
});

test('absent model with downloads off: { ok: false } with a plain reason, no throw, no worker', async () => {
  const empty = join(base, 'empty-models');
  const opened = await openEmbedder({ model: EMBEDDER_DEFAULTS.model, modelDir: empty, allowDownload: false });
  assert.equal(opened.ok, false);
  assert.equal(!opened.ok && opened.reason, `model TaylorAI/bge-micro-v2 is not in ${empty} and downloads are off`);

  const partial = join(base, 'partial', 'org', 'model');
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'config.json'), '{}');
  const half = await openEmbedder({ model: 'org/model', modelDir: join(base, 'partial'), allowDownload: false });
  assert.match(!half.ok ? half.reason : '', /^model org\/model is not in .*partial \(missing tokenizer\.json, tokenizer_config\.json, onnx\/model_quantized\.onnx\) and downloads are off$/);

  const folder = await openEmbedder({ model: join(base, 'nowhere'), modelDir: empty, allowDownload: true });
  assert.match(!folder.ok ? folder.reason : '', /is not in the folder .*nowhere and a model given as a folder is never downloaded/);
});

test("a broken model file: { ok: false } with the loader's own words", async () => {
  const broken = writeTinyModel(join(base, 'broken', 'org', 'model'));
  writeFileSync(join(broken, 'onnx', 'model.onnx'), 'not a protobuf');
  const opened = await openEmbedder({ model: 'org/model', modelDir: join(base, 'broken'), allowDownload: false, onLog: () => {} });
  assert.equal(opened.ok, false);
  assert.match(!opened.ok ? opened.reason : '', /^model org\/model could not be loaded from .*broken\/org\/model: .*Protobuf parsing failed/);
});

test('close(): pending and later calls reject, a second close is harmless', async () => {
  const opened = await openEmbedder({ model: tiny, modelDir, allowDownload: false, onLog: () => {} });
  assert.ok(opened.ok);
  const { embedder: closing } = opened;
  const pending = assert.rejects(closing.embed(Array.from({ length: 200 }, (_, i) => `text ${i}`)), /cannot embed: the embedder is closed/);
  await closing.close();
  await pending;
  await assert.rejects(closing.embed(['late']), /cannot embed: the embedder is closed/);
  await closing.close();
});

test('dtype auto: quantized weights when present (what the plugin runs), else fp32', () => {
  const plain = locateModel('test/tiny-bert', modelDir, 'auto', { allowDownload: false });
  assert.deepEqual(plain, { ok: true, folder: tiny, dtype: 'fp32', local: true });
  const quantized = writeTinyModel(join(base, 'q', 'org', 'q8'), { quantizedCopy: true, dims: 32 });
  assert.deepEqual(locateModel('org/q8', join(base, 'q'), 'auto', { allowDownload: false }), { ok: true, folder: quantized, dtype: 'q8', local: true });
  assert.deepEqual(locateModel('org/absent', join(base, 'q'), 'auto', { allowDownload: true }), { ok: true, folder: join(base, 'q', 'org', 'absent'), dtype: 'q8', local: false });
  assert.equal(locateModel('test/tiny-bert', modelDir, 'q8', { allowDownload: false }).ok, false);
});

test('the tiny model helper is deterministic and honours its options', async (t) => {
  const a = writeTinyModel(join(base, 'det-a'), { dims: 16, seed: 7, words: ['zyzzyva'] });
  const b = writeTinyModel(join(base, 'det-b'), { dims: 16, seed: 7, words: ['zyzzyva'] });
  for (const file of ['onnx/model.onnx', 'tokenizer.json', 'config.json']) assert.ok(readFileSync(join(a, file)).equals(readFileSync(join(b, file))), file);
  const extractor = await loadExtractor({ model: a, modelDir, allowDownload: false, dtype: 'fp32', verbose: false });
  t.after(() => extractor.dispose());
  assert.equal(extractor.tokenizer.encode('zyzzyva').length, 3, 'an extra word is one token, between [CLS] and [SEP]');
  const { dims } = await embedTexts(extractor, ['zyzzyva'], 512);
  assert.equal(dims, 16);
});
