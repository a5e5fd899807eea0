/** Evaluation: golden query sets over a vault, and BEIR-format datasets for the keyword lane. */
export { alsoList, loadGolden, validateGolden, type GoldenQuery } from './golden.js';
export { runGolden, checkFloors, GOLDEN_DEPTH, type GoldenReport, type GoldenMetrics, type GoldenQueryResult, type GoldenSearch, type Floor, type FloorScores } from './run-golden.js';
export { loadBeir, prepareBeir, evaluateBeir, type BeirData, type BeirOptions, type BeirReport } from './beir.js';
export { successAt, recallAt, reciprocalRank, firstRank, ndcgAt, mean, percentile } from './metrics.js';
export { runKnownItems, type KnownItemNote, type KnownItemReport, type KnownItemSearch } from './known-items.js';
export { goldenCheck, type GoldenCheck } from './check.js';
export { Fts5Baseline, fts5Query, type Fts5Document } from './fts5.js';
export { vaultDocuments, runGoldenFts5, describeComparison, evaluateBeirFts5, type Comparison } from './compare.js';
export { convertLocomo, loadLocomo, readLocomo, writeLocomoVault, parseLocomoDate, evidenceSessions, LOCOMO_CATEGORIES, LOCOMO_MARKER, type LocomoVault, type ConvertedNote } from './locomo.js';
export { loadGraphGold, validateGraphGold, countNote, scoreGraph, prf, type GraphGold, type GoldNote, type GoldEntity, type GoldRelation, type GraphScore, type Prf } from './graph.js';
export { runGraphEval, describeGraphEval, GRAPH_EVAL_DEFAULTS, type GraphEvalReport } from './graph-run.js';
