/** Organize: file Inbox notes into the folder their neighbours live in (a clear vote), propose the unclear ones. */
import { moveNote, planOrganize, recordProposals, type OrganizePlan } from '../organize.js';
import { message, type Phase, type Plan, type SweepContext } from './phase.js';

export interface OrganizePhasePlan extends Plan {
  /** The organizer's filings, each a move, a proposal or a skip with its reason. */
  organize: OrganizePlan;
}

function countKind(plan: OrganizePlan, kind: string): number {
  return plan.filings.filter((filing) => filing.kind === kind).length;
}

export function organizePlan(organize: OrganizePlan): OrganizePhasePlan {
  const move = countKind(organize, 'move');
  const propose = countKind(organize, 'propose');
  const skip = countKind(organize, 'skip');
  return { summary: `${organize.candidates} candidates: ${move} to move, ${propose} to propose, ${skip} skipped`, counts: { candidates: organize.candidates, move, propose, skip }, estimatedCostUsd: 0, organize };
}

/** Makes the planned moves; one that fails is an error in the report, the others still happen. */
function makeMoves(plan: OrganizePlan, ctx: SweepContext): number {
  const place = { root: ctx.root, db: ctx.db, writer: ctx.options.writer, agentRoot: ctx.agentRoot, exclude: ctx.session.settings.exclude };
  let moved = 0;
  for (const filing of plan.filings) {
    if (filing.kind !== 'move') continue;
    try {
      const result = moveNote(place, filing.path, filing.to, filing.hash);
      ctx.report.moves.push({ moveId: result.moveId, from: filing.path, to: filing.to, share: filing.share, rewritten: result.rewritten.length });
      moved++;
    } catch (error) {
      ctx.report.errors.push(`organize: ${filing.path}: ${message(error)}`);
    }
  }
  return moved;
}

export const organizePhase: Phase<OrganizePhasePlan> = {
  name: 'organize',
  plan: (ctx) => organizePlan(planOrganize(ctx.db, { agentRoot: ctx.agentRoot, model: ctx.model, looseRoot: ctx.options.looseRoot === true })),
  async act({ organize: plan }, ctx) {
    const moved = makeMoves(plan, ctx);
    const proposed = recordProposals(ctx.db, plan.filings, ctx.options.runId, new Date(ctx.now()).toISOString());
    const skipped = countKind(plan, 'skip');
    return { summary: `${plan.candidates} candidates: moved ${moved}, ${proposed.length} proposals, ${skipped} skipped`, counts: { candidates: plan.candidates, moved, proposed: proposed.length, skipped }, costUsd: 0 };
  },
};
