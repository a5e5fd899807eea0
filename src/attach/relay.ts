/**
 * `engram serve`'s relay: the client's stdio session, passed line by line to the daemon's attach
 * endpoint (see attach-server.ts), so the session runs on the daemon's engine while this process
 * holds nothing but two line buffers. The client sees the daemon's own MCP server: the same
 * tools, errors, elicitation and preview → apply.
 *
 * If the daemon goes away mid-session, calls in flight are answered with an error that says the
 * call may or may not have happened, and the relay looks for the daemon again (a restart writes
 * a new attach file) for `reconnectMs`; found, it replays the client's `initialize` to it (the
 * answer is swallowed: the client initialized once) and carries on; not found, it asks
 * `standalone` for an in-process server and replays `initialize` there. Either way the client
 * keeps its session.
 *
 * Light on purpose: node built-ins and attach.ts only, so a relaying process never loads the
 * search engine, vectors, embedder or the MCP SDK.
 */
import { connect, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { AttachInfo, AttachLookup } from './attach-file.js';

/** The stdio transport's line limit (stdio-transport.ts), kept here so the relay imports no SDK. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
const CONNECT_MS = 5_000;

export interface Hello {
  vault: string;
  version: string;
  pid: number;
  /** This session's id (eight hex characters): its writes keep one run id across daemon restarts. */
  session: string;
}

/** Where the relay's messages go: a daemon's socket, or an in-process server after a fallback. */
export interface Upstream {
  readable: Readable;
  writable: Writable;
  close(): void;
}

export interface RelayOptions {
  stdin: Readable;
  stdout: Writable;
  hello: Hello;
  /** Looks for the daemon now (reads the attach file). */
  find: () => AttachLookup;
  /** Serves the rest of the session in this process: the daemon is gone for good. */
  standalone: (why: string) => Promise<Upstream>;
  log: { err(text: string): void };
  /** How long to look for a restarted daemon before serving alone (default 10 s). */
  reconnectMs?: number;
}

/** Connects to the daemon and passes the handshake: its socket, or why not. */
export function connectDaemon(info: AttachInfo, hello: Hello): Promise<{ socket: Socket } | { reason: string }> {
  return new Promise((resolve) => {
    const socket = connect(info.port, '127.0.0.1');
    let buffered = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ reason });
    };
    const timer = setTimeout(() => fail(`the engram daemon (pid ${info.pid}) did not answer within ${CONNECT_MS / 1000} s`), CONNECT_MS);
    socket.on('error', (error) => fail(`cannot reach the engram daemon (pid ${info.pid}) on 127.0.0.1:${info.port}: ${error.message}`));
    socket.on('connect', () => socket.write(`${JSON.stringify({ engram_attach: 1, secret: info.secret, ...hello })}\n`));
    const ondata = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      socket.off('data', ondata);
      clearTimeout(timer);
      let answer: { engram_attach?: string; reason?: string };
      try {
        answer = JSON.parse(buffered.slice(0, newline)) as typeof answer;
      } catch {
        answer = {};
      }
      if (answer.engram_attach !== 'ok') return fail(`the engram daemon (pid ${info.pid}) refused to attach: ${answer.reason ?? 'no handshake answer'}`);
      socket.removeAllListeners('error');
      socket.on('error', () => socket.destroy());
      socket.pause();
      const rest = buffered.slice(newline + 1);
      if (rest !== '') socket.unshift(Buffer.from(rest));
      resolve({ socket });
    };
    socket.on('data', ondata);
  });
}

/** Splits a stream into lines; a line over `max` bytes is dropped (`onOversize` says so). `dropping`: the stream starts inside such a line. */
function lines(stream: Readable, online: (line: string) => void, onOversize?: () => void, dropping = false): () => void {
  let chunks: Buffer[] = [];
  let size = 0;
  const ondata = (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      if (!dropping) online(Buffer.concat([...chunks, chunk.subarray(start, newline)]).toString('utf8'));
      dropping = false;
      chunks = [];
      size = 0;
      start = newline + 1;
    }
    if (start < chunk.length && !dropping) {
      size += chunk.length - start;
      if (size > MAX_LINE_BYTES) {
        dropping = true;
        chunks = [];
        onOversize?.();
      } else chunks.push(chunk.subarray(start));
    }
  };
  stream.on('data', ondata);
  stream.resume();
  return () => stream.off('data', ondata);
}

type Id = string | number;

function parse(line: string): { id?: Id; method?: string } | null {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: Id; method?: string }) : null;
  } catch {
    return null;
  }
}

/**
 * A session the native relay (native/relay.c) began and handed over when its daemon went for
 * good: what it had read of the client and not yet passed on.
 */
export interface Handover {
  why: string;
  /** The client's initialize line, replayed to the server this process starts. */
  initialize: string | null;
  initialized: boolean;
  /** Lines read from the client and not yet sent. */
  queue: string[];
  /** A line partly read, and whether it was being dropped (over the limit). */
  partial: Buffer;
  dropping: boolean;
}

/** Relays the client's session until the client closes stdin. */
export class Relay {
  private upstream: Upstream | null = null;
  private detach: (() => void) | null = null;
  /** Requests sent upstream and not answered yet (JSON-encoded ids). */
  private readonly pending = new Set<string>();
  private initialize: { line: string; id: Id } | null = null;
  private initialized = false;
  private queue: string[] = [];
  private replays = 0;
  private replaying: { id: string; done: () => void } | null = null;
  private ended = false;

  constructor(private readonly options: RelayOptions) {}

  /** Relays over an attached daemon socket; resolves once the client has gone. */
  run(socket: Socket): Promise<void> {
    this.use({ readable: socket, writable: socket, close: () => socket.destroy() });
    return this.listen();
  }

  /** Carries on a session handed over by the native relay, serving on its own as `recover` does after the daemon went for good. */
  async continueAlone(handover: Handover): Promise<void> {
    const message = handover.initialize === null ? null : parse(handover.initialize);
    if (handover.initialize !== null && message?.id !== undefined) this.initialize = { line: handover.initialize, id: message.id };
    this.initialized = handover.initialized;
    this.queue = [...handover.queue];
    if (handover.partial.length > 0) this.options.stdin.unshift(handover.partial);
    const ended = this.listen(handover.dropping);
    const upstream = await this.options.standalone(handover.why);
    if (this.ended)
      upstream.close(); // the client left while the server started
    else await this.resume(upstream);
    return ended;
  }

  private listen(dropping = false): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        if (this.ended) return;
        this.ended = true;
        this.upstream?.close();
        resolve();
      };
      lines(
        this.options.stdin,
        (line) => this.fromClient(line),
        () => this.reply(null, -32600, `request too large: a message is one line of at most ${MAX_LINE_BYTES} bytes; this one was dropped (send large text in smaller parts)`),
        dropping,
      );
      this.options.stdin.once('end', finish);
      this.options.stdin.once('close', finish);
    });
  }

  private use(upstream: Upstream): void {
    this.upstream = upstream;
    const stop = lines(upstream.readable, (line) => this.fromUpstream(line));
    const gone = () => {
      if (this.upstream !== upstream) return;
      stop();
      this.upstream = null;
      if (!this.ended) void this.recover();
    };
    upstream.readable.once('close', gone);
    upstream.readable.once('end', gone);
    this.detach = stop;
  }

  private fromClient(line: string): void {
    if (line.trim() === '') return;
    const message = parse(line);
    if (message?.method === 'initialize' && message.id !== undefined) this.initialize = { line, id: message.id };
    if (message?.method === 'notifications/initialized') this.initialized = true;
    if (this.upstream && !this.replaying) this.forward(this.upstream, line, message);
    else this.queue.push(line);
  }

  private forward(upstream: Upstream, line: string, message = parse(line)): void {
    if (message?.method !== undefined && message.id !== undefined) this.pending.add(JSON.stringify(message.id));
    upstream.writable.write(`${line}\n`);
  }

  private fromUpstream(line: string): void {
    const message = parse(line);
    if (message && message.method === undefined && message.id !== undefined) {
      if (this.replaying && message.id === this.replaying.id) return this.replaying.done();
      this.pending.delete(JSON.stringify(message.id));
    }
    this.options.stdout.write(`${line}\n`);
  }

  private reply(id: Id | null, code: number, text: string): void {
    this.options.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: text } })}\n`);
  }

  /** The daemon went away: answer what was in flight, then find it again or serve alone. */
  private async recover(): Promise<void> {
    this.detach?.();
    for (const id of this.pending) {
      this.reply(JSON.parse(id) as Id, -32603, 'the engram daemon stopped during this call, so it may or may not have completed; check (search_brain, read_note) before repeating a write — the session continues');
    }
    this.pending.clear();
    const { log } = this.options;
    log.err('engram: lost the engram daemon; looking for it again');
    const deadline = Date.now() + (this.options.reconnectMs ?? 10_000);
    let why = 'the engram daemon stopped';
    while (!this.ended && Date.now() < deadline) {
      const found = this.options.find();
      if ('found' in found) {
        const attached = await connectDaemon(found.found, this.options.hello);
        if ('socket' in attached) {
          log.err(`engram: attached again to the engram daemon (pid ${found.found.pid})`);
          return this.resume({ readable: attached.socket, writable: attached.socket, close: () => attached.socket.destroy() });
        }
        why = attached.reason;
      } else if ('refused' in found) why = found.refused;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (this.ended) return;
    log.err(`engram: serving on its own from now on (${why})`);
    return this.resume(await this.options.standalone(why));
  }

  /** Re-initializes the new upstream as the client did, then sends what queued meanwhile. */
  private async resume(upstream: Upstream): Promise<void> {
    this.use(upstream);
    if (this.initialize) {
      const id = `engram-relay-init-${++this.replays}`;
      const replay = { ...(JSON.parse(this.initialize.line) as Record<string, unknown>), id };
      await new Promise<void>((done) => {
        this.replaying = { id, done };
        upstream.writable.write(`${JSON.stringify(replay)}\n`);
      });
      this.replaying = null;
      if (this.initialized) upstream.writable.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    }
    const queued = this.queue;
    this.queue = [];
    for (const line of queued) {
      if (this.upstream === upstream) this.forward(upstream, line);
      else this.queue.push(line);
    }
  }
}
