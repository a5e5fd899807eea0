import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../bench/generate-vault.js';
import { createTokenizer, foldToken, tokenizerSignature, unionTokenizer } from '../../src/search/index.js';

const tokenize = createTokenizer();

test('words are folded, stop words dropped, English stemmed', () => {
  assert.deepEqual(tokenize('The Runners were RUNNING to the café'), ['runner', 'were', 'run', 'cafe']);
  assert.deepEqual(tokenize('José Núñez, Kraków'), ['jose', 'nunez', 'krakow']);
  assert.deepEqual(tokenize("Maya's notes"), ['maya', 'note']);
});

test('code identifiers and codes are searchable whole and in parts', () => {
  assert.deepEqual(tokenize('getUserName'), ['get', 'user', 'name', 'getusernam']);
  assert.deepEqual(tokenize('getusername'), ['getusernam'], 'typed in one piece, it meets the whole');
  assert.deepEqual(tokenize('snake_case_id'), ['snake', 'case', 'snake_case_id'], 'a two-letter part is carried by the whole');
  assert.deepEqual(tokenize('INC-212'), ['inc', '212', 'inc-212']);
  assert.deepEqual(tokenize('p99'), ['p99'], 'a short number cut from letters is no word of its own');
  assert.deepEqual(tokenize('mp4 H2O v2.1 2026-05-01 INC-212'), ['mp4', 'h2o', 'v2.1', '2026', '05', '01', '2026-05-01', 'inc', '212', 'inc-212']);
  // One- and two-letter fragments never count on their own: `iOS` is not `i` + `os`.
  assert.deepEqual(tokenize('iOS'), ['io']);
  assert.deepEqual(tokenize('iPadOS macOS e-mail'), ['pad', 'ipado', 'mac', 'maco', 'mail', 'e-mail']);
  assert.deepEqual(tokenize('I use OS tools'), ['i', 'use', 'os', 'tool'], 'a short word standing alone is still a word');
  assert.deepEqual(tokenize('#project/atlas'), ['project', 'atlas']);
});

test('CJK runs become character bigrams; a lone character stays', () => {
  assert.deepEqual(tokenize('知识图谱'), ['知识', '识图', '图谱']);
  assert.deepEqual(tokenize('火 锅'), ['火', '锅']);
  assert.deepEqual(tokenize('Atlas项目'), ['atlas', '项目']);
});

test('options: no stemming, own stop words, no compounds', () => {
  const raw = createTokenizer({ stem: false, stopWords: ['maya'], compounds: false });
  assert.deepEqual(raw('Maya runs getUserName INC-212'), ['runs', 'getusername', 'inc', '212']);
  assert.notEqual(tokenizerSignature({ stem: false }), tokenizerSignature());
});

test('degenerate input never throws and never yields empty tokens', () => {
  for (const text of ['', '   ', '%', '+++', 'c++', '"unbalanced', 'NEAR', '.*?[](){}|^$\\', '\uD800 lone surrogate \uDFFF', '\u0000', 'a'.repeat(10000), '—–·•…']) {
    const tokens = tokenize(text);
    assert.ok(
      tokens.every((token) => token.length > 0),
      JSON.stringify(text),
    );
  }
});

/** Random text from a mix of scripts, case, accents, digits, joins and punctuation. */
function randomText(random: () => number): string {
  const pieces = ['Atlas', 'atlas', 'ÉCOLE', 'café', 'snake_case', 'getUserName', 'INC-212', 'v1.2', '知识图谱', 'お疲れ様', 'the', 'and', 'running', '#tag/sub', '%', '  ', '\n', 'x', '42', 'Ünïcödé', "don't", '—'];
  return Array.from({ length: 1 + Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.5 ? ' ' : '\t');
}

test('property: folding is idempotent and tokens are never empty', () => {
  const random = seededRandom(3);
  for (let i = 0; i < 500; i++) {
    const text = randomText(random);
    for (const token of tokenize(text)) {
      assert.ok(token.length > 0);
      assert.equal(foldToken(foldToken(token)), foldToken(token));
    }
  }
});

test('property: tokenizing is stable — the tokens of a token re-tokenize to include themselves', () => {
  const random = seededRandom(5);
  for (let i = 0; i < 300; i++) {
    for (const token of tokenize(randomText(random))) {
      assert.ok(tokenize(token).includes(token), `"${token}" survives a second pass`);
    }
  }
});

test('property: index/query symmetry — text split on whitespace tokenizes to the concatenation of its parts', () => {
  const random = seededRandom(9);
  for (let i = 0; i < 300; i++) {
    const text = randomText(random);
    const whole = tokenize(text);
    const parts = text.split(/\s+/).flatMap((part) => tokenize(part));
    assert.deepEqual(whole, parts, JSON.stringify(text));
    // Typed in lower case, a query still finds what was written in any case (camelCase included).
    const written = new Set(whole);
    for (const token of tokenize(text.toLowerCase())) assert.ok(written.has(token), `"${token}" from ${JSON.stringify(text.toLowerCase())}`);
  }
});

test("a union tokenizer groups each token's spellings in its languages; one language has no groups", () => {
  const union = unionTokenizer([createTokenizer({ language: 'en' }), createTokenizer({ language: 'pt' })]);
  assert.deepEqual(union.variants!('estruturas'), [['estrutura', 'estrutur']]);
  // Compound parts stay apart: only the i-th tokens of each language are one token's spellings.
  assert.deepEqual(union.variants!('JavaScript'), [['java', 'jav'], ['script'], ['javascript']]);
  assert.deepEqual(union.variants!('order_items_v2'), [['order'], ['item', 'items'], ['order_items_v2']]);
  // A word one language stops (Portuguese `para`) has the other's tokens alone.
  assert.deepEqual(union.variants!('para'), [['para']]);
  assert.equal(createTokenizer({ language: 'en' }).variants, undefined);
});
