/**
 * Streamable HTTP on 127.0.0.1 only, with sessions (a server and transport per client session,
 * kept until the client ends it or it idles out — a fresh server per request cost 1.3 ms of
 * every call), Host and Origin checked against the port we listen on (DNS-rebinding defence),
 * an optional bearer token, and a `/health` endpoint.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { VaultEngine } from './engine.js';
import { createServer } from './server.js';

export interface HttpOptions {
  port: number;
  /** Required as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** More fields for `/health` (the daemon's schedule and last runs). */
  health?: () => Record<string, unknown>;
}

/** A session idle this long is closed (its client can start a new one). */
const SESSION_IDLE_MS = 30 * 60 * 1000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: ReturnType<typeof createServer>;
  lastUsed: number;
}

export function startHttp(engine: VaultEngine, options: HttpOptions): Promise<Server> {
  const sessions = new Map<string, Session>();
  const http = createHttpServer((req, res) => {
    void handle(engine, options, http, sessions, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastUsed > SESSION_IDLE_MS) {
        sessions.delete(id);
        void session.transport.close();
        void session.server.close();
      }
    }
  }, 60_000);
  sweep.unref();
  http.on('close', () => {
    clearInterval(sweep);
    for (const session of sessions.values()) {
      void session.transport.close();
      void session.server.close();
    }
    sessions.clear();
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve(http));
  });
}

async function handle(engine: VaultEngine, options: HttpOptions, http: Server, sessions: Map<string, Session>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  if (!allowedHosts.has(req.headers.host ?? '')) return reply(res, 403, { error: 'forbidden host: Engram answers only on 127.0.0.1' });
  const origin = req.headers.origin;
  if (origin !== undefined && !new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]).has(origin)) {
    return reply(res, 403, { error: 'forbidden origin' });
  }
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (url.pathname === '/health') {
    if (req.method !== 'GET') return reply(res, 405, { error: 'use GET' });
    return reply(res, 200, { ok: true, indexing: engine.indexState.state, ...options.health?.() });
  }
  if (url.pathname !== '/mcp') return reply(res, 404, { error: 'not found; the MCP endpoint is /mcp' });
  if (options.token && !authorized(req.headers.authorization, options.token)) {
    return reply(res, 401, { error: 'missing or wrong bearer token (ENGRAM_HTTP_TOKEN)' });
  }
  const id = req.headers['mcp-session-id'];
  if (typeof id === 'string') {
    const session = sessions.get(id);
    if (!session) return reply(res, 404, { error: 'unknown or expired session; initialize a new one' });
    session.lastUsed = Date.now();
    await session.transport.handleRequest(req, res);
    if (req.method === 'DELETE') sessions.delete(id);
    return;
  }
  if (req.method !== 'POST') return reply(res, 400, { error: 'no session: start one by POSTing an initialize request' });
  const server = createServer(engine);
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (sessionId) => {
      sessions.set(sessionId, { transport, server, lastUsed: Date.now() });
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
