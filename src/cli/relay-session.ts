/**
 * `engram serve` over stdio, attached to the vault's daemon when one runs: find it (the attach
 * file), start one with `--spawn-daemon`, and relay the session. Light on purpose (node built-ins,
 * `attach/` and errors.ts only): `cli/engram.ts` runs this before loading the rest of Engram, so
 * a relaying process stays small; the in-process server a fallback needs is loaded only then.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { EngramError, systemErrorCode, UsageError } from '../errors.js';
import { connectDaemon, RUNNING_VERSION, findDaemon, locateState, Relay, type AttachInfo, type Handover, type Hello, type Upstream } from '../attach/index.js';

export interface AttachRequest {
  vault: string;
  home: string;
  /** How long to wait for a daemon that stopped mid-session to come back before serving alone. */
  reconnectMs: number;
  /** Start a detached `engram daemon` when none runs. */
  spawnDaemon: boolean;
  /** Say why this session serves on its own (false: the caller will look again and say it). */
  explain: boolean;
  log: { err(text: string): void };
}

export interface Attached {
  socket: Socket;
  info: AttachInfo;
  hello: Hello;
  stateDir: string;
}

/** How long a spawned daemon may take to open its attach endpoint. */
const SPAWN_WAIT_MS = 30_000;

/** The vault's daemon, connected and past the handshake; null (said why, when asked) to serve alone. */
export async function attachToDaemon(request: AttachRequest): Promise<Attached | null> {
  const located = locateState(request.home, request.vault);
  if (!located) return null; // not a vault folder: serving on its own says what is wrong
  const hello: Hello = { vault: located.vault, version: RUNNING_VERSION, pid: process.pid, session: randomBytes(4).toString('hex') };
  let found = findDaemon(located.stateDir, located.vault, RUNNING_VERSION, process.getuid?.());
  if (request.spawnDaemon && ('absent' in found || ('refused' in found && /no longer running/.test(found.refused)))) {
    found = await spawnDaemon(located, request);
  }
  if ('absent' in found) return null;
  if ('refused' in found) {
    if (request.explain) request.log.err(`engram: serving on its own: ${found.refused}`);
    return null;
  }
  const connected = await connectDaemon(found.found, hello);
  if ('reason' in connected) {
    if (request.explain) request.log.err(`engram: serving on its own: ${connected.reason}`);
    return null;
  }
  return { socket: connected.socket, info: found.found, hello, stateDir: located.stateDir };
}

/** Starts `engram daemon` detached (its output in `daemon.log` in the state directory) and waits for its attach file. */
async function spawnDaemon(located: { vault: string; stateDir: string }, request: AttachRequest): Promise<ReturnType<typeof findDaemon>> {
  const entry = process.argv[1];
  if (!entry) return { absent: true };
  mkdirSync(located.stateDir, { recursive: true });
  const logPath = join(located.stateDir, 'daemon.log');
  const out = openSync(logPath, 'a');
  const child = spawn(process.execPath, [...process.execArgv, entry, 'daemon', '--vault', located.vault], { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  request.log.err(`engram: started engram daemon (pid ${child.pid}) for ${located.vault}; its log is ${logPath}`);
  const deadline = Date.now() + SPAWN_WAIT_MS;
  let found = findDaemon(located.stateDir, located.vault, RUNNING_VERSION, process.getuid?.());
  while (!('found' in found) && Date.now() < deadline && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = findDaemon(located.stateDir, located.vault, RUNNING_VERSION, process.getuid?.());
  }
  if ('found' in found) return found;
  return { refused: `the engram daemon started for this session did not open its attach endpoint within ${SPAWN_WAIT_MS / 1000} s (see ${logPath})` };
}

/**
 * Relays the client's stdio session to the attached daemon until the client goes; if the daemon
 * goes for good, `standalone` serves the rest of the session in this process.
 */
export async function relaySession(attached: Attached, request: AttachRequest, standalone: (why: string, sessionId: string) => Promise<Upstream>): Promise<void> {
  const relay = new Relay({
    stdin: process.stdin,
    stdout: process.stdout,
    hello: attached.hello,
    find: () => findDaemon(attached.stateDir, attached.hello.vault, RUNNING_VERSION, process.getuid?.()),
    standalone: (why) => standalone(why, attached.hello.session),
    log: request.log,
    reconnectMs: request.reconnectMs,
  });
  await relay.run(attached.socket);
}

/**
 * The resume file the native relay (native/relay.c) writes before it hands its session over to
 * this process (`serve --resume-relay FILE`): read once, then removed. Lines are base64 so that
 * what the client sent passes byte for byte. A file that cannot be used is left where it is (it
 * holds the client's last lines) and refused with one line: INVALID_INPUT, or USAGE with no FILE.
 */
export function readHandover(path: string): { session: string; handover: Handover } {
  if (path === '') throw new UsageError('serve --resume-relay needs the resume FILE the native relay wrote');
  const refuse = (why: string) => new EngramError('INVALID_INPUT', `cannot resume the relayed session from ${path}: ${why}; restart the session`);
  let text: string;
  try {
    const stat = lstatSync(path);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) throw refuse('it is not a relay resume file of yours');
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof EngramError) throw error;
    throw refuse(systemErrorCode(error) === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
  const resumed = parseResume(text);
  if (typeof resumed === 'string') throw refuse(resumed);
  rmSync(path, { force: true });
  return resumed;
}

/** What native/handoff.c writes (`resume_json`); the lines base64. */
interface ResumeFile {
  session: string;
  why: string;
  initialize: string | null;
  initialized: boolean;
  queue: string[];
  partial: string;
  dropping: boolean;
}

function isResumeFile(raw: unknown): raw is ResumeFile {
  if (typeof raw !== 'object' || raw === null) return false;
  const r = raw as Record<string, unknown>;
  const isString = (value: unknown): value is string => typeof value === 'string';
  return (
    isString(r.session) &&
    isString(r.why) &&
    (r.initialize === null || isString(r.initialize)) &&
    typeof r.initialized === 'boolean' &&
    Array.isArray(r.queue) &&
    r.queue.every(isString) &&
    isString(r.partial) &&
    typeof r.dropping === 'boolean'
  );
}

/** The resume file's text as a handover, or why it is not one. */
function parseResume(text: string): { session: string; handover: Handover } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'it is not JSON';
  }
  if (!isResumeFile(raw)) return 'it is not a relay resume file (session, why, initialize, initialized, queue, partial, dropping)';
  const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');
  const { session, why, initialize, initialized, queue, partial, dropping } = raw;
  return { session, handover: { why, initialize: initialize === null ? null : decode(initialize), initialized, queue: queue.map(decode), partial: Buffer.from(partial, 'base64'), dropping } };
}

/** Carries on the session the native relay handed over (its daemon went for good): served by this process from now on, under the same session id. */
export async function continueHandover(path: string, request: AttachRequest, standalone: (why: string, sessionId: string) => Promise<Upstream>): Promise<void> {
  const { session, handover } = readHandover(path);
  const located = locateState(request.home, request.vault);
  const hello: Hello = { vault: located?.vault ?? request.vault, version: RUNNING_VERSION, pid: process.pid, session };
  const relay = new Relay({
    stdin: process.stdin,
    stdout: process.stdout,
    hello,
    find: () => (located ? findDaemon(located.stateDir, located.vault, RUNNING_VERSION, process.getuid?.()) : { absent: true }),
    standalone: (why) => standalone(why, session),
    log: request.log,
    reconnectMs: request.reconnectMs,
  });
  await relay.continueAlone(handover);
}
