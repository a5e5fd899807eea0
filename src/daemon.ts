/**
 * `engram daemon`: one long-lived process per vault. It keeps the index and vectors fresh as
 * files change (the MCP engine's folder watcher, debounced; a catch-up index run at start),
 * runs the Librarian on node-cron schedules (a frequent backlog drain, a nightly full sweep;
 * never two at once, never beside another process's sweep), opens the attach endpoint that
 * `engram serve` sessions relay to (one engine for all of them; see mcp/attach-server.ts),
 * optionally serves MCP over Streamable HTTP on 127.0.0.1 with `/health`, and writes a status
 * file that `engram status` reads (with the attached sessions). SIGINT/SIGTERM stop it cleanly: the running sweep stops at its next phase boundary (each
 * phase's work is transactional, so a hard kill is safe too).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type Database from 'better-sqlite3';
import cron, { type ScheduledTask } from 'node-cron';
import { EngramError } from './errors.js';
import { acquireLock, readLock, type Lock } from './index/index.js';
import { sessionOver, type LockOutcome, type VaultSession } from './session/index.js';
import { BACKLOG_PHASES, Caretaker, newRunId, readTicks, runSweep, sweepOptions, type LeaseStatus, type LeaseTimings, type LibrarianSettings, type PhaseName, type SweepReport } from './librarian/index.js';
import { startAttach, startHttp, VaultEngine, type AttachEndpoint, type AttachedSession } from './mcp/index.js';
import { goldenCheck } from './eval/index.js';
import { writeFileAtomic } from './writes/index.js';
import { readNoteText } from './vault/index.js';

export const STATUS_FILE = 'daemon.json';

export interface DaemonOptions {
  vault: string;
  stateDir: string;
  db: Database.Database;
  settings: LibrarianSettings & { golden?: string | undefined };
  schedules: { backlog: string; sweep: string; timezone?: string | undefined };
  http?: { port: number; token?: string | undefined; maxSessions?: number | undefined } | undefined;
  /** How to run `engram index` in a child process for the catch-up at start (null: none). */
  indexCommand: { command: string; args: string[] } | null;
  log: { err(text: string): void };
  debounceMs?: number;
  /** The session the vault was opened with; by default one over `db`. */
  session?: VaultSession;
  /** Open the attach endpoint `engram serve` relays sessions to (default true). */
  attach?: boolean;
  /** This device's name in the caretaker lease (ENGRAM_DEVICE; default the host name). */
  device?: string;
  /** The lease's timings and clocks (tests move the clocks; see librarian/lease.ts). */
  lease?: Partial<LeaseTimings> & { now?: () => number; monotonic?: () => number };
}

/** The schedules' two jobs, and the approvals the watcher starts when ticks appear in the report. */
type JobKind = 'backlog' | 'sweep' | 'approvals';

/** What a device that does not hold the caretaker lease still runs of the backlog: its own index and vectors. */
const LOCAL_PHASES: readonly PhaseName[] = ['index', 'embed'];

export interface DaemonStatus {
  pid: number;
  host: string;
  vault: string;
  started_at: string;
  http: string | null;
  schedules: { backlog: string; sweep: string; timezone: string | null };
  next: { backlog: string | null; sweep: string | null };
  last: Partial<Record<JobKind, { run_id: string; at: string; status: string; summary: string }>>;
  running: JobKind | null;
  /** The local port `engram serve` attaches to (null: none open), and the sessions attached now. */
  attach: number | null;
  sessions: AttachedSession[];
  /** The caretaker lease: whether this device sweeps and extracts, or who does. */
  lease: LeaseStatus;
}

export interface Daemon {
  engine: VaultEngine;
  http: Server | null;
  status(): DaemonStatus;
  /** Runs a job now (as the schedule would); resolves with its report, or null when one was already running. */
  run(kind: JobKind): Promise<SweepReport | null>;
  /** Checks the caretaker lease now, as its heartbeat does (a job running as holder stops at its next phase if the lease was lost). */
  checkLease(): LeaseStatus;
  stop(): Promise<void>;
}

/** Checks the schedules and timezone before anything starts, so a typo is one clear error. */
export function checkSchedules(schedules: DaemonOptions['schedules']): void {
  for (const [name, expression] of [
    ['ENGRAM_SCHEDULE_BACKLOG', schedules.backlog],
    ['ENGRAM_SCHEDULE_SWEEP', schedules.sweep],
  ] as const) {
    if (!cron.validate(expression)) throw new EngramError('CONFIG_INVALID', `${name} "${expression}" is not a cron expression (five or six fields, e.g. "*/15 * * * *")`);
  }
  if (schedules.timezone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: schedules.timezone });
    } catch {
      throw new EngramError('CONFIG_INVALID', `ENGRAM_TIMEZONE "${schedules.timezone}" is not a time zone (e.g. Europe/Lisbon, America/New_York, UTC)`);
    }
  }
}

/** A started daemon's parts and what its status reports, shared by its steps. */
interface Running {
  options: DaemonOptions;
  session: VaultSession;
  engine: VaultEngine;
  startedAt: string;
  last: DaemonStatus['last'];
  job: { kind: JobKind; done: Promise<SweepReport | null>; asHolder: boolean; abort: AbortController } | null;
  /** Aborted at shutdown: the running sweep stops at its next phase boundary. */
  abort: AbortController;
  http: Server | null;
  httpUrl: string | null;
  tasks: Partial<Record<JobKind, ScheduledTask>>;
  attach: AttachEndpoint | null;
  caretaker: Caretaker;
  heartbeat: NodeJS.Timeout | null;
  /** Ticks were seen while a job ran: looked at again when it ends. */
  ticksWaiting: boolean;
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  checkSchedules(options.schedules);
  // One daemon per vault; a lock left by a dead daemon is taken over (never stale by age).
  const daemonLock = takeDaemonLock(options.stateDir);
  const startedAt = new Date().toISOString();
  let running: Running | null = null;
  const session = options.session ?? sessionOver({ vault: options.vault, stateDir: options.stateDir, db: options.db }, { exclude: options.settings.exclude, model: options.settings.model, agentRoot: options.settings.agentRoot });
  const engine = new VaultEngine({
    session,
    vault: options.vault,
    stateDir: options.stateDir,
    db: options.db,
    settings: options.settings,
    agentRoot: options.settings.agentRoot,
    extractor: options.settings,
    log: options.log,
    indexCommand: options.indexCommand,
    watch: true,
    onWatched: (paths) => {
      if (running) applyTicksSeen(running, paths);
    },
    ...(options.debounceMs ? { debounceMs: options.debounceMs } : {}),
  });
  engine.start();
  const caretaker = new Caretaker({ root: session.vault, agentRoot: options.settings.agentRoot, device: options.device ?? hostname(), log: options.log, ...leaseClock(options.lease) });
  const daemon: Running = { options, session, engine, startedAt, last: {}, job: null, abort: new AbortController(), http: null, httpUrl: null, tasks: {}, attach: null, caretaker, heartbeat: null, ticksWaiting: false };
  running = daemon;
  try {
    await startServices(daemon);
  } catch (error) {
    if (daemon.heartbeat) clearInterval(daemon.heartbeat);
    for (const task of Object.values(daemon.tasks)) await task?.destroy();
    await daemon.attach?.close();
    await engine.close();
    daemonLock.release();
    throw error;
  }
  const stop = async () => {
    await stopServices(daemon);
    daemonLock.release();
  };
  return { engine, http: daemon.http, status: () => statusOf(daemon), run: (kind) => runJob(daemon, kind), checkLease: () => checkLease(daemon), stop };
}

/** The schedules, the HTTP server when asked for, and the first status file. */
async function startServices(daemon: Running): Promise<void> {
  const { options, tasks } = daemon;
  const timezone = options.schedules.timezone ? { timezone: options.schedules.timezone } : {};
  // The lease is checked (renewed, or watched for expiry) on its heartbeat and before every job.
  daemon.caretaker.check();
  daemon.heartbeat = setInterval(() => {
    checkLease(daemon);
    saveStatus(daemon);
  }, daemon.caretaker.heartbeatMs);
  daemon.heartbeat.unref();
  tasks.backlog = cron.schedule(options.schedules.backlog, () => runJob(daemon, 'backlog'), { name: 'engram-backlog', noOverlap: true, ...timezone });
  tasks.sweep = cron.schedule(options.schedules.sweep, () => runJob(daemon, 'sweep'), { name: 'engram-sweep', noOverlap: true, ...timezone });
  if (options.http) {
    const http = await startHttp(daemon.engine, {
      port: options.http.port,
      ...(options.http.token ? { token: options.http.token } : {}),
      ...(options.http.maxSessions ? { maxSessions: options.http.maxSessions } : {}),
      health: () => ({ daemon: statusOf(daemon) }),
    });
    daemon.http = http;
    const address = http.address();
    daemon.httpUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : options.http.port}/mcp`;
  }
  if (options.attach !== false) {
    try {
      daemon.attach = await startAttach(daemon.engine, { stateDir: options.stateDir, log: options.log, onChange: () => saveStatus(daemon) });
    } catch (error) {
      // Sessions then serve on their own, as without a daemon: worth a line, not a refusal to run.
      options.log.err(`engram daemon: no attach endpoint for \`engram serve\` (${error instanceof Error ? error.message : String(error)}); sessions serve on their own`);
    }
  }
  saveStatus(daemon);
}

/** Stops the schedules, waits for the running job (it stops at its next phase), closes HTTP and the engine, removes the status file. */
async function stopServices(daemon: Running): Promise<void> {
  daemon.abort.abort('shutdown');
  if (daemon.heartbeat) clearInterval(daemon.heartbeat);
  for (const task of Object.values(daemon.tasks)) await task?.destroy();
  if (daemon.job) await daemon.job.done;
  await daemon.attach?.close(); // attached relays look for a new daemon, then serve on their own
  // Handed back once nothing runs: another device may take it at once.
  daemon.caretaker.release();
  const { http } = daemon;
  if (http) {
    // close() alone waits for every client connection to end, which an open MCP session never does.
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  }
  await daemon.engine.close();
  rmSync(join(daemon.options.stateDir, STATUS_FILE), { force: true });
}

function statusOf(daemon: Running): DaemonStatus {
  const { options, tasks } = daemon;
  return {
    pid: process.pid,
    host: hostname(),
    vault: options.vault,
    started_at: daemon.startedAt,
    http: daemon.httpUrl,
    schedules: { backlog: options.schedules.backlog, sweep: options.schedules.sweep, timezone: options.schedules.timezone ?? null },
    next: { backlog: tasks.backlog?.getNextRun()?.toISOString() ?? null, sweep: tasks.sweep?.getNextRun()?.toISOString() ?? null },
    last: daemon.last,
    running: daemon.job?.kind ?? null,
    attach: daemon.attach?.port ?? null,
    sessions: daemon.attach?.sessions() ?? [],
    lease: daemon.caretaker.status(),
  };
}

function saveStatus(daemon: Running): void {
  writeFileAtomic(join(daemon.options.stateDir, STATUS_FILE), Buffer.from(JSON.stringify(statusOf(daemon), null, 2)));
}

/** Runs a job now unless one is running (then null); the status file says what runs. */
function runJob(daemon: Running, kind: JobKind): Promise<SweepReport | null> {
  if (daemon.job) {
    daemon.options.log.err(`engram daemon: ${kind} skipped: a ${daemon.job.kind} is still running`);
    return Promise.resolve(null);
  }
  // On a synced vault one device sweeps and extracts; the others keep their own index and vectors.
  const holder = daemon.caretaker.check();
  if (!holder && kind !== 'backlog') {
    daemon.options.log.err(`engram daemon: ${kind} skipped: ${daemon.caretaker.status().note}`);
    return Promise.resolve(null);
  }
  const phases = kind === 'backlog' ? (holder ? BACKLOG_PHASES : LOCAL_PHASES) : kind === 'approvals' ? APPROVALS : undefined;
  // The job stops at its next phase boundary at shutdown, or when another device took the lease meanwhile.
  const abort = new AbortController();
  const signal = AbortSignal.any([daemon.abort.signal, abort.signal]);
  const done = lockedJob(daemon, kind, phases, signal).finally(() => {
    daemon.job = null;
    if (daemon.abort.signal.aborted) return;
    saveStatus(daemon);
    if (daemon.ticksWaiting) {
      daemon.ticksWaiting = false;
      applyTicksSeen(daemon, [reportPath(daemon)]);
    }
  });
  daemon.job = { kind, done, asHolder: holder, abort };
  saveStatus(daemon);
  return done;
}

const APPROVALS: readonly PhaseName[] = ['approvals'];

/**
 * The lease's heartbeat: renews it, or watches another device's. A device that was asleep
 * mid-sweep (a closed laptop) may wake to find the lease taken over: its running job stops at
 * the next phase boundary rather than sweep beside the new holder.
 */
function checkLease(daemon: Running): LeaseStatus {
  const holder = daemon.caretaker.check();
  const { job } = daemon;
  if (!holder && job?.asHolder && !job.abort.signal.aborted) job.abort.abort(`this device lost the caretaker lease (${daemon.caretaker.status().note})`);
  return daemon.caretaker.status();
}

function reportPath(daemon: Running): string {
  return `${daemon.options.settings.agentRoot}/Librarian.md`;
}

/**
 * Ticks a human made in the report (in Obsidian, or on a phone and synced here) are applied as
 * soon as the watcher has seen the change (its debounce is the delay), not at the next scheduled
 * job. Only undecided ticked lines start a job, so the job's own marking of each line does not
 * start another; a tick seen while a job runs waits for it to end (never two jobs at once).
 */
function applyTicksSeen(daemon: Running, paths: readonly string[]): void {
  const report = reportPath(daemon);
  if (!paths.includes(report) || daemon.abort.signal.aborted) return;
  const read = readNoteText(join(daemon.session.vault, report));
  if (!read.ok || readTicks(read.text).length === 0) return;
  if (daemon.job) {
    daemon.ticksWaiting = true;
    return;
  }
  void runJob(daemon, 'approvals');
}

/** A job under the index lock; another process holding it (a CLI sweep, `engram index`) skips this one. */
async function lockedJob(daemon: Running, kind: JobKind, phases: readonly PhaseName[] | undefined, signal: AbortSignal): Promise<SweepReport | null> {
  const { log } = daemon.options;
  let outcome: LockOutcome<SweepReport | null>;
  try {
    outcome = await daemon.session.whenFree(kind === 'sweep' ? 'a Librarian sweep' : 'a backlog drain', () => sweep(daemon, kind, phases, signal));
  } catch (error) {
    log.err(`engram daemon: ${kind} skipped: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  if (outcome.status === 'locked') {
    log.err(`engram daemon: ${kind} skipped: ${outcome.reason}`);
    return null;
  }
  return outcome.value;
}

/** One scheduled job, under the lock; its failure is logged, never thrown into the scheduler. */
async function sweep(daemon: Running, kind: JobKind, phases: readonly PhaseName[] | undefined, signal: AbortSignal): Promise<SweepReport | null> {
  const { options, engine, session } = daemon;
  try {
    // Changes the watcher saw are indexed first, so the sweep sees the vault as it is.
    await engine.settled();
    const runKind = kind === 'sweep' ? 'sweep' : 'backlog';
    const runId = newRunId(runKind);
    const golden = options.settings.golden;
    const report = await runSweep(
      sweepOptions(options.settings, session, {
        runId,
        kind: runKind,
        dryRun: false,
        log: options.log,
        signal,
        ...(phases ? { phases } : {}),
        ...(golden ? { evaluate: () => goldenCheck(options.db, options.vault, golden) } : {}),
      }),
    );
    engine.changed();
    const summary = report.phases.map((phase) => `${phase.name} ${phase.status}`).join(', ');
    daemon.last[kind] = { run_id: runId, at: new Date().toISOString(), status: report.stopped ? 'stopped' : report.errors.length > 0 ? 'errors' : 'ok', summary };
    options.log.err(`engram daemon: ${kind} ${runId}: ${summary}${report.errors.length > 0 ? `; ${report.errors.length} errors (see Claude/Librarian.md)` : ''}`);
    return report;
  } catch (error) {
    options.log.err(`engram daemon: ${kind} failed: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

function leaseClock(lease: DaemonOptions['lease']) {
  if (!lease) return {};
  const { now, monotonic, ...timings } = lease;
  return { timings, ...(now ? { now } : {}), ...(monotonic ? { monotonic } : {}) };
}

/**
 * The vault's daemon lock. The lock's own refusal says "wait for it to finish", which a daemon
 * never does: say instead how to stop it.
 */
function takeDaemonLock(stateDir: string): Lock {
  try {
    return acquireLock(stateDir, 'daemon', { purpose: 'engram daemon', staleMs: Number.MAX_SAFE_INTEGER });
  } catch (error) {
    const holder = error instanceof EngramError && error.code === 'LOCKED' ? readLock(join(stateDir, 'daemon.lock')) : null;
    if (!holder) throw error;
    const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
    throw new EngramError('LOCKED', `engram daemon is already running (pid ${holder.pid}${where}, since ${holder.startedAt}) for this vault; it runs until stopped: use it, or stop it with \`kill ${holder.pid}\`${where} and start again`);
  }
}

/** The running daemon's status for `engram status`, or null when none runs for this vault. */
export function readDaemonStatus(stateDir: string): DaemonStatus | null {
  const path = join(stateDir, STATUS_FILE);
  if (!existsSync(path)) return null;
  try {
    const status = JSON.parse(readFileSync(path, 'utf8')) as DaemonStatus;
    if (status.host === hostname()) process.kill(status.pid, 0); // throws when that process is gone
    return status;
  } catch {
    return null;
  }
}
