/**
 * The relay's scenarios with real processes, run against each launcher a client may start:
 * the Node relay (`node dist/cli/engram.js serve`, relay.test.ts) and the native one
 * (`build/engram serve`, native-relay.test.ts). A daemon, stdio sessions reached by the real MCP
 * SDK client (or raw JSON lines where the test needs to place bytes exactly), and the attach file
 * between them. Sessions relay to the daemon's engine (the relaying process never loads SQLite),
 * keep their own names in the journal and Audit.md, elicit and preview → apply through the relay,
 * survive a daemon restart and fall back to serving on their own — as they do, with a message,
 * whenever the attach file is absent, stale, for another vault or version, or readable by others.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { resolveVaultRoot, stateDirFor } from '../../src/index/index.js';
import { pidState } from '../../src/pid.js';
import { REPO, spawnCli } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { makeVault, type FixtureVault } from '../helpers/vault.js';

/** How a client starts `engram`: the command and what precedes `serve`, and the environment it adds. */
export interface Launcher {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The relaying process is this program (the native relay: not node). */
  program?: string;
  /** Why these scenarios cannot run here (the native relay was not built: no C compiler). */
  skip?: string;
}

const MAIN = join(REPO, 'src/cli/main.ts');
const FILES = { 'Claude/README.md': '# Constitution\nAgents write under Claude/ only.\n', 'Notes/Alpha.md': '# Alpha\nThe quokka project ships in spring.\n' };

type Reply = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };

function baseEnv(vault: FixtureVault): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: vault.home, ENGRAM_OFFLINE: '1' };
}

function stateDir(vault: FixtureVault): string {
  return stateDirFor(vault.home, resolveVaultRoot(vault.root));
}

function attachFile(vault: FixtureVault): { pid: number; vault: string; version: string; port: number; secret: string } | null {
  const path = join(stateDir(vault), 'attach.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { pid: number; vault: string; version: string; port: number; secret: string }) : null;
}

/** A real `engram daemon`, up once its attach file names it. */
async function startDaemon(t: TestContext, vault: FixtureVault): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'daemon', '--vault', vault.root, '--no-index'], { cwd: REPO, env: baseEnv(vault), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await eventually(() => attachFile(vault)?.pid === child.pid || child.exitCode !== null, 'the daemon writes its attach file');
  assert.equal(child.exitCode, null, `the daemon runs (stderr: ${stderr})`);
  return child;
}

async function stopDaemon(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A stdio session through the `engram` executable, as Claude Code starts it. */
async function connect(t: TestContext, launcher: Launcher, vault: FixtureVault, options: { name?: string; elicit?: boolean; args?: string[] } = {}) {
  const client = new Client({ name: options.name ?? 'tester', version: '1' }, options.elicit ? { capabilities: { elicitation: {} } } : {});
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
  const transport = new StdioClientTransport({
    command: launcher.command,
    args: [...launcher.args, 'serve', '--vault', vault.root, '--no-watch', '--no-index', ...(options.args ?? [])],
    env: { ...baseEnv(vault), ...launcher.env },
    cwd: REPO,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  t.after(() => client.close());
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Reply;
  const session = async () => ((await call('onboard')).structuredContent!.status as { session: string }).session;
  return { client, call, session, pid: transport.pid!, stderr: () => stderr };
}

function daemonSessions(vault: FixtureVault): number {
  try {
    return (JSON.parse(readFileSync(join(stateDir(vault), 'daemon.json'), 'utf8')) as { sessions: unknown[] }).sessions.length;
  } catch {
    return -1;
  }
}

function journal(vault: FixtureVault): { run_id: string; tool: string; path: string }[] {
  const db = new Database(join(stateDir(vault), 'engram.db'), { readonly: true });
  try {
    return db.prepare('SELECT run_id, tool, path FROM journal ORDER BY id').all() as { run_id: string; tool: string; path: string }[];
  } finally {
    db.close();
  }
}

type Message = { id?: unknown; method?: string; result?: { structuredContent?: { status?: { session?: string } } }; error?: { code: number; message: string } };

/** A session driven with raw JSON lines, for tests that place bytes exactly (half lines, oversize lines, ids as written). */
function rawSession(t: TestContext, launcher: Launcher, vault: FixtureVault, args: string[]) {
  const child = spawn(launcher.command, [...launcher.args, 'serve', '--vault', vault.root, '--no-watch', '--no-index', ...args], { cwd: REPO, env: { ...baseEnv(vault), ...launcher.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const received: Message[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') received.push(JSON.parse(line) as Message);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const reply = async (match: (message: Message) => boolean, what: string): Promise<Message> => {
    await eventually(() => received.some(match), what);
    return received.find(match)!;
  };
  return { send: (text: string) => child.stdin!.write(text), reply, received, stderr: () => stderr };
}

/** The scenarios, as tests named after the launcher. */
export function relayScenarios(launcher: Launcher): void {
  const scenario = (name: string, run: (t: TestContext) => Promise<void>): void => void test(name, { skip: launcher.skip ?? false }, run);
  scenario(`${launcher.name}: sessions attach to the daemon: one engine, each session journaled under its own name, elicitation and preview → apply through the relay, listed by status`, async (t) => {
    const vault = makeVault(t, FILES);
    spawnCli(['index', '--vault', vault.root, '--quiet'], { ENGRAM_HOME: vault.home });
    const daemon = await startDaemon(t, vault);
    const alpha = await connect(t, launcher, vault, { name: 'Alpha Agent' });
    const beta = await connect(t, launcher, vault, { name: 'beta-client', elicit: true });

    for (const session of [alpha, beta]) assert.match(await session.session(), new RegExp(`attached to the engram daemon \\(pid ${daemon.pid}\\)`));
    assert.match(await alpha.session(), /writes journaled as run mcp-alpha-agent-[0-9a-f]{8}$/);
    assert.match(await beta.session(), /writes journaled as run mcp-beta-client-[0-9a-f]{8}$/);
    // The relaying process runs no engine: SQLite's native module is never loaded into it.
    if (existsSync(`/proc/${alpha.pid}/maps`)) assert.doesNotMatch(readFileSync(`/proc/${alpha.pid}/maps`, 'utf8'), /better_sqlite3/);
    if (launcher.program && existsSync(`/proc/${alpha.pid}/exe`)) assert.equal(realpathSync(`/proc/${alpha.pid}/exe`), realpathSync(launcher.program), 'relayed by the native program, not node');

    const found = await alpha.call('search_brain', { query: 'quokka' });
    assert.ok(!found.isError && JSON.stringify(found.structuredContent).includes('Notes/Alpha.md'), 'search answers through the relay');
    assert.ok(!(await alpha.call('capture', { text: 'alpha was here' })).isError);
    assert.ok(!(await beta.call('capture', { text: 'beta was here' })).isError);
    // A note of the human's: alpha gets a preview and applies its token; beta's client is asked (elicitation) and approves.
    const preview = await alpha.call('append_note', { path: 'Notes/Alpha.md', content: 'Added by alpha.' });
    const token = preview.structuredContent?.token as string;
    assert.ok(token, `a preview with a token: ${preview.content[0]?.text}`);
    assert.ok(!(await alpha.call('append_note', { path: 'Notes/Alpha.md', token })).isError);
    assert.ok(!(await beta.call('append_note', { path: 'Notes/Alpha.md', content: 'Added by beta.' })).isError);
    assert.match(readFileSync(join(vault.root, 'Notes/Alpha.md'), 'utf8'), /Added by alpha\.\n[\s\S]*Added by beta\./);

    const runs = journal(vault);
    const alphaRun = runs.find((row) => row.run_id.startsWith('mcp-alpha-agent-'))?.run_id;
    const betaRun = runs.find((row) => row.run_id.startsWith('mcp-beta-client-'))?.run_id;
    assert.ok(alphaRun && betaRun, `both sessions journaled under their names: ${runs.map((row) => row.run_id).join(', ')}`);
    for (const run of [alphaRun, betaRun]) {
      assert.deepEqual(
        runs.filter((row) => row.run_id === run).map((row) => `${row.tool} ${row.path.startsWith('Claude/Inbox/') ? 'Claude/Inbox/…' : row.path}`),
        ['capture Claude/Inbox/…', 'append_note Notes/Alpha.md'],
        run,
      );
    }
    const audit = readFileSync(join(vault.root, 'Claude/Audit.md'), 'utf8');
    assert.ok(audit.includes(alphaRun) && audit.includes(betaRun), 'Audit.md tells the sessions apart');

    // A client gone mid-call (its relay killed) costs the daemon nothing: the others carry on.
    const gamma = await connect(t, launcher, vault, { name: 'gamma' });
    await eventually(() => daemonSessions(vault) === 3, 'the third session is listed');
    const inflight = gamma.call('search_brain', { query: 'quokka spring' }).catch(() => null);
    process.kill(gamma.pid, 'SIGKILL');
    await inflight;
    await eventually(() => daemonSessions(vault) === 2, 'the killed session leaves the list');
    assert.ok(!(await beta.call('search_brain', { query: 'quokka' })).isError);
    assert.equal(daemon.exitCode, null, 'the daemon runs on');

    const status = spawnCli(['status', '--vault', vault.root], { ENGRAM_HOME: vault.home });
    assert.match(status.stdout, /sessions +2 attached/);
    assert.match(status.stdout, new RegExp(`Alpha Agent · session [0-9a-f]{8} · since .* · writes as ${alphaRun}`));
    assert.match(status.stdout, new RegExp(`beta-client · session [0-9a-f]{8} · since .* · writes as ${betaRun}`));
  });

  scenario(`${launcher.name}: a daemon restart mid-session: the relay attaches again (same run id); with no daemon left it serves on its own and onboard says so`, async (t) => {
    const vault = makeVault(t, FILES);
    spawnCli(['index', '--vault', vault.root, '--quiet'], { ENGRAM_HOME: vault.home });
    const first = await startDaemon(t, vault);
    // Waits as long as a loaded machine may need to start the next daemon.
    const session = await connect(t, launcher, vault, { name: 'survivor', args: ['--reconnect-wait', '120'] });
    const before = await session.session();
    assert.match(before, new RegExp(`pid ${first.pid}\\)`));
    const runId = /run (\S+)$/.exec(before)![1]!;
    assert.ok(!(await session.call('capture', { text: 'before the restart' })).isError);

    await stopDaemon(first);
    const second = await startDaemon(t, vault);
    const after = await session.call('onboard');
    assert.ok(!after.isError);
    const again = (after.structuredContent!.status as { session: string }).session;
    assert.match(again, new RegExp(`attached to the engram daemon \\(pid ${second.pid}\\).*run ${runId}$`));
    assert.ok(!(await session.call('capture', { text: 'after the restart' })).isError);

    // A session that waits one second for a daemon that does not come back serves on its own.
    const brief = await connect(t, launcher, vault, { name: 'brief', args: ['--reconnect-wait', '1'] });
    const briefRun = /run (\S+)$/.exec(await brief.session())![1]!;
    await stopDaemon(second);
    const alone = await brief.session();
    assert.match(alone, new RegExp(`^on its own since .*: the engram daemon this session was attached to went away .*run ${briefRun}$`));
    assert.ok(!(await brief.call('capture', { text: 'on its own' })).isError);
    assert.match(brief.stderr(), /serving on its own from now on/);
    assert.deepEqual(
      journal(vault).map((row) => row.run_id),
      [runId, runId, briefRun],
      'each write journaled under its session, across the restart and the fallback',
    );
  });

  scenario(`${launcher.name}: no daemon, a stale attach file, another vault or version, a file readable by others: a clear message and the session serves on its own`, async (t) => {
    const vault = makeVault(t, FILES);
    spawnCli(['index', '--vault', vault.root, '--quiet'], { ENGRAM_HOME: vault.home });
    const alone = await connect(t, launcher, vault);
    assert.match(await alone.session(), /^served directly by this Engram process/);
    await alone.client.close();

    const daemon = await startDaemon(t, vault);
    const real = attachFile(vault)!;
    const path = join(stateDir(vault), 'attach.json');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const cases: [string, Record<string, unknown>, number, RegExp][] = [
      ['stale', { ...real, pid: dead }, 0o600, new RegExp(`\\(pid ${dead}\\) is no longer running`)],
      ['another vault', { ...real, vault: '/elsewhere/vault' }, 0o600, /serves \/elsewhere\/vault, not /],
      ['another version', { ...real, version: '0.0.1-old' }, 0o600, /runs Engram 0\.0\.1-old, this is /],
      ['readable by others', real, 0o644, /is readable by others \(mode 0644\).*chmod 600/],
    ];
    for (const [what, content, mode, message] of cases) {
      writeFileSync(path, JSON.stringify(content));
      chmodSync(path, mode);
      const session = await connect(t, launcher, vault);
      assert.match(await session.session(), /^served directly by this Engram process/, what);
      assert.match(session.stderr(), message, what);
      assert.ok(!(await session.call('search_brain', { query: 'quokka' })).isError, what);
      await session.client.close();
    }
    assert.equal(daemon.exitCode, null, 'the daemon kept running');
  });

  scenario(`${launcher.name}: serve --spawn-daemon starts a detached daemon when none runs and attaches to it; the next session attaches to the same one`, async (t) => {
    // Registered before the vault, so it runs first (hooks run in the order they were added):
    // the detached daemon is stopped and gone before its folder is removed.
    let spawned: number | null = null;
    t.after(async () => {
      if (spawned === null) return;
      try {
        process.kill(spawned, 'SIGTERM'); // detached: it would outlive the test
      } catch {
        return; // already gone
      }
      // The vault's folder is removed next: let the daemon finish writing its state first (the
      // folder used to go first, while the daemon still wrote there: ENOTEMPTY, and the daemon
      // and its sessions outlived the test).
      for (let i = 0; i < 200 && pidState(spawned) === 'running'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const vault = makeVault(t, FILES);
    spawnCli(['index', '--vault', vault.root, '--quiet'], { ENGRAM_HOME: vault.home });
    const first = await connect(t, launcher, vault, { args: ['--spawn-daemon'] });
    const daemon = attachFile(vault);
    assert.ok(daemon, 'the spawned daemon wrote its attach file');
    spawned = daemon.pid;
    assert.match(await first.session(), new RegExp(`^attached to the engram daemon \\(pid ${daemon.pid}\\)`));
    assert.match(first.stderr(), new RegExp(`started engram daemon \\(pid ${daemon.pid}\\)`));
    const second = await connect(t, launcher, vault);
    assert.match(await second.session(), new RegExp(`^attached to the engram daemon \\(pid ${daemon.pid}\\)`));
  });

  scenario(`${launcher.name}: a call in flight when the daemon dies is answered under its id as sent (nested ids ignored); an oversize line is refused; a half-read line and queued lines reach the server that takes over`, async (t) => {
    const vault = makeVault(t, FILES);
    spawnCli(['index', '--vault', vault.root, '--quiet'], { ENGRAM_HOME: vault.home });
    const daemon = await startDaemon(t, vault);
    const raw = rawSession(t, launcher, vault, ['--reconnect-wait', '1']);
    raw.send(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    await raw.reply((message) => message.id === 1, 'initialize answered');
    raw.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"onboard","arguments":{}}}\n');
    const before = (await raw.reply((message) => message.id === 2, 'onboard answered')).result!.structuredContent!.status!.session!;
    assert.match(before, new RegExp(`^attached to the engram daemon \\(pid ${daemon.pid}\\).*run mcp-raw-[0-9a-f]{8}$`));

    raw.send(`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
    const refused = await raw.reply((message) => message.error?.code === -32600, 'the oversize line refused');
    assert.equal(refused.id, null);
    assert.match(refused.error!.message, /^request too large: a message is one line of at most 10485760 bytes/);
    // Answered as 5: no longer in flight. A notification whose params hold an id is no request.
    raw.send('{"jsonrpc":"2.0","id":5.0,"method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"none","id":42}}\n');
    await raw.reply((message) => message.id === 5, 'ping answered');
    // In flight for as long as the client does not answer the daemon's question (elicitation).
    const id = 'x"y}\\ "id":9';
    raw.send(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { id: 43, name: 'append_note', arguments: { path: 'Notes/Alpha.md', content: 'Never written.' }, _meta: { id: 44 } } })}\n`);
    await raw.reply((message) => message.method === 'elicitation/create', 'the daemon asks the client');
    daemon.kill('SIGKILL');
    const stopped = await raw.reply((message) => message.error?.code === -32603, 'the call in flight answered');
    assert.equal(stopped.id, id);
    assert.match(stopped.error!.message, /^the engram daemon stopped during this call, so it may or may not have completed/);

    // Sent while the relay looks for the daemon: a whole line, then half of one, completed once another server took over.
    raw.send('{"jsonrpc":"2.0","id":78,"method":"ping"}\n{"jsonrpc":"2.0","id":77,');
    await eventually(() => /serving on its own from now on \(the engram daemon recorded in .* is no longer running/.test(raw.stderr()), 'the relay gives up on the daemon');
    raw.send('"method":"ping"}\n{"jsonrpc":"2.0","id":79,"method":"tools/call","params":{"name":"onboard","arguments":{}}}\n');
    await raw.reply((message) => message.id === 78 && message.result !== undefined, 'the queued line answered');
    await raw.reply((message) => message.id === 77 && message.result !== undefined, 'the half-read line answered');
    const after = (await raw.reply((message) => message.id === 79, 'onboard answered on its own')).result!.structuredContent!.status!.session!;
    assert.match(after, new RegExp(`^on its own since .*went away \\(the engram daemon recorded in .*\\(pid ${daemon.pid}\\) is no longer running.*run ${/run (\S+)$/.exec(before)![1]}$`));
    assert.deepEqual(
      raw.received.filter((message) => message.error?.code === -32603).map((message) => message.id),
      [id],
      'only the call in flight was answered with an error',
    );
    assert.ok(!readFileSync(join(vault.root, 'Notes/Alpha.md'), 'utf8').includes('Never written.'));
  });
}
