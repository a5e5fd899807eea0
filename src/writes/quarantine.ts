/**
 * The write quarantine, in one place: where an agent may write freely, what is protected, and
 * what needs the human's confirmation. Pure: a vault-relative path (already through the path
 * gate) and the writing tool in, a verdict out.
 */

export interface QuarantineOptions {
  /** The agent-territory folder (ENGRAM_AGENT_ROOT, default `Claude`). */
  agentRoot: string;
}

export type WriteVerdict =
  | { kind: 'free' }
  | { kind: 'confirm'; reason: string }
  | { kind: 'refused'; reason: string };

/** Tools allowed to write entity notes under `<root>/Graph/`. */
const GRAPH_TOOLS = new Set(['graph']);

/** The owner's own command (`engram provision`): what they run is their confirmation. Never an MCP tool's name. */
export const OWNER_TOOL = 'provision';

export function classifyWrite(path: string, tool: string, options: QuarantineOptions): WriteVerdict {
  if (tool === OWNER_TOOL) return { kind: 'free' };
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
  if (inside === 'librarian.md' && tool !== 'librarian') return { kind: 'refused', reason: `${root}/Librarian.md is the caretaker's report; only the Librarian writes it` };
  if (inside === 'audit.md') return { kind: 'refused', reason: `${root}/Audit.md is the write journal's trail; Engram keeps it itself` };
  if ((inside === 'graph' || inside.startsWith('graph/')) && !GRAPH_TOOLS.has(tool)) {
    return { kind: 'refused', reason: `${root}/Graph/ holds entity notes the graph tools maintain; correct facts through them, not by writing the files` };
  }
  return { kind: 'free' };
}

/** The MCP tools through which an agent writes: the only journal entries an agent may undo. */
export const AGENT_TOOLS: ReadonlySet<string> = new Set(['write_note', 'append_note', 'capture', 'add_task', 'log_session', 'upsert_concept', 'undo_write']);

const AUTHORS: Record<string, string> = { librarian: 'the Librarian', graph: 'the graph extractor', organize: 'a filing move', [OWNER_TOOL]: 'the owner\'s `engram provision`' };

/**
 * May an agent undo this journaled write on its own (`free`), only through preview → apply
 * (`confirm`: undoing it changes a note of the human's), or not at all? An agent undoes only
 * what an agent wrote: the caretaker's report and entity notes are undone with their whole run
 * (which keeps report and graph consistent), provisioning only by the owner.
 */
export function classifyUndo(entry: { tool: string; path: string; runId: string; id: number }, options: QuarantineOptions): WriteVerdict {
  if (!AGENT_TOOLS.has(entry.tool)) {
    const author = AUTHORS[entry.tool] ?? `Engram's own ${entry.tool}`;
    const remedy = entry.tool === OWNER_TOOL
      ? `only the owner can undo it, with \`engram undo ${entry.runId}\` on the command line`
      : `ask the human, and undo the whole run with undo_run "${entry.runId}" (or \`engram undo ${entry.runId}\`)`;
    return { kind: 'refused', reason: `write #${entry.id} on ${entry.path} was made by ${author}, not by an agent; an agent undoes only what an agent wrote — ${remedy}` };
  }
  const verdict = classifyWrite(entry.path, 'undo_write', options);
  if (verdict.kind === 'refused') return { kind: 'refused', reason: `undoing write #${entry.id} would change a protected file: ${verdict.reason}` };
  return verdict;
}
