/**
 * Extraction backlog: notes whose entities and relations are not extracted yet, within the
 * sweep's budget (notes, estimated spend, tokens). Entity notes it writes are indexed right away.
 */
import { describeRedactions, pendingExtractions, runGraphIndex, type Extractor, type GraphIndexReport } from '../../graph/index.js';
import { SWEEP_DEFAULTS, reindex, type Acted, type Phase, type Plan, type Skipped, type SweepOptions } from './phase.js';

export interface ExtractPlan extends Plan {
  extractor: Extractor;
  /** Notes this sweep extracts at most. */
  maxNotes: number;
}

type Budget = Pick<SweepOptions, 'maxExtractNotes' | 'maxExtractCostUsd'>;

/**
 * Notes extracted per sweep: the configured cap, else 200 for the LLM extractors (they cost money
 * and time) and none for the structural one, which is local and fast (10k notes in seconds) —
 * capping it would leave a new vault's graph half-built for days of sweeps.
 */
export function noteCap(budget: Budget, backend: Extractor['backend']): number {
  if (budget.maxExtractNotes !== undefined) return budget.maxExtractNotes;
  return backend === 'structural' ? Number.MAX_SAFE_INTEGER : SWEEP_DEFAULTS.maxExtractNotes;
}

/** The notes, tokens and spend this sweep's extraction would take, from what waits (`pending`: notes and their bytes). */
export function extractPlan(extractor: Extractor | null, pending: { notes: number; bytes: number }, budget: Budget): ExtractPlan | Skipped {
  if (extractor === null) return { summary: 'no extractor configured', counts: {}, estimatedCostUsd: 0, skip: 'no extractor (ENGRAM_EXTRACTOR=none)' };
  const maxNotes = noteCap(budget, extractor.backend);
  const notes = Math.min(pending.notes, maxNotes);
  const share = pending.notes === 0 ? 0 : notes / pending.notes;
  const inputTokens = Math.round((pending.bytes * share) / 4 + notes * SWEEP_DEFAULTS.extractPromptTokens);
  const outputTokens = notes * SWEEP_DEFAULTS.extractOutputTokens;
  const paid = extractor.backend === 'anthropic';
  const estimate = paid ? Math.min(budget.maxExtractCostUsd ?? SWEEP_DEFAULTS.maxExtractCostUsd, (inputTokens * SWEEP_DEFAULTS.inputPerMTok + outputTokens * SWEEP_DEFAULTS.outputPerMTok) / 1e6) : 0;
  const tokens = extractor.backend === 'structural' ? '' : `, about ${inputTokens} input and ${outputTokens} output tokens`;
  return {
    summary: `${extractor.backend}: ${notes} of ${pending.notes} waiting notes this sweep${tokens}`,
    counts: { waiting: pending.notes, planned: notes, inputTokens, outputTokens },
    estimatedCostUsd: estimate,
    extractor,
    maxNotes,
  };
}

export function extractActed(backend: Extractor['backend'], run: GraphIndexReport): Acted {
  const tokens = run.inputTokens + run.outputTokens > 0 ? `; tokens ${run.inputTokens} in, ${run.outputTokens} out` : '';
  const redacted = describeRedactions(run.redacted);
  const privacy = `${run.skippedPrivate > 0 ? `; ${run.skippedPrivate} private notes not sent` : ''}${redacted === '' ? '' : `; secrets redacted before sending: ${redacted}`}`;
  if (run.paused) {
    // One line for the whole run, whatever the backlog: every note waits for the fix, none is charged.
    const extracted = run.processed > 0 ? ` (${run.processed} notes extracted before it)` : '';
    return {
      summary: `paused — ${run.paused.reason}${extracted}; ${run.remaining} notes wait`,
      counts: { processed: run.processed, failed: run.failed, remaining: run.remaining, paused: 1, entityNotes: run.entityNotesWritten, inputTokens: run.inputTokens, outputTokens: run.outputTokens },
      costUsd: run.costUsd,
    };
  }
  const backedOff = run.backedOff ? `; stopped after ${run.backedOff.failures} transient failures in a row (last: ${run.backedOff.last}) — the rest wait for the next sweep` : '';
  return {
    summary: `${backend}: ${run.processed} notes extracted, ${run.failed} failed, ${run.remaining} remaining; ${run.entityNotesWritten} entity notes written${tokens}${privacy}${backedOff}`,
    counts: { processed: run.processed, failed: run.failed, remaining: run.remaining, entityNotes: run.entityNotesWritten, inputTokens: run.inputTokens, outputTokens: run.outputTokens },
    costUsd: run.costUsd,
  };
}

export const extractPhase: Phase<ExtractPlan> = {
  name: 'extract',
  plan(ctx) {
    const extractor = ctx.options.extractor;
    const stored = extractor === null ? { notes: 0, bytes: 0 } : pendingExtractions(ctx.db, extractor, ctx.agentRoot);
    return extractPlan(extractor, { notes: stored.notes + ctx.unindexed.notes, bytes: stored.bytes + ctx.unindexed.bytes }, ctx.options);
  },
  async act(plan, ctx) {
    const { options } = ctx;
    const run = await runGraphIndex({
      root: ctx.root,
      db: ctx.db,
      extractor: plan.extractor,
      writer: options.writer,
      agentRoot: ctx.agentRoot,
      vectorModel: ctx.model,
      maxNotes: plan.maxNotes,
      maxCostUsd: options.maxExtractCostUsd ?? SWEEP_DEFAULTS.maxExtractCostUsd,
      ...(options.maxExtractTokens === undefined ? {} : { maxTokens: options.maxExtractTokens }),
    });
    reindex(ctx, run.written);
    ctx.report.errors.push(...run.errors.map((error) => `extract: ${error}`));
    return extractActed(plan.extractor.backend, run);
  },
};
