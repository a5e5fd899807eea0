/**
 * Approvals: the proposals a human ticked (`[x]`) or cancelled (`[-]`) in `Librarian.md` are
 * decided exactly as `organize_vault` apply and `engram graph consolidate --apply` decide them,
 * and each line is marked with its outcome. Runs first, so a filing ticked last night is made
 * before the organizer looks at the Inbox again.
 */
import { readNoteText } from '../../vault/index.js';
import { LIBRARIAN } from '../../writes/index.js';
import { markOutcomes, readTicks, tickProblem, type Tick, type TickOutcome } from '../approvals.js';
import { decideProposal, pendingProposals, proposalStatus } from '../decide.js';
import { message, reindex, type Acted, type Phase, type Plan, type SweepContext } from './phase.js';

export interface ApprovalsPlan extends Plan {
  /** The report's path in the vault. */
  path: string;
  ticks: Tick[];
}

export function approvalsPlan(path: string, ticks: Tick[]): ApprovalsPlan {
  const approve = ticks.filter((tick) => tick.decision === 'approve').length;
  const summary = ticks.length === 0 ? 'no ticked proposals' : `${ticks.length} ticked proposals to decide (${approve} approved, ${ticks.length - approve} rejected)`;
  return { summary, counts: { ticked: ticks.length, approve, reject: ticks.length - approve }, estimatedCostUsd: 0, path, ticks };
}

/** Decides one tick through the CLI's own code path; the outcome as the line will show it. */
async function decide(tick: Tick, ctx: SweepContext, at: string): Promise<string> {
  const place = { root: ctx.root, db: ctx.db, writer: ctx.options.writer, agentRoot: ctx.agentRoot, exclude: ctx.session.settings.exclude, model: ctx.model, now: ctx.now };
  const decided = await decideProposal(place, tick, at);
  reindex(ctx, decided.written);
  return decided.outcome;
}

export const approvalsPhase: Phase<ApprovalsPlan> = {
  name: 'approvals',
  plan(ctx) {
    const path = `${ctx.agentRoot}/Librarian.md`;
    const read = readNoteText(`${ctx.root}/${path}`);
    return approvalsPlan(path, read.ok ? readTicks(read.text) : []);
  },
  async act({ path, ticks }, ctx): Promise<Acted> {
    if (ticks.length === 0) return { summary: 'no ticked proposals', counts: { ticked: 0 }, costUsd: 0 };
    const at = new Date(ctx.now()).toISOString();
    const pending = pendingProposals(ctx.db);
    const outcomes: TickOutcome[] = [];
    // The same proposal can be listed by several sweeps' sections: the first tick decides it.
    const decided = new Set<string>();
    for (const tick of ticks) {
      const key = `${tick.kind}#${tick.id}`;
      const problem = decided.has(key) ? 'decided by another line of this report' : tickProblem(tick, pending, (kind, id) => proposalStatus(ctx.db, kind, id));
      let outcome: string;
      try {
        outcome = problem === null ? await decide(tick, ctx, at) : `not applied: ${problem}`;
      } catch (error) {
        outcome = `not applied: ${message(error)}`;
      }
      if (problem === null) decided.add(key);
      outcomes.push({ tick, outcome });
    }
    const receipt = ctx.options.writer.write({ by: LIBRARIAN, path, next: (current) => markOutcomes(current ?? '', outcomes, at.slice(0, 16).replace('T', ' ') + ' UTC') });
    reindex(ctx, [receipt.path]);
    const applied = outcomes.filter(({ outcome }) => outcome.startsWith('applied')).length;
    const rejected = outcomes.filter(({ outcome }) => outcome === 'rejected').length;
    const refused = outcomes.length - applied - rejected;
    return { summary: `${applied} applied, ${rejected} rejected, ${refused} not applied (see the lines in ${path})`, counts: { ticked: ticks.length, applied, rejected, refused }, costUsd: 0 };
  },
};
