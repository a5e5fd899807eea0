/**
 * The daemon's side of the caretaker lease (`lease.ts`): reads `Claude/Caretaker.md`, decides,
 * renews or claims it, and says so in the log when who holds it changes. The note is written
 * atomically through the vault's link-refusing file layer, not through the journaled writer: it
 * changes every heartbeat, and a journal entry (and audit line) per renewal would bury the
 * writes a human reviews, while undoing a heartbeat means nothing.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { realpathSync } from 'node:fs';
import { pidState } from '../pid.js';
import { VaultFs } from '../writes/index.js';
import { decideLease, describeHolder, LEASE_DEFAULTS, leasePath, observe, parseLease, renderLease, type LeaseRecord, type LeaseSelf, type LeaseTimings, type Observation } from './lease.js';

export interface CaretakerOptions {
  root: string;
  agentRoot: string;
  /** This device's name (ENGRAM_DEVICE, default the host name). */
  device: string;
  timings?: Partial<LeaseTimings>;
  /** Wall clock (compared with heartbeats only past the skew allowance) and this process's own clock (tests move both). */
  now?: () => number;
  monotonic?: () => number;
  log: { err(text: string): void };
}

/** What `engram status`, the daemon's status file and the HTTP health report say of the lease. */
export interface LeaseStatus {
  path: string;
  device: string;
  /** Whether this daemon holds the lease (sweeps and extracts here). */
  holder: boolean;
  /** Who holds it as the note says, when it is another device. */
  held_by: LeaseRecord | null;
  /** One line: why this device waits, or null when it holds the lease. */
  note: string | null;
}

export class Caretaker {
  readonly path: string;
  private readonly files: VaultFs;
  private readonly timings: LeaseTimings;
  private readonly self: LeaseSelf;
  private readonly now: () => number;
  private readonly monotonic: () => number;
  private readonly started: string;
  private held = false;
  private beat = 0;
  private observation: Observation | null = null;
  private last: LeaseStatus;
  private lastLogged = '';

  constructor(private readonly options: CaretakerOptions) {
    this.path = leasePath(options.agentRoot);
    this.files = new VaultFs(realpathSync.native(options.root));
    this.timings = { ...LEASE_DEFAULTS, ...options.timings };
    this.self = { device: options.device, host: hostname(), pid: process.pid, token: randomBytes(6).toString('hex') };
    this.now = options.now ?? Date.now;
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.started = new Date(this.now()).toISOString();
    this.last = { path: this.path, device: options.device, holder: false, held_by: null, note: 'not checked yet' };
  }

  get heartbeatMs(): number {
    return this.timings.heartbeatMs;
  }

  /** Reads the note, renews or claims it when this device may hold it; whether it holds the lease now. */
  check(): boolean {
    let text: string | null;
    try {
      text = this.files.read(this.path)?.toString('utf8') ?? null;
    } catch (error) {
      // An unreadable lease (a symlink, a folder) is never taken: sweeping beside a live holder is worse than not sweeping.
      return this.settle({ path: this.path, device: this.self.device, holder: false, held_by: null, note: `${this.path} cannot be read (${error instanceof Error ? error.message : String(error)}); this device does not sweep` });
    }
    this.observation = observe(this.observation, text, this.monotonic());
    const decision = decideLease({ text, self: this.self, held: this.held, observation: this.observation, monotonicNow: this.monotonic(), wallNow: this.now(), timings: this.timings, alive });
    if (decision.action === 'wait') {
      this.held = false;
      return this.settle({ path: this.path, device: this.self.device, holder: false, held_by: decision.holder, note: decision.reason }, decision.lost ? decision.reason : null);
    }
    try {
      this.write();
    } catch (error) {
      this.held = false;
      return this.settle({ path: this.path, device: this.self.device, holder: false, held_by: null, note: `writing ${this.path} failed (${error instanceof Error ? error.message : String(error)}); this device does not sweep` });
    }
    const event = decision.action === 'claim' ? `took the caretaker lease (${decision.reason})` : decision.note;
    this.held = true;
    return this.settle({ path: this.path, device: this.self.device, holder: true, held_by: null, note: null }, event);
  }

  /** The lease as of the last check. */
  status(): LeaseStatus {
    return this.last;
  }

  /** At a clean stop: hands the lease back so another device may take it at once. */
  release(): void {
    if (!this.held) return;
    try {
      const current = this.files.read(this.path)?.toString('utf8') ?? null;
      const record = current === null ? null : parseLease(current);
      // Only our own lease is handed back; one taken over meanwhile is the new holder's.
      if (record?.token === this.self.token) this.files.write(this.path, Buffer.from(renderLease({ ...record, released: new Date(this.now()).toISOString() }, this.timings)));
    } catch (error) {
      this.options.log.err(`engram daemon: handing back the caretaker lease failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.held = false;
  }

  private write(): void {
    this.beat++;
    const record: LeaseRecord = { ...this.self, started: this.started, heartbeat: new Date(this.now()).toISOString(), beat: this.beat };
    const text = renderLease(record, this.timings);
    this.files.write(this.path, Buffer.from(text));
    // What this device wrote is what it has observed: its own renewal is not another device's change.
    this.observation = observe(this.observation, text, this.monotonic());
  }

  /** Records the status; logs an event, and a change of who holds the lease, once each. */
  private settle(status: LeaseStatus, event: string | null = null): boolean {
    this.last = status;
    if (event) this.options.log.err(`engram daemon: ${event}`);
    const line = status.holder ? `this device ("${status.device}") holds the caretaker lease: it sweeps and extracts` : `this device does not sweep or extract: ${status.note}`;
    const key = status.holder ? 'holder' : status.held_by ? `held ${status.held_by.device} ${status.held_by.token}` : (status.note ?? '');
    if (key !== this.lastLogged) this.options.log.err(`engram daemon: ${line}`);
    this.lastLogged = key;
    return status.holder;
  }
}

/** A holder whose pid another user's process has is still taken to hold the lease. */
function alive(pid: number): boolean {
  return pidState(pid) !== 'gone';
}

/** The lease as the vault's note says (for `engram status`, `librarian_status`, `onboard`): one line, or null when there is none. */
export function describeLease(text: string | null): string | null {
  if (text === null) return null;
  const record = parseLease(text);
  if (record === null) return 'the caretaker lease note does not read as a lease (edited by hand?); the holding daemon rewrites it';
  if (record.released) return `no device holds the caretaker lease (${record.device} handed it back at ${record.released})`;
  return `the caretaker lease is held by ${describeHolder(record)}: sweeps, extraction and ticked proposals run there`;
}

/** The lease note's text, or null when absent or unreadable. */
export function readLeaseNote(root: string, agentRoot: string): string | null {
  try {
    return new VaultFs(realpathSync.native(root)).read(leasePath(agentRoot))?.toString('utf8') ?? null;
  } catch {
    return null;
  }
}
