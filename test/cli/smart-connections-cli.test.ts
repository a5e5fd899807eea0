/**
 * A vault with Smart Connections data whose vectors were made by the same (tiny, generated)
 * model: index reuses them instead of embedding, search reports them as the vector source,
 * related finds neighbours, and verify sees the two spaces agree — and disagree when they do not.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEmbedder, sourceEmbedInput } from '../../src/embed/index.js';
import { VaultEngine } from '../../src/mcp/index.js';
import { openVaultSession } from '../../src/session/index.js';
import { runCli } from '../helpers/cli.js';
import { connectClient } from '../helpers/mcp.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { makeVault } from '../helpers/vault.js';
import { line, sourceRecord, unitVector, writeSmartEnv } from '../smart-env/fixture.js';

const NOTES: Record<string, string> = {
  'Invoices.md': '# Invoices\nThe plumber sent an invoice; the bill is due.\n',
  'Budget.md': '# Budget\nThe budget covers the plumber bill and the invoice.\n',
  'Garden.md': '# Garden\nTomatoes and basil in the garden.\n',
};

/** related_notes by vectors through the real MCP client, over the vault's own state. */
async function relatedOverMcp(t: Parameters<typeof makeVault>[0], env: Record<string, string>, path: string): Promise<string[]> {
  const session = openVaultSession({ vault: env.ENGRAM_VAULT!, home: env.ENGRAM_HOME!, exclude: [], model: 'TaylorAI/bge-micro-v2', agentRoot: 'Claude' });
  const engine = new VaultEngine({
    vault: session.vault,
    stateDir: session.stateDir,
    db: session.db,
    session,
    settings: { model: 'TaylorAI/bge-micro-v2', modelDir: env.ENGRAM_MODEL_DIR!, offline: true, exclude: [] },
    log: { err: () => {} },
    indexCommand: null,
    watch: false,
  });
  const { call } = await connectClient(t, engine, () => session.close());
  const result = await call('related_notes', { path, by: 'vectors' });
  return (result.structuredContent!.related as { path: string }[]).map((note) => note.path);
}

async function setup(t: Parameters<typeof makeVault>[0], agree: boolean) {
  const vault = makeVault(t, NOTES);
  const modelDir = join(vault.home, '..', 'models');
  writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'));
  const paths = Object.keys(NOTES);
  let rows: Float32Array[];
  if (agree) {
    const opened = await openEmbedder({ model: 'TaylorAI/bge-micro-v2', modelDir, allowDownload: false, onLog: () => {} });
    assert.ok(opened.ok);
    rows = await opened.embedder.embed(paths.map((path) => sourceEmbedInput(path, NOTES[path]!)));
    await opened.embedder.close();
  } else {
    rows = paths.map((_, i) => unitVector(100 + i));
  }
  writeSmartEnv(vault, { lines: paths.map((path, i) => line(`smart_sources:${path}`, sourceRecord(path, NOTES[path]!, { row: i }))), sourceRows: rows });
  return { vault, env: { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir } };
}

test('Smart Connections vectors are reused, reported, and agree with the local model', async (t) => {
  const { env } = await setup(t, true);
  const index = JSON.parse((await runCli(['index', '--json'], env)).stdout);
  assert.equal(index.vectors.smart_connections_imported, 3);
  assert.equal(index.vectors.embedded.vectors, 0, 'nothing left for the local embedder');

  const status = JSON.parse((await runCli(['status', '--json'], env)).stdout);
  assert.deepEqual(status.vectors.smart_connections.sources, { records: 3, with_vector: 3, fresh: 3, stale: 0 });
  assert.equal(status.vectors.smart_connections.model_matches, true);
  assert.deepEqual(status.vectors.coverage, { notes_with_vector: 3, notes_keyword_only: 0 });
  assert.deepEqual(status.vectors.local, { notes: 0, blocks: 0 });

  const search = JSON.parse((await runCli(['search', 'plumber invoice', '--json'], env)).stdout);
  assert.equal(search.mode, 'hybrid');
  assert.equal(search.results[0].lanes.semantic.source, 'smart-connections');

  const related = await runCli(['related', 'Invoices.md', '--by', 'vectors', '--json'], env);
  assert.equal(related.code, 0, related.stderr);
  const neighbours = JSON.parse(related.stdout).results.map((hit: { path: string }) => hit.path);
  assert.deepEqual([...neighbours].sort(), ['Budget.md', 'Garden.md'], 'every other note, never itself');
  assert.deepEqual(await relatedOverMcp(t, env, 'Invoices.md'), neighbours, 'related_notes by vectors over MCP ranks as engram related');

  const verify = await runCli(['verify', '--json'], env);
  assert.equal(verify.code, 0, verify.stderr);
  const result = JSON.parse(verify.stdout);
  assert.equal(result.sampled, 3);
  assert.ok(result.median > 0.999, `median ${result.median}`);
});

test('verify exits 1 when the spaces disagree; related and verify refuse clearly', async (t) => {
  const { env } = await setup(t, false);
  await runCli(['index'], env);
  const verify = await runCli(['verify'], env);
  assert.equal(verify.code, 1);
  assert.match(verify.stdout, /the vector spaces DISAGREE \(median below 0\.95\)/);
  const missing = await runCli(['related', 'Nope.md'], env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no indexed note at "Nope\.md"/);
  const bare = makeVault(t, { 'a.md': 'a' });
  const noSmart = await runCli(['verify'], { ...env, ENGRAM_VAULT: bare.root, ENGRAM_HOME: bare.home });
  assert.equal(noSmart.code, 1);
  assert.match(noSmart.stderr, /no Smart Connections data/);
});
