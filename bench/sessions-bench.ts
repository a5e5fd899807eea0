/**
 * Many sessions on one vault: 8 concurrent stdio sessions (`engram serve`, as Claude Code starts
 * them) served on their own, then the same 8 attached to one `engram daemon`, in the same run,
 * against the built CLI, started as users get it: the native launcher (build/engram, whose
 * relay is native and which runs node for the rest) when it was built, else node dist/cli/engram.js. Measures total RSS (each process and its children, from /proc),
 * each session's `initialize` and first `search_brain` after it, and p50/p95 of sequential
 * searches on one session (direct vs over the relay). Keyword mode (no model on the bench
 * machine, so no embedder process on either side). Linux (reads /proc). Run by
 * `npm run bench -- --suites sessions`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadDataset, syntheticVault } from './search-datasets.js';
import { stateDirFor } from '../src/index/index.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ENTRY = fileURLToPath(new URL('../dist/cli/engram.js', import.meta.url));
const NATIVE = fileURLToPath(new URL('../build/engram', import.meta.url));
/** What `engram mcp sync` registers on this machine: the native launcher when built. */
const LAUNCHER = existsSync(NATIVE) ? { name: 'native (build/engram)', command: NATIVE, args: [] } : { name: 'node (dist/cli/engram.js)', command: process.execPath, args: [ENTRY] };
const SESSIONS = 8;
const TIMED_SEARCHES = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Memory of a process and all its descendants (MB), from /proc: RSS, or PSS — each shared page
 * divided among the processes sharing it. Node's own binary is most of an idle process's RSS
 * (40 MB RSS, ~10 MB PSS with eight running), so summed RSS counts it once per process while
 * the machine holds it once; PSS sums to what the processes really take together.
 */
function treeMb(root: number, field: 'rss' | 'pss' = 'rss'): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.pop()!;
    try {
      kb += field === 'rss' ? Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) : Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return kb / 1024;
}

interface Session {
  client: Client;
  pid: number;
  initMs: number;
  firstSearchMs: number;
}

async function open(vault: string, env: Record<string, string>, query: string): Promise<Session> {
  const client = new Client({ name: 'bench', version: '0' });
  const transport = new StdioClientTransport({ command: LAUNCHER.command, args: [...LAUNCHER.args, 'serve', '--vault', vault, '--no-index'], env, stderr: 'ignore' });
  const t0 = performance.now();
  await client.connect(transport);
  const t1 = performance.now();
  await client.callTool({ name: 'search_brain', arguments: { query } });
  return { client, pid: transport.pid!, initMs: t1 - t0, firstSearchMs: performance.now() - t1 };
}

async function timedSearches(client: Client, query: (i: number) => string): Promise<number[]> {
  for (let i = 0; i < 20; i++) await client.callTool({ name: 'search_brain', arguments: { query: query(i) } });
  const times: number[] = [];
  for (let i = 0; i < TIMED_SEARCHES; i++) {
    const t0 = performance.now();
    await client.callTool({ name: 'search_brain', arguments: { query: query(i + 20) } });
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** Opens the sessions one after another (each one's start-up timed alone), keeps them all open, measures. */
async function run(vault: string, env: Record<string, string>, query: (i: number) => string, extraPids: number[]) {
  const sessions: Session[] = [];
  const treePss = (pids: number[]) => pids.reduce((sum, pid) => sum + treeMb(pid, 'pss'), 0);
  let onePss = 0;
  for (let i = 0; i < SESSIONS; i++) {
    sessions.push(await open(vault, env, query(1000 + i)));
    if (i === 0) onePss = treePss([sessions[0]!.pid, ...extraPids]); // one session (and the daemon), nothing else running
  }
  const times = await timedSearches(sessions[0]!.client, query);
  // Every session searches at once, so each process holds what serving costs it.
  await Promise.all(sessions.map((session, i) => session.client.callTool({ name: 'search_brain', arguments: { query: query(2000 + i) } })));
  const perSession = sessions.map((session) => treeMb(session.pid));
  const rss = perSession.reduce((sum, mb) => sum + mb, 0) + extraPids.reduce((sum, pid) => sum + treeMb(pid), 0);
  const pss = treePss([...sessions.map((session) => session.pid), ...extraPids]);
  await Promise.all(sessions.map((session) => session.client.close()));
  const later = sessions.slice(1);
  return {
    rss,
    pss,
    onePss,
    perSession,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    initMs: later.map((session) => session.initMs).sort((a, b) => a - b),
    firstSearchMs: later.map((session) => session.firstSearchMs).sort((a, b) => a - b),
    firstSession: sessions[0]!,
  };
}

async function startDaemon(vault: string, home: string, env: Record<string, string>): Promise<ChildProcess> {
  const daemon = spawn(process.execPath, [CLI, 'daemon', '--vault', vault, '--no-index'], { env, stdio: ['ignore', 'ignore', 'ignore'] });
  const attach = join(stateDirFor(home, realpathSync(vault)), 'attach.json');
  for (let waited = 0; !(existsSync(attach) && (JSON.parse(readFileSync(attach, 'utf8')) as { pid: number }).pid === daemon.pid); waited += 100) {
    if (waited > 120_000 || daemon.exitCode !== null) throw new Error('the daemon did not open its attach endpoint');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return daemon;
}

export async function benchSessions(size: number): Promise<Record<string, number | string>> {
  const vault = syntheticVault(size);
  const queries = loadDataset(`synthetic:${size}`).queries;
  const query = (i: number) => queries[i % queries.length]!;
  const home = mkdtempSync(join(tmpdir(), 'engram-sessions-bench-'));
  const env = { ...process.env, ENGRAM_HOME: home, ENGRAM_OFFLINE: '1', ENGRAM_MODEL_DIR: join(home, 'no-models') } as Record<string, string>;
  try {
    execFileSync(process.execPath, [CLI, 'index', '--vault', vault, '--quiet', '--no-embed'], { env });
    const alone = await run(vault, env, query, []);
    const daemon = await startDaemon(vault, home, env);
    let shared;
    try {
      shared = await run(vault, env, query, [daemon.pid!]);
    } finally {
      daemon.kill('SIGTERM');
      await new Promise((resolve) => daemon.once('exit', resolve));
    }
    const one = alone.perSession[0]!;
    const median = (values: number[]) => values[Math.floor(values.length / 2)]!;
    return {
      notes: size,
      sessions: SESSIONS,
      launcher: LAUNCHER.name,
      'one standalone RSS (MB)': Math.round(one),
      '8 standalone RSS (MB)': Math.round(alone.rss),
      '8 attached + daemon RSS (MB)': Math.round(shared.rss),
      'attached ÷ one standalone': +(shared.rss / one).toFixed(2),
      'one standalone alone PSS (MB)': Math.round(alone.onePss),
      '8 standalone PSS (MB)': Math.round(alone.pss),
      '8 attached + daemon PSS (MB)': Math.round(shared.pss),
      'attached PSS ÷ one standalone alone': +(shared.pss / alone.onePss).toFixed(2),
      'relay process RSS (MB)': Math.round(median([...shared.perSession].sort((a, b) => a - b))),
      'standalone initialize (ms, median)': Math.round(median(alone.initMs)),
      'attached initialize (ms, median)': Math.round(median(shared.initMs)),
      'standalone first search (ms, median)': Math.round(median(alone.firstSearchMs)),
      'attached first search (ms, median)': Math.round(median(shared.firstSearchMs)),
      'attached first search (ms, max)': Math.round(shared.firstSearchMs.at(-1)!),
      'direct p50 (ms)': +alone.p50.toFixed(2),
      'relay p50 (ms)': +shared.p50.toFixed(2),
      'relay p50 ÷ direct': +(shared.p50 / alone.p50).toFixed(2),
      'direct p95 (ms)': +alone.p95.toFixed(2),
      'relay p95 (ms)': +shared.p95.toFixed(2),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
