/**
 * The servers' limits, against real `engram serve` processes: a flood of HTTP `initialize`
 * requests keeps the session count at its cap and the memory bounded (it once grew the process
 * to 4 GB and killed it), a batch of two requests sharing an id is answered (it hung), and over
 * stdio a line over 10 MiB, a line that is not JSON and `arguments` of the wrong type each get an
 * answer while the server keeps serving (the SDK's transport closed silently on the first and
 * said nothing to the second).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPO } from '../helpers/cli.js';
import { MCP_VAULT } from '../helpers/mcp.js';
import { makeVault } from '../helpers/vault.js';

const ENTRY = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const baseEnv = (home: string) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: home, ENGRAM_OFFLINE: '1' });
const INITIALIZE = { jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '0' } } };
const MAX_SESSIONS = 16;
const FLOOD = 1500;
/** Generous: the server idles at 150–250 MB and holds about 280 MB after the flood; 1,500 uncapped sessions took ≈1.2 GB. */
const RSS_BOUND_KB = 600 * 1024;
/** The server's old-space limit in these tests: above what it holds capped, far below 1,500 uncapped sessions. */
const HEAP_MB = 320;

function spawnServe(t: TestContext, args: string[], env: Record<string, string> = {}): ChildProcess {
  const vault = makeVault(t, MCP_VAULT);
  // A bounded heap makes the memory check deterministic: V8 must collect evicted sessions before
  // growing past it (on a starved machine it otherwise lets garbage pile up to twice the bound),
  // and a server that truly kept them would run out of memory and stop answering.
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', ENTRY, 'serve', '--vault', vault.root, '--no-watch', '--no-index', ...args], {
    cwd: REPO,
    env: { ...baseEnv(vault.home), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.after(() => {
    child.stdin?.end();
    child.kill('SIGKILL');
  });
  return child;
}

async function startHttp(t: TestContext): Promise<{ port: number; pid: number }> {
  const child = spawnServe(t, ['--http', '0'], { ENGRAM_HTTP_MAX_SESSIONS: String(MAX_SESSIONS) });
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { port, pid: child.pid! };
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function post(port: number, body: unknown, session?: string): Promise<{ status: number; session: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}) },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined, body: data }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function health(port: number): Promise<{ sessions: number; max_sessions: number }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/health', agent, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      res.on('end', () => resolve(JSON.parse(data)));
    })
      .on('error', reject)
      .end();
  });
}

function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]);
}

test('HTTP: a flood of initialize requests keeps sessions at the cap and memory bounded; the server still answers', { timeout: 240_000 }, async (t) => {
  const { port, pid } = await startHttp(t);
  let peakRss = 0;
  let next = 0;
  let first: string | undefined;
  const worker = async () => {
    while (next < FLOOD) {
      const id = next++;
      const answer = await post(port, { ...INITIALIZE, id });
      assert.equal(answer.status, 200, answer.body);
      if (id === 0) first = answer.session;
      if (id % 100 === 0) {
        // Checked as it goes, so an unbounded server fails here long before it exhausts the machine.
        peakRss = Math.max(peakRss, rssKb(pid));
        assert.ok(peakRss < RSS_BOUND_KB, `RSS stays bounded: ${Math.round(peakRss / 1024)} MB after ${id} sessions`);
        const { sessions } = await health(port);
        assert.ok(sessions <= MAX_SESSIONS, `never more sessions than the cap (${sessions})`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  peakRss = Math.max(peakRss, rssKb(pid));
  const after = await health(port);
  t.diagnostic(`${FLOOD} initialize requests: peak RSS ${Math.round(peakRss / 1024)} MB, sessions ${after.sessions} (cap ${after.max_sessions})`);
  assert.equal(after.max_sessions, MAX_SESSIONS);
  assert.equal(after.sessions, MAX_SESSIONS, 'the session count stays at the cap');
  assert.ok(peakRss < RSS_BOUND_KB, `RSS stays bounded: ${Math.round(peakRss / 1024)} MB`);

  // Still serving: a new session lists the tools; the idlest sessions were evicted.
  const fresh = await post(port, { ...INITIALIZE, id: 'last' });
  const tools = await post(port, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, fresh.session);
  assert.ok((JSON.parse(tools.body) as { result: { tools: unknown[] } }).result.tools.length > 20);
  const evicted = await post(port, { jsonrpc: '2.0', id: 1, method: 'ping' }, first);
  assert.equal(evicted.status, 404);
  assert.match(evicted.body, /unknown or expired session; initialize a new one/);
});

test('HTTP: a batch of two requests sharing an id is answered, the duplicate with an error', { timeout: 60_000 }, async (t) => {
  const { port } = await startHttp(t);
  const { session } = await post(port, { ...INITIALIZE, id: 1 });
  const answer = await post(
    port,
    [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 7, method: 'ping' },
    ],
    session,
  );
  assert.equal(answer.status, 200);
  const replies = JSON.parse(answer.body) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
  assert.equal(replies.length, 2);
  assert.deepEqual(replies[0], { jsonrpc: '2.0', id: 7, result: {} });
  assert.equal(replies[1]!.error?.code, -32600);
  assert.match(replies[1]!.error!.message, /duplicate request id 7/);
  // The session goes on.
  const ping = await post(port, { jsonrpc: '2.0', id: 8, method: 'ping' }, session);
  assert.deepEqual(JSON.parse(ping.body), { jsonrpc: '2.0', id: 8, result: {} });
});

/** A stdio server and a reader of its replies, one JSON message per line. */
function startStdio(t: TestContext) {
  const child = spawnServe(t, []);
  const replies: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      replies.push(JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>);
      buffered = buffered.slice(newline + 1);
      for (const wake of waiters.splice(0)) wake();
    }
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
    for (const wake of waiters.splice(0)) wake();
  });
  const send = (line: string) => new Promise<void>((resolve) => child.stdin!.write(`${line}\n`, () => resolve()));
  /** The next reply not yet taken (replies arrive in order for sequential requests). */
  let taken = 0;
  const reply = async (): Promise<Record<string, unknown>> => {
    while (taken >= replies.length) {
      assert.equal(exited, false, 'the server is still running');
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return replies[taken++]!;
  };
  return { send, reply };
}

test('stdio: an oversize line, invalid JSON and wrong-typed arguments each get an answer, and the server keeps serving', { timeout: 120_000 }, async (t) => {
  const { send, reply } = startStdio(t);
  await send(JSON.stringify({ ...INITIALIZE, id: 1 }));
  assert.equal((await reply()).id, 1);
  await send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

  await send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_note', arguments: { path: 'Claude/Big.md', content: 'x'.repeat(11 * 1024 * 1024) } } }));
  const tooLarge = await reply();
  assert.equal(tooLarge.id, null);
  assert.equal((tooLarge.error as { code: number }).code, -32600);
  assert.match((tooLarge.error as { message: string }).message, /request too large.*10485760 bytes/);
  await send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }));
  assert.deepEqual(await reply(), { jsonrpc: '2.0', id: 3, result: {} });

  await send('{"jsonrpc": "2.0", "id": 4, "method": "ping"');
  const parseError = await reply();
  assert.equal(parseError.id, null);
  assert.equal((parseError.error as { code: number }).code, -32700);

  await send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_note', arguments: 'Notes/A.md' } }));
  const wrongType = await reply();
  assert.equal(wrongType.id, 5);
  const result = wrongType.result as { isError: boolean; content: { text: string }[] };
  assert.equal(result.isError, true);
  assert.match(result.content[0]!.text, /arguments must be an object of named parameters.*not a string/);

  await send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }));
  assert.deepEqual(await reply(), { jsonrpc: '2.0', id: 6, result: {} });
});
