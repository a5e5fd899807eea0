/**
 * What a tool writes is searchable when it answers, and the audit note recording it is current
 * in the index — with the watcher off, so only the server's own re-indexing can have done it.
 * That re-indexing lives in one place (the engine, from the paths a write's receipt says it
 * touched): no tool handler indexes anything itself.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hashContent } from '../../src/vault/index.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

/** Whether the index holds the note exactly as it is on disk. */
function indexedAsOnDisk(engine: { db: import('better-sqlite3').Database }, root: string, path: string): boolean {
  const hash = engine.db.prepare('SELECT hash FROM notes WHERE path = ?').pluck().get(path);
  return hash === hashContent(readFileSync(join(root, path)));
}

test('a write through the MCP client is searchable right after, and the audit note is current', async (t) => {
  const { vault, engine, call } = await connectFixture(t, MCP_VAULT, { watch: false });
  const written = await call('capture', { text: 'numbat termite survey' });
  assert.notEqual(written.isError, true, written.content[0]?.text);
  const path = String(written.structuredContent!.path);
  const found = await call('search_brain', { query: 'numbat termite', mode: 'keyword' });
  assert.ok(
    (found.structuredContent!.results as { path: string }[]).some((hit) => hit.path === path),
    'the capture is found at once',
  );
  assert.ok(indexedAsOnDisk(engine, vault.root, 'Claude/Audit.md'), 'the audit note is indexed as written');
  assert.match(readFileSync(join(vault.root, 'Claude/Audit.md'), 'utf8'), new RegExp(`#${written.structuredContent!.journal_id} capture`));

  const undone = await call('undo_write', { id: written.structuredContent!.journal_id });
  assert.notEqual(undone.isError, true, undone.content[0]?.text);
  const gone = await call('search_brain', { query: 'numbat termite', mode: 'keyword' });
  assert.equal((gone.structuredContent!.results as unknown[]).length, 0, 'the undone capture is gone from search at once');
  assert.ok(indexedAsOnDisk(engine, vault.root, 'Claude/Audit.md'), 'the audit note is current after the undo too');
});

test('a job that writes many notes (entity extraction) leaves them and the audit note indexed', async (t) => {
  const { vault, engine, call } = await connectFixture(t, MCP_VAULT, { watch: false });
  const report = await call('index_brain', { max_notes: 50 });
  assert.notEqual(report.isError, true, report.content[0]?.text);
  assert.ok(Number(report.structuredContent!.entity_notes_written) > 0, 'the extraction wrote entity notes');
  const entityNotes = engine.db.prepare("SELECT path FROM notes WHERE path LIKE 'Claude/Graph/%'").pluck().all() as string[];
  assert.ok(entityNotes.length > 0, 'the entity notes are indexed');
  for (const note of entityNotes) assert.ok(indexedAsOnDisk(engine, vault.root, note), `${note} is indexed as written`);
  assert.ok(indexedAsOnDisk(engine, vault.root, 'Claude/Audit.md'), 'the audit note is current');
});

test('no tool handler re-indexes: only the engine indexes what writes touched', () => {
  const mcp = join(import.meta.dirname, '../../src/mcp');
  const files = readdirSync(mcp, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && file !== 'engine.ts');
  assert.ok(files.length > 5, 'the MCP sources are there');
  for (const file of files) {
    const source = readFileSync(join(mcp, file), 'utf8');
    assert.doesNotMatch(source, /\bindexPaths\b|\bindexWritten\b|\.refresh\(|runIndex\b/, `${file} indexes by itself; let the engine index what the write's receipt touched`);
    assert.doesNotMatch(source, /Audit\.md`\]/, `${file} lists the audit note to index; the write's receipt carries it`);
  }
});
