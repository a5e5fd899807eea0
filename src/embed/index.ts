/** Embed: the local embedder (transformers.js in a worker thread) and the plugin-identical input prep. */
export { EMBEDDER_DEFAULTS, openEmbedder, type Embedder, type EmbedderOpen, type EmbedderOptions } from './embedder.js';
export { INPUT_DEFAULTS, INPUT_PREP_VERSION, sourceEmbedInput, blockEmbedInput, blockBreadcrumbs, trimToTokenBudget } from './embed-input.js';
export { locateModel, modelFolder, type DtypeChoice, type ModelLocation } from './model-files.js';
export type { ModelDtype } from './protocol.js';
export { importSmartVectors, embedBacklog, countBacklog, BACKLOG_DEFAULTS, type ImportedVector, type BacklogOptions, type BacklogReport } from './backlog.js';
export { refreshVectors, embedQuery, openConfiguredEmbedder, vectorStatus, readSmartConnections, type VectorRefresh, type VectorStatus, type VectorSettings, type LogSink } from './vector-service.js';
export { modelStatus, installModel, pullModel, modelUnavailable, MODEL_REMEDY, type ModelSettings, type ModelStatus } from './model-service.js';
export { KNOWN_MODELS, MODEL_FILES, queryInput } from './model-catalog.js';
export { PROBE_SENTENCE, type ModelManifest } from './model-install.js';
