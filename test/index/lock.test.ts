import assert from 'node:assert/strict';
import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError } from '../../src/errors.js';
import { acquireLock, readLock } from '../../src/index/index.js';
import { makeVault } from '../helpers/vault.js';

function stateDir(t: Parameters<typeof makeVault>[0]): string {
  const dir = makeVault(t).home;
  mkdirSync(dir, { recursive: true });
  return dir;
}

test('a second holder is refused with who holds it; release frees it', (t) => {
  const dir = stateDir(t);
  const lock = acquireLock(dir, 'sweep', { purpose: 'a Librarian sweep' });
  assert.deepEqual(readLock(join(dir, 'sweep.lock')), lock.info);
  assert.throws(
    () => acquireLock(dir, 'sweep', { purpose: 'another sweep' }),
    (error: unknown) => error instanceof EngramError && error.code === 'LOCKED' && /a Librarian sweep is already running \(pid \d+/.test(error.message),
  );
  lock.release();
  assert.equal(existsSync(join(dir, 'sweep.lock')), false);
  acquireLock(dir, 'sweep', { purpose: 'again' }).release();
});

test('a lock left by a dead process on this host is taken over', (t) => {
  const dir = stateDir(t);
  // pid 2^22+ is above Linux's pid_max default range; no such process exists.
  writeFileSync(join(dir, 'sweep.lock'), JSON.stringify({ pid: 4_194_999, host: hostname(), startedAt: new Date().toISOString(), purpose: 'x' }));
  const lock = acquireLock(dir, 'sweep', { purpose: 'mine' });
  assert.equal(lock.info.pid, process.pid);
  lock.release();
});

test('a lock from another host is honoured until it is stale', (t) => {
  const dir = stateDir(t);
  const startedAt = new Date('2026-01-01T00:00:00Z');
  writeFileSync(join(dir, 'sweep.lock'), JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: startedAt.toISOString(), purpose: 'their sweep' }));
  const soon = () => startedAt.getTime() + 60_000;
  assert.throws(() => acquireLock(dir, 'sweep', { purpose: 'mine', now: soon, staleMs: 3_600_000 }), /their sweep is already running/);
  const later = () => startedAt.getTime() + 7_200_000;
  acquireLock(dir, 'sweep', { purpose: 'mine', now: later, staleMs: 3_600_000 }).release();
});

test('an unreadable lock file is treated as stale', (t) => {
  const dir = stateDir(t);
  writeFileSync(join(dir, 'sweep.lock'), '{half');
  acquireLock(dir, 'sweep', { purpose: 'mine' }).release();
});

test('release does not remove a lock that another process has since taken', (t) => {
  const dir = stateDir(t);
  const lock = acquireLock(dir, 'sweep', { purpose: 'mine' });
  writeFileSync(join(dir, 'sweep.lock'), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2099-01-01T00:00:00.000Z', purpose: 'theirs' }));
  lock.release();
  assert.equal(existsSync(join(dir, 'sweep.lock')), true);
});
