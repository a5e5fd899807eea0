/**
 * A lock file in the state directory that serializes heavy jobs (index runs, Librarian sweeps)
 * across processes. It records who holds it (pid, host, start time); a lock whose process is
 * gone, or that is older than `staleMs`, is taken over.
 */
import { hostname } from 'node:os';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError, systemErrorCode } from '../errors.js';
import { pidState } from '../pid.js';

export const LOCK_DEFAULTS = {
  /** A lock held longer than this is presumed abandoned (a hung or killed process on another host). */
  staleMs: 6 * 60 * 60 * 1000,
} as const;

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  purpose: string;
}

export interface Lock {
  info: LockInfo;
  release(): void;
}

export interface LockOptions {
  purpose: string;
  staleMs?: number;
  now?: () => number;
}

/** Takes `stateDir/<name>.lock`, or throws `LOCKED` naming the holder. */
export function acquireLock(stateDir: string, name: string, options: LockOptions): Lock {
  const path = join(stateDir, `${name}.lock`);
  const now = options.now ?? Date.now;
  const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date(now()).toISOString(), purpose: options.purpose };
  // Write the full record to a private file, then hard-link it into place: the link either
  // creates the lock atomically with its content, or fails because someone holds it.
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temp, JSON.stringify(info));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(temp, path);
        return { info, release: () => releaseLock(path, info) };
      } catch (error) {
        if (systemErrorCode(error) !== 'EEXIST') throw error;
      }
      const holder = readLock(path);
      if (holder && !isStale(holder, options.staleMs ?? LOCK_DEFAULTS.staleMs, now())) {
        throw new EngramError('LOCKED', `${holder.purpose} is already running (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}); wait for it to finish`);
      }
      // Stale or unreadable: move it out of the way atomically; losing this race is fine, the
      // next attempt sees the winner's lock.
      removeStaleLock(path, holder);
    }
    throw new EngramError('LOCKED', `could not take the ${name} lock in ${stateDir}; another process keeps taking it, try again`);
  } finally {
    unlinkSync(temp);
  }
}

/** The current holder, or null when there is no readable lock. */
export function readLock(path: string): LockInfo | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.startedAt !== 'string') return null;
    return { pid: value.pid, host: value.host, startedAt: value.startedAt, purpose: typeof value.purpose === 'string' ? value.purpose : 'another job' };
  } catch {
    return null;
  }
}

/**
 * Moves a stale lock out of the way. If what was moved is not the lock that was judged stale (a
 * rival replaced it in between), it is linked back, so a live holder never loses its lock.
 */
function removeStaleLock(path: string, stale: LockInfo | null): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = readLock(aside);
  const same = stale === null ? moved === null : moved !== null && moved.pid === stale.pid && moved.startedAt === stale.startedAt;
  if (!same) {
    try {
      linkSync(aside, path);
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') throw error;
    }
  }
  unlinkSync(aside);
}

export function isStale(holder: LockInfo, staleMs: number, now: number): boolean {
  const age = now - Date.parse(holder.startedAt);
  if (!(age < staleMs)) return true;
  if (holder.host !== hostname()) return false;
  // Another user's process holding the pid may be their engram: the lock stays theirs.
  return pidState(holder.pid) === 'gone';
}

function releaseLock(path: string, info: LockInfo): void {
  const holder = readLock(path);
  if (holder && holder.pid === info.pid && holder.startedAt === info.startedAt) {
    try {
      unlinkSync(path);
    } catch (error) {
      if (systemErrorCode(error) !== 'ENOENT') throw error;
    }
  }
}
