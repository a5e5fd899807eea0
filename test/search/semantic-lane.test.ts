/**
 * The semantic lane as Smart Connections users expect it: a similarity floor that applies to
 * cosine scores, a semantic search as deep as its limit, a block hit's excerpt from the block's
 * own text even when a blank line follows its heading, and `include_text`'s matched block.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { matchedText, VaultSearch } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

function unit(...components: number[]): Float32Array {
  const norm = Math.hypot(...components);
  return Float32Array.from(components, (c) => c / norm);
}

/** A vault of `count` notes (plus one sectioned note) whose vectors are set by hand. */
function engineWith(t: TestContext, count: number) {
  const files: Record<string, string> = {
    'Cooking/Bread.md': '# Sourdough\n\nFeed the starter every morning.\n\n## Crumb\n\nA dense loaf means the dough was under-proofed.\nGive it time.\n',
  };
  for (let i = 0; i < count; i++) files[`Notes/N${String(i).padStart(3, '0')}.md`] = `# Note ${i}\nSomething about topic ${i}.\n`;
  const vault = makeVault(t, files);
  const { db, root } = indexState(t, vault);
  const insert = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, ?, 'TaylorAI/bge-micro-v2', 'local', ?, ?)");
  const put = (path: string, block: string, vector: Float32Array) => {
    const note = db.prepare('SELECT id, hash FROM notes WHERE path = ?').get(path) as { id: number; hash: string };
    insert.run(note.id, block, note.hash, Buffer.from(vector.buffer));
  };
  // Note i leans away from the query axis as i grows: cosines fall from about 1 towards 0.
  for (let i = 0; i < count; i++) put(`Notes/N${String(i).padStart(3, '0')}.md`, '', unit(1, i / 20, 0));
  put('Cooking/Bread.md', '', unit(0, 0, 1));
  put('Cooking/Bread.md', '#Sourdough#Crumb', unit(0, 0.1, 1));
  return { engine: VaultSearch.open(db, root), read: (path: string) => readFileSync(join(vault.root, path), 'utf8') };
}

test('min_score applies to cosine scores in semantic mode; min_similarity floors the semantic lane in any mode', (t) => {
  const { engine } = engineWith(t, 30);
  const query = unit(1, 0, 0);
  const all = engine.search({ query: 'anything', mode: 'semantic', queryVector: query, limit: 100 });
  assert.ok(
    all.results.some((hit) => hit.lanes.semantic!.score < 0.9),
    'some hits are below 0.9 without a floor',
  );

  const floored = engine.search({ query: 'anything', mode: 'semantic', queryVector: query, limit: 100, minScore: 0.9 });
  assert.ok(floored.results.length > 0);
  assert.ok(
    floored.results.every((hit) => hit.lanes.semantic!.score >= 0.9),
    floored.results.map((hit) => hit.lanes.semantic!.score).join(', '),
  );
  assert.equal(floored.total_matches, floored.results.length);

  const hybrid = engine.search({ query: 'topic', queryVector: query, limit: 100, minSimilarity: 0.9 });
  assert.ok(hybrid.results.every((hit) => !hit.lanes.semantic || hit.lanes.semantic.score >= 0.9));
  assert.ok(
    hybrid.results.some((hit) => hit.lanes.keyword && !hit.lanes.semantic),
    'keyword hits stay; only the semantic lane is floored',
  );
});

test('semantic mode honours a limit of 100 (not capped at the 50 fused per lane)', (t) => {
  const { engine } = engineWith(t, 120);
  const response = engine.search({ query: 'anything', mode: 'semantic', queryVector: unit(1, 0, 0), limit: 100 });
  assert.equal(response.results.length, 100);
  assert.equal(response.results[99]!.lanes.semantic!.rank, 100);
  const hybrid = engine.search({ query: 'anything', queryVector: unit(1, 0, 0), limit: 10 });
  assert.equal(hybrid.results.length, 10, 'hybrid at the default depth is unchanged');
});

test("a block hit whose heading is followed by a blank line has the block's first text line as excerpt; include_text gives the block", (t) => {
  const { engine, read } = engineWith(t, 3);
  const response = engine.search({ query: 'xylophone', mode: 'semantic', queryVector: unit(0, 0.1, 1), limit: 5 });
  const hit = response.results[0]!;
  assert.equal(hit.path, 'Cooking/Bread.md');
  assert.equal(hit.lanes.semantic!.block, '#Sourdough#Crumb');
  assert.equal(hit.excerpt, 'A dense loaf means the dough was under-proofed.');
  assert.equal(hit.section, 'Sourdough > Crumb');
  assert.deepEqual(hit.lines, [5, 9]);

  const text = read('Cooking/Bread.md');
  assert.equal(matchedText(text, hit, 4000), '## Crumb\n\nA dense loaf means the dough was under-proofed.\nGive it time.\n');
  assert.equal(matchedText(text, hit, 10), '## Crumb\n\n…');
  const noteLevel = { ...hit, lanes: { semantic: { ...hit.lanes.semantic!, block: null } } };
  assert.equal(matchedText(text, noteLevel, 4000), text, 'a note-level hit gets the note from its start');
});

test('related notes take a folder filter', (t) => {
  const { engine } = engineWith(t, 3);
  const all = engine.related('Notes/N000.md', 10)!;
  assert.deepEqual(
    all.map((hit) => hit.path),
    ['Notes/N001.md', 'Notes/N002.md', 'Cooking/Bread.md'],
  );
  assert.deepEqual(
    engine.related('Notes/N000.md', 10, { folders: ['Cooking'] })!.map((hit) => hit.path),
    ['Cooking/Bread.md'],
  );
  assert.deepEqual(engine.related('Notes/N000.md', 10, { folders: ['Nowhere'] }), []);
});

test("scope: the semantic lane compares notes' own vectors, their sections', or both", (t) => {
  const { engine } = engineWith(t, 3);
  const query = unit(0, 0.1, 1); // the Crumb section's own direction
  const search = (scope: 'all' | 'notes' | 'blocks') => engine.search({ query: 'anything', mode: 'semantic', queryVector: query, limit: 10, scope }).results;
  assert.equal(search('all')[0]!.lanes.semantic!.block, '#Sourdough#Crumb', 'both: the section is the closer vector');
  assert.equal(search('notes')[0]!.path, 'Cooking/Bread.md');
  assert.equal(search('notes')[0]!.lanes.semantic!.block, null, "notes: only the note's own vector counts");
  assert.ok(search('notes').length > 1);
  assert.deepEqual(
    search('blocks').map((hit) => [hit.path, hit.lanes.semantic!.block]),
    [['Cooking/Bread.md', '#Sourdough#Crumb']],
    'blocks: only notes with section vectors, by their sections',
  );
});
