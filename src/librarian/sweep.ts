/**
 * One Librarian sweep: index backlog → embedding backlog → extraction backlog (budgeted) →
 * cleanup → organize → consolidation proposals (a bounded slice) → health → report. Each phase
 * is a `plan()` that only reads (what it would do and what it would cost) and an `act()`. A dry
 * run stops after the plans: no write to the vault or the state, no paid call. A failing phase
 * is recorded and the others still run. Every change carries the sweep's run id.
 *
 * The caller holds the sweep lock and, for a dry run, passes a snapshot of the state database.
 */
import type Database from 'better-sqlite3';
import { countBacklog, modelUnavailable, refreshVectors, vectorStatus, type LogSink, type VectorSettings } from '../embed/index.js';
import {
  describeRedactions, findMergeCandidates, GraphStore, listProposals, pendingExtractions, proposeMerges, runGraphIndex, writeEntityNotes,
  type Adjudicator, type Candidate, type Extractor, type Proposal,
} from '../graph/index.js';
import { indexPaths, planIndex, runIndex } from '../index/index.js';
import { lexicalExtension } from '../search/index.js';
import { LIBRARIAN, type VaultWriter } from '../writes/index.js';
import { runHealthChecks, type HealthCheck } from './health.js';
import { listOrganizeProposals, moveNote, planOrganize, recordProposals, type OrganizePlan, type OrganizeProposal } from './organize.js';
import { mergeReport, renderSection } from './report.js';

export const DEFAULTS = {
  /** Notes an LLM extractor handles per sweep at most (the local structural one has no cap). */
  maxExtractNotes: 200,
  /** Extraction spend per sweep at most (USD, estimated). */
  maxExtractCostUsd: 1,
  /** Time for local embedding per sweep. */
  embedBudgetMs: 5 * 60_000,
  /**
   * Changed entities the consolidation slice looks at per sweep when a model judges the
   * candidates (each judgement is a paid call). Unjudged, every changed entity is checked: the
   * candidate search indexes the whole graph anyway, so a smaller slice saves nothing.
   */
  consolidateSlice: 200,
  /** Rough token cost of one extraction beyond the note itself (prompt, schema, known entities) and its answer. */
  extractPromptTokens: 1500,
  extractOutputTokens: 600,
  /** USD per million tokens for estimates (Haiku-class list price). */
  inputPerMTok: 1,
  outputPerMTok: 5,
  /** One adjudication (two entities' evidence and the verdict), Sonnet-class. */
  adjudicationUsd: 0.006,
  /** Proposals listed in the report and the status; the rest are counted. */
  listedProposals: 20,
} as const;

export const PHASES = ['index', 'embed', 'extract', 'cleanup', 'organize', 'consolidate', 'health', 'report'] as const;
export type PhaseName = (typeof PHASES)[number];
/** The daemon's frequent drain: keep the backlogs empty, leave filing and review to the nightly sweep. */
export const BACKLOG_PHASES: readonly PhaseName[] = ['index', 'embed', 'extract'];

export interface SweepOptions {
  root: string;
  db: Database.Database;
  agentRoot: string;
  runId: string;
  kind?: 'sweep' | 'backlog';
  exclude: readonly string[];
  vectors: VectorSettings;
  log: LogSink;
  extractor: Extractor | null;
  adjudicator?: Adjudicator | undefined;
  /** A model adjudicates merge candidates when acting (set in a dry run too, for the cost estimate). */
  adjudicates?: boolean;
  /** Writes into the vault under the sweep's run id (unused in a dry run). */
  writer: VaultWriter;
  dryRun: boolean;
  phases?: readonly PhaseName[];
  /** Embed notes locally (default true; the model must be installed). */
  embed?: boolean;
  looseRoot?: boolean;
  maxExtractNotes?: number;
  maxExtractCostUsd?: number;
  maxExtractTokens?: number;
  embedBudgetMs?: number;
  consolidateSlice?: number;
  /** A golden-set score for the health phase (ENGRAM_GOLDEN), compared with the previous sweep's. */
  evaluate?: (() => { metric: string; value: number; queries: number; skipped: number }) | undefined;
  /** Checked between phases: a shutdown stops the sweep at the next phase boundary. */
  signal?: AbortSignal;
  now?: () => number;
}

export interface PhaseReport {
  name: PhaseName;
  status: 'planned' | 'ok' | 'failed' | 'skipped';
  summary: string;
  counts: Record<string, number>;
  estimatedCostUsd: number;
  costUsd: number;
  durationMs: number;
  error?: string;
}

export interface SweepReport {
  runId: string;
  kind: 'sweep' | 'backlog';
  dryRun: boolean;
  startedAt: string;
  durationMs: number;
  phases: PhaseReport[];
  health: HealthCheck[];
  moves: { moveId: number; from: string; to: string; share: number; rewritten: number }[];
  proposals: { organize: OrganizeProposal[]; merges: Proposal[]; more: number };
  coverage: { notes: number; withVectors: number };
  /** The golden-set score and its change since the last sweep that measured it. */
  eval?: { metric: string; value: number; previous: number | null; delta: number | null; queries: number };
  errors: string[];
  /** Set when the sweep stopped early (shutdown). */
  stopped?: string;
}

interface Plan {
  summary: string;
  counts: Record<string, number>;
  estimatedCostUsd: number;
  skip?: string;
}

interface Acted {
  summary: string;
  counts: Record<string, number>;
  costUsd: number;
}

interface Phase {
  name: PhaseName;
  plan(): Plan;
  act(plan: Plan): Promise<Acted>;
}

export async function runSweep(options: SweepOptions): Promise<SweepReport> {
  const now = options.now ?? Date.now;
  const started = now();
  const { db, agentRoot } = options;
  const report: SweepReport = {
    runId: options.runId, kind: options.kind ?? 'sweep', dryRun: options.dryRun, startedAt: new Date(started).toISOString(), durationMs: 0,
    phases: [], health: [], moves: [], proposals: { organize: [], merges: [], more: 0 }, coverage: { notes: 0, withVectors: 0 }, errors: [],
  };
  const wanted = new Set(options.phases ?? PHASES);
  const reindex = (paths: readonly string[]) => {
    if (paths.length > 0) indexPaths(db, [...paths, `${agentRoot}/Audit.md`], { root: options.root, exclude: [...options.exclude], extensions: [lexicalExtension()] });
  };
  if (!options.dryRun) {
    db.prepare("INSERT INTO runs (id, kind, started_at, status) VALUES (?, ?, ?, 'running')").run(options.runId, report.kind, report.startedAt);
    // Temporary files a killed write left behind (they hold up to a whole note each).
    options.writer.sweepStaleTemps();
  }

  // In a dry run nothing is indexed, so later plans add what the index plan found new or changed.
  let unindexed = { notes: 0, bytes: 0 };
  // What a phase's plan found, for its act (which runs right after it, nothing in between).
  let slice: number[] = [];
  let mergeCandidates: Candidate[] = [];
  let organizePlan: OrganizePlan | null = null;
  const model = options.vectors.model;
  const phases: Phase[] = [
    {
      name: 'index',
      plan: () => {
        const plan = planIndex(db, { root: options.root, exclude: [...options.exclude] });
        if (options.dryRun) unindexed = { notes: plan.added + plan.changed, bytes: plan.bytes };
        return { summary: `${plan.added} new, ${plan.changed} changed, ${plan.gone} gone of ${plan.notes} notes`, counts: plan, estimatedCostUsd: 0 };
      },
      act: async () => {
        const run = runIndex(db, { root: options.root, exclude: [...options.exclude], extensions: [lexicalExtension()] });
        const moved = run.moved.length;
        return { summary: `${run.added} new, ${run.modified} modified, ${moved} moved, ${run.deleted} deleted (${run.notes} notes)`, counts: { added: run.added, modified: run.modified, moved, deleted: run.deleted, notes: run.notes }, costUsd: 0 };
      },
    },
    {
      name: 'embed',
      plan: () => {
        const waiting = countBacklog(db, model) + unindexed.notes;
        const unavailable = options.embed === false ? 'local embedding is off' : modelUnavailable(options.vectors);
        return { summary: `${waiting} notes wait for a ${model} vector${unavailable && waiting > 0 ? ` (they cannot be embedded here: ${unavailable})` : ''}`, counts: { waiting }, estimatedCostUsd: 0 };
      },
      act: async () => {
        const refresh = await refreshVectors(db, options.root, options.vectors, options.log, { embed: options.embed !== false, progress: false, budgetMs: options.embedBudgetMs ?? DEFAULTS.embedBudgetMs });
        const embedded = refresh.backlog?.notes ?? 0;
        const remaining = refresh.backlog?.remaining ?? countBacklog(db, model);
        const why = refresh.embedder.reason ? ` — not embedding: ${refresh.embedder.reason}` : '';
        return { summary: `${refresh.imported} Smart Connections vectors reused, ${embedded} notes embedded, ${remaining} waiting${why}`, counts: { imported: refresh.imported, embedded, remaining }, costUsd: 0 };
      },
    },
    {
      name: 'extract',
      plan: (): Plan => {
        const extractor = options.extractor;
        if (extractor === null) return { summary: 'no extractor configured', counts: {}, estimatedCostUsd: 0, skip: 'no extractor (ENGRAM_EXTRACTOR=none)' };
        const stored = pendingExtractions(db, extractor, agentRoot);
        const pending = { notes: stored.notes + unindexed.notes, bytes: stored.bytes + unindexed.bytes };
        const maxNotes = noteCap(options, extractor);
        const notes = Math.min(pending.notes, maxNotes);
        const share = pending.notes === 0 ? 0 : notes / pending.notes;
        const inputTokens = Math.round(pending.bytes * share / 4 + notes * DEFAULTS.extractPromptTokens);
        const outputTokens = notes * DEFAULTS.extractOutputTokens;
        const paid = extractor.backend === 'anthropic';
        const estimate = paid ? Math.min(options.maxExtractCostUsd ?? DEFAULTS.maxExtractCostUsd, (inputTokens * DEFAULTS.inputPerMTok + outputTokens * DEFAULTS.outputPerMTok) / 1e6) : 0;
        const tokens = extractor.backend === 'structural' ? '' : `, about ${inputTokens} input and ${outputTokens} output tokens`;
        return { summary: `${extractor.backend}: ${notes} of ${pending.notes} waiting notes this sweep${tokens}`, counts: { waiting: pending.notes, planned: notes, inputTokens, outputTokens }, estimatedCostUsd: estimate };
      },
      act: async () => {
        const extractor = options.extractor!;
        const run = await runGraphIndex({
          root: options.root, db, extractor, writer: options.writer, agentRoot, vectorModel: model,
          maxNotes: noteCap(options, extractor), maxCostUsd: options.maxExtractCostUsd ?? DEFAULTS.maxExtractCostUsd,
          ...(options.maxExtractTokens === undefined ? {} : { maxTokens: options.maxExtractTokens }),
        });
        reindex(run.written);
        report.errors.push(...run.errors.map((error) => `extract: ${error}`));
        const tokens = run.inputTokens + run.outputTokens > 0 ? `; tokens ${run.inputTokens} in, ${run.outputTokens} out` : '';
        const redacted = describeRedactions(run.redacted);
        const privacy = `${run.skippedPrivate > 0 ? `; ${run.skippedPrivate} private notes not sent` : ''}${redacted === '' ? '' : `; secrets redacted before sending: ${redacted}`}`;
        return {
          summary: `${extractor.backend}: ${run.processed} notes extracted, ${run.failed} failed, ${run.remaining} remaining; ${run.entityNotesWritten} entity notes written${tokens}${privacy}`,
          counts: { processed: run.processed, failed: run.failed, remaining: run.remaining, entityNotes: run.entityNotesWritten, inputTokens: run.inputTokens, outputTokens: run.outputTokens },
          costUsd: run.costUsd,
        };
      },
    },
    {
      name: 'cleanup',
      plan: () => {
        const toMerged = db.prepare(`SELECT count(*) FROM relations r JOIN entities a ON a.id = r.from_id JOIN entities b ON b.id = r.to_id
          WHERE a.merged_into IS NOT NULL OR b.merged_into IS NOT NULL`).pluck().get() as number;
        const dirty = db.prepare('SELECT count(*) FROM entities WHERE dirty = 1').pluck().get() as number;
        const orphans = db.prepare(`SELECT count(*) FROM entities e WHERE e.merged_into IS NULL AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)
          AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.from_id = e.id OR r.to_id = e.id)`).pluck().get() as number;
        const interrupted = (db.prepare('SELECT count(*) FROM moves WHERE completed_at IS NULL AND undone_at IS NULL').pluck().get() as number);
        return { summary: `${toMerged} relations to merged entities, ${dirty} entity notes out of date, ${orphans} orphan entities${interrupted > 0 ? `, ${interrupted} interrupted moves to roll back` : ''}`, counts: { toMerged, dirty, orphans, interrupted }, estimatedCostUsd: 0 };
      },
      act: async (plan) => {
        // A move a kill interrupted is rolled back (every file to its state before the move).
        const rolledBack: string[] = [];
        for (const id of db.prepare('SELECT id FROM moves WHERE completed_at IS NULL AND undone_at IS NULL ORDER BY id').pluck().all() as number[]) {
          try {
            const undone = options.writer.undoMove(id);
            rolledBack.push(undone.from, undone.to, ...undone.restored);
          } catch (error) {
            report.errors.push(`cleanup: interrupted move ${id}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        reindex(rolledBack);
        const store = new GraphStore(db, agentRoot);
        const repaired = store.repointMergedRelations();
        const notes = { entityNotesWritten: 0, written: [] as string[], errors: report.errors };
        writeEntityNotes(store, options.writer, notes);
        reindex(notes.written);
        const interrupted = plan.counts.interrupted ?? 0;
        return {
          summary: `${repaired} relations repointed to merged entities' winners, ${notes.entityNotesWritten} entity notes rewritten, ${plan.counts.orphans ?? 0} orphan entities flagged${interrupted > 0 ? `, ${interrupted} interrupted moves rolled back` : ''}`,
          counts: { repaired, rewritten: notes.entityNotesWritten, orphans: plan.counts.orphans ?? 0, interrupted }, costUsd: 0,
        };
      },
    },
    {
      name: 'organize',
      plan: () => {
        const planned = (organizePlan = planOrganize(db, { agentRoot, model, looseRoot: options.looseRoot === true }));
        const count = (kind: string) => planned.filings.filter((filing) => filing.kind === kind).length;
        return { summary: `${planned.candidates} candidates: ${count('move')} to move, ${count('propose')} to propose, ${count('skip')} skipped`, counts: { candidates: planned.candidates, move: count('move'), propose: count('propose'), skip: count('skip') }, estimatedCostUsd: 0 };
      },
      act: async () => {
        const plan = organizePlan!;
        let moved = 0;
        for (const filing of plan.filings) {
          if (filing.kind !== 'move') continue;
          try {
            const result = moveNote({ root: options.root, db, writer: options.writer, agentRoot, exclude: options.exclude }, filing.path, filing.to, filing.hash);
            report.moves.push({ moveId: result.moveId, from: filing.path, to: filing.to, share: filing.share, rewritten: result.rewritten.length });
            moved++;
          } catch (error) {
            report.errors.push(`organize: ${filing.path}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        const proposed = recordProposals(db, plan.filings, options.runId, new Date(now()).toISOString());
        const skipped = plan.filings.filter((filing) => filing.kind === 'skip').length;
        return { summary: `${plan.candidates} candidates: moved ${moved}, ${proposed.length} proposals, ${skipped} skipped`, counts: { candidates: plan.candidates, moved, proposed: proposed.length, skipped }, costUsd: 0 };
      },
    },
    {
      name: 'consolidate',
      plan: (): Plan => {
        const judged = options.adjudicator !== undefined || options.adjudicates === true;
        const limit = options.consolidateSlice ?? (judged ? DEFAULTS.consolidateSlice : Number.MAX_SAFE_INTEGER);
        slice = db.prepare(`SELECT e.id FROM entities e LEFT JOIN consolidation_checked c ON c.entity_id = e.id
          WHERE e.merged_into IS NULL AND (c.entity_id IS NULL OR c.updated != e.updated) ORDER BY e.id LIMIT ?`).pluck().all(limit) as number[];
        mergeCandidates = slice.length === 0 ? [] : findMergeCandidates(db, { only: new Set(slice), vectorModel: model });
        const candidates = mergeCandidates.length;
        const estimate = judged ? candidates * DEFAULTS.adjudicationUsd : 0;
        return { summary: `${slice.length} changed entities to check, ${candidates} candidate pairs${judged ? ' to adjudicate' : ' for a human to review'}`, counts: { entities: slice.length, candidates }, estimatedCostUsd: estimate };
      },
      act: async (): Promise<Acted> => {
        if (slice.length === 0) return { summary: 'nothing changed since the last check', counts: { entities: 0, proposed: 0 }, costUsd: 0 };
        const proposed = await proposeMerges(db, { candidates: mergeCandidates, ...(options.adjudicator ? { adjudicator: options.adjudicator } : {}), now });
        const mark = db.prepare('INSERT OR REPLACE INTO consolidation_checked (entity_id, updated) SELECT id, updated FROM entities WHERE id = ?');
        db.transaction(() => { for (const id of slice) mark.run(id); })();
        const pending = listProposals(db, 'pending').length;
        return { summary: `${slice.length} entities checked, ${proposed.length} new merge proposals, ${pending} pending`, counts: { entities: slice.length, proposed: proposed.length, pending }, costUsd: 0 };
      },
    },
    {
      name: 'health',
      plan: () => {
        report.health = runHealthChecks(db, { root: options.root, agentRoot, model, ...vectorHealth(db, options) });
        if (options.evaluate) report.health.push(evalCheck(db, report, options.evaluate));
        const faults = report.health.filter((check) => !check.ok).length;
        return { summary: faults === 0 ? `all ${report.health.length} checks pass` : `${faults} of ${report.health.length} checks have findings`, counts: { faults }, estimatedCostUsd: 0 };
      },
      act: async (plan) => ({ summary: plan.summary, counts: plan.counts, costUsd: 0 }),
    },
    {
      name: 'report',
      plan: () => ({ summary: `a dated section on top of ${agentRoot}/Librarian.md`, counts: {}, estimatedCostUsd: 0 }),
      act: async () => {
        fillProposals(db, report);
        report.durationMs = now() - started;
        const section = renderSection(report);
        const receipt = options.writer.write({ by: LIBRARIAN, path: `${agentRoot}/Librarian.md`, next: (current) => mergeReport(current, section) });
        reindex([receipt.path]);
        return { summary: `written to ${receipt.path}`, counts: {}, costUsd: 0 };
      },
    },
  ];

  for (const phase of phases) {
    if (!wanted.has(phase.name)) continue;
    if (options.signal?.aborted) {
      report.stopped = `stopped before ${phase.name}: ${String(options.signal.reason ?? 'shutdown')}`;
      break;
    }
    const phaseStart = now();
    const entry: PhaseReport = { name: phase.name, status: 'planned', summary: '', counts: {}, estimatedCostUsd: 0, costUsd: 0, durationMs: 0 };
    report.phases.push(entry);
    try {
      const plan = phase.plan();
      Object.assign(entry, { summary: plan.summary, counts: plan.counts, estimatedCostUsd: plan.estimatedCostUsd });
      if (plan.skip) {
        entry.status = 'skipped';
        entry.summary = plan.skip;
      } else if (!options.dryRun) {
        const acted = await phase.act(plan);
        Object.assign(entry, { status: 'ok', summary: acted.summary, counts: acted.counts, costUsd: acted.costUsd });
      }
    } catch (error) {
      entry.status = 'failed';
      entry.error = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      report.errors.push(`${phase.name}: ${entry.error}`);
    }
    entry.durationMs = now() - phaseStart;
  }
  fillProposals(db, report);
  report.coverage = coverage(db, model);
  report.durationMs = now() - started;
  if (!options.dryRun) {
    db.prepare('UPDATE runs SET finished_at = ?, status = ?, report = ? WHERE id = ?')
      .run(new Date(now()).toISOString(), report.stopped ? 'stopped' : report.errors.length > 0 ? 'errors' : 'ok', JSON.stringify(report), options.runId);
  }
  return report;
}

/**
 * Notes extracted per sweep: the configured cap, else 200 for the LLM extractors (they cost money
 * and time) and none for the structural one, which is local and fast (10k notes in seconds) —
 * capping it would leave a new vault's graph half-built for days of sweeps.
 */
function noteCap(options: SweepOptions, extractor: Extractor): number {
  if (options.maxExtractNotes !== undefined) return options.maxExtractNotes;
  return extractor.backend === 'structural' ? Number.MAX_SAFE_INTEGER : DEFAULTS.maxExtractNotes;
}

/** Golden-set score now vs the last sweep that measured one; a drop of more than 0.02 is a finding. */
function evalCheck(db: Database.Database, report: SweepReport, evaluate: NonNullable<SweepOptions['evaluate']>): HealthCheck {
  try {
    const now = evaluate();
    const previous = (db.prepare(`SELECT report FROM runs WHERE report IS NOT NULL AND json_extract(report, '$.eval.value') IS NOT NULL ORDER BY started_at DESC LIMIT 1`).pluck().get() as string | undefined);
    const before = previous ? (JSON.parse(previous) as SweepReport).eval?.value ?? null : null;
    const delta = before === null ? null : now.value - before;
    report.eval = { metric: now.metric, value: now.value, previous: before, delta, queries: now.queries };
    const drop = delta !== null && delta < -0.02;
    const line = `${now.metric} ${now.value.toFixed(3)} over ${now.queries} queries${delta === null ? ' (first measurement)' : ` (${delta >= 0 ? '+' : ''}${delta.toFixed(3)} since the last sweep)`}${now.skipped > 0 ? `; ${now.skipped} queries skipped (their notes are gone)` : ''}`;
    return { name: 'eval', count: drop ? 1 : 0, ok: !drop, examples: [line] };
  } catch (error) {
    return { name: 'eval', count: 0, ok: false, examples: [], error: error instanceof Error ? error.message : String(error) };
  }
}

function fillProposals(db: Database.Database, report: SweepReport): void {
  const organize = listOrganizeProposals(db);
  const merges = listProposals(db, 'pending');
  const n = DEFAULTS.listedProposals;
  report.proposals = { organize: organize.slice(0, n), merges: merges.slice(0, Math.max(0, n - Math.min(n, organize.length))), more: 0 };
  report.proposals.more = organize.length + merges.length - report.proposals.organize.length - report.proposals.merges.length;
}

function coverage(db: Database.Database, model: string): { notes: number; withVectors: number } {
  const notes = db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  return { notes, withVectors: notes - countBacklog(db, model) };
}

function vectorHealth(db: Database.Database, options: SweepOptions): { modelMismatch: string | null; embedderUnavailable: string | null } {
  const status = vectorStatus(db, options.root, options.vectors);
  const sc = status.smart_connections;
  return {
    modelMismatch: sc.detected && sc.active_model !== null && !sc.model_matches
      ? status.warnings.find((warning) => warning.startsWith('Smart Connections embeds with')) ?? `Smart Connections embeds with "${sc.active_model}", Engram with "${options.vectors.model}"`
      : null,
    embedderUnavailable: status.query_embedder.available ? null : status.query_embedder.reason ?? 'the embedder is unavailable',
  };
}
