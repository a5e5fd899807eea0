/**
 * A vault session: what every command, the daemon and the MCP engine need to work on one vault,
 * built in one place. It owns the vault root, the state database, the `index` lock, bringing the
 * index up to date, opening the search engine and making writers — so a caller says what it wants
 * done ("refresh the index", "run this under the lock", "a writer for this run") and never
 * repeats how (which lock, which extensions, which folders are left out, which audit note a
 * write touched).
 */
import type Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { EngramError } from '../errors.js';
import { acquireLock, ensureStateDir, indexPaths, openStateDb, resolveVaultRoot, runIndex, type IndexOptions, type IndexProgress, type IndexReport, type Lock, type StateDb } from '../index/index.js';
import { lexicalExtension, VaultSearch, type FusionOptions, type SearchEngineOptions } from '../search/index.js';
import { VaultWriter } from '../writes/index.js';

/** The defaults a session applies to everything it does. */
export interface SessionSettings {
  /** Vault folders left out of the index (ENGRAM_EXCLUDE). */
  exclude: readonly string[];
  /** The embedding model whose vectors search uses. */
  model: string;
  /** The agent-territory folder (its `Audit.md` records every write). */
  agentRoot: string;
  /** How hybrid search fuses its lanes (ENGRAM_FUSION_K, ENGRAM_FUSION_WEIGHTS); the search default when absent. */
  fusion?: FusionOptions;
}

/** Where a writer writes: the vault, its state, the agent territory. */
export interface WriterPlace {
  root: string;
  db: Database.Database;
  stateDir: string;
  agentRoot: string;
}

/** The one place a `VaultWriter` is made: every writer journals under a run id into the vault's state. */
export function vaultWriter(place: WriterPlace, runId: string): VaultWriter {
  return new VaultWriter({ root: place.root, db: place.db, stateDir: place.stateDir, agentRoot: place.agentRoot, runId });
}

/** A job that ran under the lock, or why it could not: another process holds the lock. */
export type LockOutcome<T> = { status: 'done'; value: T } | { status: 'locked'; reason: string };

/** An index refresh: its report, or LOCKED (another index run or sweep holds the lock) for the caller to turn into a notice or an error. */
export type RefreshOutcome = { status: 'indexed'; report: IndexReport } | { status: 'locked'; reason: string };

export interface IndexRunOptions {
  /** Re-parse every note, not just the changed ones. */
  full?: boolean;
  /** Folders left out beyond the session's own. */
  exclude?: readonly string[];
  batchSize?: number;
  onProgress?: (progress: IndexProgress) => void;
}

export class VaultSession {
  readonly vault: string;
  readonly stateDir: string;
  readonly db: Database.Database;

  constructor(
    where: { vault: string; stateDir: string; db: Database.Database },
    readonly settings: SessionSettings,
    /** The state database when the session opened it (and so closes it); null when borrowed. */
    private readonly owned: StateDb | null = null,
  ) {
    this.vault = where.vault;
    this.stateDir = where.stateDir;
    this.db = where.db;
  }

  /** Runs a job that changes the vault or the index under the `index` lock; LOCKED is thrown, naming the holder. */
  async exclusive<T>(purpose: string, run: () => T | Promise<T>): Promise<T> {
    const lock = acquireLock(this.stateDir, 'index', { purpose });
    try {
      return await run();
    } finally {
      lock.release();
    }
  }

  /** As `exclusive`, but a held lock is an outcome, not an error: the caller decides whether to go on. */
  async whenFree<T>(purpose: string, run: () => T | Promise<T>): Promise<LockOutcome<T>> {
    let lock: Lock;
    try {
      lock = acquireLock(this.stateDir, 'index', { purpose });
    } catch (error) {
      if (error instanceof EngramError && error.code === 'LOCKED') return { status: 'locked', reason: error.message };
      throw error;
    }
    try {
      return { status: 'done', value: await run() };
    } finally {
      lock.release();
    }
  }

  /** Brings the index up to date under the lock. */
  async refreshIndex(options: IndexRunOptions = {}): Promise<RefreshOutcome> {
    const outcome = await this.whenFree('an index run', () => this.indexNow(options));
    return outcome.status === 'locked' ? outcome : { status: 'indexed', report: outcome.value };
  }

  /** One index run with the session's defaults. The caller holds the lock (inside `exclusive`). */
  indexNow(options: IndexRunOptions = {}): IndexReport {
    return runIndex(this.db, {
      ...this.indexOptions(options.exclude),
      full: options.full === true,
      ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  }

  /** Indexes what a write touched, and the audit note every write appends to, so search sees both. */
  indexWritten(paths: readonly string[]): IndexReport {
    return indexPaths(this.db, [...paths, `${this.settings.agentRoot}/Audit.md`], this.indexOptions());
  }

  /** The search engine over the index as it is now (the session's model unless options say otherwise). */
  search(options: SearchEngineOptions = { model: this.settings.model, ...(this.settings.fusion ? { fusion: this.settings.fusion } : {}) }): VaultSearch {
    return VaultSearch.open(this.db, this.vault, options);
  }

  /** A writer journaling under `runId`. */
  writer(runId: string): VaultWriter {
    return vaultWriter({ root: this.vault, db: this.db, stateDir: this.stateDir, agentRoot: this.settings.agentRoot }, runId);
  }

  /** Closes the state database when the session opened it. */
  close(): void {
    this.owned?.db.close();
  }

  private indexOptions(extra: readonly string[] = []): IndexOptions {
    // A fresh extension per run, as each command had: it caches the vocabulary it saw.
    return { root: this.vault, exclude: [...this.settings.exclude, ...extra], extensions: [lexicalExtension()] };
  }
}

/** Opens a vault (checked, its real path) and its state directory and database (created when absent). */
export function openVaultSession(options: { vault: string; home: string } & SessionSettings): VaultSession {
  const vault = resolveVaultRoot(resolve(options.vault));
  const stateDir = ensureStateDir(resolve(options.home), vault);
  const state = openStateDb(stateDir);
  return new VaultSession({ vault, stateDir, db: state.db }, { exclude: options.exclude, model: options.model, agentRoot: options.agentRoot, ...(options.fusion ? { fusion: options.fusion } : {}) }, state);
}

/** A session over a database someone else opened (and closes). */
export function sessionOver(where: { vault: string; stateDir: string; db: Database.Database }, settings: SessionSettings): VaultSession {
  return new VaultSession(where, settings);
}
