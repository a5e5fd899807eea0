import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

const VAULT = {
  ...MCP_VAULT,
  'People/Lena.md': '---\ntype: person\naliases: [Lena F]\n---\n# Lena\nVendor contact at Tessellate. [Atlas](../Projects/Atlas.md)\n',
  'Meetings/Sync.md': '---\nattendees: ["[[Lena]]"]\nproject: Atlas\n---\n# Sync\nWith [[Lena]] about [[Atlas]].\n',
};

test('index_brain extracts in bounded batches; find_entity, related_notes, graph_stats; context_bundle carries entities', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const first = (await call('index_brain', { max_notes: 3 })).structuredContent as { processed: number; remaining: number; extractor: string };
  assert.equal(first.extractor, 'structural');
  assert.equal(first.processed, 3);
  assert.ok(first.remaining > 0);
  let remaining = first.remaining;
  for (let i = 0; i < 10 && remaining > 0; i++) remaining = ((await call('index_brain', { max_notes: 3 })).structuredContent as { remaining: number }).remaining;
  assert.equal(remaining, 0);

  const found = (await call('find_entity', { name: 'lena f' })).structuredContent as { entities: { name: string; type: string; note_path: string; mentions: number; aliases: string[] }[] };
  assert.equal(found.entities[0]!.name, 'Lena');
  assert.equal(found.entities[0]!.note_path, 'Claude/Graph/People/Lena.md');
  assert.deepEqual(found.entities[0]!.aliases, ['Lena F']);
  const partial = (await call('find_entity', { name: 'atl', type: 'project' })).structuredContent as { entities: { name: string }[] };
  assert.deepEqual(partial.entities.map((entity) => entity.name), ['Atlas']);

  const related = (await call('related_notes', { path: 'Meetings/Sync.md' })).structuredContent as { related: { path: string; chains: string[] }[] };
  assert.ok(related.related.length > 0);
  assert.ok(related.related.every((note) => note.chains.length > 0 && note.path !== 'Meetings/Sync.md'));
  assert.equal((await call('related_notes', { path: '../x.md' })).isError, true);

  const stats = (await call('graph_stats')).structuredContent as { entities: Record<string, number>; mentions: number };
  assert.ok(stats.entities.person! >= 1 && stats.mentions > 0);

  const bundle = (await call('context_bundle', { query: 'Lena Tessellate' })).structuredContent as { entities: { name: string }[] };
  assert.ok(bundle.entities.some((entity) => entity.name === 'Lena'));

  const searched = (await call('search_brain', { query: 'Lena', folder: 'Claude/Graph' })).structuredContent as { results: { path: string }[] };
  assert.ok(searched.results.some((hit) => hit.path === 'Claude/Graph/People/Lena.md'), 'entity notes are searchable at once');
});
