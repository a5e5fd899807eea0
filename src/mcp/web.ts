/**
 * The local page beside `/mcp`: `/` (the page), `/static/*` (its files, the same for everyone:
 * they hold no vault data), `/login`, and the JSON API under `/api/`. `http.ts` has checked Host
 * and Origin already; here the token is checked (`web-auth.ts`: once in the URL or the login
 * form, then a cookie) and every POST must come from the page's own origin as JSON. Paths are
 * matched exactly against a table: nothing outside the shipped files or the API is reachable.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './http-body.js';
import { decide, mapsView, mapView, noteView, proposalsView, search, statusView, sweepsView, type ApiAnswer } from './web-api.js';
import { loadAssets, type Asset } from './web-assets.js';
import { grantCookie, pageAccess, sameSecret, unsafeWrite } from './web-auth.js';
import type { VaultEngine } from './engine.js';

export interface PageOptions {
  port: number;
  token?: string | undefined;
  health: () => Record<string, unknown>;
}

/** Largest body the page POSTs (a decision is a few hundred bytes). */
const MAX_PAGE_BODY = 64 * 1024;

/** The page may load only its own files and talk only to its own server. */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: under it a browser sends `Origin: null` on the page's own POSTs, which the Origin rule refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

let assets: Map<string, Asset> | null = null;

/** Answers a request for anything but `/mcp` and `/health`. */
export async function handlePage(engine: VaultEngine, options: PageOptions, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  assets ??= loadAssets();
  const path = url.pathname;
  const origins = new Set([`http://127.0.0.1:${options.port}`, `http://localhost:${options.port}`]);
  if (path.startsWith('/static/')) {
    const asset = assets.get(path);
    if (!asset || req.method !== 'GET') return json(res, 404, { error: 'not found' });
    res.writeHead(200, { 'content-type': asset.type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' }).end(asset.body);
    return;
  }
  if (path === '/login') return login(options, req, res, origins);
  if (path !== '/' && !path.startsWith('/api/')) return json(res, 404, { error: 'not found; the page is /, the MCP endpoint /mcp' });
  if (options.token && path === '/' && url.searchParams.has('token')) {
    if (!sameSecret(url.searchParams.get('token') ?? '', options.token)) return loginPage(res, 401, 'That token is wrong.');
    res.writeHead(303, { location: '/', 'set-cookie': grantCookie(options.port, options.token), 'cache-control': 'no-store' }).end();
    return;
  }
  const access = pageAccess(req.headers, options.token, options.port);
  if (access.status === 'refused') {
    if (path === '/') return loginPage(res, 401, access.reason === 'wrong token' ? 'That token is wrong.' : '');
    return json(res, 401, { error: `${access.reason}: open the page with its token first (ENGRAM_HTTP_TOKEN)` });
  }
  if (path === '/') {
    res.writeHead(200, HTML_HEADERS).end(assets.get('/')!.body);
    return;
  }
  const answer = await api(engine, options, req, url, origins);
  json(res, answer.status, answer.body);
}

async function api(engine: VaultEngine, options: PageOptions, req: IncomingMessage, url: URL, origins: ReadonlySet<string>): Promise<ApiAnswer> {
  const route = url.pathname.slice('/api/'.length);
  if (route === 'decide') {
    if (req.method !== 'POST') return { status: 405, body: { error: 'use POST' } };
    const unsafe = unsafeWrite(req.headers, origins);
    if (unsafe) return { status: 403, body: { error: unsafe } };
    const body = await readBody(req, MAX_PAGE_BODY);
    if (body === null) return { status: 413, body: { error: `body over ${MAX_PAGE_BODY} bytes` } };
    try {
      return await decide(engine, JSON.parse(body));
    } catch (error) {
      if (error instanceof SyntaxError) return { status: 400, body: { error: 'the body is not JSON' } };
      throw error;
    }
  }
  const views: Record<string, () => ApiAnswer | Promise<ApiAnswer>> = {
    status: () => statusView(engine, options.health()),
    sweeps: () => sweepsView(engine),
    proposals: () => proposalsView(engine),
    search: () => search(engine, url.searchParams),
    maps: () => mapsView(engine),
    map: () => mapView(engine, url.searchParams),
    note: () => noteView(engine, url.searchParams),
  };
  const view = Object.hasOwn(views, route) ? views[route] : undefined;
  if (!view) return { status: 404, body: { error: `no API "${route}"` } };
  if (req.method !== 'GET') return { status: 405, body: { error: 'use GET' } };
  return view();
}

/** The login form's POST: the token in a form body, never in a URL. */
async function login(options: PageOptions, req: IncomingMessage, res: ServerResponse, origins: ReadonlySet<string>): Promise<void> {
  if (req.method !== 'POST') return json(res, 405, { error: 'use POST (the form on /)' });
  if (req.headers.origin === undefined || !origins.has(req.headers.origin)) return json(res, 403, { error: 'log in from the page itself' });
  const body = await readBody(req, MAX_PAGE_BODY);
  const given = new URLSearchParams(body ?? '').get('token') ?? '';
  if (!options.token) return redirect(res);
  if (!sameSecret(given, options.token)) return loginPage(res, 401, 'That token is wrong.');
  res.writeHead(303, { location: '/', 'set-cookie': grantCookie(options.port, options.token), 'cache-control': 'no-store' }).end();
}

function redirect(res: ServerResponse): void {
  res.writeHead(303, { location: '/' }).end();
}

function loginPage(res: ServerResponse, status: number, problem: string): void {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Engram — token</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/static/style.css"></head>
<body><main class="login"><h1>Engram</h1>
<p>This page needs the token the server was started with (<code>ENGRAM_HTTP_TOKEN</code>).</p>
${problem ? `<p role="alert" class="error">${problem}</p>` : ''}
<form method="post" action="/login"><label for="token">Token</label> <input id="token" name="token" type="password" autocomplete="current-password" required autofocus> <button type="submit">Open</button></form>
</main></body></html>`;
  res.writeHead(status, HTML_HEADERS).end(page);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(JSON.stringify(body));
}
