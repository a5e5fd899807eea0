/**
 * Who is calling: one identity per MCP session (a stdio process, an HTTP session, a session
 * attached to the daemon), so that the journal, `Claude/Audit.md` and `undo_write` tell apart
 * two sessions served by one engine. The tools reach the engine's writer through many paths
 * (write, apply, change, the graph and the organizer); rather than thread a session through each,
 * the server runs every tool call inside its session's identity (AsyncLocalStorage follows the
 * call across awaits) and the engine's `writer()` journals under that session's run id.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface SessionIdentity {
  /** Eight hex characters, unique per session. */
  sessionId: string;
  /** The agent's name: the MCP client's `clientInfo.name` (e.g. claude-code); null until it initialized. */
  agent: string | null;
  since: string;
  /** How this session is served, for `onboard` (attached to the daemon, on its own, after a fallback). */
  serving: string;
}

const current = new AsyncLocalStorage<SessionIdentity>();

/** A session id: eight hex characters (a relay makes its own, kept across daemon restarts). */
export function newSessionId(): string {
  return randomUUID().slice(0, 8);
}

export function newIdentity(serving: string, sessionId = newSessionId()): SessionIdentity {
  return { sessionId, agent: null, since: new Date().toISOString(), serving };
}

/** Runs a tool call as its session. */
export function runAs<T>(identity: SessionIdentity, run: () => T): T {
  return current.run(identity, run);
}

/** The identity of the session whose tool call is running, or undefined outside one (the daemon's sweeps). */
export function currentIdentity(): SessionIdentity | undefined {
  return current.getStore();
}

/**
 * The run id a session's writes are journaled under: `mcp-<agent>-<session id>`, the agent's
 * name cut to a safe slug (it lands in Audit.md lines and `engram undo RUN`).
 */
export function sessionRunId(identity: SessionIdentity): string {
  const slug = (identity.agent ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return slug === '' ? `mcp-${identity.sessionId}` : `mcp-${slug}-${identity.sessionId}`;
}
