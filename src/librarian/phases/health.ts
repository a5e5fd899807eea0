/**
 * Health: the vault and graph checks, and the golden-set score when one is configured. The checks
 * are the report's in a dry run too, so they run in the plan (they only read).
 */
import type Database from 'better-sqlite3';
import { vectorStatus } from '../../embed/index.js';
import { runHealthChecks, type HealthCheck } from '../health.js';
import { message, type Phase, type Plan, type SweepContext, type SweepOptions, type SweepReport } from './phase.js';

type Score = ReturnType<NonNullable<SweepOptions['evaluate']>>;

export function healthPlan(checks: readonly HealthCheck[]): Plan {
  const faults = checks.filter((check) => !check.ok).length;
  return { summary: faults === 0 ? `all ${checks.length} checks pass` : `${faults} of ${checks.length} checks have findings`, counts: { faults }, estimatedCostUsd: 0 };
}

/** Golden-set score now vs the last sweep that measured one (`before`); a drop of more than 0.02 is a finding. */
export function scoreCheck(score: Score, before: number | null): { check: HealthCheck; eval: NonNullable<SweepReport['eval']> } {
  const delta = before === null ? null : score.value - before;
  const drop = delta !== null && delta < -0.02;
  const line = `${score.metric} ${score.value.toFixed(3)} over ${score.queries} queries${delta === null ? ' (first measurement)' : ` (${delta >= 0 ? '+' : ''}${delta.toFixed(3)} since the last sweep)`}${score.skipped > 0 ? `; ${score.skipped} queries skipped (their notes are gone)` : ''}`;
  return {
    check: { name: 'eval', count: drop ? 1 : 0, ok: !drop, examples: [line] },
    eval: { metric: score.metric, value: score.value, previous: before, delta, queries: score.queries },
  };
}

function evalCheck(ctx: SweepContext, evaluate: NonNullable<SweepOptions['evaluate']>): HealthCheck {
  try {
    const score = evaluate();
    const previous = ctx.db.prepare(`SELECT report FROM runs WHERE report IS NOT NULL AND json_extract(report, '$.eval.value') IS NOT NULL ORDER BY started_at DESC LIMIT 1`).pluck().get() as string | undefined;
    const before = previous ? ((JSON.parse(previous) as SweepReport).eval?.value ?? null) : null;
    const scored = scoreCheck(score, before);
    ctx.report.eval = scored.eval;
    return scored.check;
  } catch (error) {
    return { name: 'eval', count: 0, ok: false, examples: [], error: message(error) };
  }
}

function vectorHealth(db: Database.Database, root: string, options: SweepOptions): { modelMismatch: string | null; embedderUnavailable: string | null } {
  const status = vectorStatus(db, root, options.vectors);
  const sc = status.smart_connections;
  return {
    modelMismatch:
      sc.detected && sc.active_model !== null && !sc.model_matches
        ? (status.warnings.find((warning) => warning.startsWith('Smart Connections embeds with')) ?? `Smart Connections embeds with "${sc.active_model}", Engram with "${options.vectors.model}"`)
        : null,
    embedderUnavailable: status.query_embedder.available ? null : (status.query_embedder.reason ?? 'the embedder is unavailable'),
  };
}

export const healthPhase: Phase = {
  name: 'health',
  plan(ctx) {
    const { report, options } = ctx;
    report.health = runHealthChecks(ctx.db, { root: ctx.root, agentRoot: ctx.agentRoot, model: ctx.model, ...vectorHealth(ctx.db, ctx.root, options) });
    if (options.evaluate) report.health.push(evalCheck(ctx, options.evaluate));
    return healthPlan(report.health);
  },
  act: async (plan) => ({ summary: plan.summary, counts: plan.counts, costUsd: 0 }),
};
