/**
 * A fixture vault indexed into a real state database (lexical extension on), with a writer on it:
 * the setup the graph, Librarian and sync tests share. Kept apart from vault.ts so the tests that
 * only need files on disk do not load the index, search and write layers.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import type { TestContext } from 'node:test';
import type Database from 'better-sqlite3';
import { openStateDb, runIndex, type IndexReport } from '../../src/index/index.js';
import { lexicalExtension } from '../../src/search/index.js';
import { VaultWriter } from '../../src/writes/index.js';
import { makeVault, type FixtureVault } from './vault.js';

export interface IndexedVault {
  vault: FixtureVault;
  /** The vault's real path (what the indexer and the writer are given). */
  root: string;
  /** The state database in `vault.home`, closed when the test ends. */
  db: Database.Database;
  /** A writer on the vault and database: agent root `Claude`, run id `test`. */
  writer: VaultWriter;
  /** Indexes the vault again (after the test changed files). */
  index(): IndexReport;
}

/** A fresh fixture vault holding `files`, indexed, with a writer. */
export function indexedVault(t: TestContext, files: Record<string, string | Uint8Array> = {}): IndexedVault {
  return indexVault(t, makeVault(t, files));
}

/** Indexes a fixture vault the test has already filled (e.g. by copying a folder in) and adds a writer. */
export function indexVault(t: TestContext, vault: FixtureVault): IndexedVault {
  mkdirSync(vault.home, { recursive: true });
  const root = realpathSync(vault.root);
  const { db } = openStateDb(vault.home);
  t.after(() => db.close());
  const index = () => runIndex(db, { root, extensions: [lexicalExtension()] });
  index();
  const writer = new VaultWriter({ root, db, stateDir: vault.home, agentRoot: 'Claude', runId: 'test' });
  return { vault, root, db, writer, index };
}
