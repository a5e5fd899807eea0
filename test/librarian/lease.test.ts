/**
 * The caretaker lease on a synced vault: two devices (two state directories, two device names)
 * on one copy of the vault, each a real daemon with the watcher and the real vault files. One
 * sweeps, the other is refused until the lease expires on its own clock; a lease deleted or
 * edited while held is written again; a stopped daemon hands it back; `engram librarian` on the
 * other device is refused in one line. Clocks are moved by the test, never waited for.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decideLease, LEASE_DEFAULTS, observe, oneOffRefusal, parseLease, renderLease, type LeaseRecord } from '../../src/librarian/lease.js';
import { agent, classifyWrite } from '../../src/writes/index.js';
import { runCli } from '../helpers/cli.js';
import { connectFixture } from '../helpers/mcp.js';
import { startDevice as device } from '../helpers/daemon.js';
import { LIBRARIAN_VAULT } from '../helpers/librarian.js';
import { makeVault, type FixtureVault } from '../helpers/vault.js';

const MINUTE = 60_000;
const LEASE = 'Claude/Caretaker.md';

function lease(vault: FixtureVault): LeaseRecord | null {
  const path = join(vault.root, LEASE);
  return existsSync(path) ? parseLease(readFileSync(path, 'utf8')) : null;
}

test('a second device is refused the lease (no sweep there) until it stays unrenewed past expiry on its own clock; then the first device stops sweeping', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const laptop = await device(t, vault, 'laptop');
  assert.equal(lease(vault)?.device, 'laptop', 'the first daemon takes the free lease');
  assert.equal(laptop.daemon.status().lease.holder, true);
  const desk = await device(t, vault, 'desk');
  assert.equal(desk.daemon.status().lease.holder, false);
  assert.equal(desk.daemon.status().lease.held_by?.device, 'laptop');

  assert.equal(await desk.daemon.run('sweep'), null, 'the device without the lease does not sweep');
  assert.match(desk.log.join('\n'), /sweep skipped: the caretaker lease is held by device "laptop"/);
  const local = await desk.daemon.run('backlog');
  assert.deepEqual(
    local?.phases.map((phase) => phase.name),
    ['index', 'embed'],
    'its backlog keeps only its own index and vectors',
  );

  desk.clock.at += LEASE_DEFAULTS.expiryMs - MINUTE;
  assert.equal(await desk.daemon.run('sweep'), null, 'not yet expired: 19 minutes unchanged');

  // The laptop renews (its heartbeat): the desk watches the note change and waits again.
  assert.ok(await laptop.daemon.run('backlog'));
  const beat = lease(vault)!.beat;
  desk.clock.at += 2 * MINUTE;
  assert.equal(await desk.daemon.run('sweep'), null, 'a renewal restarts the wait');

  // The laptop goes quiet (asleep, offline): 20 minutes of the desk's own time without a change.
  desk.clock.at += LEASE_DEFAULTS.expiryMs;
  const report = await desk.daemon.run('sweep');
  assert.ok(report, 'the desk took over and swept');
  const leaseExtracted = desk.session.db.prepare("SELECT count(*) FROM extractions x JOIN notes n ON n.id = x.note_id WHERE n.path = 'Claude/Caretaker.md'").pluck().get();
  assert.equal(leaseExtracted, 0, 'the lease note, rewritten every heartbeat, is never extracted');
  assert.equal(lease(vault)?.device, 'desk');
  assert.match(desk.log.join('\n'), /took the caretaker lease \(the lease note was unchanged for 20 minutes\)/);
  assert.ok(lease(vault)!.beat >= 1 && lease(vault)!.token !== undefined);

  // The laptop wakes up: it sees the takeover and does not sweep.
  assert.equal(await laptop.daemon.run('sweep'), null);
  assert.match(laptop.log.join('\n'), /the lease was taken over by device "desk"/);
  assert.equal(laptop.daemon.status().lease.holder, false);
  assert.ok(beat > 0);
});

test('a device that wakes mid-sweep to find the lease taken over stops that sweep at its next phase', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const laptop = await device(t, vault, 'laptop');
  const desk = await device(t, vault, 'desk');
  // The laptop's sweep starts, then the laptop "sleeps": nothing below awaits until its heartbeat runs.
  const sweeping = laptop.daemon.run('sweep');
  assert.equal(desk.daemon.checkLease().holder, false, 'the desk sees the renewal the sweep started with');
  desk.clock.at += LEASE_DEFAULTS.expiryMs;
  const taking = desk.daemon.run('backlog');
  assert.equal(lease(vault)?.device, 'desk', 'the desk took the unrenewed lease');
  assert.equal(laptop.daemon.checkLease().holder, false, 'the laptop wakes: its heartbeat sees the takeover');
  const report = await sweeping;
  assert.match(report?.stopped ?? '', /^stopped before approvals: this device lost the caretaker lease \(the lease was taken over by device "desk"/);
  assert.deepEqual(report?.phases, [], 'no phase ran');
  assert.ok(await taking);
});

test('a lease deleted or edited by hand while held is written again, and the other device does not take it meanwhile', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const laptop = await device(t, vault, 'laptop');
  const desk = await device(t, vault, 'desk');
  const path = join(vault.root, LEASE);

  rmSync(path);
  assert.equal(await desk.daemon.run('sweep'), null, 'a lease that disappears may be rewritten by its live holder: the desk waits');
  assert.match(desk.log.join('\n'), /the lease note was deleted; its holder writes it again/);
  assert.ok(await laptop.daemon.run('backlog'));
  assert.equal(lease(vault)?.device, 'laptop');
  assert.match(laptop.log.join('\n'), /the lease note was deleted while this device held it; written again/);

  writeFileSync(path, '# my notes\nI wrote over this.\n');
  assert.equal(await desk.daemon.run('sweep'), null);
  assert.ok(await laptop.daemon.run('sweep'), 'the holder still sweeps');
  assert.match(laptop.log.join('\n'), /edited and no longer reads as a lease; written again/);
  assert.equal(lease(vault)?.device, 'laptop');
});

test('a daemon stopping hands the lease back: another device takes it at once', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const laptop = await device(t, vault, 'laptop');
  const desk = await device(t, vault, 'desk');
  assert.equal(desk.daemon.status().lease.holder, false);
  await laptop.daemon.stop();
  assert.ok(lease(vault)?.released, 'marked handed back');
  assert.ok(await desk.daemon.run('sweep'));
  assert.equal(lease(vault)?.device, 'desk');
});

test('engram librarian on a device not holding a live lease is refused in one line; its local phases and a dry run still run', async (t) => {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  await device(t, vault, 'laptop');
  const env = { ENGRAM_HOME: join(vault.home, 'phone'), ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'structural', ENGRAM_DEVICE: 'phone' };
  const refused = await runCli(['librarian'], env);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /engram librarian refused on device "phone": the caretaker lease \(Claude\/Caretaker\.md\) is held by device "laptop".*run this there, or delete Claude\/Caretaker\.md/);
  assert.equal((await runCli(['librarian', '--apply-ticked'], env)).code, 1, 'applying ticks writes the vault: refused too');
  assert.equal((await runCli(['librarian', '--phases', 'index'], env)).code, 0, 'its own index is any device’s');
  assert.equal((await runCli(['librarian', '--dry-run'], env)).code, 0, 'a dry run writes nothing');
  const status = await runCli(['status'], env);
  assert.match(status.stdout, /^caretaker {4}the caretaker lease is held by device "laptop" \(pid \d+ on .*\): sweeps, extraction and ticked proposals run there$/m);
  // On the holding device itself a manual run is the daemon's own business (the index lock serializes them).
  assert.equal((await runCli(['librarian', '--phases', 'health'], { ...env, ENGRAM_DEVICE: 'laptop' })).code, 0);
});

test('agents cannot write the lease note', () => {
  const verdict = classifyWrite('Claude/Caretaker.md', agent('write_note'), { agentRoot: 'Claude' });
  assert.equal(verdict.kind, 'refused');
});

/** The decision alone, for what a daemon test cannot stage: clocks 10 minutes apart, a dead pid, a lease from yesterday. */
test('clocks 10 minutes apart: neither a slow nor a fast holder clock makes its live lease look expired', () => {
  const timings = LEASE_DEFAULTS;
  const self = { device: 'desk', host: 'desk.local', pid: 2, token: 'b' };
  const wall = Date.parse('2026-12-01T12:00:00Z');
  for (const skew of [-10 * MINUTE, 10 * MINUTE]) {
    const record: LeaseRecord = { device: 'laptop', host: 'laptop.local', pid: 1, started: '2026-12-01T10:00:00Z', heartbeat: new Date(wall + skew).toISOString(), beat: 9, token: 'a' };
    const text = renderLease(record, timings);
    const seen = observe(null, text, 0);
    const decision = decideLease({ text, self, held: false, observation: seen, monotonicNow: 0, wallNow: wall, timings, alive: () => true });
    assert.equal(decision.action, 'wait', `holder clock ${skew / MINUTE} minutes off`);
    assert.equal(oneOffRefusal(text, 'desk', wall, timings, LEASE) !== null, true, 'and a one-off run is refused');
  }
  // A lease last renewed yesterday is expired even for a CLI run that cannot watch it.
  const old: LeaseRecord = { device: 'laptop', host: 'laptop.local', pid: 1, started: '2026-11-30T10:00:00Z', heartbeat: '2026-11-30T11:00:00Z', beat: 3, token: 'a' };
  assert.equal(oneOffRefusal(renderLease(old, timings), 'desk', wall, timings, LEASE), null);
  const text = renderLease(old, timings);
  assert.equal(decideLease({ text, self, held: false, observation: observe(null, text, 0), monotonicNow: 0, wallNow: wall, timings, alive: () => true }).action, 'claim');
  // This device's own earlier daemon, gone: taken back at once.
  const mine = renderLease({ ...old, device: 'desk', host: 'desk.local', heartbeat: new Date(wall).toISOString() }, timings);
  assert.equal(decideLease({ text: mine, self, held: false, observation: observe(null, mine, 0), monotonicNow: 0, wallNow: wall, timings, alive: () => false }).action, 'claim');
  assert.equal(decideLease({ text: mine, self, held: false, observation: observe(null, mine, 0), monotonicNow: 0, wallNow: wall, timings, alive: () => true }).action, 'wait');
});

test('onboard and librarian_status name the device holding the lease', async (t) => {
  const record: LeaseRecord = { device: 'desk', host: 'desk.local', pid: 412, started: '2026-12-01T10:00:00.000Z', heartbeat: '2026-12-01T12:00:00.000Z', beat: 3, token: 'a1' };
  const { call } = await connectFixture(t, { 'Claude/Caretaker.md': renderLease(record, LEASE_DEFAULTS), 'Notes/A.md': '# A\n' });
  const holder = 'the caretaker lease is held by device "desk" (pid 412 on desk.local, last heartbeat 2026-12-01T12:00:00.000Z): sweeps, extraction and ticked proposals run there';
  const status = (await call('librarian_status')).structuredContent as { status: string };
  assert.ok(status.status.endsWith(`; ${holder}`), status.status);
  const onboard = (await call('onboard')).structuredContent as { status: { librarian: string } };
  assert.ok(onboard.status.librarian.endsWith(`; ${holder}`), onboard.status.librarian);
});
