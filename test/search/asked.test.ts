import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phrasesSaid, quotedPhrases } from '../../src/search/asked.js';

const phrases = (...texts: string[]) => texts.map((text, i) => ({ first: i, last: i, text }));
const said = (...texts: string[]) => quotedPhrases(phrasesSaid(phrases(...texts)));

test('a notice names each asking phrase once, as first written, and counts past five outside the quotes', () => {
  assert.equal(said('latest'), '"latest"');
  assert.equal(said('Latest', 'latest', 'most recent', 'LATEST'), '"Latest, most recent"');
  assert.equal(said('ultima', 'última'), '"ultima"', 'accents folded');
  assert.equal(said('a', 'b', 'c', 'd', 'e', 'f', 'g', 'a', 'h'), '"a, b, c, d, e" and 3 more');
  assert.deepEqual(phrasesSaid(phrases(...Array.from({ length: 300 }, () => 'pending items'))), { text: 'pending items', more: 0 });
});
