/**
 * "Results may be incomplete" is said only when they may be: a server whose start-up index run
 * is under way says it when the index is behind the vault, not when the index is current.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

/** A real child process that stays running, standing in for a start-up index run still under way. */
const STILL_INDEXING = { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 120000)'] };

const notices = async (call: Awaited<ReturnType<typeof connectFixture>>['call']) => ((await call('search_brain', { query: 'tantivy', mode: 'keyword' })).structuredContent!.notices as string[]).join('\n');

test('the index is current while the start-up run is under way: no "results may be incomplete"', async (t) => {
  const { engine, call } = await connectFixture(t, MCP_VAULT, { indexCommand: STILL_INDEXING });
  assert.equal(engine.indexState.state, 'indexing');
  assert.doesNotMatch(await notices(call), /may be incomplete/);
});

test('a note added since the last index run while the start-up run is under way: "results may be incomplete"', async (t) => {
  const { engine, call } = await connectFixture(t, MCP_VAULT, { indexCommand: STILL_INDEXING, beforeStart: (vault) => vault.write('Projects/New.md', '# New\ntantivy too\n') });
  assert.equal(engine.indexState.state, 'indexing');
  assert.match(await notices(call), /still being indexed in the background; results may be incomplete/);
});
