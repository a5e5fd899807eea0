import type { IndexProgress, IndexReport } from '../index/index.js';
import { UsageError } from '../errors.js';
import { numberValue, shownArg, type Command, type CommandContext } from './command.js';
import { refreshVectors, type VectorRefresh } from '../embed/index.js';
import { openSession, wholeNumber } from './context.js';
import { excludeOption } from './filter-options.js';

export const indexCommand: Command = {
  name: 'index',
  summary: 'Bring the state directory up to date with the vault. Incremental: only new, changed, moved and deleted notes are processed.',
  options: {
    full: { type: 'boolean', description: 're-parse every note, not just the changed ones' },
    exclude: { type: 'string', multiple: true, value: 'FOLDER', description: 'leave a vault folder out (also $ENGRAM_EXCLUDE, comma-separated)' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress on stderr' },
    'batch-size': { type: 'string', value: 'N', description: 'notes per transaction (default 500)' },
    'no-embed': { type: 'boolean', description: 'do not embed notes locally (Smart Connections vectors are still imported)' },
    'embed-budget': { type: 'string', value: 'SECONDS', description: 'stop embedding after this long; the rest waits for the next run' },
  },
  async run(args, { env, io }) {
    const budget = numberValue(args.values['embed-budget']);
    if (budget !== undefined && !(budget >= 0)) throw new UsageError(`--embed-budget must be a number of seconds, not ${shownArg(String(args.values['embed-budget']))}`);
    const batchSize = wholeNumber(args.values['batch-size'], '--batch-size');
    const exclude = excludeOption(args.values.exclude);
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      // The vectors are refreshed under the same lock: an index run is both.
      return await session.exclusive('an index run', async () => {
        const report = session.indexNow({
          full: args.values.full === true,
          exclude,
          ...(batchSize === undefined ? {} : { batchSize }),
          ...(args.values.quiet ? {} : { onProgress: progressPrinter(io) }),
        });
        const vectors = await refreshVectors(session.db, session.vault, env, io, {
          embed: args.values['no-embed'] !== true,
          progress: args.values.quiet !== true,
          ...(budget === undefined ? {} : { budgetMs: budget * 1000 }),
        });
        if (args.values.json) io.out(JSON.stringify({ vault: session.vault, state_dir: session.stateDir, ...toJson(report), vectors: vectorsJson(vectors) }, null, 2));
        else io.out(`${describeReport(report)}\n${describeVectors(vectors)}`);
        return 0;
      });
    } finally {
      session.close();
    }
  },
};

function vectorsJson(refresh: VectorRefresh) {
  return {
    smart_connections_imported: refresh.imported,
    embedder: refresh.embedder,
    embedded: refresh.backlog ? { notes: refresh.backlog.notes, vectors: refresh.backlog.vectors, cached: refresh.backlog.cached, remaining: refresh.backlog.remaining, duration_ms: refresh.backlog.durationMs } : null,
    warnings: refresh.smartConnections?.warnings ?? [],
  };
}

function describeVectors(refresh: VectorRefresh): string {
  const lines: string[] = [];
  if (refresh.smartConnections) lines.push(`vectors: ${refresh.imported} fresh Smart Connections vectors reused`);
  for (const warning of refresh.smartConnections?.warnings ?? []) lines.push(`warning: ${warning}`);
  if (refresh.backlog) {
    const b = refresh.backlog;
    lines.push(`vectors: embedded ${b.notes} notes (${b.vectors} vectors, ${b.cached} from cache) in ${formatMs(b.durationMs)}${b.remaining > 0 ? `; ${b.remaining} notes wait for the next run` : ''}`);
  } else if (refresh.embedder.reason) {
    lines.push(`vectors: not embedding locally — ${refresh.embedder.reason}; search answers by keyword where a note has no vector`);
  }
  return lines.join('\n');
}

function toJson(report: IndexReport) {
  return {
    notes: report.notes,
    added: report.added,
    modified: report.modified,
    moved: report.moved,
    deleted: report.deleted,
    touched: report.touched,
    rebuilt: report.rebuilt,
    unchanged: report.unchanged,
    links_resolved: report.linksResolved,
    orphans_removed: report.orphansRemoved,
    full: report.full,
    skipped: report.skipped,
    warnings: report.recovered ? [report.recovered] : [],
    duration_ms: report.durationMs,
  };
}

export function describeReport(report: IndexReport): string {
  const changes = report.added + report.modified + report.moved.length + report.deleted;
  const lines: string[] = [];
  if (report.recovered) lines.push(`warning: ${report.recovered}`);
  const summary = changes === 0 ? `no changes; ${report.notes} notes indexed` : `${changes} changes (${report.added} new, ${report.modified} modified, ${report.moved.length} moved, ${report.deleted} deleted); ${report.notes} notes indexed`;
  // A full run re-parses everything; notes whose content did not change are said to be so.
  const rebuilt = report.full ? `; ${report.rebuilt} unchanged notes re-parsed` : '';
  lines.push(`${summary}${rebuilt} in ${formatMs(report.durationMs)}`);
  if (report.orphansRemoved > 0) lines.push(`removed ${report.orphansRemoved} rows left over from notes no longer indexed`);
  for (const move of report.moved.slice(0, 10)) lines.push(`  moved ${move.from} → ${move.to}`);
  if (report.moved.length > 10) lines.push(`  … and ${report.moved.length - 10} more moves`);
  if (report.skipped.length > 0) {
    lines.push(`skipped ${report.skipped.length}:`);
    for (const entry of report.skipped.slice(0, 20)) lines.push(`  ${entry.path}: ${entry.reason}`);
    if (report.skipped.length > 20) lines.push(`  … and ${report.skipped.length - 20} more (engram status --json lists them all)`);
  }
  return lines.join('\n');
}

/** Progress on stderr for runs long enough to need it: at most a few lines a second. */
function progressPrinter(io: CommandContext['io']): (progress: IndexProgress) => void {
  let last = 0;
  return (progress) => {
    if (progress.total < 1000) return;
    const now = Date.now();
    const finished = progress.done === progress.total;
    if (!finished && now - last < 250) return;
    last = now;
    const verb = progress.phase === 'read' ? 'read' : 'indexed';
    io.err(`${verb} ${progress.done}/${progress.total}`);
  };
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
