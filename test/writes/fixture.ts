/**
 * Shared by the write-layer tests: a fixture vault with a writer on a real state database, a
 * byte-for-byte snapshot of a folder (every file's sha1, every symlink's target, every folder,
 * dot files included), and a check that a call is refused with an EngramError of a meaningful code (never USAGE,
 * which is the command line's).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type Database from 'better-sqlite3';
import { EngramError, type ErrorCode } from '../../src/errors.js';
import { openStateDb } from '../../src/index/index.js';
import { VaultWriter } from '../../src/writes/index.js';
import { makeVault, type FixtureVault } from '../helpers/vault.js';

export const START = Date.parse('2026-03-01T09:30:00.000Z');

export interface WriterVault {
  vault: FixtureVault;
  /** The vault's real path (what the writer is given). */
  root: string;
  /** A folder beside the vault (inside the test's temp dir) for symlinks that lead out. */
  outside: string;
  db: Database.Database;
  writer: VaultWriter;
  clock: { now: number };
  read(path: string): Buffer;
  text(path: string): string;
  /** Another writer on the same vault and database (a second session). */
  another(runId: string): VaultWriter;
}

export function writerVault(t: TestContext, files: Record<string, string | Uint8Array> = {}): WriterVault {
  const vault = makeVault(t, files);
  const root = realpathSync(vault.root);
  const outside = join(root, '..', 'outside');
  mkdirSync(outside, { recursive: true });
  mkdirSync(vault.home, { recursive: true });
  const { db } = openStateDb(vault.home);
  t.after(() => db.close());
  const clock = { now: START };
  const make = (runId: string) => new VaultWriter({ root, db, stateDir: vault.home, agentRoot: 'Claude', runId, now: () => clock.now });
  return {
    vault,
    root,
    outside,
    db,
    clock,
    writer: make('test'),
    read: (path) => readFileSync(join(root, path)),
    text: (path) => readFileSync(join(root, path), 'utf8'),
    another: make,
  };
}

/** Every entry under `dir` (relative path → `dir`, `link → target` or the file's sha1), sorted. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const abs = join(dir, path);
      const stat = lstatSync(abs);
      if (stat.isSymbolicLink()) out[path] = `link → ${readlinkSync(abs)}`;
      else if (stat.isDirectory()) {
        out[path] = 'dir';
        walk(path);
      } else out[path] = `sha1 ${createHash('sha1').update(readFileSync(abs)).digest('hex')} mode ${(stat.mode & 0o777).toString(8)}`;
    }
  };
  walk('');
  return out;
}

/** Asserts `run` throws a USAGE EngramError whose message matches `pattern`; returns the message. */
export function refused(run: () => unknown, pattern: RegExp = /./, label = '', code?: ErrorCode): string {
  let message = '';
  assert.throws(
    run,
    (error: unknown) => {
      assert.ok(error instanceof EngramError, `${label}: expected an EngramError, got ${String(error)}`);
      if (code !== undefined) assert.equal(error.code, code, `${label}: ${error.message}`);
      else assert.notEqual(error.code, 'USAGE', `${label}: ${error.message}`);
      assert.match(error.message, pattern, label);
      message = error.message;
      return true;
    },
    label,
  );
  return message;
}

export function journalRows(db: Database.Database): JournalRow[] {
  return db.prepare('SELECT id, run_id, tool, path, before_hash, after_hash, before_bytes, at, undone_at FROM journal ORDER BY id').all() as JournalRow[];
}

export interface JournalRow {
  id: number;
  run_id: string;
  tool: string;
  path: string;
  before_hash: string | null;
  after_hash: string;
  before_bytes: Buffer | null;
  at: string;
  undone_at: string | null;
}

/** The `- …` lines of `Claude/Audit.md`, in file order (newest first). */
export function auditLines(root: string): string[] {
  return readFileSync(join(root, 'Claude', 'Audit.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('- '));
}
