/**
 * The server as clients meet it: a spawned `engram serve` over stdio, and `engram serve --http`
 * with the real SDK client, a wrong Host header, a foreign Origin and a missing token.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from '../helpers/cli.js';
import { MCP_VAULT } from '../helpers/mcp.js';
import { eventually } from '../helpers/eventually.js';
import { makeVault } from '../helpers/vault.js';

const ENTRY = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const baseEnv = (home: string) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: home, ENGRAM_OFFLINE: '1' });

test('spawned engram serve over stdio: answers, indexes in the background, lists and runs tools, stdout stays JSON-RPC', async (t) => {
  const vault = makeVault(t, MCP_VAULT);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', ENTRY, 'serve', '--vault', vault.root],
    env: baseEnv(vault.home),
    cwd: REPO,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '0' });
  await client.connect(transport);
  t.after(() => client.close());
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  assert.deepEqual(tools, [
    'add_task',
    'append_note',
    'capture',
    'consolidate_graph',
    'context_bundle',
    'create_issue',
    'create_project',
    'find_entity',
    'get_backlinks',
    'graph_stats',
    'index_brain',
    'index_status',
    'librarian_status',
    'list_issues',
    'list_notes',
    'list_recent',
    'list_tasks',
    'log_session',
    'move_note',
    'onboard',
    'organize_vault',
    'query_notes',
    'read_note',
    'recall_bundle',
    'related_notes',
    'search_brain',
    'suggest_relations',
    'undo_move',
    'undo_run',
    'undo_write',
    'update_issue',
    'update_note',
    'upsert_concept',
    'write_note',
  ]);
  // The background index run finishes; then search finds the notes.
  await eventually(async () => {
    const result = (await client.callTool({ name: 'search_brain', arguments: { query: 'tantivy' } })) as { structuredContent?: { results: { path: string }[] } };
    return (result.structuredContent?.results ?? []).length > 0;
  }, 'search finds notes once the background index has run');
  const refused = (await client.callTool({ name: 'read_note', arguments: { path: '.obsidian/plugins/fake-sync/data.json' } })) as { isError?: boolean };
  assert.equal(refused.isError, true);
  const traversal = (await client.callTool({ name: 'read_note', arguments: { path: '../outside.md' } })) as { isError?: boolean };
  assert.equal(traversal.isError, true);
});

async function startHttp(t: Parameters<typeof makeVault>[0], token?: string): Promise<{ port: number; vault: ReturnType<typeof makeVault> }> {
  const vault = makeVault(t, MCP_VAULT);
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'serve', '--http', '0', '--vault', vault.root, '--no-watch'], {
    cwd: REPO,
    env: { ...baseEnv(vault.home), ...(token ? { ENGRAM_HTTP_TOKEN: token } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    child.kill('SIGTERM');
  });
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { port, vault };
}

function raw(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

test('engram serve --http: a real client works; wrong Host and foreign Origin are refused; /health answers', async (t) => {
  const { port } = await startHttp(t);
  const client = new Client({ name: 'http-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  t.after(() => client.close());
  const onboard = (await client.callTool({ name: 'onboard', arguments: {} })) as { structuredContent?: { routing: string[] } };
  assert.ok(onboard.structuredContent!.routing.length > 0);
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
  const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  assert.equal((await raw(port, '/mcp', { ...jsonHeaders, host: 'evil.example:80' }, 'POST', init)).status, 403, 'DNS rebinding: wrong Host');
  assert.equal((await raw(port, '/mcp', { ...jsonHeaders, host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, 'POST', init)).status, 403, 'foreign Origin');
  const health = await raw(port, '/health', { host: `localhost:${port}` });
  assert.equal(health.status, 200);
  assert.equal(JSON.parse(health.body).ok, true);
  assert.equal((await raw(port, '/elsewhere', { host: `127.0.0.1:${port}` })).status, 404);
});

test('engram serve --http with ENGRAM_HTTP_TOKEN: no token or a wrong one is 401, the right one works', async (t) => {
  const { port } = await startHttp(t, 'sekret-token');
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: `127.0.0.1:${port}` };
  assert.equal((await raw(port, '/mcp', headers, 'POST', init)).status, 401);
  assert.equal((await raw(port, '/mcp', { ...headers, authorization: 'Bearer wrong' }, 'POST', init)).status, 401);
  const client = new Client({ name: 'http-token', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { authorization: 'Bearer sekret-token' } } }));
  t.after(() => client.close());
  assert.ok((await client.listTools()).tools.length >= 11);
});

test('spawned engram serve: an agent writes under Claude/, finds each write, and cannot touch the rest without preview → apply', async (t) => {
  const vault = makeVault(t, MCP_VAULT);
  const client = new Client({ name: 'writer', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', ENTRY, 'serve', '--vault', vault.root, '--no-watch'],
      env: baseEnv(vault.home),
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  type R = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as R;
  // By the keyword lane, so by the index (the substring lane reads the files themselves).
  const found = async (query: string, path: string) =>
    ((await call('search_brain', { query })).structuredContent!.results as { path: string; lanes: { keyword?: unknown } }[]).some((hit) => hit.path === path && hit.lanes.keyword !== undefined);
  // Wait for the background index so search works at all.
  await eventually(() => found('tantivy', 'Projects/Atlas.md'), 'the background index ran');

  const session = (await call('log_session', { title: 'Walrus review', body: 'walrus findings' })).structuredContent!.path as string;
  assert.ok(await found('walrus findings', session));
  const inbox = (await call('capture', { text: 'narwhal sighting' })).structuredContent!.path as string;
  assert.ok(await found('narwhal', inbox));
  const concept = (await call('upsert_concept', { name: 'Okapi', body: 'okapi stripes' })).structuredContent!.path as string;
  assert.ok(await found('okapi stripes', concept));
  await call('add_task', { text: 'feed the axolotl', due: '2026-07-01' });
  assert.ok(await found('axolotl', 'Claude/Tasks.md'));
  await call('write_note', { path: 'Claude/Plan.md', content: '# Plan\n## Steps\n- one\n' });
  await call('append_note', { path: 'Claude/Plan.md', content: '- platypus step', position: 'under_heading', heading: 'Steps' });
  assert.ok(await found('platypus', 'Claude/Plan.md'));

  const constitution = readFileSync(join(vault.root, 'Claude/README.md'));
  const rules = await call('write_note', { path: 'Claude/README.md', content: 'mine now', overwrite: true });
  assert.equal(rules.structuredContent!.applied, false, 'the constitution changes only through preview → apply');
  assert.deepEqual(readFileSync(join(vault.root, 'Claude/README.md')), constitution);
  const before = readFileSync(join(vault.root, 'Projects/Atlas.md'));
  const preview = await call('write_note', { path: 'Projects/Atlas.md', content: 'overwritten', overwrite: true });
  assert.equal(preview.structuredContent!.applied, false);
  assert.deepEqual(readFileSync(join(vault.root, 'Projects/Atlas.md')), before);
  const applied = await call('write_note', { token: preview.structuredContent!.token as string });
  assert.equal(readFileSync(join(vault.root, 'Projects/Atlas.md'), 'utf8'), 'overwritten');
  // Undoing it changes the human's note again: previewed, then applied with the token.
  const id = applied.structuredContent!.journal_id as number;
  const undoPreview = await call('undo_write', { id });
  assert.equal(undoPreview.structuredContent!.applied, false);
  assert.equal(readFileSync(join(vault.root, 'Projects/Atlas.md'), 'utf8'), 'overwritten');
  await call('undo_write', { id, token: undoPreview.structuredContent!.token as string });
  assert.deepEqual(readFileSync(join(vault.root, 'Projects/Atlas.md')), before, 'undo_write restores the previous bytes');
});

test("two engram serve processes on one vault share the state directory: both index, both see each other's writes", async (t) => {
  const vault = makeVault(t, MCP_VAULT);
  type R = { isError?: boolean; structuredContent?: Record<string, unknown> };
  const spawnClient = async (name: string) => {
    const client = new Client({ name, version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', ENTRY, 'serve', '--vault', vault.root],
        env: baseEnv(vault.home),
        cwd: REPO,
        stderr: 'pipe',
      }),
    );
    t.after(() => client.close());
    return async (tool: string, args: Record<string, unknown>) => (await client.callTool({ name: tool, arguments: args })) as R;
  };
  // Started together: both launch a background index run on the same state; one takes the
  // lock, the other finds it held, and both end up serving the shared index.
  const [a, b] = await Promise.all([spawnClient('a'), spawnClient('b')]);
  // By the keyword lane, so by the shared index (the substring lane reads the files themselves).
  const hits = async (call: typeof a, query: string) =>
    ((await call('search_brain', { query })).structuredContent!.results as { path: string; lanes: { keyword?: unknown } }[]).filter((hit) => hit.lanes.keyword !== undefined).map((hit) => hit.path);
  const waitFor = (call: typeof a, query: string, path: string, what: string) => eventually(async () => (await hits(call, query)).includes(path), what);
  await waitFor(a, 'tantivy', 'Projects/Atlas.md', 'a serves the index');
  await waitFor(b, 'tantivy', 'Projects/Atlas.md', 'b serves the index');
  for (const call of [a, b]) {
    let state = 'indexing';
    await eventually(async () => {
      state = ((await call('index_status', {})).structuredContent as { indexing: string }).indexing;
      return state !== 'indexing';
    }, 'the index run ended');
    assert.equal(state, 'ready', 'a concurrent index run is not reported as a failure');
  }
  // A write through one server is seen by the other through its watcher (shared database).
  const captured = (await a('capture', { text: 'quokka census results' })) as R & { content?: { text?: string }[] };
  assert.equal(captured.isError, undefined, captured.content?.[0]?.text);
  const inbox = captured.structuredContent!.path as string;
  await waitFor(b, 'quokka census', inbox, 'the other server finds the note');
  await waitFor(a, 'quokka census', inbox, 'the writing server finds the note');
});

test('engram serve --http speaks the protocol edges: 202 for notifications, batches, 405 GET, DELETE, bad JSON, oversize, unknown version', async (t) => {
  const { port } = await startHttp(t);
  const host = `127.0.0.1:${port}`;
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host };
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
  const started = await new Promise<{ status: number; session: string; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: json }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, session: String(res.headers['mcp-session-id']), body: data }));
    });
    req.on('error', reject);
    req.end(init);
  });
  assert.equal(started.status, 200);
  assert.equal(JSON.parse(started.body).result.serverInfo.name, 'engram');
  const session = { ...json, 'mcp-session-id': started.session, 'mcp-protocol-version': '2025-06-18' };
  assert.equal((await raw(port, '/mcp', session, 'POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status, 202);
  const batch = await raw(
    port,
    '/mcp',
    session,
    'POST',
    JSON.stringify([
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'librarian_status', arguments: {} } },
      { jsonrpc: '2.0', id: 8, method: 'tools/list' },
    ]),
  );
  assert.equal(batch.status, 200);
  assert.deepEqual(
    (JSON.parse(batch.body) as { id: number }[]).map((answer) => answer.id),
    [7, 8],
  );
  assert.equal((await raw(port, '/mcp', session, 'GET')).status, 405, 'no server-to-client stream');
  assert.equal((await raw(port, '/mcp', session, 'POST', '{ not json')).status, 400);
  assert.equal((await raw(port, '/mcp', session, 'POST', JSON.stringify({ hello: 'world' }))).status, 400);
  assert.equal((await raw(port, '/mcp', { ...session, 'mcp-protocol-version': '1999-01-01' }, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }))).status, 400);
  assert.equal((await raw(port, '/mcp', session, 'POST', init)).status, 400, 'a session is initialized once');
  assert.equal((await raw(port, '/mcp', json, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }))).status, 400, 'no session, not initialize');
  const huge = await raw(port, '/mcp', session, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'search_brain', arguments: { query: 'x'.repeat(5 * 1024 * 1024) } } }));
  assert.equal(huge.status, 413);
  assert.equal((await raw(port, '/mcp', session, 'DELETE')).status, 200);
  assert.equal((await raw(port, '/mcp', session, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/list' }))).status, 404, 'an ended session is gone');
});

test('over HTTP, a client that declares elicitation still gets a preview and a token (the JSON endpoint cannot carry the question)', async (t) => {
  const { port, vault } = await startHttp(t);
  const client = new Client({ name: 'asks', version: '0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  t.after(() => client.close());
  const before = readFileSync(join(vault.root, 'Projects/Atlas.md'));
  const result = (await client.callTool({ name: 'write_note', arguments: { path: 'Projects/Atlas.md', content: 'changed', overwrite: true } })) as { isError?: boolean; structuredContent?: { applied: boolean; token?: string } };
  assert.equal(result.isError, undefined);
  assert.equal(result.structuredContent!.applied, false);
  assert.ok(result.structuredContent!.token);
  assert.deepEqual(readFileSync(join(vault.root, 'Projects/Atlas.md')), before);
});
