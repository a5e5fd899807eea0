import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuseRrf, VaultSearch, VectorIndex } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

/** A deterministic unit vector pointing mostly along `axis` (4 dims are enough to test geometry). */
function unit(...components: number[]): Float32Array {
  const norm = Math.hypot(...components);
  return Float32Array.from(components, (c) => c / norm);
}

test('vector index: a note scores its best vector; ties and filters behave', () => {
  const index = VectorIndex.fromEntries(
    3,
    [
      { doc: 0, blockKey: '', source: 'local', vector: unit(1, 0, 0) },
      { doc: 0, blockKey: '#A', source: 'local', vector: unit(0, 1, 0) },
      { doc: 1, blockKey: '', source: 'smart-connections', vector: unit(0.9, 0.1, 0) },
      { doc: 2, blockKey: '#B', source: 'local', vector: unit(0, 0, 1) },
    ],
    3,
  );
  const hits = index.nearest(unit(0, 1, 0), 10);
  assert.deepEqual(
    hits.map((h) => [h.doc, h.blockKey]),
    [
      [0, '#A'],
      [1, ''],
      [2, '#B'],
    ],
  );
  assert.ok(Math.abs(hits[0]!.score - 1) < 1e-6);
  assert.deepEqual(
    index.nearest(unit(0, 1, 0), 1).map((h) => h.doc),
    [0],
  );
  assert.deepEqual(
    index.nearest(unit(0, 1, 0), 10, (doc) => doc !== 0).map((h) => h.doc),
    [1, 2],
  );
  assert.equal(index.nearest(unit(1, 0, 0), 10)[1]!.source, 'smart-connections');
  assert.throws(() => index.nearest(unit(1, 0), 1), /2 dims in a 3-dim index/);
  assert.deepEqual(VectorIndex.fromEntries(0, [], 5).nearest(new Float32Array(0), 3), []);
});

test('RRF: hand-computed fused scores, weights, deterministic ties', () => {
  const fused = fuseRrf({ keyword: [7, 8, 9], semantic: [9, 7] });
  const score = (doc: number) => fused.find((f) => f.doc === doc)!.score;
  assert.ok(Math.abs(score(7) - (1 / 61 + 1 / 62)) < 1e-12);
  assert.ok(Math.abs(score(9) - (1 / 63 + 1 / 61)) < 1e-12);
  assert.ok(Math.abs(score(8) - 1 / 62) < 1e-12);
  assert.deepEqual(
    fused.map((f) => f.doc),
    [7, 9, 8],
  );
  assert.deepEqual(fused[0]!.ranks, { keyword: 1, semantic: 2 });
  const weighted = fuseRrf({ keyword: [1], semantic: [2] }, { k: 60, weights: { keyword: 1, semantic: 2 } });
  assert.deepEqual(
    weighted.map((f) => f.doc),
    [2, 1],
  );
  assert.deepEqual(
    fuseRrf({ a: [3], b: [4] }).map((f) => f.doc),
    [3, 4],
    'equal scores: document order',
  );
});

test('hybrid search: fuses lanes, reports each lane, finds a note by meaning alone, never mixes dims', (t) => {
  const vault = makeVault(t, {
    'Finance/Invoices.md': '# Invoices\nThe plumber sent a bill for 240 euros; still unpaid.\n',
    'Cooking/Bread.md': '# Sourdough\nFeed the starter 1:5:5 every morning.\n## Crumb\nA dense loaf means under-proofed.\n',
    'Notes/Random.md': '# Random\nNothing about money or bread here, just a note.\n',
  });
  const { db, root, index } = indexState(t, vault);
  const id = (path: string) => db.prepare('SELECT id, hash FROM notes WHERE path = ?').get(path) as { id: number; hash: string };
  const insert = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, ?, 'TaylorAI/bge-micro-v2', ?, ?, ?)");
  const put = (path: string, block: string, source: string, vector: Float32Array) => {
    const note = id(path);
    insert.run(note.id, block, source, note.hash, Buffer.from(vector.buffer));
  };
  put('Finance/Invoices.md', '', 'local', unit(1, 0, 0, 0));
  put('Cooking/Bread.md', '', 'smart-connections', unit(0, 1, 0, 0));
  put('Cooking/Bread.md', '#Sourdough#Crumb', 'local', unit(0, 0.2, 1, 0));
  put('Notes/Random.md', '', 'local', unit(0, 0, 0, 1));
  const engine = VaultSearch.open(db, root);

  // "who do I owe" shares no word with the invoice note; its vector points at it.
  const owe = engine.search({ query: 'who do I owe', queryVector: unit(1, 0, 0, 0.1) });
  assert.equal(owe.mode, 'hybrid');
  assert.match(owe.mode_reason, /fused by reciprocal rank .* 4 vectors of TaylorAI\/bge-micro-v2 cover 3 of 3 notes/);
  assert.equal(owe.results[0]!.path, 'Finance/Invoices.md');
  assert.deepEqual(owe.results[0]!.lanes.semantic, { rank: 1, score: owe.results[0]!.lanes.semantic!.score, source: 'local', block: null });
  assert.equal(owe.results[0]!.lanes.keyword, undefined);

  // Found by both lanes beats first in one: Random has "money" (keyword 1) and is semantic 2.
  const money = engine.search({ query: 'who do I owe money to', queryVector: unit(1, 0, 0, 0.1) });
  assert.deepEqual(money.results.map((r) => r.path).slice(0, 2), ['Notes/Random.md', 'Finance/Invoices.md']);
  assert.ok(Math.abs(money.results[0]!.score - (1 / 61 + 1 / 62)) < 1e-4);
  assert.deepEqual([money.results[0]!.lanes.keyword!.rank, money.results[0]!.lanes.semantic!.rank], [1, 2]);

  // A block vector wins for its note, and the evidence is that block.
  const crumb = engine.search({ query: 'why is my loaf so heavy', queryVector: unit(0, 0.1, 1, 0) });
  const bread = crumb.results.find((r) => r.path === 'Cooking/Bread.md')!;
  assert.equal(bread.lanes.semantic!.block, '#Sourdough#Crumb');
  assert.equal(bread.section, 'Sourdough > Crumb');
  assert.equal(bread.excerpt, 'A dense loaf means under-proofed.');

  // Filters apply to the semantic lane too.
  const filtered = engine.search({ query: 'owe money', queryVector: unit(1, 0, 0, 0), filters: { folders: ['Cooking'] } });
  assert.ok(filtered.results.every((r) => r.path.startsWith('Cooking/')));

  // Without a query vector, or with one of another width, the answer is by keyword and says why.
  const offline = engine.search({ query: 'bread', vectorUnavailable: 'model TaylorAI/bge-micro-v2 is not installed and downloads are off' });
  assert.equal(offline.mode, 'keyword');
  assert.equal(offline.mode_reason, 'keyword only: model TaylorAI/bge-micro-v2 is not installed and downloads are off');
  const mixed = engine.search({ query: 'bread', queryVector: new Float32Array(8).fill(0.35) });
  assert.equal(mixed.mode, 'keyword');
  assert.match(mixed.mode_reason, /8 dimensions, the note vectors 4: they come from different models/);
  assert.ok(mixed.results.every((r) => !r.lanes.semantic));

  // semantic mode: the vector lane alone.
  const semantic = engine.search({ query: 'zzz', mode: 'semantic', queryVector: unit(0, 0, 0, 1) });
  assert.equal(semantic.mode, 'semantic');
  assert.equal(semantic.results[0]!.path, 'Notes/Random.md');
  assert.ok(semantic.results.every((r) => !r.lanes.keyword));

  // Lane weights are configurable and said in mode_reason: Random matches "money" by keyword and
  // is semantic 2+; Invoices is found by its vector alone. Equal weights favour the note both
  // lanes found; weighting the keyword lane 0 leaves the vectors' order.
  const moneyIn = (search: VaultSearch) => search.search({ query: 'money', queryVector: unit(1, 0, 0, 0) });
  assert.match(moneyIn(engine).mode_reason, /k = 60; weights keyword 1, semantic 1/);
  assert.equal(moneyIn(engine).results[0]!.path, 'Notes/Random.md');
  const vectorsOnly = VaultSearch.open(db, root, { fusion: { k: 60, weights: { keyword: 0, semantic: 1 } } });
  assert.match(moneyIn(vectorsOnly).mode_reason, /weights keyword 0, semantic 1/);
  assert.equal(moneyIn(vectorsOnly).results[0]!.path, 'Finance/Invoices.md');

  // A stale vector (its note changed since) is never served.
  vault.write('Finance/Invoices.md', '# Invoices\nPaid the plumber.\n');
  index();
  const after = VaultSearch.open(db, root);
  assert.equal(after.vectors.size, 3);
});

test('the SIMD kernel and the JS loop give the same nearest notes', () => {
  // 384 dims takes the WASM kernel; 385 forces the JS loop. Same data in both (plus one zero dim).
  let seed = 11;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5;
  const vectors = Array.from({ length: 300 }, () => unit(...Array.from({ length: 384 }, random)));
  const padded = (v: Float32Array) => Float32Array.from([...v, 0]);
  const simd = VectorIndex.fromEntries(
    384,
    vectors.map((vector, i) => ({ doc: i % 120, blockKey: String(i), source: 'local' as const, vector })),
    120,
  );
  const plain = VectorIndex.fromEntries(
    385,
    vectors.map((vector, i) => ({ doc: i % 120, blockKey: String(i), source: 'local' as const, vector: padded(vector) })),
    120,
  );
  assert.equal(simd.accelerated, true, 'WASM SIMD runs on Node 20');
  assert.equal(plain.accelerated, false);
  for (let q = 0; q < 5; q++) {
    const query = unit(...Array.from({ length: 384 }, random));
    const a = simd.nearest(query, 20);
    const b = plain.nearest(padded(query), 20);
    assert.deepEqual(
      a.map((h) => [h.doc, h.blockKey]),
      b.map((h) => [h.doc, h.blockKey]),
    );
    a.forEach((hit, i) => assert.ok(Math.abs(hit.score - b[i]!.score) < 1e-5));
  }
});
