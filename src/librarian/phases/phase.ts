/**
 * What every sweep phase shares: the sweep's options and report, and the shape of a phase — a
 * `plan(ctx)` that only reads and says what it would do (and cost), and an `act(plan, ctx)` that
 * does exactly that plan. The plan is typed per phase and is all an act gets from it, so no state
 * passes between phases behind the loop's back.
 */
import type Database from 'better-sqlite3';
import type { LogSink, VectorSettings } from '../../embed/index.js';
import type { Adjudicator, Extractor, Proposal } from '../../graph/index.js';
import type { VaultSession } from '../../session/index.js';
import type { VaultWriter } from '../../writes/index.js';
import type { HealthCheck } from '../health.js';
import type { OrganizeProposal } from '../organize.js';

export const SWEEP_DEFAULTS = {
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

export const PHASES = ['approvals', 'index', 'embed', 'extract', 'cleanup', 'organize', 'consolidate', 'health', 'map', 'report'] as const;
export type PhaseName = (typeof PHASES)[number];
/** The daemon's frequent drain: decide what the human ticked, keep the backlogs empty; filing and review wait for the nightly sweep. */
export const BACKLOG_PHASES: readonly PhaseName[] = ['approvals', 'index', 'embed', 'extract'];

export interface SweepOptions {
  /** The vault, its state database, the agent territory, the excluded folders, and index refreshes. */
  session: VaultSession;
  runId: string;
  kind?: 'sweep' | 'backlog';
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

/** What one sweep's phases work with. */
export interface SweepContext {
  readonly options: SweepOptions;
  readonly session: VaultSession;
  readonly db: Database.Database;
  readonly root: string;
  readonly agentRoot: string;
  /** The embedding model whose vectors the phases count and use. */
  readonly model: string;
  readonly now: () => number;
  /** When the sweep started (epoch ms). */
  readonly started: number;
  /** The report being built: acts add the errors they survive and the moves they make; health its checks. */
  readonly report: SweepReport;
  /**
   * In a dry run nothing is indexed, so the index plan records here what it found new or changed
   * and the later plans add it to their backlogs. Zero when acting or when the index phase did not run.
   */
  unindexed: { notes: number; bytes: number };
}

/** What a plan tells the report: what the phase would do and what it would cost. */
export interface Plan {
  summary: string;
  counts: Record<string, number>;
  estimatedCostUsd: number;
}

/** A plan that says the phase has nothing it can do here, and why. */
export interface Skipped extends Plan {
  skip: string;
}

export interface Acted {
  summary: string;
  counts: Record<string, number>;
  costUsd: number;
}

export interface Phase<P extends Plan = Plan> {
  readonly name: PhaseName;
  /** Reads only: no write to the vault or the state, no paid call (a dry run stops here). */
  plan(ctx: SweepContext): P | Skipped;
  act(plan: P, ctx: SweepContext): Promise<Acted>;
}

export function isSkipped(plan: Plan): plan is Skipped {
  return typeof (plan as Partial<Skipped>).skip === 'string';
}

/** An error's first line, for the report. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Indexes what an act wrote (and the audit note), so search sees it before the sweep ends. */
export function reindex(ctx: SweepContext, paths: readonly string[]): void {
  if (paths.length > 0) ctx.session.indexWritten(paths);
}
