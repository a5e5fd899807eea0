/** Builds a LexicalIndex from plain texts, the way the BEIR harness does, for engine-level tests. */
import { countDocuments, createTokenizer, LexicalIndex, type Bm25Params, type FieldTexts, type FieldWeights, type TokenizerOptions } from '../../src/search/index.js';

export const EMPTY_FIELDS: FieldTexts = { title: '', aliases: '', headings: '', tags: '', body: '' };
export const BODY_ONLY: FieldWeights = { title: 1, aliases: 1, headings: 1, tags: 1, body: 1 };

export function buildIndex(docs: Partial<FieldTexts>[], weights: FieldWeights, params: Bm25Params, tokenizer: Partial<TokenizerOptions> = {}) {
  const tokenize = createTokenizer(tokenizer);
  const { vocabulary, documents } = countDocuments(
    docs.map((doc) => ({ ...EMPTY_FIELDS, ...doc })),
    tokenize,
  );
  return { index: new LexicalIndex(documents, vocabulary, weights, params), tokenize };
}
