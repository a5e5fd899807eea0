import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../bench/generate-vault.js';
import { createTokenizer, decodeTermStats, encodeTermStats, FIELDS, TermCounter, type FieldTexts } from '../../src/search/index.js';
import { scanWordSpans } from '../../src/search/tokenizer.js';
import { hashSpan, WordTable } from '../../src/search/word-table.js';

const tokenize = createTokenizer();

/** Random text over scripts, joins, surrogate pairs, accents and punctuation. */
function randomText(random: () => number): string {
  const pieces = ['Atlas', 'atlas', 'ÉCOLE', 'café', 'snake_case', 'getUserName', 'INC-212', 'v1.2', '知识图谱', '𝒜lpha', '😀', 'the', 'running', '#tag/sub', '%', '-', '_x_', "don't", 'a.b.', '\uD800', '\n', '42'];
  return Array.from({ length: Math.floor(random() * 14) }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.3 ? '' : ' ');
}

test('the scanner hands each word the same hash that hashSpan computes', () => {
  const random = seededRandom(11);
  for (let n = 0; n < 500; n++) {
    const text = randomText(random);
    scanWordSpans(text, (start, end, hash) => assert.equal(hash, hashSpan(text, start, end), JSON.stringify(text.slice(start, end))));
  }
});

test('words whose hashes collide keep their own values', () => {
  // A real 32-bit FNV-1a collision of two six-letter words (found by search).
  assert.equal(hashSpan('yaczfa', 0, 6), hashSpan('glbppa', 0, 6));
  const table = new WordTable<string>();
  const text = 'glbppa yaczfa glbppa';
  assert.equal(
    table.lookup(text, 7, 13, (word) => `value of ${word}`),
    'value of yaczfa',
  );
  assert.equal(
    table.lookup(text, 0, 6, (word) => `value of ${word}`),
    'value of glbppa',
  );
  assert.equal(
    table.lookup(text, 14, 20, () => 'recomputed'),
    'value of glbppa',
  );
  assert.equal(
    table.lookup('yaczfa', 0, 6, () => 'recomputed'),
    'value of yaczfa',
  );
});

test('a word table remembers every word across its growth', () => {
  const table = new WordTable<number>();
  const words = Array.from({ length: 100_000 }, (_, i) => `w${i.toString(36)}${'x'.repeat(i % 7)}`);
  words.forEach((word, i) =>
    assert.equal(
      table.lookup(` ${word} `, 1, word.length + 1, () => i),
      i,
    ),
  );
  let made = 0;
  words.forEach((word, i) =>
    assert.equal(
      table.lookup(word, 0, word.length, () => made++),
      i,
    ),
  );
  assert.equal(made, 0);
});

test("property: term counts equal a brute-force count of the tokenizer, each term's pairs adjacent", () => {
  const random = seededRandom(17);
  const vocabulary = new Map<string, number>();
  const idOf = (term: string) => vocabulary.get(term) ?? (vocabulary.set(term, vocabulary.size + 1), vocabulary.size);
  const counter = new TermCounter(tokenize, idOf);
  for (let n = 0; n < 300; n++) {
    const texts = Object.fromEntries(FIELDS.map((field) => [field, randomText(random)])) as FieldTexts;
    const stats = counter.count(texts);
    const expected = new Map<string, number>();
    FIELDS.forEach((field, f) => {
      const tokens = tokenize(texts[field]);
      assert.equal(stats.fieldLengths[f], tokens.length);
      for (const token of tokens) expected.set(`${idOf(token)}/${f}`, (expected.get(`${idOf(token)}/${f}`) ?? 0) + 1);
    });
    const actual = new Map<string, number>();
    const closed = new Set<number>();
    for (let i = 0; i < stats.termIds.length; i++) {
      const term = stats.termIds[i]!;
      if (i > 0 && stats.termIds[i - 1] === term) assert.ok(stats.fields[i]! > stats.fields[i - 1]!, 'fields ascend within a term');
      else assert.ok(!closed.has(term), "a term's pairs are adjacent");
      closed.add(term);
      actual.set(`${term}/${stats.fields[i]}`, stats.tfs[i]!);
    }
    assert.deepEqual(actual, expected);
    assert.deepEqual(decodeTermStats(encodeTermStats(stats)), stats);
  }
});

test('property: the plain-ASCII fast path gives what the general path gives', () => {
  // A possessive tail sends a word down the general path, which strips it: `Cells's` → `Cells`.
  const random = seededRandom(23);
  const alphabet = 'aAbBcCzZ09iIeEsS';
  for (let n = 0; n < 5000; n++) {
    const word = Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (const tokenizer of [tokenize, createTokenizer({ compounds: false }), createTokenizer({ stem: false, stopWords: ['is'] })]) {
      assert.deepEqual(tokenizer.tokensOf(word), tokenizer.tokensOf(`${word}'s`), word);
    }
  }
  for (const word of ['Cells', 'DNA', 'HTMLParser', 'getUser', 'ABc', 'x2', '2019', 'The', 'I']) assert.deepEqual(tokenize.tokensOf(word), tokenize.tokensOf(`${word}'s`), word);
});

test('term statistics: layout 2 is compact, layout 1 blobs still read, a truncated blob is refused', () => {
  const counter = new TermCounter(
    tokenize,
    (() => {
      const ids = new Map<string, number>();
      return (term: string) => ids.get(term) ?? (ids.set(term, ids.size + 70_000), ids.size + 69_999);
    })(),
  );
  const stats = counter.count({ title: 'Atlas launch', aliases: '', headings: 'Plan', tags: 'atlas', body: 'atlas '.repeat(300) + 'budget review plan' });
  const blob = encodeTermStats(stats);
  assert.ok(blob.length < 8 * stats.termIds.length, `${blob.length} bytes for ${stats.termIds.length} pairs`);
  assert.deepEqual(decodeTermStats(blob), stats);
  // Layout 1 as earlier versions wrote it: Uint32 [1, F, lengths…, (termId, field << 24 | tf)*].
  const words = new Uint32Array(2 + FIELDS.length + 2 * stats.termIds.length);
  words.set([1, FIELDS.length]);
  words.set(stats.fieldLengths, 2);
  stats.termIds.forEach((term, i) => words.set([term, (stats.fields[i]! << 24) | stats.tfs[i]!], 2 + FIELDS.length + 2 * i));
  const old = Buffer.concat([Buffer.alloc(1), Buffer.from(words.buffer)]).subarray(1); // unaligned, as SQLite may hand it back
  assert.deepEqual(decodeTermStats(old), stats);
  assert.throws(() => decodeTermStats(blob.subarray(0, blob.length - 1)), /truncated/);
});

test('hostile blobs: a field past the known ones is refused; an empty word is remembered once', () => {
  const stats = { fieldLengths: new Uint32Array(FIELDS.length), termIds: Uint32Array.of(9), fields: Uint8Array.of(FIELDS.length), tfs: Uint32Array.of(1) };
  assert.throws(() => decodeTermStats(encodeTermStats(stats)), /corrupt term-stats blob: field 5/);
  const table = new WordTable<number>();
  let made = 0;
  for (let i = 0; i < 3; i++) table.lookup('', 0, 0, () => made++);
  assert.equal(made, 1);
});
