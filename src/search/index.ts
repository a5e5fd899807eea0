/** Search: tokenizer, BM25L keyword lane, filters, evidence, the substring lane. */
export { createTokenizer, unionTokenizer, scanWords, foldToken, tokenizerSignature, ENGLISH_STOP_WORDS, TOKENIZER_DEFAULTS, type Tokenizer, type TokenizerOptions } from './tokenizer.js';
export { BM25_DEFAULTS, termScore, inverseDocumentFrequency, type Bm25Params } from './bm25l.js';
export { FIELDS, noteFieldTexts, type FieldName, type FieldTexts, type FieldWeights } from './fields.js';
export { TermCounter, countDocuments, encodeTermStats, decodeTermStats, type TermStats } from './term-stats.js';
export { LexicalIndex, DEFAULT_FIELD_WEIGHTS, type IndexedDocument, type ScoredDocument, type TermExplanation } from './lexical-index.js';
export { lexicalExtension, loadLanguages, loadTermStats, vaultTokenizer } from './lexical-store.js';
export { detectLanguage, noteLanguage, normalizeLanguage, LANGUAGES, type Language } from './language.js';
export { compileFilter, folderSegments, parseDateBound, type SearchFilters, type NoteMeta, type CompiledFilter } from './filters.js';
export { rankDocuments, type RankOutcome, type RankedDocument } from './rank.js';
export { findEvidence, scorePassages, passageScorer, passageEvidence, PASSAGE_DEFAULTS, type Evidence, type EvidenceBlock, type PassageScore } from './evidence.js';
export { rankSubstring } from './substring.js';
export { VaultSearch, PASSAGE_DEPTH, matchedText, LIMITS as SEARCH_LIMITS, DEFAULT_MODEL, type SearchRequest, type SearchResponse, type SearchHit, type ScopedOut, type SearchEngineOptions, type SearchMode } from './vault-search.js';
export { VectorIndex, type VectorEntry, type VectorHit, type VectorScope, type VectorSource } from './vector-index.js';
export { fuseRrf, FUSION_DEFAULTS, type FusionOptions, type FusedDocument } from './fusion.js';
export { searchVault, planWordings, fuseWordings, MAX_ALTERNATIVES, type PipelineRequest, type QueryVectorSource } from './pipeline.js';
export { analyzeQuery, functionWordLanguage, type AnalyzedQuery } from './query.js';
export { NameIndex, type SharedName } from './names.js';
export { moreLikeThis, distinctiveTerms, MORE_LIKE_THIS, type SimilarNote } from './more-like-this.js';
