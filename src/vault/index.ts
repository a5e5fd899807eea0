/** The vault: walking and watching it, reading and parsing notes, resolving links. Nothing here writes. */
export { parseNote, type Note } from './parse-note.js';
export { watchVault, type VaultWatcher, type VaultWatchOptions } from './watch.js';
export { walkVault, statVaultPath, type PathStat, type DiskEntry, type Skipped, type WalkOptions, type WalkResult } from './walk.js';
export { readNoteFile, readNoteText, readNoteTextStamped, hashContent, READ_DEFAULTS, type ReadOutcome } from './read-note.js';
export { ASCII_WORD_CHAR, isWordChar, countWords } from './words.js';
export { rewriteLinksForMove, linkWorlds, type NoteMove, type LinkWorlds } from './link-rewrite.js';
export { LinkResolver, linkTargetName, fileTargetName, type Link, type LinkKind, type ResolvedLink } from './links.js';
export type { Block, Heading } from './markdown.js';
export type { Task, TaskPriority } from './tasks.js';
export type { Frontmatter } from './frontmatter.js';
export { pathKey, foldPath, baseName, folderOf, isNotePath, noteName, hasDotSegment, excludedFolder, excludedFolderKeys, type ExcludedFolderProblem } from './paths.js';
export { resolveNotePath, isCanvasPath, type NotePathResult, type NotePathOptions } from './note-path.js';
export { addRelatedEntries, type RelatedEntry, type RelatedEdit } from './related-edit.js';
export { conflictOriginalOf, findSyncConflicts, isNamedConflictCopy, hasMergeConflictMarkers, partialOriginalOf, type PartialFile, type SyncConflict } from './sync-conflicts.js';
