/** The state store and the incremental index: SQLite state, migrations, locks, change planning. */
export { openStateDb, openStateSnapshot, DB_FILE, type StateDb } from './db.js';
export { migrate, MIGRATIONS, type Migration } from './migrations.js';
export { acquireLock, readLock, isStale, type Lock, type LockInfo, type LockOptions } from './lock.js';
export { planStatChanges, planChanges, type ChangePlan, type StatPlan, type ListedFile, type IndexedFile, type HashedFile } from './plan-changes.js';
export { runIndex, indexPaths, planIndex, PARSER_VERSION, type IndexOptions, type IndexReport, type IndexProgress } from './indexer.js';
export { readStatus, type StatusDoc } from './status.js';
export { vaultId, resolveVaultRoot, ensureStateDir, stateDirFor } from './state-dir.js';
export { resolvePendingLinks } from './link-resolution.js';
export { extensionMetaKey, type IndexExtension } from './extension.js';
export { NoteStore, linkablePaths } from './note-store.js';
export { vectorFromBlob, vectorToBlob } from './vector-blob.js';
export { relationProblems, describeRelationProblems, type RelationProblems } from './relation-problems.js';
