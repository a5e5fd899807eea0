import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../bench/generate-vault.js';
import { countWords } from '../../src/vault/index.js';

/** The regular expression the word count is defined by (it was the implementation). */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}]+(?:['’_\-.][\p{L}\p{N}\p{M}]+)*/gu;

test('property: the hand-written word count agrees with its regular expression', () => {
  const pieces = ['a', 'Z', '7', ' ', '\t', "'", '’', '_', '-', '.', ',', '漢', '字', 'ひ', 'カ', '한', 'é', 'e\u0301', '\u0301', '😀', '𝒜', '\uD800', '\uDC00', 'ß', 'Ω', '#', '[[', ']]', '١'];
  const random = seededRandom(31);
  for (let n = 0; n < 3000; n++) {
    const line = Array.from({ length: Math.floor(random() * 20) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    assert.equal(countWords(line), line.match(WORD)?.length ?? 0, JSON.stringify(line));
  }
  assert.equal(countWords("Don't stop-the v1.2 release, José — 知识图谱 abc漢字 漢字abc"), 13);
});
