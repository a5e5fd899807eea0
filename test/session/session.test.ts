/**
 * The vault session: the one place the CLI, the daemon and the server open a vault, take the
 * index lock, bring the index up to date, open search and make writers. Real SQLite, a real lock
 * file held by a real second acquisition.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { EngramError } from '../../src/errors.js';
import { acquireLock } from '../../src/index/index.js';
import { openVaultSession, sessionOver } from '../../src/session/index.js';
import { agent } from '../../src/writes/index.js';
import { makeVault } from '../helpers/vault.js';

const settings = { exclude: ['Private'], model: 'TaylorAI/bge-micro-v2', agentRoot: 'Claude' };

test("refreshIndex indexes with the session's defaults, and a held lock is a LOCKED outcome, not an error", async (t) => {
  const vault = makeVault(t, { 'Atlas.md': '# Atlas\n\nwalrus migration plan\n', 'Private/secret.md': '# secret walrus\n' });
  const session = openVaultSession({ vault: vault.root, home: vault.home, ...settings });
  t.after(() => session.close());

  const first = await session.refreshIndex();
  assert.equal(first.status, 'indexed');
  assert.equal(first.status === 'indexed' && first.report.added, 1, 'the excluded folder stays out');
  assert.deepEqual(
    session
      .search()
      .search({ query: 'walrus', limit: 5 })
      .results.map((hit) => hit.path),
    ['Atlas.md'],
  );

  const held = acquireLock(session.stateDir, 'index', { purpose: 'a Librarian sweep' });
  try {
    vault.write('Borealis.md', '# Borealis\n\nwalrus count\n');
    const locked = await session.refreshIndex();
    assert.equal(locked.status, 'locked');
    assert.match(locked.status === 'locked' ? locked.reason : '', /a Librarian sweep is already running/);
    await assert.rejects(
      session.exclusive('an undo', () => 1),
      (error: unknown) => error instanceof EngramError && error.code === 'LOCKED',
    );
  } finally {
    held.release();
  }
  const after = await session.refreshIndex();
  assert.equal(after.status === 'indexed' && after.report.added, 1, 'the note written while locked is indexed once the lock is free');
  assert.equal(await session.exclusive('an undo', () => 'ran'), 'ran');
  assert.ok(!existsSync(`${session.stateDir}/index.lock`), 'the session released the lock');
});

test('a session writer journals under its run id, and indexWritten makes the write and the audit trail searchable', async (t) => {
  const vault = makeVault(t, { 'Atlas.md': '# Atlas\n' });
  const session = openVaultSession({ vault: vault.root, home: vault.home, ...settings });
  t.after(() => session.close());
  await session.refreshIndex();

  const receipt = session.writer('test-run').write({ by: agent('write_note'), path: 'Claude/Notes/Narwhal.md', next: () => '# Narwhal\n\ntusk census\n', create: true });
  session.indexWritten([receipt.path]);
  const runs = session.db.prepare('SELECT DISTINCT run_id FROM journal').pluck().all();
  assert.deepEqual(runs, ['test-run']);
  const indexed = session.db.prepare('SELECT path FROM notes ORDER BY path').pluck().all();
  assert.deepEqual(indexed, ['Atlas.md', 'Claude/Audit.md', 'Claude/Notes/Narwhal.md']);
  assert.equal(session.search().search({ query: 'tusk census', limit: 1 }).results[0]?.path, 'Claude/Notes/Narwhal.md');
});

test('close() closes the database the session opened, and leaves a borrowed one open', async (t) => {
  const vault = makeVault(t, { 'Atlas.md': '# Atlas\n' });
  const owner = openVaultSession({ vault: vault.root, home: vault.home, ...settings });
  const borrowed = sessionOver({ vault: owner.vault, stateDir: owner.stateDir, db: owner.db }, settings);
  borrowed.close();
  assert.equal(owner.db.open, true, 'a borrowed database stays open');
  owner.close();
  assert.equal(owner.db.open, false);
});
