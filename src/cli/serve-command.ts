import { connectServer, createServer, LineStdioTransport, startHttp, VaultEngine } from '../mcp/index.js';
import type { Command } from './command.js';
import { httpPort, indexChild, openSession } from './context.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the MCP server for a vault: over stdio (what Claude Code launches), or Streamable HTTP on 127.0.0.1 with --http PORT. Indexes in the background and watches the vault while it runs.',
  options: {
    http: { type: 'string', value: 'PORT', description: 'serve Streamable HTTP on 127.0.0.1:PORT instead of stdio, and the local page on / (token: $ENGRAM_HTTP_TOKEN; at most $ENGRAM_HTTP_MAX_SESSIONS sessions, default 64)' },
    'no-watch': { type: 'boolean', description: 'do not watch the vault for changes' },
    'no-index': { type: 'boolean', description: 'do not bring the index up to date at start' },
  },
  async run(args, { env, io }) {
    const port = httpPort(args.values.http);
    if (port === null) {
      // stdout is the protocol channel: libraries that log with console.log must not reach it.
      console.log = console.info = console.debug = console.warn = (...parts: unknown[]) => io.err(parts.map(String).join(' '));
    }
    const session = openSession(args.values.vault as string | undefined, env);
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
      indexCommand: indexChild(session.vault, args.values['no-index'] === true),
      watch: args.values['no-watch'] !== true,
    });
    engine.start();
    const stop = async () => {
      await engine.close();
      session.close();
    };
    if (port !== null) {
      const http = await startHttp(engine, { port, ...(env.httpToken ? { token: env.httpToken } : {}), ...(env.httpMaxSessions ? { maxSessions: env.httpMaxSessions } : {}) });
      const address = http.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
      io.err(`engram: serving ${session.vault} on ${base}/mcp${env.httpToken ? ' (bearer token required)' : ''}; the page on ${base}/`);
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
