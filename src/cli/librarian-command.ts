import { openStateSnapshot, resolveVaultRoot, stateDirFor } from '../index/index.js';
import { LEASE_DEFAULTS, leasePath, newRunId, oneOffRefusal, readLeaseNote, renderSection, resyncGraphIfTouched, runSweep, sweepOptions, undoRun, PHASES, type PhaseName, type SweepReport } from '../librarian/index.js';
import { consolidate, GraphStore, selectExtractor } from '../graph/index.js';
import { goldenCheck } from '../eval/index.js';
import { EngramError, UsageError } from '../errors.js';
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { shownArg, type Command } from './command.js';
import { openSession } from './context.js';

export const librarianCommand: Command = {
  name: 'librarian',
  summary:
    'One caretaker sweep: drain the index, embedding and extraction backlogs, clean up the graph, file Inbox notes, propose merges, check health, redraw the vault map when enough changed, and report to Claude/Librarian.md. `--dry-run` only plans: it writes nothing (vault or state) and makes no paid call.',
  options: {
    'dry-run': { type: 'boolean', description: 'print what the sweep would do and its estimated cost; change nothing' },
    phases: { type: 'string', value: 'LIST', description: `only these phases, comma-separated (${PHASES.join(',')})` },
    'apply-ticked': { type: 'boolean', description: 'only decide the proposals ticked ([x]) or cancelled ([-]) in Claude/Librarian.md (the approvals phase)' },
  },
  async run(args, { env, io }) {
    if (args.values['apply-ticked'] === true && args.values.phases !== undefined) throw new UsageError('--apply-ticked is the approvals phase alone; drop --phases, or name approvals in it');
    const phases = args.values['apply-ticked'] === true ? (['approvals'] as PhaseName[]) : parsePhases(args.values.phases);
    const dryRun = args.values['dry-run'] === true;
    const log = { err: (text: string) => io.err(text) };
    if (dryRun) {
      // Nothing may be created or changed, not even the state directory: plan on a private copy.
      const given = (args.values.vault as string | undefined) ?? env.vault;
      if (!given) throw new UsageError('no vault given: pass --vault PATH or set ENGRAM_VAULT to your vault folder');
      const vault = resolveVaultRoot(resolve(given));
      const stateDir = stateDirFor(resolve(env.home), vault);
      const snapshot = openStateSnapshot(stateDir);
      try {
        const runId = newRunId('sweep');
        const report = await runSweep(sweepOptions(env, { vault, stateDir, db: snapshot.db }, { runId, kind: 'sweep', dryRun: true, log, ...(phases ? { phases } : {}), ...evaluator(env.golden, snapshot.db, vault) }));
        io.out(args.values.json ? JSON.stringify(report, null, 2) : describe(report));
        return 0;
      } finally {
        snapshot.close();
      }
    }
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      checkLease(session.vault, env, phases);
      return await session.exclusive('a Librarian sweep', async () => {
        const runId = newRunId('sweep');
        const report = await runSweep(sweepOptions(env, session, { runId, kind: 'sweep', dryRun: false, log, ...(phases ? { phases } : {}), ...evaluator(env.golden, session.db, session.vault) }));
        io.out(args.values.json ? JSON.stringify(report, null, 2) : describe(report));
        return report.errors.length > 0 ? 1 : 0;
      });
    } finally {
      session.close();
    }
  },
};

export const undoCommand: Command = {
  name: 'undo',
  summary: 'Revert a journaled change: a whole Librarian run (`engram undo sweep-…`), one move (`move:N`), or one graph merge (`merge:N`). Refused, with the reason, where a file changed since.',
  positionals: 'RUN_ID|move:N|merge:N',
  maxPositionals: 1,
  options: {},
  async run(args, { env, io }) {
    const target = args.positionals[0];
    if (!target) throw new UsageError('say what to undo: a run id (from Claude/Librarian.md), move:N or merge:N');
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      return await session.exclusive('an undo', async () => {
        const db = session.db;
        const writer = session.writer(`undo-${new Date().toISOString().slice(0, 19)}`);
        const reindex = (paths: readonly string[]) => session.indexWritten(paths);
        const move = /^(?:move:)?(\d{1,10})$/.exec(target);
        const merge = /^merge:(\d{1,10})$/.exec(target);
        let result: Record<string, unknown>;
        if (move) {
          const undone = writer.undoMove(Number(move[1]));
          reindex([undone.from, undone.to, ...undone.restored]);
          result = { undone: `move:${move[1]}`, ...undone };
          if (!args.values.json) io.out(`moved ${undone.to} back to ${undone.from}; ${undone.restored.length} notes' links restored`);
        } else if (merge) {
          const report = await consolidate(new GraphStore(db, env.agentRoot), db, writer, { undo: [Number(merge[1])] });
          reindex(report.written);
          result = { undone: `merge:${merge[1]}`, written: report.written };
          if (!args.values.json) io.out(`merge #${merge[1]} undone; ${report.written.length} entity notes rewritten`);
        } else {
          if (!/^[\w.:-]{1,80}$/.test(target)) throw new UsageError(`${shownArg(target)} is not a run id, move:N or merge:N`);
          // The command line is the owner: it may undo their own `engram provision` runs too.
          const report = undoRun(db, writer, target, `${env.agentRoot}/Librarian.md`, { owner: true });
          reindex(report.paths);
          resyncGraphIfTouched(db, report, { root: session.vault, agentRoot: env.agentRoot, extractor: selectExtractor(env, db) });
          result = { undone: target, moves: report.moves, writes: report.writes, paths: report.paths };
          if (!args.values.json) io.out(`run ${target} undone: ${report.moves} moves and ${report.writes} writes reverted${report.reportKept ? '; its report section stays in Librarian.md (later sweeps reported since)' : ''}`);
        }
        if (args.values.json) io.out(JSON.stringify(result, null, 2));
        return 0;
      });
    } finally {
      session.close();
    }
  },
};

/** Phases that change only this device's own index and vectors, which any device may run. */
const LOCAL_PHASES: readonly PhaseName[] = ['index', 'embed'];

/**
 * On a synced vault only the device holding the caretaker lease sweeps. There is no override:
 * forcing a sweep beside the holder's is the one way to get two at once (moves and reports
 * racing through sync); deleting the lease note is the visible handover when its device is gone.
 */
function checkLease(vault: string, env: { agentRoot: string; device: string }, phases: readonly PhaseName[] | undefined): void {
  if (phases !== undefined && phases.every((phase) => LOCAL_PHASES.includes(phase))) return;
  const refusal = oneOffRefusal(readLeaseNote(vault, env.agentRoot), env.device, Date.now(), LEASE_DEFAULTS, leasePath(env.agentRoot));
  if (refusal !== null) throw new EngramError('LOCKED', `engram librarian refused on device "${env.device}": ${refusal}`);
}

/** The golden-set score for the health phase, when ENGRAM_GOLDEN names a file. */
function evaluator(golden: string | undefined, db: Database.Database, vault: string) {
  return golden ? { evaluate: () => goldenCheck(db, vault, resolve(golden)) } : {};
}

function parsePhases(raw: unknown): PhaseName[] | undefined {
  if (raw === undefined) return undefined;
  const names = String(raw)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(PHASES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) throw new UsageError(`--phases takes some of ${PHASES.join(',')}; ${shownArg(unknown[0] ?? String(raw))} is not one`);
  return names as PhaseName[];
}

function describe(report: SweepReport): string {
  const lines = [report.dryRun ? `dry run (nothing was changed): run id ${report.runId} would be used` : `sweep ${report.runId}`];
  for (const phase of report.phases) {
    const cost = phase.costUsd > 0 ? `, $${phase.costUsd.toFixed(4)}` : phase.estimatedCostUsd > 0 ? `, estimated $${phase.estimatedCostUsd.toFixed(4)}` : '';
    lines.push(`  ${phase.name.padEnd(12)} ${phase.status === 'failed' ? `FAILED: ${phase.error}` : phase.summary}${cost}`);
  }
  if (report.dryRun) {
    const estimate = report.phases.reduce((sum, phase) => sum + phase.estimatedCostUsd, 0);
    lines.push(`estimated cost: $${estimate.toFixed(4)}`, '', 'the report would read:', '', renderSection(report));
  } else {
    lines.push(`${report.moves.length} moves; ${report.proposals.organize.length} filing and ${report.proposals.merges.length} merge proposals pending; ${report.errors.length} errors`);
    for (const error of report.errors.slice(0, 5)) lines.push(`error: ${error}`);
  }
  return lines.join('\n');
}
