import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KNOWN_MODELS, modelFingerprint, murmurHash32Alphanumeric, resolveModelSpec } from '../../src/smart-env/index.js';

// Checklist 13: golden values measured against the plugin's own JavaScript.
test('murmur golden values: empty, ASCII, accents, emoji, CRLF', () => {
  const golden: [string, string][] = [
    ['', '0'],
    ['a', 'gos6uq'],
    ['abcd', 'iui9nu'],
    ['Análise é ção', '1aefovv'],
    ['🙂 emoji x', 'xiy85o'],
    ['line1\nline2\r\n', '1ks758v'],
  ];
  for (const [input, expected] of golden) assert.equal(murmurHash32Alphanumeric(input), expected, JSON.stringify(input));
});

/** An independent MurmurHash3 x86_32 in BigInt arithmetic, over the low byte of each UTF-16 unit. */
function oracle(text: string): string {
  const M = 0xffffffffn;
  const mul = (a: bigint, b: bigint) => (a * b) & M;
  const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (32n - r))) & M;
  const bytes = Array.from({ length: text.length }, (_, i) => BigInt(text.charCodeAt(i) & 0xff));
  let h = 0n;
  const body = bytes.length - (bytes.length % 4);
  for (let i = 0; i < body; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8n) | (bytes[i + 2]! << 16n) | (bytes[i + 3]! << 24n);
    k = mul(rotl(mul(k, 0xcc9e2d51n), 15n), 0x1b873593n);
    h = (mul(rotl(h ^ k, 13n), 5n) + 0xe6546b64n) & M;
  }
  let k = 0n;
  for (let i = bytes.length - 1; i >= body; i--) k = (k << 8n) | bytes[i]!;
  if (bytes.length > body) h ^= mul(rotl(mul(k, 0xcc9e2d51n), 15n), 0x1b873593n);
  h ^= BigInt(bytes.length);
  h ^= h >> 16n;
  h = mul(h, 0x85ebca6bn);
  h ^= h >> 13n;
  h = mul(h, 0xc2b2ae35n);
  h ^= h >> 16n;
  return h.toString(36);
}

test('murmur agrees with an independent implementation on random UTF-16 strings (property)', () => {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let n = 0; n < 500; n++) {
    const length = next() % 40;
    let text = '';
    for (let i = 0; i < length; i++) {
      const pick = next() % 4;
      text += String.fromCharCode(pick === 0 ? next() % 128 : pick === 1 ? 0xc0 + (next() % 64) : pick === 2 ? 0xd800 + (next() % 0x800) : next() % 0x10000);
    }
    assert.equal(murmurHash32Alphanumeric(text), oracle(text), JSON.stringify(text));
  }
});

test('model fingerprints match the names of real vector files', () => {
  assert.equal(modelFingerprint({ provider_key: 'transformers', model_key: 'TaylorAI/bge-micro-v2', dims: 384, max_tokens: 512 }), 'mf_ccarbz');
  assert.equal(modelFingerprint({ provider_key: 'transformers', model_key: 'Xenova/multilingual-e5-small', dims: 384, max_tokens: 512, embedding_space_id: 'Xenova/multilingual-e5-small/retrieval-v1' }), 'mf_7gwptj');
  const e5 = KNOWN_MODELS.find((model) => model.model_key === 'Xenova/multilingual-e5-small');
  assert.ok(e5);
  assert.equal(modelFingerprint(e5), 'mf_7gwptj');
});

test("the configured model's spec comes from the vault's record first, then the built-in list", () => {
  const record = { key: 'openai#1', provider_key: 'openai', model_key: 'text-embedding-3-small', dims: 1536, max_tokens: 8191, created_at: 5, embedding_space_id: null };
  assert.deepEqual(resolveModelSpec('text-embedding-3-small', [record], null), { provider_key: 'openai', model_key: 'text-embedding-3-small', dims: 1536, max_tokens: 8191 });
  assert.equal(resolveModelSpec('text-embedding-3-small', [], null), null);
  const e5 = resolveModelSpec('Xenova/multilingual-e5-small', [{ ...record, key: 't#1', provider_key: 'transformers', model_key: 'Xenova/multilingual-e5-small', dims: 384, max_tokens: 512 }], 't#1');
  assert.equal(e5?.embedding_space_id, 'Xenova/multilingual-e5-small/retrieval-v1', 'a record without a catalogue still gets the space id');
});
