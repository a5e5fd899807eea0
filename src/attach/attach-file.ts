/**
 * The daemon's attach file: where `engram serve` finds the running daemon of its vault. It holds
 * the daemon's local address (127.0.0.1 and an ephemeral port), a random secret the relay must
 * present, the vault, the Engram version and the daemon's pid — in the vault's state directory,
 * mode 0600. Reading it checks everything that would make attaching wrong (a looser mode or
 * another owner: someone else could have read or planted the secret; a dead pid; another vault
 * or version) and says why, so `engram serve` can serve on its own instead.
 *
 * This module is on the relay's path, which must stay light: node built-ins only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pidState } from '../pid.js';

export const ATTACH_FILE = 'attach.json';

export const RUNNING_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export interface AttachInfo {
  host: '127.0.0.1';
  port: number;
  secret: string;
  vault: string;
  version: string;
  pid: number;
  started_at: string;
}

export type AttachLookup = { found: AttachInfo } | { absent: true } | { refused: string };

/**
 * The vault's real path and its state directory, as `index/state-dir.ts` derives them (sha256 of
 * the real path, 12 hex characters; a test pins the two together): that module's capability
 * would load the indexer and SQLite, which a relay must not. Null when the vault is not a folder.
 */
export function locateState(home: string, vault: string): { vault: string; stateDir: string } | null {
  try {
    const real = realpathSync(vault);
    return { vault: real, stateDir: join(home, createHash('sha256').update(real).digest('hex').slice(0, 12)) };
  } catch {
    return null;
  }
}

export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** Writes the attach file readable by its owner only (created 0600, then renamed into place). */
export function writeAttachFile(stateDir: string, info: AttachInfo): void {
  const path = join(stateDir, ATTACH_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(info, null, 2));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Removes the attach file if it is still this process's (a newer daemon's is left alone). */
export function removeAttachFile(stateDir: string, pid = process.pid): void {
  const path = join(stateDir, ATTACH_FILE);
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as Partial<AttachInfo>;
    if (info.pid === pid) rmSync(path, { force: true });
  } catch {
    // absent or unreadable: nothing of ours to remove
  }
}

/**
 * The daemon to attach to for `vault` (its real path) at this `version`, or why not. `uid` is
 * the caller's user id (undefined where there are none, Windows: no owner or mode check).
 */
export function findDaemon(stateDir: string, vault: string, version: string, uid: number | undefined): AttachLookup {
  const path = join(stateDir, ATTACH_FILE);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return { absent: true };
  }
  if (!stat.isFile()) return { refused: `${path} is not a regular file; remove it and restart \`engram daemon\`` };
  if (uid !== undefined && stat.uid !== uid) return { refused: `${path} belongs to user ${stat.uid}, not to you (${uid}); its secret is not yours to use — remove it, and run your own \`engram daemon\`` };
  if (uid !== undefined && (stat.mode & 0o077) !== 0) {
    return { refused: `${path} is readable by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}): it holds the daemon's secret; \`chmod 600 ${path}\` and restart \`engram daemon\`` };
  }
  let info: AttachInfo;
  try {
    info = JSON.parse(readFileSync(path, 'utf8')) as AttachInfo;
  } catch {
    return { refused: `${path} is not valid JSON; remove it and restart \`engram daemon\`` };
  }
  if (typeof info.port !== 'number' || typeof info.secret !== 'string' || typeof info.pid !== 'number') return { refused: `${path} lacks its address, secret or pid; restart \`engram daemon\`` };
  // Another user's process holding the pid is not our daemon.
  if (pidState(info.pid) !== 'running') return { refused: `the engram daemon recorded in ${path} (pid ${info.pid}) is no longer running; start it again with \`engram daemon\`` };
  if (info.vault !== vault) return { refused: `the engram daemon (pid ${info.pid}) serves ${info.vault}, not ${vault}` };
  if (info.version !== version) return { refused: `the engram daemon (pid ${info.pid}) runs Engram ${info.version}, this is ${version}; restart the daemon to share it` };
  return { found: info };
}
