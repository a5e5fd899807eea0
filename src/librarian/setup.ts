/**
 * Sweep options from plain settings (the CLI's and the daemon's environment, read by their
 * composition roots), so `engram librarian` and the daemon's schedules run the same sweep.
 */
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { LogSink, VectorSettings } from '../embed/index.js';
import { selectAdjudicator, selectExtractor, type ExtractorSettings } from '../graph/index.js';
import { sessionOver, VaultSession } from '../session/index.js';
import type { PhaseName, SweepOptions } from './sweep.js';

export interface LibrarianSettings extends VectorSettings, ExtractorSettings {
  agentRoot: string;
  organizeRoot: boolean;
  sweepMaxNotes: number | undefined;
  sweepMaxCostUsd: number | undefined;
  sweepMaxTokens?: number | undefined;
}

/** `sweep-20261130T0330-3f9a1c`: sortable, readable, unique. */
export function newRunId(kind: 'sweep' | 'backlog', now = Date.now()): string {
  return `${kind}-${new Date(now).toISOString().slice(0, 16).replace(/[-:]/g, '')}-${randomBytes(3).toString('hex')}`;
}

export function sweepOptions(
  settings: LibrarianSettings,
  /** The vault's session (the CLI's, the daemon's), or where to make one: a dry run's snapshot of the state. */
  where: VaultSession | { vault: string; stateDir: string; db: Database.Database },
  run: { runId: string; kind: 'sweep' | 'backlog'; dryRun: boolean; phases?: readonly PhaseName[]; log: LogSink; signal?: AbortSignal; evaluate?: SweepOptions['evaluate'] },
): SweepOptions {
  const session = where instanceof VaultSession ? where : sessionOver(where, { exclude: settings.exclude, model: settings.model, agentRoot: settings.agentRoot });
  return {
    session,
    runId: run.runId,
    kind: run.kind,
    vectors: {
      model: settings.model,
      modelDir: settings.modelDir,
      offline: settings.offline,
      exclude: settings.exclude,
      ...(settings.home ? { home: settings.home } : {}),
      ...(settings.modelBaseUrl ? { modelBaseUrl: settings.modelBaseUrl } : {}),
    },
    log: run.log,
    writer: session.writer(run.runId),
    dryRun: run.dryRun,
    extractor: selectExtractor(settings, where.db),
    // A dry run never makes a paid call, so it needs no adjudicator (its plan still estimates the cost).
    adjudicator: run.dryRun ? undefined : selectAdjudicator(settings, where.db),
    adjudicates: settings.consolidateModel !== undefined,
    looseRoot: settings.organizeRoot,
    ...(settings.sweepMaxNotes === undefined ? {} : { maxExtractNotes: settings.sweepMaxNotes }),
    ...(settings.sweepMaxCostUsd === undefined ? {} : { maxExtractCostUsd: settings.sweepMaxCostUsd }),
    ...(settings.sweepMaxTokens === undefined ? {} : { maxExtractTokens: settings.sweepMaxTokens }),
    ...(run.phases ? { phases: run.phases } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
    ...(run.evaluate ? { evaluate: run.evaluate } : {}),
  };
}
