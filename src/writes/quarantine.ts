/**
 * The write quarantine, in one place: where an agent may write freely, what is protected, and
 * what needs the human's confirmation. Pure: a vault-relative path (already through the path
 * gate) and the actor who writes in, a verdict out. Authority comes from the actor's kind, never
 * from a tool's name: an MCP tool that happened to be called `graph` is still an agent.
 */
import type { ErrorCode } from '../errors.js';
import { conflictOriginalOf } from '../vault/index.js';

export interface QuarantineOptions {
  /** The agent-territory folder (ENGRAM_AGENT_ROOT, default `Claude`). */
  agentRoot: string;
}

/**
 * Who writes. An agent through one of the MCP tools; the Librarian (its report, or a filing move
 * of its organizer); the graph extractor (entity notes); the owner running `engram provision`,
 * whose command is their confirmation.
 */
export type Actor = { readonly kind: 'agent'; readonly tool: string } | { readonly kind: 'librarian'; readonly task: 'report' | 'organize' } | { readonly kind: 'graph' } | { readonly kind: 'owner' };

export const LIBRARIAN: Actor = { kind: 'librarian', task: 'report' };
export const ORGANIZER: Actor = { kind: 'librarian', task: 'organize' };
export const GRAPH: Actor = { kind: 'graph' };
export const OWNER: Actor = { kind: 'owner' };

/** An agent writing through the MCP tool `tool`. */
export function agent(tool: string): Actor {
  return { kind: 'agent', tool };
}

/** Why a write is refused: the quarantine forbids it, or what it names does not exist. */
export type RefusalCode = Extract<ErrorCode, 'WRITE_REFUSED' | 'NOT_FOUND'>;

export type WriteVerdict = { kind: 'free' } | { kind: 'confirm'; reason: string } | { kind: 'refused'; code: RefusalCode; reason: string };

export function classifyWrite(path: string, by: Actor, options: QuarantineOptions): WriteVerdict {
  if (by.kind === 'owner') return { kind: 'free' };
  // A copy a sync tool left is the human's to reconcile; a numbered name (`Plan 2.md`) may be a
  // note of its own, so only the names sync tools reserve are refused.
  const copy = conflictOriginalOf(path);
  if (copy?.kind === 'temporary copy') return refused(`${path} is a temporary file beside ${copy.original} (an editor's or sync tool's), not a note: write to ${copy.original}`);
  if (copy !== null && copy.kind !== 'numbered copy') return refused(`${path} is a sync conflict copy of ${copy.original}: write to ${copy.original}; the human reconciles the copy`);
  const root = options.agentRoot.replace(/^\/+|\/+$/g, '');
  const normalized = path.normalize('NFC');
  // The agent folder matches exactly: on a case-sensitive disk `claude/` would be a new folder
  // next to `Claude/`, not agent territory. (The path gate returns existing notes' real
  // spelling, so on a case-insensitive disk `claude/x.md` arrives as `Claude/x.md`.)
  if (!normalized.startsWith(`${root.normalize('NFC')}/`)) {
    return { kind: 'confirm', reason: `${path} is outside ${root}/, which belongs to the human: the change needs their confirmation` };
  }
  const inside = normalized.slice(root.length + 1).toLowerCase();
  // The constitution is the human's rules: an agent may propose a change, which the human
  // approves through preview → apply (or elicitation) like any note of theirs.
  if (inside === 'readme.md') return { kind: 'confirm', reason: `${root}/README.md is the vault's constitution: a change needs the human's confirmation` };
  if (inside === 'librarian.md' && by.kind !== 'librarian') return refused(`${root}/Librarian.md is the caretaker's report; only the Librarian writes it`);
  if (inside === 'caretaker.md') return refused(`${root}/Caretaker.md is the caretaker lease (which device sweeps); the daemon keeps it`);
  if (inside === 'audit.md') return refused(`${root}/Audit.md is the write journal's trail; Engram keeps it itself`);
  if ((inside === 'graph' || inside.startsWith('graph/')) && by.kind !== 'graph') {
    return refused(`${root}/Graph/ holds entity notes the graph tools maintain; correct facts through them, not by writing the files`);
  }
  return { kind: 'free' };
}

function refused(reason: string, code: RefusalCode = 'WRITE_REFUSED'): WriteVerdict {
  return { kind: 'refused', code, reason };
}

/** The MCP tools through which an agent writes: the only journal entries an agent may undo. */
export const AGENT_TOOLS: ReadonlySet<string> = new Set([
  'write_note',
  'append_note',
  'update_note',
  'capture',
  'add_task',
  'log_session',
  'upsert_concept',
  'undo_write',
  'move_note',
  'create_project',
  'create_issue',
  'update_issue',
  'suggest_relations',
]);

/**
 * How the journal names an actor (its `tool` column, kept as it was so older journals read the
 * same): an agent by its tool, the others by a fixed word.
 */
export function journalLabel(by: Actor): string {
  switch (by.kind) {
    case 'agent':
      return by.tool;
    case 'librarian':
      return by.task === 'organize' ? 'organize' : 'librarian';
    case 'graph':
      return 'graph';
    case 'owner':
      return 'provision';
  }
}

/** The actor a journal label names, or null for a label no actor writes (an older version's). */
export function journalActor(label: string): Actor | null {
  if (AGENT_TOOLS.has(label)) return agent(label);
  for (const actor of [LIBRARIAN, ORGANIZER, GRAPH, OWNER]) if (journalLabel(actor) === label) return actor;
  return null;
}

function authorOf(by: Actor | null, label: string): string {
  switch (by?.kind) {
    case 'librarian':
      return by.task === 'organize' ? 'a filing move' : 'the Librarian';
    case 'graph':
      return 'the graph extractor';
    case 'owner':
      return "the owner's `engram provision`";
    case 'agent':
    case undefined:
      return `Engram's own ${label}`;
  }
}

/**
 * May an agent undo this journaled write on its own (`free`), only through preview → apply
 * (`confirm`: undoing it changes a note of the human's), or not at all? An agent undoes only
 * what an agent wrote: the caretaker's report and entity notes are undone with their whole run
 * (which keeps report and graph consistent), provisioning only by the owner.
 */
export function classifyUndo(entry: { tool: string; path: string; runId: string; id: number }, options: QuarantineOptions): WriteVerdict {
  const author = journalActor(entry.tool);
  if (author?.kind !== 'agent') {
    const remedy =
      author?.kind === 'owner' ? `only the owner can undo it, with \`engram undo ${entry.runId}\` on the command line` : `ask the human, and undo the whole run with undo_run "${entry.runId}" (or \`engram undo ${entry.runId}\`)`;
    return refused(`write #${entry.id} on ${entry.path} was made by ${authorOf(author, entry.tool)}, not by an agent; an agent undoes only what an agent wrote — ${remedy}`);
  }
  const verdict = classifyWrite(entry.path, agent('undo_write'), options);
  if (verdict.kind === 'refused') return refused(`undoing write #${entry.id} would change a protected file: ${verdict.reason}`);
  return verdict;
}
