/**
 * The sweep's map phase: the first sweep draws the map, a sweep with nothing new skips it (and
 * says why), enough new notes redraw it — and a canvas the human edited is kept there too.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { LIBRARIAN_VAULT } from '../helpers/librarian.js';
import { makeVault } from '../helpers/vault.js';

interface Phase {
  name: string;
  status: string;
  summary: string;
}

test('the sweep draws the map first, skips it while little changed, and redraws it beside a canvas the human edited', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'none' };
  const sweep = async (): Promise<Phase> => {
    const run = await runCli(['librarian', '--phases', 'index,map,report', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { phases: Phase[] }).phases.find((phase) => phase.name === 'map')!;
  };
  const first = await sweep();
  assert.equal(first.status, 'ok', first.summary);
  const canvas = join(vault.root, 'Claude/Maps/Vault map.canvas');
  assert.ok(existsSync(canvas));
  assert.match(readFileSync(join(vault.root, 'Claude/Librarian.md'), 'utf8'), /\*\*map\*\*: \d+ notes mapped \(full\) into Claude\/Maps\/Vault map\.canvas/);

  const quiet = await sweep();
  assert.equal(quiet.status, 'skipped');
  assert.match(quiet.summary, /notes changed since the last map; the sweep redraws it from 20/);

  const edited = readFileSync(canvas, 'utf8').replace('"nodes":[', '"nodes":[\n\t\t{"id":"mine","type":"text","text":"my note","x":0,"y":0,"width":100,"height":50},');
  writeFileSync(canvas, edited);
  for (let i = 0; i < 25; i++) vault.write(`Garden/Plant ${i}.md`, `# Plant ${i}\nWater the garden [[Roses]].\n`);
  const redrawn = await sweep();
  assert.equal(redrawn.status, 'ok', redrawn.summary);
  assert.match(redrawn.summary, /Claude\/Maps\/Vault map\.canvas was edited by hand: the new map is Claude\/Maps\/Vault map \(new\)\.canvas/);
  assert.equal(readFileSync(canvas, 'utf8'), edited);
  assert.match(readFileSync(join(vault.root, 'Claude/Maps/Vault map (new).canvas'), 'utf8'), /Garden\/Plant 24\.md/);
});
