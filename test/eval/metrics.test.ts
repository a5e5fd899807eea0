import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstRank, ndcgAt, percentile, recallAt, reciprocalRank, successAt } from '../../src/eval/index.js';

const ranked = ['a', 'b', 'c', 'd', 'e', 'f'];

test('success, recall, reciprocal rank', () => {
  assert.equal(successAt(ranked, new Set(['e']), 5), 1);
  assert.equal(successAt(ranked, new Set(['f']), 5), 0);
  assert.equal(recallAt(ranked, new Set(['b', 'f', 'z']), 5), 1 / 3);
  assert.equal(recallAt(ranked, new Set(['b', 'f', 'z']), 10), 2 / 3);
  assert.equal(reciprocalRank(ranked, new Set(['c', 'e'])), 1 / 3);
  assert.equal(reciprocalRank(ranked, new Set(['f']), 5), 0);
  assert.equal(firstRank(ranked, new Set(['z'])), null);
});

test('nDCG@k with linear gains, by hand', () => {
  // Relevant b (gain 1) at rank 2 and e (gain 2) at rank 5.
  const gains = new Map([
    ['b', 1],
    ['e', 2],
  ]);
  const dcg = 1 / Math.log2(3) + 2 / Math.log2(6);
  const idcg = 2 / Math.log2(2) + 1 / Math.log2(3);
  assert.ok(Math.abs(ndcgAt(ranked, gains, 10) - dcg / idcg) < 1e-12);
  assert.equal(
    ndcgAt(
      ['b', 'e'],
      new Map([
        ['b', 1],
        ['e', 1],
      ]),
      10,
      [1],
    ),
    1,
    'capped at 1',
  );
  assert.equal(ndcgAt([], gains, 10), 0);
});

test('percentile', () => {
  assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
  assert.equal(percentile([5, 1, 3, 2, 4], 95), 5);
  assert.equal(percentile([], 50), 0);
});
