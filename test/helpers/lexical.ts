/** Builds a LexicalIndex from plain texts, the way the BEIR harness does, for engine-level tests. */
import { TermCounter, createTokenizer, LexicalIndex, type Bm25Params, type FieldTexts, type FieldWeights, type TokenizerOptions } from '../../src/search/index.js';

export const EMPTY_FIELDS: FieldTexts = { title: '', aliases: '', headings: '', tags: '', body: '' };
export const BODY_ONLY: FieldWeights = { title: 1, aliases: 1, headings: 1, tags: 1, body: 1 };

export function buildIndex(docs: Partial<FieldTexts>[], weights: FieldWeights, params: Bm25Params, tokenizer: Partial<TokenizerOptions> = {}) {
  const tokenize = createTokenizer(tokenizer);
  const vocabulary = new Map<string, number>();
  const idOf = (term: string) => {
    let id = vocabulary.get(term);
    if (id === undefined) vocabulary.set(term, (id = vocabulary.size + 1));
    return id;
  };
  const counter = new TermCounter(tokenize, idOf);
  const documents = docs.map((doc, i) => ({ id: i, stats: counter.count({ ...EMPTY_FIELDS, ...doc }) }));
  return { index: new LexicalIndex(documents, vocabulary, weights, params), tokenize };
}
