import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError } from '../../src/errors.js';
import { DB_FILE, MIGRATIONS, migrate, openStateDb, readStatus, runIndex } from '../../src/index/index.js';
import Database from 'better-sqlite3';
import { DB_DEFAULTS } from '../../src/index/db.js';
import { makeVault } from '../helpers/vault.js';

test('migrations are recorded in order and applied once', () => {
  const db = new Database(':memory:');
  assert.deepEqual(
    migrate(db),
    MIGRATIONS.map((m) => m.name),
  );
  assert.deepEqual(migrate(db), []);
  assert.deepEqual(
    db.prepare('SELECT name FROM migrations ORDER BY id').pluck().all(),
    MIGRATIONS.map((m) => m.name),
  );
});

test('a failing migration leaves no trace (applied in one transaction with its record)', () => {
  const db = new Database(':memory:');
  const broken = [...MIGRATIONS, { name: '999-broken', up: (d: Database.Database) => d.exec('CREATE TABLE half (x); SELECT * FROM no_such_table;') }];
  assert.throws(() => migrate(db, broken));
  assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get(), 0);
  assert.equal(db.prepare("SELECT count(*) FROM migrations WHERE name = '999-broken'").pluck().get(), 0);
});

test('pragmas: WAL, foreign keys, busy timeout', (t) => {
  const vault = makeVault(t);
  mkdirSync(vault.home, { recursive: true });
  const { db } = openStateDb(vault.home);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(db.pragma('busy_timeout', { simple: true }), DB_DEFAULTS.busyTimeoutMs);
  db.close();
});

test('a transaction takes the write lock first: another process committing between its read and its write cannot fail it', (t) => {
  const vault = makeVault(t);
  mkdirSync(vault.home, { recursive: true });
  const a = openStateDb(vault.home).db;
  const b = openStateDb(vault.home).db;
  t.after(() => {
    a.close();
    b.close();
  });
  b.pragma('busy_timeout = 0');
  let interleaved: string | null = null;
  // Read, let the other connection try to commit, then write: a deferred BEGIN fails the write
  // with SQLITE_BUSY_SNAPSHOT however long the busy timeout is.
  const job = a.transaction(() => {
    a.prepare("SELECT value FROM meta WHERE key = 'k'").get();
    try {
      b.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('other', 'b')").run();
    } catch (error) {
      interleaved = (error as { code?: string }).code ?? String(error);
    }
    a.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('k', 'a')").run();
  });
  assert.doesNotThrow(() => job());
  assert.equal(interleaved, 'SQLITE_BUSY', 'the other writer waits for the transaction instead of slipping in');
  assert.equal(b.prepare("SELECT value FROM meta WHERE key = 'k'").pluck().get(), 'a');
  // Nested transactions still work (as savepoints).
  a.transaction(() => a.transaction(() => a.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('n', '1')").run())())();
  assert.equal(b.prepare("SELECT value FROM meta WHERE key = 'n'").pluck().get(), '1');
});

test('a corrupt database is moved aside, rebuilt, reported once, and the index recovers', (t) => {
  const vault = makeVault(t, { 'a.md': '# A\n' });
  mkdirSync(vault.home, { recursive: true });
  writeFileSync(join(vault.home, DB_FILE), 'this is not a sqlite database, just bytes '.repeat(200));
  const state = openStateDb(vault.home);
  assert.match(state.recovered ?? '', /could not be opened .* moved to .*engram\.db\.corrupt-.* rebuilt from the vault/);
  assert.ok(readdirSync(vault.home).some((name) => name.startsWith(`${DB_FILE}.corrupt-`)));
  const where = { vault: vault.root, stateDir: vault.home };
  assert.match(readStatus(state.db, where).warnings.join('\n'), /moved to/);
  const report = runIndex(state.db, { root: vault.root });
  assert.equal(report.notes, 1);
  assert.match(report.recovered ?? '', /moved to/);
  assert.doesNotMatch(readStatus(state.db, where).warnings.join('\n'), /moved to/);
  state.db.close();
});

test('a state directory that cannot be written is an error, not a rebuild', (t) => {
  const vault = makeVault(t, { 'a.md': 'a' });
  // A folder where the database file should be: opening fails, and nothing is moved aside.
  mkdirSync(join(vault.home, DB_FILE), { recursive: true });
  assert.throws(
    () => openStateDb(vault.home),
    (error: unknown) => error instanceof EngramError && error.code === 'STATE_DIR_UNWRITABLE',
  );
  assert.ok(existsSync(join(vault.home, DB_FILE)));
  assert.equal(readdirSync(vault.home).length, 1);
});
