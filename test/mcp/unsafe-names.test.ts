/**
 * A file whose name holds a control character (a line break) is not indexed, and is reported:
 * search never returns a path that read_note then refuses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectFixture } from '../helpers/mcp.js';

test('a note named with a line break is skipped and reported; every path search returns can be read', async (t) => {
  const { engine, call } = await connectFixture(t, {
    'Good.md': '# Good\nzebra stripes\n',
    'Bad\nName.md': '# Bad\nzebra crossing\n',
    'Odd\u202Egpj.md': '# Odd\nzebra override\n',
    'Folder\rx/Inner.md': '# Inner\nzebra inner\n',
  });
  for (const mode of ['keyword', 'hybrid'] as const) {
    const results = (await call('search_brain', { query: 'zebra', mode })).structuredContent!.results as { path: string }[];
    assert.deepEqual(
      results.map((hit) => hit.path),
      ['Good.md'],
      `${mode}: only the readable note`,
    );
    for (const hit of results) assert.notEqual((await call('read_note', { path: hit.path })).isError, true);
  }
  const skipped = engine.db.prepare('SELECT path, reason FROM skipped ORDER BY path').all() as { path: string; reason: string }[];
  assert.deepEqual(
    skipped.map((row) => row.path),
    ['Bad\nName.md', 'Folder\rx', 'Odd\u202Egpj.md'],
  );
  for (const row of skipped) assert.match(row.reason, /control character .* rename it to index it/);
  const status = (await call('index_status')).structuredContent!;
  assert.ok(JSON.stringify(status).includes('rename it to index it'), 'index_status reports them');
});
