/**
 * Streamable HTTP on 127.0.0.1 only: stateless (a fresh server and transport per POST), with
 * Host and Origin checked against the port we listen on (DNS-rebinding defence), an optional
 * bearer token, and a `/health` endpoint.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { VaultEngine } from './engine.js';
import { createServer } from './server.js';

export interface HttpOptions {
  port: number;
  /** Required as `Authorization: Bearer <token>` when set. */
  token?: string;
}

export function startHttp(engine: VaultEngine, options: HttpOptions): Promise<Server> {
  const http = createHttpServer((req, res) => {
    void handle(engine, options, http, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve(http));
  });
}

async function handle(engine: VaultEngine, options: HttpOptions, http: Server, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    return reply(res, 200, { ok: true, indexing: engine.indexState.state });
  }
  if (url.pathname !== '/mcp') return reply(res, 404, { error: 'not found; the MCP endpoint is /mcp' });
  if (options.token && !authorized(req.headers.authorization, options.token)) {
    return reply(res, 401, { error: 'missing or wrong bearer token (ENGRAM_HTTP_TOKEN)' });
  }
  if (req.method !== 'POST') return reply(res, 405, { error: 'this endpoint is stateless: POST JSON-RPC requests' });
  const server = createServer(engine);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
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
