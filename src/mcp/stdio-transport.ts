/**
 * MCP over stdio, one JSON-RPC message per line, answering what the SDK's stdio transport leaves
 * unanswered: a line that is not JSON gets a -32700 parse error, one that is not a JSON-RPC
 * message a -32600, and a line over `maxLineBytes` a -32600 as soon as it crosses the limit —
 * the rest of that line is dropped unread and the server keeps serving. (The SDK's transport
 * closed itself on such a line and the process lived on, answering nothing.) A reply to a bad
 * line has id null, as JSON-RPC prescribes when the id could not be read.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's limit too: larger requests are refused (a note's text fits many times over). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Inside a line that crossed the limit: its bytes are dropped up to the next newline. */
  private dropping = false;
  private closed = false;
  private readonly ondata = (chunk: Buffer) => this.read(chunk);
  private readonly onend = () => void this.close();

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('end', this.onend);
  }

  send(message: JSONRPCMessage): Promise<void> {
    // A peer gone mid-call (a relay's socket closed): the answer has nowhere to go.
    if (this.stdout.destroyed || this.stdout.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('end', this.onend);
    this.chunks = [];
    this.onclose?.();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      if (!this.dropping && this.take(chunk.subarray(start, newline))) this.line(Buffer.concat(this.chunks).toString('utf8'));
      this.dropping = false; // a newline ends the line, dropped or not
      this.chunks = [];
      this.size = 0;
      start = newline + 1;
    }
    if (start < chunk.length && !this.dropping) this.take(chunk.subarray(start));
  }

  /** Buffers part of the current line; false (and the line is dropped, with an error reply) once it is over the limit. */
  private take(part: Buffer): boolean {
    this.size += part.length;
    if (this.size <= this.maxLineBytes) {
      this.chunks.push(part);
      return true;
    }
    this.chunks = [];
    this.dropping = true;
    void this.refuse(-32600, `request too large: a message is one line of at most ${this.maxLineBytes} bytes; this one was dropped (send large text in smaller parts)`);
    return false;
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      void this.refuse(-32700, 'parse error: the line is not JSON; send one JSON-RPC message per line');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      const id = idOf(parsed);
      void this.refuse(-32600, 'invalid request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0", a "method" string, and an "id" string or number for a request)', id);
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuse(code: number, text: string, id: string | number | null = null): Promise<void> {
    // A null id is what JSON-RPC prescribes here, though the SDK's message type has no room for it.
    return this.send({ jsonrpc: '2.0', id, error: { code, message: text } } as unknown as JSONRPCMessage);
  }
}

function idOf(value: unknown): string | number | null {
  const id = value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
