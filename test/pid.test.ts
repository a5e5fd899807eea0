/** `pidState`: the one check of a process id behind locks, leases and the daemon's records. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { pidState } from '../src/pid.js';

test('a running process, an exited one, and (not as root) another user’s', () => {
  assert.equal(pidState(process.pid), 'running');
  const exited = spawnSync(process.execPath, ['-e', '']);
  assert.equal(exited.status, 0);
  assert.equal(pidState(exited.pid!), 'gone');
  // pid 1 is init, another user's process unless the tests run as root (as CI does).
  if (process.getuid?.() !== 0) assert.equal(pidState(1), 'foreign');
  else assert.equal(pidState(1), 'running');
});
