import {
  consolidate,
  describeRedactions,
  failedExtractions,
  GRAPH_DEFAULTS,
  GraphStore,
  graphStats,
  releaseFailed,
  runGraphIndex,
  selectAdjudicator,
  selectExtractor,
  type ConsolidateReport,
  type Extractor,
  type GraphIndexReport,
} from '../graph/index.js';
import type { VaultSession } from '../session/index.js';
import { UsageError } from '../errors.js';
import { shownArg, type Command } from './command.js';
import { openSession, positiveNumber, type CliEnv } from './context.js';

export const graphCommand: Command = {
  name: 'graph',
  summary:
    'The knowledge graph. `engram graph index` extracts entities from new and changed notes into entity notes under Claude/Graph/; `engram graph stats` counts them; `engram graph consolidate` proposes merges of duplicate entities, `--apply IDS` merges, `--undo IDS` reverses.',
  positionals: 'index|stats|consolidate',
  maxPositionals: 1,
  options: {
    'max-notes': { type: 'string', value: 'N', description: 'index: extract at most N notes this run (the rest stays in the backlog)' },
    'max-cost': { type: 'string', value: 'USD', description: 'index: stop starting notes once this much is spent (estimated)' },
    'retry-failed': { type: 'boolean', description: 'index: forget failed attempts first, so notes left for a human (see engram graph stats) are tried again' },
    apply: { type: 'string', value: 'IDS', description: 'consolidate: merge these pending proposals (comma-separated ids)' },
    undo: { type: 'string', value: 'IDS', description: 'consolidate: reverse these applied merges (comma-separated ids)' },
  },
  async run(args, { env, io }) {
    const action = args.positionals[0];
    if (action !== 'index' && action !== 'stats' && action !== 'consolidate') throw new UsageError('say what to do: engram graph index, engram graph stats, or engram graph consolidate');
    const apply = ids(args.values.apply, '--apply');
    const undo = ids(args.values.undo, '--undo');
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      if (action === 'stats') {
        const stats = { ...graphStats(session.db), failed: failedExtractions(session.db, GRAPH_DEFAULTS.maxPermanentAttempts) };
        io.out(args.values.json ? JSON.stringify(stats, null, 2) : describeStats(stats));
        return 0;
      }
      if (action === 'consolidate') {
        return await session.exclusive('a graph consolidation', async () => {
          const db = session.db;
          const writer = session.writer(`consolidate-${new Date().toISOString().slice(0, 19)}`);
          const adjudicator = apply.length + undo.length === 0 ? selectAdjudicator(env, db) : undefined;
          const report = await consolidate(new GraphStore(db, env.agentRoot), db, writer, { apply, undo, vectorModel: env.model, ...(adjudicator ? { adjudicator } : {}) });
          if (report.written.length > 0) session.indexWritten(report.written);
          io.out(args.values.json ? JSON.stringify(report, null, 2) : describeConsolidation(report));
          return report.errors.length > 0 ? 1 : 0;
        });
      }
      const maxNotes = positiveNumber(args.values['max-notes'], '--max-notes');
      const maxCost = positiveNumber(args.values['max-cost'], '--max-cost');
      return await session.exclusive('an index run', async () => {
        session.indexNow();
        const extractor = selectExtractor(env, session.db);
        if (args.values['retry-failed'] && extractor !== null) io.err(`graph: ${releaseFailed(session.db)} failed notes will be tried again`);
        if (extractor === null) {
          io.out('graph: no extractor (ENGRAM_EXTRACTOR=none); nothing to do');
          return 0;
        }
        const report = await graphIndex(session, env, extractor, { maxNotes, maxCost }, (done, total) => {
          if (!args.values.json && total >= 20 && done % 20 === 0) io.err(`extracted ${done}/${total} notes`);
        });
        io.out(args.values.json ? JSON.stringify({ extractor: extractor.backend, model: extractor.model, ...report }, null, 2) : describeReport(extractor, report));
        if (report.paused && !args.values.json) io.err(`graph: extraction paused — ${report.paused.reason}`);
        return report.paused || (report.failed > 0 && report.processed === 0) ? 1 : 0;
      });
    } finally {
      session.close();
    }
  },
};

/** One extraction run (the caller holds the lock), then the entity notes it wrote are indexed so search sees them. */
export async function graphIndex(
  session: VaultSession,
  env: CliEnv,
  extractor: Extractor,
  limits: { maxNotes?: number | undefined; maxCost?: number | undefined },
  onProgress?: (done: number, total: number) => void,
): Promise<GraphIndexReport> {
  const writer = session.writer(`graph-${new Date().toISOString().slice(0, 19)}`);
  const report = await runGraphIndex({
    root: session.vault,
    db: session.db,
    extractor,
    writer,
    agentRoot: env.agentRoot,
    vectorModel: env.model,
    ...(limits.maxNotes === undefined ? {} : { maxNotes: limits.maxNotes }),
    ...(limits.maxCost === undefined ? {} : { maxCostUsd: limits.maxCost }),
    ...(onProgress ? { onProgress } : {}),
  });
  if (report.written.length > 0) session.indexWritten(report.written);
  return report;
}

/** `1,2, 3` → [1, 2, 3]; anything else is a usage error. */
function ids(raw: unknown, name: string): number[] {
  if (raw === undefined) return [];
  const parts = String(raw)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.some((part) => !/^[1-9]\d{0,9}$/.test(part))) throw new UsageError(`${name} takes proposal ids like 3 or 3,5 — not ${shownArg(String(raw))}`);
  return parts.map(Number);
}

function describeConsolidation(report: ConsolidateReport): string {
  const lines: string[] = [];
  if (report.applied.length > 0) lines.push(`merged proposal${report.applied.length === 1 ? '' : 's'} ${report.applied.map((id) => `#${id}`).join(', ')}`);
  if (report.undone.length > 0) lines.push(`undid merge${report.undone.length === 1 ? '' : 's'} ${report.undone.map((id) => `#${id}`).join(', ')}`);
  if (report.written.length > 0) lines.push(`${report.written.length} entity notes rewritten`);
  if (report.applied.length + report.undone.length === 0) lines.push(`${report.proposed.length} new merge proposal${report.proposed.length === 1 ? '' : 's'}; ${report.pending.length} pending`);
  for (const p of report.pending) lines.push(`  #${p.id} ${p.type}: "${p.loser}" → "${p.winner}" (${p.reason}; ${p.verdict})`);
  if (report.pending.length > 0 && report.applied.length === 0) lines.push('apply with: engram graph consolidate --apply ID[,ID…]');
  for (const error of report.errors) lines.push(`error: ${error}`);
  return lines.join('\n');
}

function describeReport(extractor: Extractor, report: GraphIndexReport): string {
  const lines = [
    `graph (${extractor.backend}${extractor.model !== extractor.backend ? `, ${extractor.model}` : ''}): ${report.processed} notes extracted, ${report.failed} failed, ${report.remaining} remaining; ${report.entities} entities, ${report.entityNotesWritten} entity notes written`,
  ];
  if (report.skippedPrivate > 0) lines.push(`${report.skippedPrivate} private notes were not sent`);
  if (report.unreadablePrivate.length > 0) {
    const shown = report.unreadablePrivate.slice(0, 5).join(', ');
    lines.push(`${report.unreadablePrivate.length} of them only because their frontmatter cannot be read (${shown}${report.unreadablePrivate.length > 5 ? ', …' : ''}); fix the YAML to have them extracted`);
  }
  if (report.retractedPrivate > 0) lines.push(`${report.retractedPrivate} notes extracted earlier are private by a closer reading: what they asserted was taken back`);
  const redacted = describeRedactions(report.redacted);
  if (redacted !== '') lines.push(`secrets redacted before sending: ${redacted}`);
  if (report.inputTokens + report.outputTokens > 0) lines.push(`tokens ${report.inputTokens} in, ${report.outputTokens} out; about $${report.costUsd.toFixed(4)}`);
  for (const error of report.errors) lines.push(`error: ${error}`);
  if (report.backedOff) lines.push(`stopped after ${report.backedOff.failures} transient failures in a row (last: ${report.backedOff.last}); ${report.remaining} notes wait — run engram graph index again later`);
  if (report.paused) lines.push(`paused: ${report.paused.reason} — ${report.remaining} notes wait, none was charged; run engram graph index again once it is fixed`);
  return lines.join('\n');
}

function describeStats(stats: ReturnType<typeof graphStats> & { failed: ReturnType<typeof failedExtractions> }): string {
  const types =
    Object.entries(stats.entities)
      .map(([type, n]) => `${n} ${type}`)
      .join(', ') || 'none';
  return [
    `entities     ${types}`,
    `relations    ${stats.relations}; mentions ${stats.mentions}; orphans ${stats.orphans}`,
    `extracted    ${stats.extracted_notes} notes (${stats.failed_notes} failed), last ${stats.last_extraction ?? 'never'}`,
    `cost         $${stats.cost_usd.toFixed(4)} (${stats.tokens.input} tokens in, ${stats.tokens.output} out)`,
    ...failedLines(stats.failed),
  ].join('\n');
}

/** Notes whose extraction failed for their own reasons, with the reason; the parked ones wait for `--retry-failed`. */
function failedLines(failed: ReturnType<typeof failedExtractions>): string[] {
  if (failed.length === 0) return [];
  const parked = failed.filter((note) => note.parked).length;
  const lines = [`failed       ${failed.length} notes${parked > 0 ? `, ${parked} left for a human (retry with engram graph index --retry-failed)` : ''}:`];
  for (const note of failed.slice(0, 20)) lines.push(`  ${note.path} (${note.attempts} attempt${note.attempts === 1 ? '' : 's'}${note.parked ? ', parked' : ''}): ${note.error}`);
  if (failed.length > 20) lines.push(`  … ${failed.length - 20} more (engram graph stats --json)`);
  return lines;
}
