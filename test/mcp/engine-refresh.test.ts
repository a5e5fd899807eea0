/**
 * What a watched change costs the engine: a changed note reloads search (the next search sees
 * it); the caretaker lease's heartbeat is indexed but keeps the loaded search engine, since it
 * is rewritten every two minutes and reloading would be paid by every attached session.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

test('a heartbeat of the caretaker lease is indexed without reloading search; a changed note reloads it', async (t) => {
  const { engine, vault } = await connectFixture(t, MCP_VAULT);
  const lease = join(vault.root, 'Claude/Caretaker.md');
  mkdirSync(join(vault.root, 'Claude'), { recursive: true });
  const loaded = engine.search();
  for (const beat of [1, 2]) {
    writeFileSync(lease, `---\ndevice: laptop\nbeat: ${beat}\n---\n# Caretaker\n`);
    await engine.refresh(['Claude/Caretaker.md']);
    assert.equal(engine.db.prepare('SELECT count(*) FROM notes WHERE path = ?').pluck().get('Claude/Caretaker.md'), 1, 'the row is kept current');
    assert.equal(engine.search(), loaded, `heartbeat ${beat} kept the loaded search engine`);
  }
  writeFileSync(join(vault.root, 'Projects/Walrus.md'), '# Walrus\nA note about walruses.\n');
  await engine.refresh(['Projects/Walrus.md', 'Claude/Caretaker.md']);
  const reloaded = engine.search();
  assert.notEqual(reloaded, loaded, 'a note changed: search reloads');
  assert.ok(reloaded.search({ query: 'walruses', limit: 5, mode: 'keyword' }).results.some((hit) => hit.path === 'Projects/Walrus.md'));
});

test("a note added after the server read the notes' words is among them for the next misspelt query", async (t) => {
  const { engine, vault } = await connectFixture(t, MCP_VAULT);
  // Read the words the notes write once, before the new note: `chnage` is one typo from no word yet.
  assert.deepEqual(engine.search().search({ query: 'chnage walrus', mode: 'keyword', explain: true }).analysis!.corrected, []);
  const notes = engine.db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  assert.equal(engine.written.notesRead, notes);
  writeFileSync(join(vault.root, 'Projects/Walrus.md'), '# Walrus\nWe change the walrus feeding plan.\n');
  await engine.refresh(['Projects/Walrus.md']);
  // `chnage` keeps its e when stemmed, two edits from `chang`: only the written word "change" finds it.
  const typo = engine.search().search({ query: 'chnage walrus', mode: 'keyword', explain: true });
  assert.deepEqual(typo.analysis!.corrected, [{ word: 'chnage', from: 'chnage', to: 'chang', spelled: 'change' }]);
  assert.equal(typo.results[0]!.path, 'Projects/Walrus.md');
  assert.equal(engine.written.notesRead, notes + 1, 'the new engine read the new note only');
});
