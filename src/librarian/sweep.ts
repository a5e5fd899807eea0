/**
 * One Librarian sweep: proposals ticked in Librarian.md → index backlog → embedding backlog → extraction backlog (budgeted) →
 * cleanup → organize → consolidation proposals (a bounded slice) → health → map (when enough changed) → report. Each phase
 * (one file each under `phases/`) is a `plan()` that only reads (what it would do and what it
 * would cost) and an `act()` given that plan. A dry run stops after the plans: no write to the
 * vault or the state, no paid call. A failing phase is recorded and the others still run. Every
 * change carries the sweep's run id.
 *
 * The caller holds the index lock and, for a dry run, passes a session over a snapshot of the state database.
 */
import { countBacklog } from '../embed/index.js';
import { approvalsPhase } from './phases/approvals.js';
import { cleanupPhase } from './phases/cleanup.js';
import { consolidatePhase } from './phases/consolidate.js';
import { embedPhase } from './phases/embed.js';
import { extractPhase } from './phases/extract.js';
import { healthPhase } from './phases/health.js';
import { indexPhase } from './phases/index-notes.js';
import { mapPhase } from './phases/map.js';
import { organizePhase } from './phases/organize.js';
import { isSkipped, message, PHASES, type Phase, type PhaseReport, type SweepContext, type SweepOptions, type SweepReport } from './phases/phase.js';
import { fillProposals, reportPhase } from './phases/report.js';

export { BACKLOG_PHASES, SWEEP_DEFAULTS, PHASES, type PhaseName, type PhaseReport, type SweepOptions, type SweepReport } from './phases/phase.js';

/** The phases in the order they run (`PHASES` names them, for options and the CLI). */
const SWEEP: readonly Phase[] = [approvalsPhase, indexPhase, embedPhase, extractPhase, cleanupPhase, organizePhase, consolidatePhase, healthPhase, mapPhase, reportPhase];

export async function runSweep(options: SweepOptions): Promise<SweepReport> {
  const ctx = startSweep(options);
  const wanted = new Set(options.phases ?? PHASES);
  for (const phase of SWEEP) {
    if (!wanted.has(phase.name)) continue;
    if (options.signal?.aborted) {
      ctx.report.stopped = `stopped before ${phase.name}: ${String(options.signal.reason ?? 'shutdown')}`;
      break;
    }
    await runPhase(phase, ctx);
  }
  return finishSweep(ctx);
}

/** The sweep's context and empty report; when acting, its `runs` row, and stale temp files cleared. */
function startSweep(options: SweepOptions): SweepContext {
  const now = options.now ?? Date.now;
  const started = now();
  const { session } = options;
  const report: SweepReport = {
    runId: options.runId,
    kind: options.kind ?? 'sweep',
    dryRun: options.dryRun,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    phases: [],
    health: [],
    moves: [],
    proposals: { organize: [], merges: [], more: 0 },
    coverage: { notes: 0, withVectors: 0 },
    errors: [],
  };
  if (!options.dryRun) {
    session.db.prepare("INSERT INTO runs (id, kind, started_at, status) VALUES (?, ?, ?, 'running')").run(options.runId, report.kind, report.startedAt);
    // Temporary files a killed write left behind (they hold up to a whole note each).
    options.writer.sweepStaleTemps();
  }
  return {
    options,
    session,
    db: session.db,
    root: session.vault,
    agentRoot: session.settings.agentRoot,
    model: options.vectors.model,
    now,
    started,
    report,
    unindexed: { notes: 0, bytes: 0 },
  };
}

/** Plans one phase and, unless this is a dry run or the plan skips, acts on that plan; a failure is the phase's, not the sweep's. */
async function runPhase(phase: Phase, ctx: SweepContext): Promise<void> {
  const started = ctx.now();
  const entry: PhaseReport = { name: phase.name, status: 'planned', summary: '', counts: {}, estimatedCostUsd: 0, costUsd: 0, durationMs: 0 };
  ctx.report.phases.push(entry);
  try {
    const plan = phase.plan(ctx);
    Object.assign(entry, { summary: plan.summary, counts: plan.counts, estimatedCostUsd: plan.estimatedCostUsd });
    if (isSkipped(plan)) {
      entry.status = 'skipped';
      entry.summary = plan.skip;
    } else if (!ctx.options.dryRun) {
      const acted = await phase.act(plan, ctx);
      Object.assign(entry, { status: 'ok', summary: acted.summary, counts: acted.counts, costUsd: acted.costUsd });
    }
  } catch (error) {
    entry.status = 'failed';
    entry.error = message(error).split('\n')[0] ?? '';
    ctx.report.errors.push(`${phase.name}: ${entry.error}`);
  }
  entry.durationMs = ctx.now() - started;
}

/** Proposals, coverage and duration into the report; when acting, the `runs` row closed with the whole report. */
function finishSweep(ctx: SweepContext): SweepReport {
  const { report, db, options } = ctx;
  fillProposals(db, report);
  const notes = db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  report.coverage = { notes, withVectors: notes - countBacklog(db, ctx.model) };
  report.durationMs = ctx.now() - ctx.started;
  if (!options.dryRun) {
    db.prepare('UPDATE runs SET finished_at = ?, status = ?, report = ? WHERE id = ?').run(new Date(ctx.now()).toISOString(), report.stopped ? 'stopped' : report.errors.length > 0 ? 'errors' : 'ok', JSON.stringify(report), options.runId);
  }
  return report;
}
