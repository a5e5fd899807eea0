/** The knowledge graph: extractors, the SQLite cache, entity notes, the backlog, related notes. */
export * from './model.js';
export { createStructuralExtractor, type LinkedNote } from './extract-structural.js';
export { GraphStore, fileName as entityFileName, type EntityRow } from './store.js';
export { renderEntityNote, type EntityNote } from './entity-notes.js';
export { runGraphIndex, pendingExtractions, writeEntityNotes, GRAPH_DEFAULTS, type GraphIndexOptions, type GraphIndexReport } from './backlog.js';
export { relatedNotes, graphStats, type RelatedNote, type GraphStats } from './related.js';
export { selectAdjudicator, selectExtractor, structuralExtractor, type ExtractorSettings } from './select.js';
export { createAnthropicExtractor, ANTHROPIC_DEFAULTS, type AnthropicExtractorOptions } from './extract-anthropic.js';
export { createClaudeCliExtractor, type ClaudeCliExtractorOptions } from './extract-claude-cli.js';
export { ExtractorError, PROMPT_VERSION, buildExtractionPrompt, EXTRACTION_SCHEMA, redactExtractionInput, type FailureKind } from './prompt.js';
export {
  consolidate,
  proposeMerges,
  findMergeCandidates,
  listProposals,
  applyMerge,
  undoMerge,
  CONSOLIDATE_DEFAULTS,
  type Adjudicator,
  type Candidate,
  type CandidateEntity,
  type Proposal,
  type ConsolidateReport,
  type CandidateOptions,
} from './consolidate.js';
export { createAnthropicAdjudicator, type AnthropicAdjudicatorOptions } from './adjudicate-anthropic.js';
export { needsRebuild, parseEntityNote, rebuildGraphCache, type RebuildReport } from './rebuild.js';
export { redactText, redactValue, describeRedactions, SECRET_KINDS, type SecretKind, type RedactionCounts } from './redact.js';
export { notePrivacy, type PrivacyVerdict } from './privacy.js';
export { readExtractionPause, recordExtractionPause, describePause, releaseFailed, failedExtractions, failureKind, type ExtractionPause } from './pause.js';
export { tagNeighbours, explicitRelations, linkNeighbours, HOP_DECAY, type SignalHit } from './note-signals.js';
