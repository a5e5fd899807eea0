/**
 * Whether a process id is in use on this machine, for lock and lease holders and the daemon's
 * records. Signal 0 checks without signalling: `running` (ours to signal), `gone` (ESRCH), or
 * `foreign` (EPERM: a process of another user holds the id). Callers decide what `foreign` means:
 * a lock's holder may be another user's engram, so it still holds the lock; a daemon record
 * naming another user's process is not our daemon.
 */
import { systemErrorCode } from './errors.js';

export type PidState = 'running' | 'gone' | 'foreign';

export function pidState(pid: number): PidState {
  try {
    process.kill(pid, 0);
    return 'running';
  } catch (error) {
    return systemErrorCode(error) === 'EPERM' ? 'foreign' : 'gone';
  }
}
