/**
 * A write that happened is reported as done even when indexing it afterwards fails: an error
 * would make an agent write it again.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

test('indexing a write fails: the reply says written (with a warning), the journal has it, and it is indexed again later', async (t) => {
  const { vault, engine, call } = await connectFixture(t, MCP_VAULT);
  // A real SQLite failure in the index path only (the journal and the file are not touched by it).
  engine.db.exec("CREATE TRIGGER fail_index BEFORE INSERT ON notes BEGIN SELECT RAISE(ABORT, 'simulated index failure'); END");
  const result = await call('write_note', { path: 'Claude/Quokka.md', content: '# Quokka\nquokka facts\n' });
  assert.notEqual(result.isError, true, result.content[0]?.text);
  assert.equal(result.structuredContent!.path, 'Claude/Quokka.md');
  assert.match(String(result.structuredContent!.index_warning), /simulated index failure.*do not repeat the write/);
  assert.ok(existsSync(join(vault.root, 'Claude/Quokka.md')));
  assert.equal(readFileSync(join(vault.root, 'Claude/Quokka.md'), 'utf8'), '# Quokka\nquokka facts\n');
  assert.equal(engine.db.prepare("SELECT count(*) FROM journal WHERE path = 'Claude/Quokka.md'").pluck().get(), 1);

  const captured = await call('capture', { text: 'wombat burrow' });
  assert.notEqual(captured.isError, true, captured.content[0]?.text);
  assert.match(captured.content[0]!.text!, /warning: the write is done/);

  engine.db.exec('DROP TRIGGER fail_index');
  await engine.settled();
  const found = await call('search_brain', { query: 'quokka facts', mode: 'keyword' });
  assert.ok(
    (found.structuredContent!.results as { path: string }[]).some((hit) => hit.path === 'Claude/Quokka.md'),
    'the failed paths were queued and indexed again',
  );
});
