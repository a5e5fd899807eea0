/**
 * MCP round trips at 10k notes: `search_brain` over stdio (one client, sequential) and over
 * Streamable HTTP (16 concurrent clients), against the built server (dist/). Keyword mode (no
 * model on the bench machine). Run by `npm run bench -- --suites mcp`.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadDataset, syntheticVault } from './search-datasets.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
/** Timed calls per HTTP client, and warm-up rounds at full concurrency before them. */
const CALLS_PER_CLIENT = 100;
const WARM_UP_ROUNDS = 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchMcp(size: number, tool = 'search_brain'): Promise<Record<string, number | string>> {
  const vault = syntheticVault(size);
  // The search suite's 300 queries: one to three words drawn from a random note's text, so calls
  // meet common and rare words and different notes, as an agent's would.
  const queries = loadDataset(`synthetic:${size}`).queries;
  const query = (i: number) => queries[i % queries.length]!;
  const home = mkdtempSync(join(tmpdir(), 'engram-mcp-bench-'));
  const env = { ...process.env, ENGRAM_HOME: home, ENGRAM_OFFLINE: '1', ENGRAM_MODEL_DIR: join(home, 'no-models') } as Record<string, string>;
  try {
    execFileSync(process.execPath, [CLI, 'index', '--vault', vault, '--quiet', '--no-embed'], { env });

    const stdio = new Client({ name: 'bench', version: '0' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--vault', vault, '--no-index', '--no-watch'], env, stderr: 'ignore' }));
    for (let i = 0; i < 20; i++) await stdio.callTool({ name: 'search_brain', arguments: { query: query(i) } });
    const stdioTimes: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      await stdio.callTool({ name: 'search_brain', arguments: { query: query(i) } });
      stdioTimes.push(performance.now() - t0);
    }
    await stdio.close();
    stdioTimes.sort((a, b) => a - b);

    const server = spawn(process.execPath, [CLI, 'serve', '--http', '0', '--vault', vault, '--no-index', '--no-watch'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const port = await new Promise<number>((resolve, reject) => {
      let stderr = '';
      server.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (match) resolve(Number(match[1]));
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    // 16 concurrent clients speaking the protocol directly (JSON-RPC POSTs on their own session):
    // the SDK client's own per-call work (schema validation of every result) would otherwise
    // compete with the server for the same two cores and be measured as server latency.
    const endpoint = `http://127.0.0.1:${port}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const open = async (): Promise<string> => {
      const init = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } }),
      });
      const session = init.headers.get('mcp-session-id')!;
      await init.text();
      await (await fetch(endpoint, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
      return session;
    };
    const call = async (session: string, id: number, args: Record<string, unknown>): Promise<boolean> => {
      const response = await fetch(endpoint, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } }) });
      const body = (await response.json()) as { result?: { isError?: boolean } };
      return response.ok && body.result !== undefined && body.result.isError !== true;
    };
    const sessions = await Promise.all(Array.from({ length: 16 }, open));
    // Warm-up, as for stdio: the first search loads the index into memory. Then a few rounds at
    // full concurrency, so the 16 keep-alive connections exist before anything is timed (opening
    // them is the load generator's cost, not a search's).
    for (let i = 0; i < 20; i++) await call(sessions[i % sessions.length]!, i, tool === 'search_brain' ? { query: query(i) } : {});
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      await Promise.all(sessions.map((session, c) => call(session, 50 + round, tool === 'search_brain' ? { query: query(c + round) } : {})));
    }
    const httpTimes: number[] = [];
    let errors = 0;
    await Promise.all(
      sessions.map(async (session, c) => {
        for (let i = 0; i < CALLS_PER_CLIENT; i++) {
          const t0 = performance.now();
          try {
            if (!(await call(session, 100 + i, tool === 'search_brain' ? { query: query(c * CALLS_PER_CLIENT + i) } : {}))) errors++;
          } catch {
            errors++;
          }
          httpTimes.push(performance.now() - t0);
        }
      }),
    );
    server.kill('SIGTERM');
    httpTimes.sort((a, b) => a - b);
    return {
      notes: size,
      'stdio p50 (ms)': +percentile(stdioTimes, 50).toFixed(2),
      'stdio p95 (ms)': +percentile(stdioTimes, 95).toFixed(2),
      'http 16 clients p50 (ms)': +percentile(httpTimes, 50).toFixed(2),
      'http 16 clients p99 (ms)': +percentile(httpTimes, 99).toFixed(2),
      'http calls': httpTimes.length,
      errors,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
