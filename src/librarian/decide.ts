/**
 * Deciding one proposal — a filing or a merge, approved or rejected — through the code the CLI
 * and the tools use (`decideProposals`, as `organize_vault` does; `consolidate`, as
 * `engram graph consolidate --apply` does). The approvals phase (a tick in `Librarian.md`) and the
 * local page's buttons both come here, so a decision is journaled and undoable the same way
 * wherever it was made.
 */
import type Database from 'better-sqlite3';
import { consolidate, GraphStore, listProposals } from '../graph/index.js';
import type { VaultWriter } from '../writes/index.js';
import { filingSubject, mergeSubject, type ListedProposal, type ProposalKind } from './approvals.js';
import { decideProposals, listOrganizeProposals } from './organize.js';

export interface DecidePlace {
  root: string;
  db: Database.Database;
  writer: VaultWriter;
  agentRoot: string;
  exclude: readonly string[];
  /** The vector model, for the merged entity's vector. */
  model: string;
  now: () => number;
}

export interface Decision {
  kind: ProposalKind;
  id: number;
  decision: 'approve' | 'reject';
}

export interface Decided {
  /** Past tense, as a report line shows it: `applied: …`, `rejected`. */
  outcome: string;
  /** Vault paths a merge rewrote that still need indexing (a filing indexes its own move). */
  written: string[];
  /** What undoes it, when something changed: `move:N` or `merge:N`. */
  undo: string | null;
}

/** Every pending proposal as its report line names it. */
export function pendingProposals(db: Database.Database): ListedProposal[] {
  return [
    ...listOrganizeProposals(db).map((p): ListedProposal => ({ kind: 'filing', id: p.id, subject: filingSubject(p.path, p.target) })),
    ...listProposals(db, 'pending').map((p): ListedProposal => ({ kind: 'merge', id: p.id, subject: mergeSubject(p.loser, p.winner) })),
  ];
}

/** A proposal's status (`pending`, `applied`, …), or null when there is no such proposal. */
export function proposalStatus(db: Database.Database, kind: ProposalKind, id: number): string | null {
  const table = kind === 'filing' ? 'organize_proposals' : 'proposals';
  return (db.prepare(`SELECT status FROM ${table} WHERE id = ?`).pluck().get(id) as string | undefined) ?? null;
}

/** Decides one pending proposal; the caller has checked it is still what the human reviewed, and holds the index lock. */
export async function decideProposal(place: DecidePlace, { kind, id, decision }: Decision, at: string): Promise<Decided> {
  const { db } = place;
  if (kind === 'filing') {
    const decided = decideProposals(place, decision === 'approve' ? { apply: [id] } : { reject: [id] }, at);
    const moved = decided.applied[0];
    return moved ? { outcome: `applied: moved to ${moved.to} (\`engram undo move:${moved.moveId}\` reverts it)`, written: [], undo: `move:${moved.moveId}` } : { outcome: 'rejected', written: [], undo: null };
  }
  if (decision === 'reject') {
    db.prepare("UPDATE proposals SET status = 'rejected', decided = ? WHERE id = ? AND status = 'pending'").run(at, id);
    return { outcome: 'rejected', written: [], undo: null };
  }
  const report = await consolidate(new GraphStore(db, place.agentRoot), db, place.writer, { apply: [id], now: place.now, vectorModel: place.model });
  return { outcome: `applied (\`engram undo merge:${id}\` reverts it)`, written: report.written, undo: `merge:${id}` };
}
