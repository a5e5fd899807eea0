/** Embedding backlog: notes without a vector for the configured model, embedded locally within a time budget. */
import { countBacklog, modelUnavailable, refreshVectors } from '../../embed/index.js';
import { SWEEP_DEFAULTS, type Phase, type Plan } from './phase.js';

/** `unavailable`: why notes cannot be embedded here, or null. */
export function embedPlan(waiting: number, model: string, unavailable: string | null): Plan {
  return { summary: `${waiting} notes wait for a ${model} vector${unavailable && waiting > 0 ? ` (they cannot be embedded here: ${unavailable})` : ''}`, counts: { waiting }, estimatedCostUsd: 0 };
}

export const embedPhase: Phase = {
  name: 'embed',
  plan(ctx) {
    const waiting = countBacklog(ctx.db, ctx.model) + ctx.unindexed.notes;
    return embedPlan(waiting, ctx.model, ctx.options.embed === false ? 'local embedding is off' : modelUnavailable(ctx.options.vectors));
  },
  async act(_plan, ctx) {
    const { options } = ctx;
    const refresh = await refreshVectors(ctx.db, ctx.root, options.vectors, options.log, { embed: options.embed !== false, progress: false, budgetMs: options.embedBudgetMs ?? SWEEP_DEFAULTS.embedBudgetMs });
    const embedded = refresh.backlog?.notes ?? 0;
    const remaining = refresh.backlog?.remaining ?? countBacklog(ctx.db, ctx.model);
    const why = refresh.embedder.reason ? ` — not embedding: ${refresh.embedder.reason}` : '';
    return { summary: `${refresh.imported} Smart Connections vectors reused, ${embedded} notes embedded, ${remaining} waiting${why}`, counts: { imported: refresh.imported, embedded, remaining }, costUsd: 0 };
  },
};
