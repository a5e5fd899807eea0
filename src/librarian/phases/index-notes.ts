/** Index backlog: notes new, changed or gone since the last index run. */
import { planIndex, type IndexReport } from '../../index/index.js';
import type { Acted, Phase, Plan, SweepContext } from './phase.js';

type IndexCounts = ReturnType<typeof planIndex>;

export function indexPlan(found: IndexCounts): Plan {
  return { summary: `${found.added} new, ${found.changed} changed, ${found.gone} gone of ${found.notes} notes`, counts: found, estimatedCostUsd: 0 };
}

export function indexActed(run: IndexReport): Acted {
  const moved = run.moved.length;
  return {
    summary: `${run.added} new, ${run.modified} modified, ${moved} moved, ${run.deleted} deleted (${run.notes} notes)`,
    counts: { added: run.added, modified: run.modified, moved, deleted: run.deleted, notes: run.notes },
    costUsd: 0,
  };
}

export const indexPhase: Phase = {
  name: 'index',
  plan(ctx: SweepContext) {
    const found = planIndex(ctx.db, { root: ctx.root, exclude: [...ctx.session.settings.exclude] });
    if (ctx.options.dryRun) ctx.unindexed = { notes: found.added + found.changed, bytes: found.bytes };
    return indexPlan(found);
  },
  // The caller holds the index lock for the whole sweep: the session indexes with its own defaults.
  act: async (_plan, ctx) => indexActed(ctx.session.indexNow()),
};
