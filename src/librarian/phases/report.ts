/** Report: a dated section on top of the agent territory's `Librarian.md`, with the proposals waiting for a human. */
import type Database from 'better-sqlite3';
import { listProposals, type Proposal } from '../../graph/index.js';
import { LIBRARIAN } from '../../writes/index.js';
import { listOrganizeProposals, type OrganizeProposal } from '../organize.js';
import { mergeReport, renderSection } from '../report.js';
import { SWEEP_DEFAULTS, reindex, type Phase, type SweepReport } from './phase.js';

/** The first `n` proposals, filing ones first, and how many more there are. */
export function listedProposals(organize: OrganizeProposal[], merges: Proposal[], n: number = SWEEP_DEFAULTS.listedProposals): SweepReport['proposals'] {
  const listed = { organize: organize.slice(0, n), merges: merges.slice(0, Math.max(0, n - Math.min(n, organize.length))), more: 0 };
  listed.more = organize.length + merges.length - listed.organize.length - listed.merges.length;
  return listed;
}

export function fillProposals(db: Database.Database, report: SweepReport): void {
  report.proposals = listedProposals(listOrganizeProposals(db), listProposals(db, 'pending'));
}

export const reportPhase: Phase = {
  name: 'report',
  plan: (ctx) => ({ summary: `a dated section on top of ${ctx.agentRoot}/Librarian.md`, counts: {}, estimatedCostUsd: 0 }),
  async act(_plan, ctx) {
    const { report } = ctx;
    fillProposals(ctx.db, report);
    report.durationMs = ctx.now() - ctx.started;
    const section = renderSection(report);
    const receipt = ctx.options.writer.write({ by: LIBRARIAN, path: `${ctx.agentRoot}/Librarian.md`, next: (current) => mergeReport(current, section) });
    reindex(ctx, [receipt.path]);
    return { summary: `written to ${receipt.path}`, counts: {}, costUsd: 0 };
  },
};
