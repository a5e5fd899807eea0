/**
 * related_notes over MCP by every signal: shared entities (graph), vectors (as `engram
 * related`), or both fused; a folder filter; each result names the signals that found it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStateDb } from '../../src/index/index.js';
import { connectFixture } from '../helpers/mcp.js';

function unit(...components: number[]): Float32Array {
  const norm = Math.hypot(...components);
  return Float32Array.from(components, (c) => c / norm);
}

const FILES = {
  'Cooking/Bread.md': '# Bread\nSourdough needs a lively starter.\n',
  'Cooking/Pizza.md': '# Pizza\nA long cold proof for the dough.\n',
  'Travel/Naples.md': '# Naples\nWhere pizza was born.\n',
  'Work/Atlas.md': '# Atlas\nThe search migration.\n',
};

/** Vectors by hand: Pizza is closest to Bread, then Naples, Atlas far away. */
const VECTORS: Record<string, Float32Array> = {
  'Cooking/Bread.md': unit(1, 0, 0),
  'Cooking/Pizza.md': unit(1, 0.2, 0),
  'Travel/Naples.md': unit(1, 0.6, 0),
  'Work/Atlas.md': unit(0, 0, 1),
};

async function fixture(t: Parameters<typeof connectFixture>[0]) {
  return connectFixture(t, FILES, {
    beforeStart: (vault) => {
      const { db } = openStateDb(vault.home);
      const insert = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, '', 'TaylorAI/bge-micro-v2', 'local', ?, ?)");
      for (const [path, vector] of Object.entries(VECTORS)) {
        const note = db.prepare('SELECT id, hash FROM notes WHERE path = ?').get(path) as { id: number; hash: string };
        insert.run(note.id, note.hash, Buffer.from(vector.buffer));
      }
      db.close();
    },
  });
}

type Related = { path: string; signals: string[]; chains: string[]; score: number };

test('related_notes by vectors: nearest notes by meaning, as engram related ranks them, with a folder filter', async (t) => {
  const { call, engine } = await fixture(t);
  const result = await call('related_notes', { path: 'Cooking/Bread.md', by: 'vectors' });
  assert.equal(result.isError, undefined, result.content[0]?.text);
  const related = result.structuredContent!.related as Related[];
  assert.deepEqual(
    related.map((note) => note.path),
    ['Cooking/Pizza.md', 'Travel/Naples.md', 'Work/Atlas.md'],
  );
  assert.ok(related.every((note) => note.signals.join() === 'vectors'));
  // The same ranking as the CLI's `engram related` (VaultSearch.related).
  assert.deepEqual(
    related.map((note) => note.path),
    engine
      .search()
      .related('Cooking/Bread.md', 10)!
      .map((hit) => hit.path),
  );
  const inTravel = (await call('related_notes', { path: 'Cooking/Bread.md', by: 'vectors', folder: 'travel' })).structuredContent!.related as Related[];
  assert.deepEqual(
    inTravel.map((note) => note.path),
    ['Travel/Naples.md'],
  );
});

test('related_notes by graph is what it was (shared entities), by all fuses both and names each signal', async (t) => {
  const { call } = await fixture(t);
  const graph = await call('related_notes', { path: 'Cooking/Bread.md' });
  assert.equal(graph.isError, undefined);
  assert.deepEqual(graph.structuredContent!.related, [], 'no entities extracted: nothing shared yet');
  assert.match(graph.content[0]!.text!, /no related notes .* yet .*index_brain.*by "all"/);
  const all = (await call('related_notes', { path: 'Cooking/Bread.md', by: 'all', limit: 2 })).structuredContent!.related as Related[];
  assert.deepEqual(
    all.map((note) => [note.path, note.signals.join()]),
    [
      ['Cooking/Pizza.md', 'vectors'],
      ['Travel/Naples.md', 'vectors'],
    ],
  );
});

test('related_notes by vectors for a note with no vector says why, and bad input is an actionable error', async (t) => {
  const { call } = await connectFixture(t, FILES);
  const none = await call('related_notes', { path: 'Cooking/Bread.md', by: 'vectors' });
  assert.equal(none.isError, undefined);
  assert.deepEqual(none.structuredContent!.related, []);
  assert.match((none.structuredContent!.notices as string[])[0]!, /has no vector yet \(no note has a .* vector yet.*engram model/);
  const bad = await call('related_notes', { path: '../outside.md', by: 'vectors' });
  assert.equal(bad.isError, true);
  const wrong = await call('related_notes', { path: 'Cooking/Bread.md', by: 'telepathy' });
  assert.equal(wrong.isError, true);
});
