/**
 * What generic clients send: numbers as numeric strings (the MCP Inspector's forms do), and
 * backlinks to different headings of one note, which must not look like duplicate rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

const VAULT = {
  ...MCP_VAULT,
  'Canvas.md': '# Canvas\n## Add cards\nDrag a note in.\n',
  'Guide.md': '# Guide\nSee [[Canvas]].\nAlso [[Canvas#Add cards]].\n',
  'People/Lena.md': '---\ntype: person\n---\n# Lena\nWorks on [[Atlas]].\n',
  'Meetings/Sync.md': '---\nattendees: ["[[Lena]]"]\n---\n# Sync\nWith [[Lena]] about [[Atlas]].\n',
};

test('numeric parameters accept numeric strings; anything else gets a clear refusal', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  await call('index_brain', { max_notes: '50' });
  for (const hops of [2, '2', ' 1 ']) {
    const related = await call('related_notes', { path: 'Meetings/Sync.md', hops });
    assert.notEqual(related.isError, true, `hops ${JSON.stringify(hops)}: ${related.content[0]?.text}`);
  }
  const recent = await call('list_recent', { limit: '1' });
  assert.equal((recent.structuredContent as { notes: unknown[] }).notes.length, 1);
  for (const hops of ['two', '3', 0, '1e3']) {
    const refused = await call('related_notes', { path: 'Meetings/Sync.md', hops });
    assert.equal(refused.isError, true, `hops ${JSON.stringify(hops)} is refused`);
    assert.match(refused.content[0]!.text!, /hops/, 'the refusal names the parameter');
  }
});

test('get_backlinks tells a link to a heading from a link to the note', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const result = (await call('get_backlinks', { path: 'Canvas.md' })).structuredContent as { backlinks: { path: string; line: number; subpath: string | null }[] };
  assert.deepEqual(
    result.backlinks.map((link) => `${link.path}:${link.line} ${link.subpath ?? '(note)'}`),
    ['Guide.md:2 (note)', 'Guide.md:3 Add cards'],
  );
});
