/** Writes: the write layer (atomic, journaled, undoable) and the quarantine that decides what an agent may write. */
export { VaultWriter, WRITE_DEFAULTS, type WriterOptions } from './writer.js';
export { lineDiff, type WriteRequest, type WriteReceipt, type WriteOutcome, type Preview, type MoveRequest, type MoveReceipt } from './requests.js';
export { AGENT_TOOLS, agent, classifyUndo, classifyWrite, GRAPH, journalActor, journalLabel, LIBRARIAN, ORGANIZER, OWNER, type Actor, type RefusalCode, type WriteVerdict, type QuarantineOptions } from './quarantine.js';
export { safeNoteName, freeNotePath, type NameResult } from './names.js';
export { writeFileAtomic } from './atomic.js';
export { VaultFs } from './vault-fs.js';
