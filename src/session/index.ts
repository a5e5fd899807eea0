/** The vault session: vault, state, lock, index refresh, search and writers, composed once for the CLI, the daemon and the server. */
export { openVaultSession, sessionOver, vaultWriter, VaultSession, type IndexRunOptions, type LockOutcome, type RefreshOutcome, type SessionSettings, type WriterPlace } from './session.js';
export { relatedLane, RELATED_SIGNALS, RELATED_DEFAULTS, type RelatedSignal, type RelatedResult, type RelatedLaneOptions, type RelatedLaneOutcome } from './related-lane.js';
export { suggestRelations, type RelationSuggestion } from './suggest-relations.js';
