/**
 * A vault indexed into a real state database (lexical extension on): `indexState` for the tests
 * that only index and search, `indexedVault` / `indexVault` adding a writer for the graph,
 * Librarian and sync tests. Kept apart from vault.ts so the tests that only need files on disk do
 * not load the index, search and write layers.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import type { TestContext } from 'node:test';
import type Database from 'better-sqlite3';
import { openStateDb, runIndex, type IndexOptions, type IndexReport } from '../../src/index/index.js';
import { lexicalExtension } from '../../src/search/index.js';
import { VaultWriter } from '../../src/writes/index.js';
import { makeVault, type FixtureVault } from './vault.js';

export interface IndexedState {
  /** The vault's real path (what the indexer is given). */
  root: string;
  /** The state database in the given home, closed when the test ends. */
  db: Database.Database;
  /** Indexes the vault again (after the test changed files). */
  index(): IndexReport;
}

export interface IndexedVault extends IndexedState {
  vault: FixtureVault;
  /** A writer on the vault and database: agent root `Claude`, run id `test`. */
  writer: VaultWriter;
}

/**
 * Indexes the notes under `root` into a state database in `home` (made if missing), with the
 * lexical extension unless `options` say otherwise. `root` and `home` are usually a fixture
 * vault's, but any folder works: the evals vault, or a second, clean home to compare against.
 */
export function indexState(t: TestContext, where: { root: string; home: string }, options: Omit<IndexOptions, 'root'> = {}): IndexedState {
  mkdirSync(where.home, { recursive: true });
  const root = realpathSync(where.root);
  const { db } = openStateDb(where.home);
  t.after(() => db.close());
  const index = () => runIndex(db, { extensions: [lexicalExtension()], ...options, root });
  index();
  return { root, db, index };
}

/** A fresh fixture vault holding `files`, indexed, with a writer. */
export function indexedVault(t: TestContext, files: Record<string, string | Uint8Array> = {}): IndexedVault {
  return indexVault(t, makeVault(t, files));
}

/** Indexes a fixture vault the test has already filled (e.g. by copying a folder in) and adds a writer. */
export function indexVault(t: TestContext, vault: FixtureVault): IndexedVault {
  const { root, db, index } = indexState(t, vault);
  const writer = new VaultWriter({ root, db, stateDir: vault.home, agentRoot: 'Claude', runId: 'test' });
  return { vault, root, db, writer, index };
}
