/**
 * The daemon's attach endpoint: `engram serve` processes connect here and relay their client's
 * MCP session, so every session shares the daemon's one engine, index, embedder and writer.
 *
 * Why TCP on 127.0.0.1 (an ephemeral port) and not a Unix socket: it is the same on Linux, macOS
 * and Windows, and has no path-length limit (a socket path in a deep state directory can pass
 * macOS's 104 bytes). Only local processes reach it, and each connection must open with the
 * secret from the 0600 attach file, compared in constant time; anything else (a browser's HTTP
 * request included) gets one refusal line and is closed.
 *
 * Framing: one JSON line each way for the handshake, then MCP's stdio framing (one JSON-RPC
 * message per line) through the same `LineStdioTransport` stdio uses.
 */
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { VaultEngine } from './engine.js';
import { connectServer, createServer } from './server.js';
import { LineStdioTransport } from './stdio-transport.js';
import { RUNNING_VERSION, newSecret, removeAttachFile, writeAttachFile } from '../attach/index.js';
import { sessionRunId } from './identity.js';

/** A session attached to the daemon, as `engram status` lists it. */
export interface AttachedSession {
  session_id: string;
  agent: string | null;
  run_id: string;
  relay_pid: number | null;
  since: string;
}

export interface AttachOptions {
  stateDir: string;
  /** Called whenever a session attaches, names itself (initialize) or leaves. */
  onChange?: (sessions: AttachedSession[]) => void;
  log: { err(text: string): void };
}

export interface AttachEndpoint {
  port: number;
  sessions(): AttachedSession[];
  close(): Promise<void>;
}

/** The handshake line's limit and how long a connection may take to send it. */
const HANDSHAKE_BYTES = 8 * 1024;
const HANDSHAKE_MS = 10_000;

interface Hello {
  engram_attach: 1;
  secret: string;
  vault: string;
  version: string;
  pid?: number;
  /** The relay's session id, kept across daemon restarts. */
  session?: string;
}

/** Opens the endpoint and writes the attach file; `close` removes it and ends every session. */
export async function startAttach(engine: VaultEngine, options: AttachOptions): Promise<AttachEndpoint> {
  const secret = newSecret();
  const sessions = new Map<Socket, AttachedSession>();
  const changed = () => options.onChange?.([...sessions.values()]);
  const server: Server = createNetServer((socket) => {
    socket.on('error', () => socket.destroy()); // a relay gone mid-write must not take the daemon down
    void handshake(socket).then((hello) => {
      const refusal = hello === null ? 'expected the attach handshake' : refusalOf(hello, secret, engine.vault);
      if (refusal !== null) {
        socket.end(`${JSON.stringify({ engram_attach: 'refused', reason: refusal })}\n`);
        return;
      }
      void attach(engine, socket, hello!, sessions, changed);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  writeAttachFile(options.stateDir, { host: '127.0.0.1', port, secret, vault: engine.vault, version: RUNNING_VERSION, pid: process.pid, started_at: new Date().toISOString() });
  return {
    port,
    sessions: () => [...sessions.values()],
    close: async () => {
      removeAttachFile(options.stateDir);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sessions.keys()) socket.destroy();
      await closed;
    },
  };
}

function refusalOf(hello: Hello, secret: string, vault: string): string | null {
  const given = Buffer.from(typeof hello.secret === 'string' ? hello.secret : '');
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'wrong secret: read it again from the attach file';
  if (hello.vault !== vault) return `this daemon serves ${vault}, not ${String(hello.vault)}`;
  if (hello.version !== RUNNING_VERSION) return `this daemon runs Engram ${RUNNING_VERSION}, not ${String(hello.version)}`;
  return null;
}

/** One MCP session over the connection: a server of its own over the daemon's engine. */
async function attach(engine: VaultEngine, socket: Socket, hello: Hello, sessions: Map<Socket, AttachedSession>, changed: () => void): Promise<void> {
  const relayPid = typeof hello.pid === 'number' ? hello.pid : null;
  const server = createServer(engine, {
    sessionId: typeof hello.session === 'string' && /^[0-9a-f]{8}$/.test(hello.session) ? hello.session : undefined,
    serving: `attached to the engram daemon (pid ${process.pid}), shared with every session on this vault`,
    onInitialized: (identity) => {
      sessions.set(socket, { session_id: identity.sessionId, agent: identity.agent, run_id: sessionRunId(identity), relay_pid: relayPid, since: identity.since });
      changed();
    },
  });
  const transport = new LineStdioTransport(socket, socket);
  socket.once('close', () => {
    void transport.close();
    void server.close();
    if (sessions.delete(socket)) changed();
  });
  await connectServer(server, transport);
  socket.resume(); // paused by the handshake; the transport reads from here on
  socket.write(`${JSON.stringify({ engram_attach: 'ok', pid: process.pid })}\n`);
}

/** Reads the first line; what follows it stays in the socket for the MCP transport. */
function handshake(socket: Socket): Promise<Hello | null> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => done(null), HANDSHAKE_MS);
    const done = (hello: Hello | null, rest?: Buffer) => {
      clearTimeout(timer);
      socket.off('data', ondata);
      socket.pause();
      if (rest && rest.length > 0) socket.unshift(rest);
      resolve(hello);
    };
    const ondata = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline === -1) {
        if (buffered.length > HANDSHAKE_BYTES) done(null);
        return;
      }
      let hello: Hello | null;
      try {
        const parsed = JSON.parse(buffered.subarray(0, newline).toString('utf8')) as Hello;
        hello = parsed && parsed.engram_attach === 1 ? parsed : null;
      } catch {
        hello = null;
      }
      done(hello, buffered.subarray(newline + 1));
    };
    socket.on('data', ondata);
  });
}
