/**
 * `engram map` end to end on real vaults: the sample vault's canvas validates against JSON Canvas
 * and names only real notes; the entity canvas once a graph exists; a canvas the human edited is
 * kept and the new map written beside it; an added note is placed into the cached layout; vectors
 * lay the map out, the same with the same seed; empty and one-note vaults; undo of the run.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { openStateDb, stateDirFor, vectorToBlob } from '../../src/index/index.js';
import { validateCanvas, type Canvas } from '../../src/map/index.js';
import { REPO, runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const VAULT_MAP = 'Claude/Maps/Vault map.canvas';
const ENTITY_MAP = 'Claude/Maps/Entity graph.canvas';

interface MapJson {
  notes: number;
  drawn: number;
  source: string;
  mode: string;
  placed: number;
  runId: string;
  vaultMap: { path: string; outcome: string; keptEdited?: string };
  entityGraph: { path: string } | null;
  notices: string[];
}

async function map(env: Record<string, string>, ...args: string[]): Promise<MapJson> {
  const result = await runCli(['map', '--json', ...args], env);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as MapJson;
}

function readCanvas(root: string, path: string): Canvas {
  const canvas = JSON.parse(readFileSync(join(root, path), 'utf8')) as Canvas;
  assert.deepEqual(validateCanvas(canvas), [], `${path} is a valid JSON Canvas`);
  return canvas;
}

function sampleVault(t: TestContext): { root: string; env: Record<string, string> } {
  const base = mkdtempSync(join(tmpdir(), 'engram-map-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'vault');
  cpSync(join(REPO, 'evals/vault'), root, { recursive: true });
  return { root, env: { ENGRAM_HOME: join(base, 'home'), ENGRAM_VAULT: root, ENGRAM_EXTRACTOR: 'structural' } };
}

test('engram map on the sample vault: a valid canvas of real notes, then the entity graph, kept edits and an incremental run', async (t) => {
  const { root, env } = sampleVault(t);
  const first = await map(env);
  assert.equal(first.source, 'signals', 'the sample vault has no vectors');
  assert.equal(first.mode, 'full');
  assert.equal(first.entityGraph, null);
  assert.match(first.notices.join('\n'), /no knowledge graph yet.*engram graph index/);
  const canvas = readCanvas(root, VAULT_MAP);
  const files = canvas.nodes.flatMap((node) => (node.type === 'file' ? [node.file] : []));
  assert.equal(files.length, first.notes);
  assert.ok(files.length > 100);
  for (const file of files) assert.ok(file.endsWith('.md') && existsSync(join(root, file)), `${file} is a real note`);
  assert.ok(canvas.nodes.some((node) => node.type === 'group'));
  assert.ok(canvas.edges.length > 0);

  assert.equal((await runCli(['graph', 'index'], env)).code, 0);
  const withGraph = await map(env);
  assert.equal(withGraph.entityGraph?.path, ENTITY_MAP);
  const entities = readCanvas(root, ENTITY_MAP);
  assert.ok(entities.nodes.filter((node) => node.type !== 'group').length > 5);
  for (const node of entities.nodes) if (node.type === 'file') assert.ok(existsSync(join(root, node.file)), `${node.file} is a real entity note`);

  // The human moves a card: that canvas is theirs now.
  const edited = readFileSync(join(root, VAULT_MAP), 'utf8').replace(/"x":(-?\d+)/, '"x":123456');
  writeFileSync(join(root, VAULT_MAP), edited);
  writeFileSync(join(root, 'Projects/Brand new note.md'), '# Brand new note\nAbout [[Zettelkasten]].\n');
  const beside = await map(env);
  assert.equal(beside.vaultMap.path, 'Claude/Maps/Vault map (new).canvas');
  assert.equal(beside.vaultMap.keptEdited, VAULT_MAP);
  assert.equal(readFileSync(join(root, VAULT_MAP), 'utf8'), edited, 'the edited canvas is untouched');
  assert.equal(beside.mode, 'incremental');
  assert.equal(beside.placed, 1);
  const besideCanvas = readCanvas(root, beside.vaultMap.path);
  assert.ok(besideCanvas.nodes.some((node) => node.type === 'file' && node.file === 'Projects/Brand new note.md'));
  const text = await runCli(['map'], env);
  assert.match(text.stdout, /Vault map\.canvas was edited by hand and is kept as it is; the new map is beside it/);
  assert.match(text.stdout, /unchanged: Claude\/Maps\/Vault map \(new\)\.canvas/, 'Engram’s own canvas beside it is reused, not a third');
});

test('vectors lay the map out; the same seed gives the same canvas; --full lays out again; undo restores the canvas', async (t) => {
  const notes = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${['Alpha', 'Beta', 'Gamma', 'Delta'][i % 4]}/Note ${i}.md`, `# Note ${i}\nText ${i}.\n`]));
  const canvases: string[] = [];
  for (const round of [0, 1]) {
    const vault = makeVault(t, notes);
    const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
    assert.equal((await runCli(['index', '--no-embed'], env)).code, 0);
    const { db } = openStateDb(stateDirFor(vault.home, vault.root));
    const rows = db.prepare('SELECT id, path, hash FROM notes').all() as { id: number; path: string; hash: string }[];
    const insert = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, '', 'TaylorAI/bge-micro-v2', 'local', ?, ?)");
    for (const row of rows) {
      const cluster = Number(/Note (\d+)/.exec(row.path)![1]) % 4;
      const vector = Float32Array.from({ length: 8 }, (_, d) => (d === cluster ? 1 : 0.05 * ((row.id * (d + 1)) % 7)));
      const norm = Math.hypot(...vector);
      insert.run(row.id, row.hash, vectorToBlob(vector.map((value) => value / norm)));
    }
    db.close();
    const result = await map(env, '--seed', '11');
    assert.equal(result.source, 'vectors');
    assert.equal(result.drawn, 40);
    canvases.push(readFileSync(join(vault.root, VAULT_MAP), 'utf8'));
    readCanvas(vault.root, VAULT_MAP);
    if (round === 1) {
      assert.equal((await map(env, '--seed', '11')).mode, 'cached');
      assert.equal((await map(env, '--seed', '11', '--full')).mode, 'full');
      const other = await map(env, '--seed', '12');
      assert.equal(other.mode, 'full', 'another seed is another layout');
      assert.equal(other.vaultMap.outcome, 'written');
      assert.notEqual(readFileSync(join(vault.root, VAULT_MAP), 'utf8'), canvases[1]);
      const undo = await runCli(['undo', other.runId], env);
      assert.equal(undo.code, 0, undo.stderr);
      assert.equal(readFileSync(join(vault.root, VAULT_MAP), 'utf8'), canvases[1], 'undoing the run restores the canvas it replaced');
      const after = await map(env, '--seed', '12');
      assert.equal(after.vaultMap.path, VAULT_MAP, 'a canvas an undo restored is still Engram’s: replaced, not written beside');
      assert.equal(after.vaultMap.keptEdited, undefined);
    }
  }
  assert.equal(canvases[0], canvases[1], 'two fresh states, one seed: the same map');
});

test('an empty vault and a one-note vault get a valid map, and a bad seed is a usage error', async (t) => {
  const empty = makeVault(t, {});
  const emptyEnv = { ENGRAM_HOME: empty.home, ENGRAM_VAULT: empty.root };
  const none = await map(emptyEnv);
  assert.equal(none.notes, 0);
  assert.match(none.notices.join(), /no indexed notes yet/);
  assert.deepEqual(readCanvas(empty.root, VAULT_MAP).nodes, []);
  const one = makeVault(t, { 'Only.md': '# Only\nAlone.\n' });
  const oneEnv = { ENGRAM_HOME: one.home, ENGRAM_VAULT: one.root };
  assert.equal((await map(oneEnv)).notes, 1);
  const canvas = readCanvas(one.root, VAULT_MAP);
  assert.deepEqual(
    canvas.nodes.filter((node) => node.type === 'file').map((node) => node.type === 'file' && node.file),
    ['Only.md'],
  );
  const bad = await runCli(['map', '--seed', 'soon'], oneEnv);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--seed must be a whole number/);
});
