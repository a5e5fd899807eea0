import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acquireLock } from '../../src/index/index.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

const VAULT = {
  ...MCP_VAULT,
  'People/Lena.md': '---\ntype: person\naliases: [Lena F]\n---\n# Lena\nVendor contact at Tessellate. [Atlas](../Projects/Atlas.md)\n',
  'Meetings/Sync.md': '---\nattendees: ["[[Lena]]"]\nproject: Atlas\n---\n# Sync\nWith [[Lena]] about [[Atlas]].\n',
};

test('index_brain extracts in bounded batches; find_entity, related_notes, graph_stats; context_bundle carries entities', async (t) => {
  const { call, vault } = await connectFixture(t, VAULT);
  // Extraction and merges are heavy jobs: while a sweep holds the state's lock they wait, and say so.
  const sweep = acquireLock(vault.home, 'index', { purpose: 'a Librarian sweep' });
  for (const [tool, args] of [
    ['index_brain', {}],
    ['consolidate_graph', {}],
  ] as const) {
    const busy = await call(tool, args);
    assert.equal(busy.isError, true, tool);
    assert.match(busy.content[0]!.text!, /a Librarian sweep is already running/);
  }
  sweep.release();
  const first = (await call('index_brain', { max_notes: 3 })).structuredContent as { processed: number; remaining: number; extractor: string; secrets_redacted: object; unreadable_private: string[] };
  assert.equal(first.extractor, 'structural');
  assert.deepEqual([first.secrets_redacted, first.unreadable_private], [{}, []], 'the structural extractor sends nothing, so redacts nothing');
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
  assert.deepEqual(
    partial.entities.map((entity) => entity.name),
    ['Atlas'],
  );

  const related = (await call('related_notes', { path: 'Meetings/Sync.md' })).structuredContent as { related: { path: string; chains: string[] }[] };
  assert.ok(related.related.length > 0);
  assert.ok(related.related.every((note) => note.chains.length > 0 && note.path !== 'Meetings/Sync.md'));
  assert.equal((await call('related_notes', { path: '../x.md' })).isError, true);

  const stats = (await call('graph_stats')).structuredContent as { entities: Record<string, number>; mentions: number };
  assert.ok(stats.entities.person! >= 1 && stats.mentions > 0);

  const bundle = (await call('context_bundle', { query: 'Lena Tessellate' })).structuredContent as { entities: { name: string }[] };
  assert.ok(bundle.entities.some((entity) => entity.name === 'Lena'));

  const searched = (await call('search_brain', { query: 'Lena', folder: 'Claude/Graph' })).structuredContent as { results: { path: string }[] };
  assert.ok(
    searched.results.some((hit) => hit.path === 'Claude/Graph/People/Lena.md'),
    'entity notes are searchable at once',
  );
});

test('consolidate_graph lists merge proposals, applies one by id, undoes it; bad ids are errors that change nothing', async (t) => {
  const { call } = await connectFixture(t, {
    ...MCP_VAULT,
    'People/Ana Silva.md': '---\ntype: person\n---\n# Ana Silva\nEngineer.\n',
    'Meetings/Retro.md': '---\nattendees: [Anna Silva]\n---\n# Retro\nA retro.\n',
  });
  for (let i = 0; i < 10; i++) if (((await call('index_brain', { max_notes: 50 })).structuredContent as { remaining: number }).remaining === 0) break;
  type Report = { proposed: { id: number; loser: string; winner: string }[]; pending: { id: number }[]; applied: number[]; undone: number[]; written: string[] };
  const listed = await call('consolidate_graph');
  const report = listed.structuredContent as Report;
  const proposal = report.proposed.find((p) => p.loser === 'Anna Silva' && p.winner === 'Ana Silva');
  assert.ok(proposal, JSON.stringify(report.proposed));
  assert.match((listed.content as { text: string }[])[0]!.text, /apply the right ones with consolidate_graph/);

  const bad = await call('consolidate_graph', { apply: [proposal.id, 9999] });
  assert.equal(bad.isError, true);
  assert.match((bad.content as { text: string }[])[0]!.text, /no proposal #9999/);

  const applied = (await call('consolidate_graph', { apply: [proposal.id] })).structuredContent as Report;
  assert.deepEqual(applied.applied, [proposal.id]);
  assert.ok(applied.written.includes('Claude/Graph/People/Anna Silva.md'));
  const stub = (await call('read_note', { path: 'Claude/Graph/People/Anna Silva.md' })).structuredContent as { text: string };
  assert.match(stub.text, /Merged into \[\[Claude\/Graph\/People\/Ana Silva\|Ana Silva\]\]/);
  const found = (await call('find_entity', { name: 'Anna Silva' })).structuredContent as { entities: { name: string }[] };
  assert.deepEqual(
    found.entities.map((entity) => entity.name),
    ['Ana Silva'],
  );

  const undone = (await call('consolidate_graph', { undo: [proposal.id] })).structuredContent as Report;
  assert.deepEqual(undone.undone, [proposal.id]);
  const back = (await call('find_entity', { name: 'Anna Silva' })).structuredContent as { entities: { name: string }[] };
  assert.deepEqual(
    back.entities.map((entity) => entity.name),
    ['Anna Silva'],
  );
});
