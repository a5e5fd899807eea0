import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phrasesSaid } from '../../src/search/asked.js';

const phrases = (...texts: string[]) => texts.map((text, i) => ({ first: i, last: i, text }));

test('a notice names each asking phrase once, as first written, and counts past five', () => {
  assert.equal(phrasesSaid(phrases('latest')), 'latest');
  assert.equal(phrasesSaid(phrases('Latest', 'latest', 'most recent', 'LATEST')), 'Latest, most recent');
  assert.equal(phrasesSaid(phrases('a', 'b', 'c', 'd', 'e', 'f', 'g', 'a', 'h')), 'a, b, c, d, e and 3 more');
  assert.equal(phrasesSaid(phrases(...Array.from({ length: 300 }, () => 'pending items'))), 'pending items');
});
