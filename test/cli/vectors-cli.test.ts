/**
 * Vectors end to end through the CLI: with a (tiny, generated) model installed, `engram index`
 * embeds the vault and `engram search` answers in hybrid mode; without one, offline, both say
 * why and search answers by keyword. The real transformers.js path runs in a worker thread.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, spawnCli } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Finance/Invoices.md': '# Invoices\nThe plumber sent an invoice for the bill; the budget is tight.\n',
  'Cooking/Sourdough.md': `# Sourdough\nFeed the starter every morning.\n## Crumb\n${'A dense loaf means the dough was under-proofed; give the starter more time. '.repeat(4)}\n`,
  'Notes/Garden.md': '# Garden\nTomatoes in the garden need water.\n',
};

test('with a model installed: index embeds notes and sections, search fuses both lanes', async (t) => {
  const vault = makeVault(t, VAULT);
  const modelDir = join(vault.home, '..', 'models');
  writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'));
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir };

  const index = await runCli(['index', '--json'], env);
  assert.equal(index.code, 0, index.stderr);
  const report = JSON.parse(index.stdout);
  assert.equal(report.vectors.embedder.available, true);
  assert.equal(report.vectors.embedded.notes, 3);
  assert.equal(report.vectors.embedded.vectors, 4, 'three notes and the one section of 200+ characters');
  assert.equal(report.vectors.embedded.remaining, 0);

  const again = JSON.parse((await runCli(['index', '--json'], env)).stdout);
  assert.equal(again.vectors.embedded.notes, 0, 'nothing to embed when nothing changed');

  const search = await runCli(['search', 'plumber invoice', '--json'], env);
  assert.equal(search.code, 0, search.stderr);
  const response = JSON.parse(search.stdout);
  assert.equal(response.mode, 'hybrid');
  assert.match(response.mode_reason, /fused by reciprocal rank/);
  const top = response.results[0];
  assert.equal(top.path, 'Finance/Invoices.md');
  assert.equal(top.lanes.keyword.rank, 1);
  assert.equal(top.lanes.semantic.source, 'local');
  assert.ok(
    response.results.every((hit: { lanes: object }) => 'semantic' in hit.lanes),
    'every note has a vector',
  );

  const semantic = await runCli(['search', 'plumber invoice', '--mode', 'semantic', '--json'], env);
  assert.equal(JSON.parse(semantic.stdout).mode, 'semantic');

  // An edited note leaves the backlog stale and comes back fresh on the next run.
  vault.write('Notes/Garden.md', '# Garden\nNow about invoices too.\n');
  const edited = JSON.parse((await runCli(['index', '--json'], env)).stdout);
  assert.equal(edited.vectors.embedded.notes, 1);
});

test('offline without a model: index says why, search answers by keyword and says why (real process)', (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: join(vault.home, '..', 'no-models'), ENGRAM_OFFLINE: '1' };
  const index = spawnCli(['index'], env);
  assert.equal(index.code, 0, index.stderr);
  assert.match(index.stdout, /not embedding locally — model TaylorAI\/bge-micro-v2 is not in .* and downloads are off \(ENGRAM_OFFLINE=1\)/);
  const search = spawnCli(['search', 'plumber', '--json'], env);
  assert.equal(search.code, 0, search.stderr);
  const response = JSON.parse(search.stdout);
  assert.equal(response.mode, 'keyword');
  assert.match(response.mode_reason, /^keyword only: no note has a TaylorAI\/bge-micro-v2 vector yet/);
  assert.equal(response.results[0].path, 'Finance/Invoices.md');
  assert.equal(search.stdout.trim().startsWith('{'), true, 'nothing but the JSON document on stdout');
});
