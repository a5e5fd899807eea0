/**
 * related_notes by "all" over the real MCP client, with no model and no extraction: every note
 * of a copy of evals/vault that has a tag, a link or a related: entry gets related notes, each
 * saying which signals found it and how much each added.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/cli.js';
import { connectFixture } from '../helpers/mcp.js';

type Related = { path: string; signals: string[]; contributions: Record<string, number>; chains: string[]; score: number };

function readVault(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

test('evals/vault with no model and no extraction: every note with a tag, link or related: entry has related notes with their signals', async (t) => {
  const { call, engine } = await connectFixture(t, readVault(join(REPO, 'evals/vault')));
  assert.equal(engine.search().vectors.size, 0, 'no vectors: the model is absent');
  assert.equal(engine.db.prepare('SELECT count(*) FROM entities').pluck().get(), 0, 'no extraction has run');
  const connected = engine.db
    .prepare(
      `SELECT path FROM notes n WHERE EXISTS (SELECT 1 FROM tags WHERE note_id = n.id)
      OR EXISTS (SELECT 1 FROM links WHERE note_id = n.id AND resolved_kind = 'note' AND resolved_path != n.path)
      OR EXISTS (SELECT 1 FROM links WHERE resolved_path = n.path AND note_id != n.id) ORDER BY path`,
    )
    .pluck()
    .all() as string[];
  assert.ok(connected.length > 100, `${connected.length} notes`);
  const seen = new Set<string>();
  for (const path of connected) {
    const result = await call('related_notes', { path, by: 'all', limit: 5 });
    assert.equal(result.isError, undefined, `${path}: ${result.content[0]?.text}`);
    const related = result.structuredContent!.related as Related[];
    assert.ok(related.length > 0, `${path} has no related notes`);
    for (const note of related) {
      assert.notEqual(note.path, path, 'never the note itself');
      assert.ok(note.signals.length > 0);
      assert.deepEqual(Object.keys(note.contributions).sort(), [...note.signals].sort());
      const sum = Object.values(note.contributions).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - note.score) < 1e-4, `${note.path}: contributions ${sum} add up to ${note.score}`);
      assert.equal(note.chains.length, note.signals.length, 'one reason per signal');
      for (const signal of note.signals) seen.add(signal);
    }
  }
  assert.deepEqual([...seen].sort(), ['links', 'tags', 'terms'], 'the model-free signals all contribute; no vectors, no entities');
  const notice = await call('related_notes', { path: connected[0]!, by: 'all' });
  assert.match((notice.structuredContent!.notices as string[]).join(), /has no vector yet/);
});
