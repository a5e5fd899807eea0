import { resolve } from 'node:path';
import { startDaemon } from '../daemon.js';
import type { Command } from './command.js';
import { httpPort, indexChild, openSession } from './context.js';

export const daemonCommand: Command = {
  name: 'daemon',
  summary:
    'Run Engram for a vault until stopped: watch the vault and keep the index and vectors fresh, run the Librarian on a schedule ($ENGRAM_SCHEDULE_BACKLOG, default every 15 minutes: ticked proposals, index, embeddings, extraction; $ENGRAM_SCHEDULE_SWEEP, default 03:30 nightly: the full sweep; $ENGRAM_TIMEZONE), serve the `engram serve` sessions that attach to it (one engine for all; `engram status` lists them), and with --http PORT serve MCP and the local page on 127.0.0.1. Stops cleanly on SIGINT/SIGTERM.',
  options: {
    http: { type: 'string', value: 'PORT', description: 'also serve MCP over Streamable HTTP on 127.0.0.1:PORT, and the local page on / (token: $ENGRAM_HTTP_TOKEN; at most $ENGRAM_HTTP_MAX_SESSIONS sessions, default 64)' },
    'no-index': { type: 'boolean', description: 'do not bring the index up to date at start' },
    'sweep-now': { type: 'boolean', description: 'run a full sweep right after start, then keep to the schedule' },
  },
  async run(args, { env, io }) {
    const port = httpPort(args.values.http);
    const session = openSession(args.values.vault as string | undefined, env);
    let daemon;
    try {
      daemon = await startDaemon({
        vault: session.vault,
        stateDir: session.stateDir,
        db: session.db,
        session,
        device: env.device,
        settings: { ...env, golden: env.golden ? resolve(env.golden) : undefined },
        log: io,
        schedules: { backlog: env.scheduleBacklog, sweep: env.scheduleSweep, timezone: env.timezone },
        http: port === null ? undefined : { port, token: env.httpToken, maxSessions: env.httpMaxSessions },
        indexCommand: indexChild(session.vault, args.values['no-index'] === true),
      });
    } catch (error) {
      session.close();
      throw error;
    }
    const status = daemon.status();
    io.err(
      `engram daemon: watching ${session.vault}; backlog "${status.schedules.backlog}" (next ${status.next.backlog ?? '—'}), sweep "${status.schedules.sweep}" (next ${status.next.sweep ?? '—'})${status.schedules.timezone ? ` in ${status.schedules.timezone}` : ''}${status.http ? `; MCP on ${status.http}${env.httpToken ? ' (bearer token required)' : ''}; the page on ${status.http.replace(/\/mcp$/, '/')}${env.httpToken ? ' (open it once with ?token=…, or give the token in its form)' : ''}` : ''}`,
    );
    if (args.values['sweep-now']) void daemon.run('sweep');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    io.err('engram daemon: stopping (the running step finishes first)');
    await daemon.stop();
    session.close();
    io.err('engram daemon: stopped');
    return 0;
  },
};
