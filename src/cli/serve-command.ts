import { PassThrough } from 'node:stream';
import { connectServer, createServer, LineStdioTransport, startHttp, VaultEngine } from '../mcp/index.js';
import type { Upstream } from '../attach/index.js';
import type { Command } from './command.js';
import { httpPort, indexChild, openSession, positiveNumber, type CliEnv, type Output } from './context.js';
import { attachToDaemon, relaySession, type AttachRequest } from './relay-session.js';

export const serveCommand: Command = {
  name: 'serve',
  summary:
    "Run the MCP server for a vault: over stdio (what Claude Code launches), or Streamable HTTP on 127.0.0.1 with --http PORT. Over stdio it attaches to the vault's `engram daemon` when one runs (one engine for every session; with --spawn-daemon it starts one), else serves on its own. Indexes in the background and watches the vault while it runs.",
  options: {
    http: { type: 'string', value: 'PORT', description: 'serve Streamable HTTP on 127.0.0.1:PORT instead of stdio, and the local page on / (token: $ENGRAM_HTTP_TOKEN; at most $ENGRAM_HTTP_MAX_SESSIONS sessions, default 64)' },
    'no-watch': { type: 'boolean', description: 'do not watch the vault for changes' },
    'no-index': { type: 'boolean', description: 'do not bring the index up to date at start' },
    'reconnect-wait': { type: 'string', value: 'SECONDS', description: 'over stdio, attached to a daemon that stops: how long to wait for it to come back before serving on its own (default 10)' },
    'spawn-daemon': { type: 'boolean', description: 'over stdio, when no `engram daemon` runs for the vault, start one (detached) and attach to it' },
  },
  async run(args, { env, io }) {
    const port = httpPort(args.values.http);
    if (port === null) {
      // stdout is the protocol channel: libraries that log with console.log must not reach it.
      console.log = console.info = console.debug = console.warn = (...parts: unknown[]) => io.err(parts.map(String).join(' '));
      const given = (args.values.vault as string | undefined) ?? env.vault;
      const reconnectMs = (positiveNumber(args.values['reconnect-wait'], '--reconnect-wait') ?? 10) * 1000;
      if (given) {
        const request: AttachRequest = { vault: given, home: env.home, reconnectMs, spawnDaemon: args.values['spawn-daemon'] === true, explain: true, log: io };
        const attached = await attachToDaemon(request);
        if (attached) {
          await relaySession(attached, request, (why, sessionId) => standaloneUpstream(args.values, env, io, why, sessionId));
          return 0;
        }
      }
    }
    const { engine, stop } = startEngine(args.values, env, io);
    if (port !== null) {
      const http = await startHttp(engine, { port, ...(env.httpToken ? { token: env.httpToken } : {}), ...(env.httpMaxSessions ? { maxSessions: env.httpMaxSessions } : {}) });
      const address = http.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
      io.err(`engram: serving ${engine.vault} on ${base}/mcp${env.httpToken ? ' (bearer token required)' : ''}; the page on ${base}/`);
      await new Promise<void>((resolve) => {
        const close = () => {
          http.close(() => resolve());
          http.closeAllConnections(); // an open client session would otherwise keep it alive
        };
        process.once('SIGINT', close);
        process.once('SIGTERM', close);
      });
      await stop();
      return 0;
    }
    const server = createServer(engine);
    const transport = new LineStdioTransport();
    await connectServer(server, transport);
    await new Promise<void>((resolve) => {
      const closed = transport.onclose;
      transport.onclose = () => {
        closed?.();
        resolve();
      };
      process.stdin.once('end', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await server.close();
    await stop();
    return 0;
  },
};

type ServeFlags = Record<string, unknown>;

/** The vault's engine in this process: background index run, watcher. */
function startEngine(flags: ServeFlags, env: CliEnv, io: Output): { engine: VaultEngine; stop: () => Promise<void> } {
  const session = openSession(flags.vault as string | undefined, env);
  const engine = new VaultEngine({
    vault: session.vault,
    stateDir: session.stateDir,
    db: session.db,
    session,
    settings: env,
    agentRoot: env.agentRoot,
    extractor: env,
    log: io,
    // The same `engram index` a user would run, in a child process so the server answers at once.
    indexCommand: indexChild(session.vault, flags['no-index'] === true),
    watch: flags['no-watch'] !== true,
  });
  engine.start();
  return {
    engine,
    stop: async () => {
      await engine.close();
      session.close();
    },
  };
}

/** After the daemon went for good: a server in this process, reached through a pair of in-memory streams. */
export async function standaloneUpstream(flags: ServeFlags, env: CliEnv, io: Output, why: string, sessionId: string): Promise<Upstream> {
  const { engine, stop } = startEngine(flags, env, io);
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const server = createServer(engine, { sessionId, serving: `on its own since ${new Date().toISOString()}: the engram daemon this session was attached to went away (${why})` });
  await connectServer(server, new LineStdioTransport(toServer, fromServer));
  return {
    readable: fromServer,
    writable: toServer,
    close: () => {
      void server.close().then(stop);
    },
  };
}
