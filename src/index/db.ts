/**
 * The state database: one SQLite file per vault, opened with the pragmas set in one place. A
 * database that fails to open or check is moved aside and rebuilt empty (everything in it can
 * be recomputed from the vault), and the fact is kept as a warning for `status`.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { migrate } from './migrations.js';

export const DB_FILE = 'engram.db';

export interface StateDb {
  db: Database.Database;
  path: string;
  /** Set when the database was moved aside and rebuilt during this open. */
  recovered: string | null;
}

/** Opens (creating, migrating, recovering as needed) `stateDir/engram.db`; `:memory:` for tests. */
export function openStateDb(stateDir: string | ':memory:'): StateDb {
  if (stateDir === ':memory:') return { db: prepare(new Database(':memory:')), path: ':memory:', recovered: null };
  const path = join(stateDir, DB_FILE);
  try {
    return { db: prepare(new Database(path)), path, recovered: null };
  } catch (error) {
    if (!isDamage(error)) {
      throw new EngramError('STATE_DIR_UNWRITABLE', `cannot open the state database ${path} (${describe(error)}); check that ENGRAM_HOME is writable`);
    }
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    moveAside(path, aside);
    const db = prepare(new Database(path));
    const message = `the state database could not be opened (${describe(error)}); it was moved to ${aside} and rebuilt from the vault`;
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('recovered', ?)").run(message);
    return { db, path, recovered: message };
  }
}

/**
 * A private copy of the state as it is now, for work that must leave the state directory
 * byte-identical (a dry run): the database and its WAL are copied to a temporary folder and
 * opened there (even opening read-only would leave `-wal`/`-shm` files behind). Without a
 * state directory yet, an empty in-memory state. `close()` deletes the copy.
 */
export function openStateSnapshot(stateDir: string): { db: Database.Database; close(): void } {
  const path = join(stateDir, DB_FILE);
  if (!existsSync(path)) {
    const db = prepare(new Database(':memory:'));
    return { db, close: () => db.close() };
  }
  const temp = mkdtempSync(join(tmpdir(), 'engram-snapshot-'));
  try {
    // The database and its WAL are copied without a lock (a dry run takes none): a copy is kept
    // only when neither file changed while it was made, else it is made again.
    const stamp = () => ['', '-wal'].map((suffix) => (existsSync(path + suffix) ? `${statSync(path + suffix).size}:${statSync(path + suffix).mtimeMs}` : '-')).join('|');
    for (let attempt = 0; ; attempt++) {
      const before = stamp();
      rmSync(join(temp, `${DB_FILE}-wal`), { force: true });
      for (const suffix of ['', '-wal']) {
        if (existsSync(path + suffix)) copyFileSync(path + suffix, join(temp, DB_FILE + suffix));
      }
      if (stamp() === before) break;
      if (attempt === 9) throw new Error('the state database kept changing while it was copied');
    }
    const db = prepare(new Database(join(temp, DB_FILE)));
    return {
      db,
      close: () => {
        db.close();
        rmSync(temp, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw new EngramError('STATE_DIR_UNWRITABLE', `cannot copy the state database for a dry run (${describe(error)}); check free space in the temporary folder`);
  }
}

export const DB_DEFAULTS = {
  /**
   * How long a write waits for another process's write transaction (an index batch, a sweep)
   * before failing with "database is locked". Long: a loaded machine can hold a batch for
   * seconds, and a write that waits is better than one that fails.
   */
  busyTimeoutMs: 30_000,
} as const;

function prepare(db: Database.Database): Database.Database {
  try {
    db.pragma(`busy_timeout = ${DB_DEFAULTS.busyTimeoutMs}`);
    immediateTransactions(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Catches a file that is not a database, or damage to the schema pages, before any work.
    const check = db.pragma('quick_check(1)', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check failed: ${String(check)}`);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Makes `db.transaction(fn)()` begin with BEGIN IMMEDIATE (the write lock first) instead of
 * SQLite's deferred BEGIN. Several processes write the one state database (servers, index
 * runs, sweeps): a deferred transaction reads first and upgrades to a write later, and when
 * another process committed in between, the upgrade fails at once with SQLITE_BUSY — the busy
 * timeout cannot help, since waiting would not make the read snapshot current. An immediate
 * transaction waits (up to the busy timeout) before reading anything, so it never has to
 * upgrade. Done here, once, so every transaction in the code base gets it; nested calls still
 * become savepoints, and `.deferred` stays available for a read that needs a snapshot.
 */
function immediateTransactions(db: Database.Database): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => {
    const made = transaction(fn);
    const run = (...args: never[]): unknown => made.immediate(...args);
    return Object.assign(run, { default: made.immediate, deferred: made.deferred, immediate: made.immediate, exclusive: made.exclusive });
  }) as Database.Database['transaction'];
}

/** Damage we recover from by rebuilding; anything else (permissions, disk full) is reported. */
function isDamage(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || (error instanceof Error && error.message.startsWith('integrity check failed'));
}

function moveAside(path: string, aside: string): void {
  renameSync(path, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  }
}

function describe(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
