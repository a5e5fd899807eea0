import { readStatus, type StatusDoc } from '../index/index.js';
import type { Command } from './command.js';
import { openSession } from './context.js';
import { vectorStatus, type VectorStatus } from '../embed/index.js';
import { describeLease, extractionPaused, lastSweep, readLeaseNote, type SweepSummary } from '../librarian/index.js';
import { readDaemonStatus, type DaemonStatus } from '../daemon.js';

export const statusCommand: Command = {
  name: 'status',
  summary: 'Index health: counts, link resolution, vectors and their sources, skipped files and warnings; the daemon and the sessions attached to it.',
  options: {},
  run(args, { env, io }) {
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      const base = readStatus(session.db, { vault: session.vault, stateDir: session.stateDir });
      const vectors = vectorStatus(session.db, session.vault, env);
      const doc = {
        ...base,
        vectors,
        librarian: lastSweep(session.db),
        extraction_paused: extractionPaused(session.db),
        daemon: readDaemonStatus(session.stateDir),
        caretaker: describeLease(readLeaseNote(session.vault, env.agentRoot)),
        warnings: [...base.warnings, ...vectors.warnings],
      };
      io.out(args.values.json ? JSON.stringify(doc, null, 2) : describeStatus(doc));
      return 0;
    } finally {
      session.close();
    }
  },
};

/** The sessions `engram serve` attached to the daemon (an older daemon's status file has none). */
function sessionLines(daemon: DaemonStatus): string[] {
  const sessions = daemon.sessions ?? [];
  if (daemon.attach === undefined || daemon.attach === null) return ['sessions     none attach: the daemon has no attach endpoint (see its log)'];
  if (sessions.length === 0) return ['sessions     none attached (engram serve attaches to this daemon when it starts)'];
  return [
    `sessions     ${sessions.length} attached`,
    ...sessions.map((session) => `  ${session.agent ?? 'unnamed client'} · session ${session.session_id} · since ${session.since} · writes as ${session.run_id}${session.relay_pid ? ` · pid ${session.relay_pid}` : ''}`),
  ];
}

export function describeStatus(doc: StatusDoc & { vectors?: VectorStatus; librarian?: SweepSummary | null; extraction_paused?: string | null; daemon?: DaemonStatus | null; caretaker?: string | null }): string {
  const lines = [
    `vault        ${doc.vault}`,
    `state        ${doc.state_dir}`,
    `indexed at   ${doc.last_indexed_at ?? 'never'}`,
    `notes        ${doc.notes} (${doc.blocks} blocks, ${doc.words} words)`,
    `links        ${doc.links.total} (${doc.links.resolved} resolved, ${doc.links.to_attachments} of them to attachments; ${doc.links.unresolved} unresolved)`,
    `tags         ${doc.tags}`,
    `tasks        ${doc.tasks.total} (${doc.tasks.open} open, ${doc.tasks.done} done)`,
    `attachments  ${doc.attachments}`,
  ];
  if (doc.vectors) {
    const v = doc.vectors;
    const sc = v.smart_connections;
    lines.push(`vectors      ${v.coverage.notes_with_vector} of ${doc.notes} notes (${v.model}${v.dims ? `, ${v.dims} dims` : ''}; ${v.local.notes} notes and ${v.local.blocks} sections embedded locally)`);
    lines.push(`             query embedder ${v.query_embedder.available ? 'available' : `unavailable: ${v.query_embedder.reason}`}`);
    if (sc.detected) {
      lines.push(
        `             Smart Connections ${sc.layout}: model ${sc.active_model ?? 'unknown'}${sc.model_matches ? ' (matches)' : ' (does NOT match)'}; sources ${sc.sources.fresh} fresh, ${sc.sources.stale} stale; blocks ${sc.blocks.fresh} fresh, ${sc.blocks.stale} stale`,
      );
    }
  }
  if (doc.librarian !== undefined) {
    const sweep = doc.librarian;
    lines.push(
      sweep === null
        ? 'librarian    no sweep yet (engram librarian, or engram daemon)'
        : `librarian    last sweep ${sweep.run_id} ${sweep.status} at ${sweep.finished_at ?? sweep.started_at}; ${sweep.moves} moves, ${sweep.pending_proposals.organize + sweep.pending_proposals.merges} proposals pending, ${sweep.errors.length} errors`,
    );
  }
  if (doc.extraction_paused) lines.push(`graph        ${doc.extraction_paused}`);
  if (doc.daemon !== undefined) {
    const daemon = doc.daemon;
    lines.push(
      daemon === null
        ? 'daemon       not running'
        : `daemon       running (pid ${daemon.pid} since ${daemon.started_at}${daemon.running ? `; ${daemon.running} in progress` : ''}); next backlog ${daemon.next.backlog ?? '—'}, next sweep ${daemon.next.sweep ?? '—'}${daemon.http ? `; MCP ${daemon.http}` : ''}`,
    );
    if (daemon) lines.push(...sessionLines(daemon));
  }
  if (doc.caretaker) lines.push(`caretaker    ${doc.caretaker}${doc.daemon?.lease ? ` (this daemon: ${doc.daemon.lease.holder ? 'holds it' : 'does not sweep'})` : ''}`);
  if (doc.skipped.length > 0) {
    lines.push(`skipped      ${doc.skipped.length}`);
    for (const entry of doc.skipped.slice(0, 20)) lines.push(`  ${entry.path}: ${entry.reason}`);
  }
  if (doc.warnings.length > 0) {
    lines.push(`warnings     ${doc.warnings.length}`);
    for (const warning of doc.warnings) lines.push(`  ${warning}`);
  }
  return lines.join('\n');
}
