/**
 * The caretaker lease: on a vault synced between devices (Obsidian Sync, iCloud, Syncthing,
 * Dropbox, git), exactly one device's daemon sweeps, extracts and applies ticked proposals; the
 * others search and index on their own. The lease is a note in the vault, `Claude/Caretaker.md`,
 * so it travels with the vault through whatever sync the human already uses: a visible Markdown
 * note, because Obsidian Sync carries only Markdown and attachments by default (a JSON file would
 * stay on the device that wrote it) and sync tools skip dot-files.
 *
 * Clocks: two devices' clocks may be minutes apart, so a device does not decide expiry from the
 * holder's timestamps alone. It decides from what it observes with its own clock: a lease whose
 * note has not changed (the holder renews it every `heartbeatMs`, bumping `beat`) for `expiryMs`
 * of this device's time is expired. The holder's heartbeat time is used only when it is older
 * than `expiryMs + skewMs` by this device's clock — a lease last renewed yesterday, read by a CLI
 * run that cannot watch for 20 minutes — which tolerates clocks up to `skewMs` apart.
 *
 * Pure here (text and clocks in, decisions out); the daemon's I/O is in `caretaker.ts`.
 */

export const LEASE_DEFAULTS = {
  /** How often the holder renews the lease. */
  heartbeatMs: 2 * 60_000,
  /** How long another device watches an unchanged lease before taking it over. */
  expiryMs: 20 * 60_000,
  /** How far apart two devices' clocks may be when a heartbeat's time is read directly. */
  skewMs: 60 * 60_000,
} as const;

export type LeaseTimings = { heartbeatMs: number; expiryMs: number; skewMs: number };

export interface LeaseRecord {
  device: string;
  /** The machine's host name: a pid is only checked for liveness on the machine that wrote it. */
  host: string;
  pid: number;
  started: string;
  heartbeat: string;
  /** Renewals so far: every renewal changes the note, which is what other devices watch. */
  beat: number;
  /** A random id of the holding daemon run: a takeover (or hand edit) changes it. */
  token: string;
  /** Set when the holder stopped cleanly and handed the lease back: any device may take it at once. */
  released?: string;
}

/** Who this process is, as the lease names it. */
export interface LeaseSelf {
  device: string;
  host: string;
  pid: number;
  token: string;
}

export function leasePath(agentRoot: string): string {
  return `${agentRoot}/Caretaker.md`;
}

const FIELDS = ['device', 'host', 'pid', 'started', 'heartbeat', 'beat', 'token', 'released'] as const;

/** The lease as a note: frontmatter a program reads, a paragraph a human reads. */
export function renderLease(record: LeaseRecord, timings: LeaseTimings): string {
  const front = FIELDS.filter((key) => record[key] !== undefined).map((key) => `${key}: ${JSON.stringify(record[key])}`);
  const minutes = (ms: number) => Math.round(ms / 60_000);
  const who = record.released
    ? `No device holds it: **${record.device}** handed it back at ${record.released}; the next device whose daemon runs takes it.`
    : `It is held by **${record.device}** (Engram daemon, pid ${record.pid} on ${record.host}, since ${record.started}).`;
  return [
    '---',
    'engram: caretaker-lease',
    ...front,
    '---',
    '# Caretaker',
    '',
    `${who} Only the holder runs the Librarian's sweeps, graph extraction and ticked proposals; every other device searches and indexes on its own.`,
    '',
    `The holder renews this note every ${minutes(timings.heartbeatMs)} minutes. Another device takes over after watching it unchanged for ${minutes(timings.expiryMs)} minutes. Engram keeps this note itself: to move the caretaker to another device, stop the daemon here (it hands the lease back), or delete this note if its device no longer runs Engram.`,
    '',
  ].join('\n');
}

/** The lease a note holds, or null when it is not one (absent fields, hand-edited beyond reading). */
export function parseLease(text: string): LeaseRecord | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match || !/^engram: caretaker-lease\s*$/m.test(match[1]!)) return null;
  const values: Record<string, unknown> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const field = /^([a-z]+): (.*)$/.exec(line);
    if (!field || !(FIELDS as readonly string[]).includes(field[1]!)) continue;
    try {
      values[field[1]!] = JSON.parse(field[2]!);
    } catch {
      return null;
    }
  }
  const { device, host, pid, started, heartbeat, beat, token, released } = values;
  const strings = [device, host, started, heartbeat, token].every((value) => typeof value === 'string' && value !== '');
  if (!strings || !Number.isInteger(pid) || !Number.isInteger(beat) || (released !== undefined && typeof released !== 'string')) return null;
  return { device, host, pid, started, heartbeat, beat, token, ...(released === undefined ? {} : { released }) } as LeaseRecord;
}

/** What a device has seen of the lease note: its content (null: absent) and since when, on its own clock. */
export interface Observation {
  text: string | null;
  since: number;
  /** Whether a lease note was ever seen: one that disappears may be rewritten by its live holder. */
  seenLease: boolean;
}

export function observe(previous: Observation | null, text: string | null, monotonicNow: number): Observation {
  const seenLease = (previous?.seenLease ?? false) || text !== null;
  if (previous !== null && previous.text === text) return { ...previous, seenLease };
  return { text, since: monotonicNow, seenLease };
}

export type LeaseDecision = { action: 'renew'; note: string | null } | { action: 'claim'; reason: string } | { action: 'wait'; holder: LeaseRecord | null; reason: string; lost: boolean };

export interface DecideInput {
  text: string | null;
  self: LeaseSelf;
  /** Whether this process held the lease at its last check. */
  held: boolean;
  observation: Observation;
  monotonicNow: number;
  wallNow: number;
  timings: LeaseTimings;
  /** Whether a process of this machine is alive. */
  alive: (pid: number) => boolean;
}

/** What the daemon does with the lease at one check. */
export function decideLease(input: DecideInput): LeaseDecision {
  const { text, self, held } = input;
  const record = text === null ? null : parseLease(text);
  if (held) {
    if (record !== null && record.token === self.token && record.released === undefined) return { action: 'renew', note: null };
    if (text === null) return { action: 'renew', note: 'the lease note was deleted while this device held it; written again' };
    if (record === null) return { action: 'renew', note: 'the lease note was edited and no longer reads as a lease; written again' };
    if (record.token === self.token) return { action: 'renew', note: 'the lease note was marked released by hand; held again' };
    return { action: 'wait', holder: record, reason: `the lease was taken over by ${describeHolder(record)}`, lost: true };
  }
  const free = freedom(input, record);
  return free === null ? { action: 'wait', holder: record, reason: waiting(input, record), lost: false } : { action: 'claim', reason: free };
}

/** Why the lease may be taken now, or null. */
function freedom(input: DecideInput, record: LeaseRecord | null): string | null {
  const { text, self, observation, monotonicNow, timings } = input;
  if (text === null && !observation.seenLease) return 'no device held it';
  if (record?.released !== undefined) return `${record.device} handed it back at ${record.released}`;
  if (record !== null && record.device === self.device && record.host === self.host && (record.pid === self.pid || !input.alive(record.pid))) {
    return `this device's earlier daemon (pid ${record.pid}) is gone`;
  }
  const age = record === null ? NaN : input.wallNow - Date.parse(record.heartbeat);
  if (age > timings.expiryMs + timings.skewMs) return `its last heartbeat (${record!.heartbeat}) is ${Math.round(age / 60_000)} minutes old`;
  if (monotonicNow - observation.since >= timings.expiryMs) return `the lease note was unchanged for ${Math.round((monotonicNow - observation.since) / 60_000)} minutes`;
  return null;
}

function waiting(input: DecideInput, record: LeaseRecord | null): string {
  const left = Math.max(1, Math.ceil((input.timings.expiryMs - (input.monotonicNow - input.observation.since)) / 60_000));
  if (record !== null) return `the caretaker lease is held by ${describeHolder(record)}; this device takes over if it stays unrenewed for ${left} more minutes`;
  return input.text === null
    ? `the lease note was deleted; its holder writes it again if it still runs, else this device takes over in ${left} minutes`
    : `the lease note does not read as a lease (edited by hand?); this device takes it over if it stays so for ${left} more minutes`;
}

/** `device "desk" (pid 412 on desk.local, last heartbeat 2026-12-01T22:58:00.000Z)`. */
export function describeHolder(record: LeaseRecord): string {
  return `device "${record.device}" (pid ${record.pid} on ${record.host}, last heartbeat ${record.heartbeat})`;
}

/**
 * Whether a one-off command on this device (`engram librarian`) may sweep: it cannot watch the
 * note for minutes, so it goes by the heartbeat's time with the clock allowance. Null: it may;
 * else why not, in one line with what to do.
 */
export function oneOffRefusal(text: string | null, device: string, wallNow: number, timings: LeaseTimings, path: string): string | null {
  if (text === null) return null;
  const record = parseLease(text);
  if (record === null) return `${path} does not read as a caretaker lease (edited by hand?); the daemon holding it rewrites it within ${Math.round(timings.heartbeatMs / 60_000)} minutes — or delete it if no device runs the Engram daemon`;
  if (record.device === device || record.released !== undefined) return null;
  if (wallNow - Date.parse(record.heartbeat) > timings.expiryMs + timings.skewMs) return null;
  return `the caretaker lease (${path}) is held by ${describeHolder(record)}: sweeps run on that device so two never run at once; run this there, or delete ${path} if "${record.device}" no longer runs Engram`;
}
