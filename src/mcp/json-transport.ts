/**
 * A Streamable HTTP session that answers every POST with plain JSON: the part of the transport
 * Engram's tools need, without converting each Node request into a Web `Request` and back (that
 * conversion was most of a trivial call's cost under load). Client requests are handed to the
 * MCP server and their responses collected by id. There is no server-to-client stream: a GET is
 * answered 405 (the spec's "no SSE here"), notifications from the server are dropped, and a
 * request from the server (elicitation) is answered at once with "not supported", so nothing
 * waits for it — the tools then fall back to preview → apply. A request whose id is already
 * awaiting an answer in this session (a batch like `[ping id 7, ping id 7]`) is answered with an
 * error at once: responses are matched by id, so two of them could not both be answered.
 * A session holds at most MAX_IN_FLIGHT unanswered requests, which bounds its memory.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

/** Unanswered requests one session may hold; more are refused until some are answered. */
export const MAX_IN_FLIGHT = 64;

export class JsonResponseTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly waiting = new Map<Id, (message: JSONRPCMessage) => void>();
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message)) {
      const resolve = this.waiting.get(message.id as Id);
      if (resolve) {
        this.waiting.delete(message.id as Id);
        resolve(message);
      }
      return;
    }
    if ('id' in message && 'method' in message) {
      const id = message.id as Id;
      queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32601, message: 'this endpoint answers with JSON only: requests from the server to the client are not supported' } }));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, resolve] of this.waiting) resolve({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the session was closed' } });
    this.waiting.clear();
    this.onclose?.();
  }

  /** Delivers one POST's messages; resolves with the responses to its requests, in order. */
  deliver(messages: readonly JSONRPCMessage[], extra: MessageExtraInfo): Promise<JSONRPCMessage[]> {
    const answers: Promise<JSONRPCMessage>[] = [];
    for (const message of messages) {
      if ('method' in message && 'id' in message) {
        const id = message.id as Id;
        const refusal = this.waiting.has(id)
          ? `duplicate request id ${JSON.stringify(id)}: a request with this id is still being answered; give each request its own id`
          : this.waiting.size >= MAX_IN_FLIGHT
            ? `too many requests in flight in this session (${MAX_IN_FLIGHT}); wait for answers before sending more`
            : null;
        if (refusal !== null) {
          answers.push(Promise.resolve({ jsonrpc: '2.0', id, error: { code: -32600, message: refusal } }));
          continue;
        }
        answers.push(new Promise((resolve) => this.waiting.set(id, resolve)));
      }
      this.onmessage?.(message, extra);
    }
    return Promise.all(answers);
  }
}
