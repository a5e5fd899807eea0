/**
 * Honest state when the model cannot be had: after a download fails (a local HTTP "hub" that
 * answers 404, never the network), status, search and the sweep's health say the embedder is
 * unavailable, why, and the command that fixes it; later runs do not try (and wait) again until
 * the back-off passes or `engram model pull` / `install` succeeds. A model whose files fail to
 * load is remembered the same way until its files change.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Finance/Invoices.md': '# Invoices\nThe plumber sent an invoice for the bill.\n',
  'Notes/Garden.md': '# Garden\nTomatoes in the garden need water.\n',
};

const REMEDY = /run `engram model pull`, or `engram model install PATH`/;

/** A hub with nothing on it: every request is a 404, counted. */
async function emptyHub(t: TestContext): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count++;
    response.writeHead(404).end('Entry not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

test('a failed download is remembered: status, search and health say unavailable with the remedy; no run retries it', async (t) => {
  const vault = makeVault(t, VAULT);
  const hub = await emptyHub(t);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: join(vault.home, '..', 'models'), ENGRAM_OFFLINE: '0', HF_ENDPOINT: hub.url, ENGRAM_EXTRACTOR: 'none' };

  const index = await runCli(['index', '--json'], env);
  assert.equal(index.code, 0, index.stderr);
  const embedder = JSON.parse(index.stdout).vectors.embedder;
  assert.equal(embedder.available, false);
  assert.match(embedder.reason, /could not be downloaded/);
  assert.match(embedder.reason, REMEDY);
  const tried = hub.requests();
  assert.ok(tried > 0, 'the first run tried the download');

  const status = JSON.parse((await runCli(['status', '--json'], env)).stdout);
  assert.equal(status.vectors.query_embedder.available, false);
  assert.match(status.vectors.query_embedder.reason, /^model TaylorAI\/bge-micro-v2 could not be downloaded at \S+ \(.*\); not retried before \S+; run `engram model pull`/);
  assert.ok(!status.warnings.some((warning: string) => /run `engram index`/.test(warning)), `no remedy loops back to engram index: ${status.warnings.join(' | ')}`);
  assert.match((await runCli(['status'], env)).stdout, /query embedder unavailable: model TaylorAI\/bge-micro-v2 could not be downloaded/);

  assert.equal((await runCli(['index'], env)).code, 0);
  const search = await runCli(['search', 'plumber', '--json'], env);
  assert.equal(search.code, 0, search.stderr);
  assert.match(JSON.parse(search.stdout).mode_reason, /^keyword only: no note has a TaylorAI\/bge-micro-v2 vector yet; `engram index` embeds the vault once the model is installed \(.*`engram model pull` or `engram model install PATH`/);
  const sweep = await runCli(['librarian', '--json', '--phases', 'index,embed,health'], env);
  assert.equal(sweep.code, 0, sweep.stderr);
  const health = JSON.parse(sweep.stdout).health as { name: string; ok: boolean; count: number; examples: string[] }[];
  const check = (name: string) => health.find((entry) => entry.name === name)!;
  assert.deepEqual([check('embedder').ok, check('embedder').count], [false, 1]);
  assert.match(check('embedder').examples[0]!, REMEDY);
  assert.deepEqual([check('notes without vectors').ok, check('notes without vectors').count], [false, 2], 'a problem while nothing can embed');
  assert.equal(hub.requests(), tried, 'index, search and the sweep did not try the download again');

  // `engram model pull` is the explicit retry; it fails the same way and says so.
  const pull = await runCli(['model', 'pull'], env);
  assert.equal(pull.code, 1);
  assert.match(pull.stderr, /downloading config\.json from .* failed: HTTP 404/);
  assert.ok(hub.requests() > tried);
});

test('a model that fails to load is remembered until its files change, then tried again', async (t) => {
  const vault = makeVault(t, VAULT);
  const modelDir = join(vault.home, '..', 'models');
  const folder = writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'));
  writeFileSync(join(folder, 'onnx', 'model.onnx'), 'not a protobuf');
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir, ENGRAM_EXTRACTOR: 'none' };

  const before = JSON.parse((await runCli(['status', '--json'], env)).stdout);
  assert.equal(before.vectors.query_embedder.available, true, 'not known to be broken before a load was tried');
  const index = JSON.parse((await runCli(['index', '--json'], env)).stdout);
  assert.match(index.vectors.embedder.reason, /could not be loaded .*Protobuf parsing failed.*; run `engram model pull`/);
  const after = JSON.parse((await runCli(['status', '--json'], env)).stdout);
  assert.equal(after.vectors.query_embedder.available, false);
  assert.match(after.vectors.query_embedder.reason, /in .*bge-micro-v2 failed to load \(.*Protobuf parsing failed.*\); run `engram model pull`/);

  writeTinyModel(folder);
  const fixed = JSON.parse((await runCli(['index', '--json'], env)).stdout);
  assert.equal(fixed.vectors.embedder.available, true, 'new files are tried');
  assert.equal(JSON.parse((await runCli(['status', '--json'], env)).stdout).vectors.query_embedder.available, true);
});
