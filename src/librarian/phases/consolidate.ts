/**
 * Consolidation: entities changed since their last check are matched against the graph for
 * likely duplicates; the candidate pairs become merge proposals (judged by a model when one is
 * configured, otherwise left for a human).
 */
import type Database from 'better-sqlite3';
import { findMergeCandidates, listProposals, proposeMerges, type Candidate } from '../../graph/index.js';
import { SWEEP_DEFAULTS, type Acted, type Phase, type Plan, type SweepOptions } from './phase.js';

export interface ConsolidatePlan extends Plan {
  /** The changed entities this sweep checks. */
  slice: number[];
  candidates: Candidate[];
}

type Judging = Pick<SweepOptions, 'adjudicator' | 'adjudicates' | 'consolidateSlice'>;

/** A model judges the candidates (when acting, or in a dry run estimating what acting would cost). */
export function judged(options: Judging): boolean {
  return options.adjudicator !== undefined || options.adjudicates === true;
}

/** Changed entities checked per sweep: the configured slice, else 200 when a model judges (paid calls), else all. */
export function sliceLimit(options: Judging): number {
  return options.consolidateSlice ?? (judged(options) ? SWEEP_DEFAULTS.consolidateSlice : Number.MAX_SAFE_INTEGER);
}

export function consolidatePlan(slice: number[], candidates: Candidate[], { isJudged }: { isJudged: boolean }): ConsolidatePlan {
  const estimate = isJudged ? candidates.length * SWEEP_DEFAULTS.adjudicationUsd : 0;
  return {
    summary: `${slice.length} changed entities to check, ${candidates.length} candidate pairs${isJudged ? ' to adjudicate' : ' for a human to review'}`,
    counts: { entities: slice.length, candidates: candidates.length },
    estimatedCostUsd: estimate,
    slice,
    candidates,
  };
}

function changedEntities(db: Database.Database, limit: number): number[] {
  return db
    .prepare(
      `SELECT e.id FROM entities e LEFT JOIN consolidation_checked c ON c.entity_id = e.id
    WHERE e.merged_into IS NULL AND (c.entity_id IS NULL OR c.updated != e.updated) ORDER BY e.id LIMIT ?`,
    )
    .pluck()
    .all(limit) as number[];
}

export const consolidatePhase: Phase<ConsolidatePlan> = {
  name: 'consolidate',
  plan(ctx) {
    const slice = changedEntities(ctx.db, sliceLimit(ctx.options));
    const candidates = slice.length === 0 ? [] : findMergeCandidates(ctx.db, { only: new Set(slice), vectorModel: ctx.model });
    return consolidatePlan(slice, candidates, { isJudged: judged(ctx.options) });
  },
  async act({ slice, candidates }, ctx): Promise<Acted> {
    if (slice.length === 0) return { summary: 'nothing changed since the last check', counts: { entities: 0, proposed: 0 }, costUsd: 0 };
    const { db, options } = ctx;
    const proposed = await proposeMerges(db, { candidates, ...(options.adjudicator ? { adjudicator: options.adjudicator } : {}), now: ctx.now });
    const mark = db.prepare('INSERT OR REPLACE INTO consolidation_checked (entity_id, updated) SELECT id, updated FROM entities WHERE id = ?');
    db.transaction(() => {
      for (const id of slice) mark.run(id);
    })();
    const pending = listProposals(db, 'pending').length;
    return { summary: `${slice.length} entities checked, ${proposed.length} new merge proposals, ${pending} pending`, counts: { entities: slice.length, proposed: proposed.length, pending }, costUsd: 0 };
  },
};
