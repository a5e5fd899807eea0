/**
 * Streamable HTTP on 127.0.0.1 only, with sessions (a server and transport per client session,
 * kept until the client ends it or it idles out — a fresh server per request cost 1.3 ms of
 * every call), Host and Origin checked against the port we listen on (DNS-rebinding defence),
 * an optional bearer token, a `/health` endpoint, and the local page (`/`, `web.ts`). Memory is
 * bounded: at most `maxSessions` sessions (a new one evicts the idlest — each costs about 650 KB,
 * and a flood of `initialize` requests once grew the process to 4 GB), bodies up to 4 MiB,
 * batches up to 100 messages, and a session's unanswered requests up to MAX_IN_FLIGHT.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readBody } from './http-body.js';
import { JsonResponseTransport } from './json-transport.js';
import type { VaultEngine } from './engine.js';
import { connectServer, createServer } from './server.js';
import { handlePage } from './web.js';

export interface HttpOptions {
  port: number;
  /** Required as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** More fields for `/health` (the daemon's schedule and last runs). */
  health?: () => Record<string, unknown>;
  /** Most sessions kept at once (ENGRAM_HTTP_MAX_SESSIONS); a new one evicts the idlest. */
  maxSessions?: number;
}

export const DEFAULT_MAX_SESSIONS = 64;

/** Most messages in one JSON-RPC batch. */
const MAX_BATCH = 100;

/** A session idle this long is closed (its client can start a new one). */
const SESSION_IDLE_MS = 30 * 60 * 1000;

/** Largest request body accepted. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  transport: JsonResponseTransport;
  server: ReturnType<typeof createServer>;
  lastUsed: number;
}

/**
 * Sessions in least-recently-used order: a Map iterates in insertion order, and every use
 * re-inserts its session, so the first entry is always the idlest.
 */
class Sessions extends Map<string, Session> {
  use(id: string, session: Session): void {
    session.lastUsed = Date.now();
    this.delete(id);
    this.set(id, session);
  }

  /** Closes and forgets the idlest sessions until `room` more fit under `max`. */
  evict(max: number, room: number): void {
    for (const [id, session] of this) {
      if (this.size + room <= max) return;
      this.end(id, session);
    }
  }

  end(id: string, session: Session): void {
    this.delete(id);
    void session.transport.close();
    void session.server.close();
  }
}

export function startHttp(engine: VaultEngine, options: HttpOptions): Promise<Server> {
  const sessions = new Sessions();
  const http = createHttpServer((req, res) => {
    void handle(engine, options, http, sessions, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastUsed > SESSION_IDLE_MS) sessions.end(id, session);
    }
  }, 60_000);
  sweep.unref();
  http.on('close', () => {
    clearInterval(sweep);
    for (const [id, session] of sessions) sessions.end(id, session);
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve(http));
  });
}

async function handle(engine: VaultEngine, options: HttpOptions, http: Server, sessions: Sessions, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    return reply(res, 200, { ok: true, indexing: engine.indexState.state, sessions: sessions.size, max_sessions: maxSessions(options), ...options.health?.() });
  }
  // Everything else is the local page (`web.ts`), behind the same token.
  if (url.pathname !== '/mcp') return handlePage(engine, { port, token: options.token, health: () => options.health?.() ?? {} }, req, res, url);
  if (options.token && !authorized(req.headers.authorization, options.token)) {
    return reply(res, 401, { error: 'missing or wrong bearer token (ENGRAM_HTTP_TOKEN)' });
  }
  const id = req.headers['mcp-session-id'];
  const session = typeof id === 'string' ? sessions.get(id) : undefined;
  if (typeof id === 'string' && !session) return reply(res, 404, rpcError(null, -32001, 'unknown or expired session; initialize a new one'));
  if (req.method === 'GET') {
    // No server-to-client stream: the spec's answer for a server that offers none.
    res.writeHead(405, { allow: 'POST, DELETE', 'content-type': 'application/json' }).end(JSON.stringify(rpcError(null, -32000, 'this server offers no SSE stream; POST requests')));
    return;
  }
  if (req.method === 'DELETE') {
    if (!session) return reply(res, 400, rpcError(null, -32000, 'no session to end'));
    sessions.end(id as string, session);
    return reply(res, 200, {});
  }
  if (req.method !== 'POST') return reply(res, 405, rpcError(null, -32000, 'use POST'));
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return reply(res, 400, rpcError(null, -32000, `unsupported MCP protocol version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`));
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  if (body === null) return reply(res, 413, rpcError(null, -32600, `request body over ${MAX_BODY_BYTES} bytes`));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return reply(res, 400, rpcError(null, -32700, 'parse error: the body is not JSON'));
  }
  const batch = Array.isArray(parsed);
  const raw = batch ? (parsed as unknown[]) : [parsed];
  if (raw.length === 0 || raw.length > MAX_BATCH) return reply(res, 400, rpcError(null, -32600, `invalid request: a batch holds 1 to ${MAX_BATCH} messages`));
  const messages: JSONRPCMessage[] = [];
  for (const item of raw) {
    // The envelope only: the SDK validates each request's params against its method's schema.
    if (!isJsonRpc(item)) return reply(res, 400, rpcError(null, -32600, 'invalid request: not a JSON-RPC 2.0 message'));
    messages.push(item);
  }
  const initializing = messages.some((message) => 'method' in message && message.method === 'initialize' && 'id' in message);
  let current = session;
  if (!current) {
    if (!initializing) return reply(res, 400, rpcError(null, -32000, 'no session: start one by POSTing an initialize request'));
    sessions.evict(maxSessions(options), 1);
    const sessionId = randomUUID();
    const server = createServer(engine);
    const transport = new JsonResponseTransport(sessionId);
    transport.onclose = () => sessions.delete(sessionId);
    await connectServer(server, transport);
    current = { transport, server, lastUsed: Date.now() };
  } else if (initializing) {
    return reply(res, 400, rpcError(null, -32600, 'this session is initialized already; start a new one without mcp-session-id'));
  }
  sessions.use(current.transport.sessionId, current);
  const answers = await current.transport.deliver(messages, { requestInfo: { headers: req.headers } });
  const headers = { 'mcp-session-id': current.transport.sessionId };
  if (answers.length === 0) {
    res.writeHead(202, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(batch ? answers : answers[0]));
}

/** A JSON-RPC 2.0 request, notification or response envelope. */
function isJsonRpc(value: unknown): value is JSONRPCMessage {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const id = message.id;
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  if (typeof message.method === 'string') return id === undefined || validId;
  return validId && ('result' in message || (typeof message.error === 'object' && message.error !== null));
}

function maxSessions(options: HttpOptions): number {
  return options.maxSessions ?? DEFAULT_MAX_SESSIONS;
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
