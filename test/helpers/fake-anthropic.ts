/**
 * A scripted fake of the Anthropic Messages API on 127.0.0.1: the real SDK talks to it over HTTP,
 * so retries, timeouts and error mapping are exercised for real. Each request to
 * `POST /v1/messages` takes the next step of the script; the request is recorded first.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  status: number;
  json: unknown;
  /** Wait this long before answering (to trigger client timeouts). */
  delayMs?: number;
  headers?: Record<string, string>;
  /** Close the connection without answering (a proxy or the server dropping it). */
  hangUp?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The key from `x-api-key` or `Authorization: Bearer`, whichever came. */
  apiKey: string | null;
  body: MessagesBody;
}

/** The parts of a Messages request the tests look at. */
export interface MessagesBody {
  model?: string;
  system?: string;
  messages?: { role: string; content: string }[];
  tools?: { name: string; input_schema: unknown }[];
  tool_choice?: unknown;
  [key: string]: unknown;
}

export type ScriptStep = (body: MessagesBody, request: RecordedRequest) => FakeReply;

export interface FakeAnthropic {
  /** The base URL to give the SDK (`baseURL`). */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeAnthropic(script: ScriptStep[]): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: MessagesBody;
      try {
        body = text === '' ? {} : (JSON.parse(text) as MessagesBody);
      } catch {
        body = { unparsed: text };
      }
      const request: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, apiKey: keyOf(req.headers), body };
      requests.push(request);
      const reply = answer(request, script, next++);
      const send = () => {
        timers.delete(timer);
        if (res.destroyed) return;
        if (reply.hangUp) {
          res.socket?.destroy();
          return;
        }
        res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_fake_${requests.length}`, ...reply.headers });
        res.end(JSON.stringify(reply.json));
      };
      const timer = setTimeout(send, reply.delayMs ?? 0);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(request: RecordedRequest, script: ScriptStep[], index: number): FakeReply {
  const step = script[index];
  if (request.method !== 'POST' || request.path.split('?')[0] !== '/v1/messages') return errorReply(404, 'not_found_error', `no route ${request.method} ${request.path}`);
  if (!request.apiKey) return errorReply(401, 'authentication_error', 'x-api-key header is required');
  if (!step) return errorReply(500, 'api_error', `the fake's script has no step ${index + 1} (it has ${script.length})`);
  return step(request.body, request);
}

function keyOf(headers: IncomingHttpHeaders): string | null {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string' && direct !== '') return direct;
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** A 200 reply in Messages API shape whose only content is a call of `tool` with `input`. */
export function toolUseReply(input: unknown, usage = { input_tokens: 1200, output_tokens: 300 }, tool = 'record_extraction'): ScriptStep {
  return (body) => ({ status: 200, json: message(body, [{ type: 'tool_use', id: 'toolu_fake_1', name: tool, input }], 'tool_use', usage) });
}

/** A 200 reply with text only: the model did not call the tool. */
export function textReply(text: string, usage = { input_tokens: 1200, output_tokens: 40 }): ScriptStep {
  return (body) => ({ status: 200, json: message(body, [{ type: 'text', text }], 'end_turn', usage) });
}

/** An API error in Anthropic's shape. `retry-after-ms` keeps the SDK's backoff short in tests. */
export function errorReply(status: number, type: string, text: string): FakeReply {
  return { status, json: { type: 'error', error: { type, message: text }, request_id: 'req_fake' }, headers: { 'retry-after-ms': '5' } };
}

export function errorStep(status: number, type: string, text: string): ScriptStep {
  return () => errorReply(status, type, text);
}

function message(body: MessagesBody, content: unknown[], stopReason: string, usage: { input_tokens: number; output_tokens: number }) {
  return {
    id: 'msg_fake_1',
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'unknown',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}
