/**
 * Who may use the local page. `/mcp` takes `Authorization: Bearer <token>`; a browser cannot
 * send that header on a navigation, so the page takes the token once in its URL
 * (`/?token=…`), answers with an HttpOnly, SameSite=Strict cookie and a redirect that drops the
 * token from the address bar and history. The cookie holds an HMAC of the token, never the token,
 * and is named after the port: cookies are shared by every port of a host. A POST must also come
 * from the page's own origin (the Origin header is required, not just checked when present) and
 * carry JSON, which a cross-site form cannot send. Pure: headers in, a verdict out.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type PageAccess = { status: 'ok' } | { status: 'refused'; reason: string };

/** The cookie's name on this port. */
export function cookieName(port: number): string {
  return `engram_page_${port}`;
}

/** What the cookie holds: the token's HMAC, so the cookie is no copy of the token. */
export function cookieValue(token: string): string {
  return createHmac('sha256', token).update('engram local page').digest('base64url');
}

/** The `Set-Cookie` header granting the page to a browser that gave the right token. */
export function grantCookie(port: number, token: string): string {
  return `${cookieName(port)}=${cookieValue(token)}; HttpOnly; SameSite=Strict; Path=/`;
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The cookies of a `Cookie` header by name (the first of each name wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/** Whether a page request may be answered: no token set (then Host/Origin alone guard, as for `/mcp`), the cookie, or the bearer header. */
export function pageAccess(headers: { cookie?: string | undefined; authorization?: string | undefined }, token: string | undefined, port: number): PageAccess {
  if (!token) return { status: 'ok' };
  const cookie = parseCookies(headers.cookie).get(cookieName(port));
  if (cookie !== undefined && sameSecret(cookie, cookieValue(token))) return { status: 'ok' };
  const bearer = headers.authorization?.startsWith('Bearer ') ? headers.authorization.slice(7) : null;
  if (bearer !== null && sameSecret(bearer, token)) return { status: 'ok' };
  return { status: 'refused', reason: cookie !== undefined || bearer !== null ? 'wrong token' : 'no token' };
}

/**
 * Why a state-changing request must be refused, or null: it must name the page's own origin
 * (browsers send Origin on every POST) and be JSON (a cross-site form can only send form types).
 */
export function unsafeWrite(headers: { origin?: string | undefined; 'content-type'?: string | undefined }, origins: ReadonlySet<string>): string | null {
  if (headers.origin === undefined || !origins.has(headers.origin)) return 'a change must come from the page itself (its Origin header)';
  if (!/^application\/json\b/i.test(headers['content-type'] ?? '')) return 'send the change as application/json';
  return null;
}
