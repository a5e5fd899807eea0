import assert from 'node:assert/strict';
import { test } from 'node:test';
import wink from 'wink-bm25-text-search';
import { seededRandom } from '../../bench/generate-vault.js';
import { BM25_DEFAULTS, FIELDS, inverseDocumentFrequency, termScore, type Bm25Params, type FieldWeights } from '../../src/search/index.js';
import { BODY_ONLY, buildIndex } from '../helpers/lexical.js';

const plain = { stem: false, stopWords: [], compounds: false };
const byDoc = (scores: { doc: number; score: number }[]) => Object.fromEntries(scores.map((s) => [s.doc, s.score]));

test('hand-computed BM25L scores on a 3-note fixture; notes without a query term are not scored', () => {
  // N = 3, lengths 2, 3, 1 (avgdl 2); k1 1.2, b 0.75, δ 0.5; idf = ln((N+1)/(df+0.5)).
  const { index } = buildIndex([{ body: 'apple banana' }, { body: 'apple apple cherry' }, { body: 'banana' }], BODY_ONLY, { ...BM25_DEFAULTS, delta: 0.5 }, plain);
  const apple = byDoc(index.score(['apple']));
  assert.deepEqual(Object.keys(apple).sort(), ['0', '1'], 'note 2 has no "apple" and is not scored');
  assert.ok(Math.abs(apple[0]! - 0.5744488801892325) < 1e-6);
  assert.ok(Math.abs(apple[1]! - 0.6406677712773284) < 1e-6);
  const banana = byDoc(index.score(['banana']));
  assert.ok(Math.abs(banana[0]! - 0.5744488801892325) < 1e-6);
  assert.ok(Math.abs(banana[2]! - 0.6580050809440301) < 1e-6);
  const both = byDoc(index.score(['apple', 'cherry', 'apple']));
  assert.ok(Math.abs(both[1]! - 1.731702558335316) < 1e-6, 'a repeated query term counts once');
  assert.deepEqual(index.score(['durian']), []);
  assert.deepEqual(index.score([]), []);
});

test('per-field lengths: a title match counts the same in a long note as in a short one', () => {
  const weights: FieldWeights = { title: 3, aliases: 1, headings: 1, tags: 1, body: 1 };
  const long = Array.from({ length: 200 }, (_, i) => `filler${i % 50}`).join(' ');
  const docs = [
    { title: 'malebranche', body: `occasionalism ${long}` },
    { title: 'malebranche', body: 'occasionalism in brief' },
    { title: 'dualism', body: `malebranche ${long}` },
    ...Array.from({ length: 10 }, (_, i) => ({ title: `other ${i}`, body: 'unrelated words here' })),
  ];
  const field = byDoc(buildIndex(docs, weights, BM25_DEFAULTS, plain).index.score(['malebranche']));
  assert.ok(Math.abs(field[0]! - field[1]!) < 1e-9, 'the title scores alike whatever the body length');
  assert.ok(field[0]! > field[2]!, 'a title match beats a body match');
  const note = byDoc(buildIndex(docs, weights, { ...BM25_DEFAULTS, lengths: 'note' }, plain).index.score(['malebranche']));
  assert.ok(note[0]! < 0.8 * note[1]!, 'normalized by the whole note, the long body dilutes the title');
});

test('per-field lengths: a field few notes use is normalized against the notes that have it, not crushed', () => {
  // One note of twenty has tags: averaged over every note, a two-tag list would be twenty times
  // "longer than usual" and its match worth less than one body mention.
  const weights: FieldWeights = { title: 3, aliases: 3, headings: 1.5, tags: 2, body: 1 };
  const docs = [
    { title: 'weekly sync', tags: 'beacon\nplanning', body: 'notes from the meeting' },
    { title: 'misc', body: 'we talked about beacon once among many other things that week' },
    ...Array.from({ length: 18 }, (_, i) => ({ title: `note ${i}`, body: 'unrelated words here and there' })),
  ];
  const scores = byDoc(buildIndex(docs, weights, BM25_DEFAULTS, plain).index.score(['beacon']));
  assert.ok(scores[0]! > scores[1]!, `the tagged note (${scores[0]}) above a body mention (${scores[1]})`);
});

test('explain parts add up to the score', () => {
  const { index } = buildIndex([{ body: 'apple banana' }, { body: 'apple apple cherry' }, { body: 'banana' }], BODY_ONLY, BM25_DEFAULTS, plain);
  const score = byDoc(index.score(['apple', 'cherry']))[1]!;
  const parts = index.explain(1, ['apple', 'cherry']);
  assert.deepEqual(
    parts.map((p) => p.term),
    ['apple', 'cherry'],
  );
  assert.ok(Math.abs(parts.reduce((sum, p) => sum + p.score, 0) - score) < 1e-9);
});

test('empty index, one-note index', () => {
  const empty = buildIndex([], BODY_ONLY, BM25_DEFAULTS, plain).index;
  assert.deepEqual(empty.score(['anything']), []);
  const one = buildIndex([{ body: 'only note' }], BODY_ONLY, BM25_DEFAULTS, plain).index;
  const scored = one.score(['note']);
  assert.equal(scored.length, 1);
  assert.ok(scored[0]!.score > 0 && Number.isFinite(scored[0]!.score));
});

/** A random corpus over a small vocabulary, so terms repeat and collide. */
function corpus(seed: number, count: number) {
  const random = seededRandom(seed);
  const words = ['graph', 'vault', 'note', 'index', 'search', 'atlas', 'billing', 'fusion', 'rank', 'query', 'token', 'block', 'link', 'tag'];
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * random() * words.length)]).join(' ');
  return Array.from({ length: count }, () => ({ title: text(1 + Math.floor(random() * 3)), body: text(3 + Math.floor(random() * 30)) }));
}

test('differential: with δ = 0, Lucene idf and note-length normalization, rankings agree with wink-bm25-text-search', () => {
  const weights: FieldWeights = { title: 2, aliases: 1, headings: 1, tags: 1, body: 1 };
  const params: Bm25Params = { k1: 1.2, b: 0.75, delta: 0, idf: 'lucene', lengths: 'note' };
  const docs = corpus(7, 60);
  const { index, tokenize } = buildIndex(docs, weights, params, plain);
  const engine = wink();
  engine.defineConfig({ fldWeights: { title: 2, body: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
  engine.definePrepTasks([(text: string) => tokenize(text)]);
  docs.forEach((doc, i) => engine.addDoc(doc, i));
  engine.consolidate(8);
  const random = seededRandom(11);
  const words = ['graph', 'vault', 'note', 'index', 'search', 'atlas', 'billing', 'fusion', 'rank', 'query', 'missing'];
  for (let q = 0; q < 40; q++) {
    const query = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]!))].join(' ');
    const ours = index.score(tokenize(query)).sort((a, b) => b.score - a.score || a.doc - b.doc);
    const theirs = engine.search(query, 100);
    assert.equal(ours.length, theirs.length, `"${query}": same number of matches`);
    for (let i = 0; i < ours.length; i++) {
      // wink rounds stored term scores to `fp` decimals, so compare scores, not tie order.
      assert.ok(Math.abs(ours[i]!.score - theirs[i]![1]) < 1e-6, `"${query}" rank ${i + 1}: ${ours[i]!.score} vs ${theirs[i]![1]}`);
      assert.ok(Math.abs(byDoc(ours)[Number(theirs[i]![0])]! - theirs[i]![1]) < 1e-6, `"${query}": doc ${theirs[i]![0]} scored alike`);
    }
  }
});

test('randomized: the index agrees with a brute-force scorer over the same tokens', () => {
  for (let seed = 1; seed <= 15; seed++) {
    const weights: FieldWeights = { title: 1 + (seed % 4), aliases: 1, headings: 1, tags: 1, body: 1 };
    const params: Bm25Params = { k1: 0.5 + (seed % 3) * 0.5, b: (seed % 5) / 4, delta: (seed % 3) * 0.5, idf: seed % 2 ? 'bm25l' : 'lucene', lengths: seed % 4 < 2 ? 'field' : 'note' };
    const docs = corpus(seed, 25);
    const { index, tokenize } = buildIndex(docs, weights, params, plain);
    // Brute force, straight from the formula: per field, each field's term counts and length.
    const tokensOf = docs.map((doc) => FIELDS.map((field) => tokenize((doc as Record<string, string>)[field] ?? '')));
    const fieldAverage = FIELDS.map((_, f) => tokensOf.reduce((sum, fields) => sum + fields[f]!.length, 0) / tokensOf.filter((fields) => fields[f]!.length > 0).length || 1);
    const prepared = tokensOf.map((fields) => {
      const tf = new Map<string, number>();
      let length = 0;
      FIELDS.forEach((field, f) => {
        const tokens = fields[f]!;
        length += tokens.length * weights[field];
        // 'field': a field's count over its own normalization; 'note': the note's (below).
        const scale = params.lengths === 'field' ? weights[field] / (1 - params.b + (params.b * tokens.length) / fieldAverage[f]!) : weights[field];
        for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + scale);
      });
      return { tf, length };
    });
    const avgdl = prepared.reduce((sum, d) => sum + d.length, 0) / prepared.length;
    for (const query of ['graph', 'vault note', 'atlas billing fusion', 'token token rank', 'nothing here']) {
      const terms = [...new Set(tokenize(query))];
      const expected = new Map<number, number>();
      prepared.forEach((d, i) => {
        for (const term of terms) {
          const tf = d.tf.get(term);
          if (!tf) continue;
          const df = prepared.filter((other) => other.tf.has(term)).length;
          const norm = params.lengths === 'field' ? 1 : 1 - params.b + (params.b * d.length) / avgdl;
          expected.set(i, (expected.get(i) ?? 0) + termScore(tf, norm, inverseDocumentFrequency(docs.length, df, params.idf), params));
        }
      });
      const actual = index.score(tokenize(query));
      assert.equal(actual.length, expected.size, `seed ${seed} "${query}": same matches`);
      for (const { doc, score } of actual) {
        assert.ok(Math.abs(score - expected.get(doc)!) < 1e-4 * Math.max(1, score), `seed ${seed} "${query}" doc ${doc}`);
        // The scoring loop writes `termScore` out: it must give the same bits, term by term in query order.
        assert.equal(
          score,
          index.explain(doc, tokenize(query)).reduce((sum, part) => sum + part.score, 0),
          `seed ${seed} "${query}" doc ${doc}: as explain adds it`,
        );
      }
    }
  }
});
