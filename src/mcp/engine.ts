/**
 * The server's view of one vault, kept fresh while it runs: the state database, a search engine
 * rebuilt after the index changes, a warm embedder for queries, a background index run at start,
 * and a file watcher that re-indexes changed notes within a fraction of a second.
 *
 * Freshness: we watch (one watch per folder, vault/watch.ts) rather than check before each
 * query — a check is a vault listing (~100 ms at 10k notes) on every call, a watcher event costs
 * one `indexPaths` of the changed notes (~15 ms) once.
 */
import type Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { embedBacklog, openConfiguredEmbedder, queryInput, type Embedder, type LogSink, type VectorSettings } from '../embed/index.js';
import { extensionMetaKey, indexPaths, planIndex, PARSER_VERSION } from '../index/index.js';
import { lexicalExtension, VaultSearch, WrittenWords, type FusionOptions } from '../search/index.js';
import type { VaultWriter, WriteReceipt, WriteRequest } from '../writes/index.js';
import { sessionOver, type VaultSession } from '../session/index.js';
import type { ExtractorSettings } from '../graph/index.js';
import { resolveNotePath, watchVault, type VaultWatcher } from '../vault/index.js';
import { leasePath } from '../librarian/index.js';
import { randomUUID } from 'node:crypto';
import { currentIdentity, sessionRunId } from './identity.js';

/** Most session writers an engine keeps (a daemon serves many sessions over its life). */
const MAX_SESSION_WRITERS = 256;

export interface EngineOptions {
  /** The agent-territory folder (ENGRAM_AGENT_ROOT, default `Claude`). */
  agentRoot?: string;
  /** Which extractor graph tools use (default: structural). */
  extractor?: ExtractorSettings;
  vault: string;
  stateDir: string;
  db: Database.Database;
  settings: VectorSettings;
  log: LogSink;
  /** How to run `engram index` for this vault in a child process (null: do not index at start). */
  indexCommand: { command: string; args: string[] } | null;
  /** Watch the vault for changes (default true). */
  watch?: boolean;
  /** Quiet period before re-indexing a burst of changes (ms). */
  debounceMs?: number;
  /** The session the vault was opened with (its lock and writers); by default one over `db`. */
  session?: VaultSession;
  /** How hybrid search fuses its lanes; else the session's, else the search default. */
  fusion?: FusionOptions;
  /** Told the vault-relative paths of each burst of changes the watcher indexed (the daemon applies ticks in `Librarian.md`). */
  onWatched?: (paths: readonly string[]) => void;
}

/** A write's receipt, and why it is not searchable yet when indexing it failed (the write stands). */
export type IndexedReceipt = WriteReceipt & { indexWarning: string | null };

/** What a preview's token must match when applied (see `VaultWriter.apply`). */
export type ApplyExpectation = Parameters<VaultWriter['apply']>[1];

export type IndexState = { state: 'ready' } | { state: 'indexing'; since: string } | { state: 'failed'; reason: string };

export class VaultEngine {
  readonly vault: string;
  readonly stateDir: string;
  readonly db: Database.Database;
  private readonly session: VaultSession;
  private engine: VaultSearch | null = null;
  private generation = 0;
  private engineGeneration = -1;
  /** The words the notes write, carried from engine to engine: each reads only the notes changed since. */
  readonly written = new WrittenWords();
  private embedder: Promise<{ embedder: Embedder } | { reason: string }> | null = null;
  private child: ChildProcess | null = null;
  private watcher: VaultWatcher | null = null;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly extension = lexicalExtension();
  private vaultWriter: VaultWriter | null = null;
  private readonly sessionWriters = new Map<string, VaultWriter>();
  private readonly runId = `mcp-${randomUUID().slice(0, 8)}`;
  private known: string[] | null = null;
  private knownGeneration = -1;
  private dataVersion = -1;
  private dataVersionQuery: Database.Statement | null = null;
  indexState: IndexState = { state: 'ready' };
  /** Whether the index was already current when the running start-up index run began (checked once, lazily). */
  private currentAtStart: boolean | null = null;
  private watchReady: Promise<void> = Promise.resolve();

  constructor(private readonly options: EngineOptions) {
    this.vault = options.vault;
    this.stateDir = options.stateDir;
    this.db = options.db;
    this.session = options.session ?? sessionOver({ vault: options.vault, stateDir: options.stateDir, db: options.db }, { exclude: options.settings.exclude, model: options.settings.model, agentRoot: options.agentRoot ?? 'Claude' });
  }

  get settings(): VectorSettings {
    return this.options.settings;
  }

  get extractorSettings(): ExtractorSettings {
    return this.options.extractor ?? { extractor: 'structural', extractModel: 'structural' };
  }

  /** A note path from a tool, through the path gate, against the indexed notes. */
  resolve(path: string) {
    return resolveNotePath(this.vault, path, { known: this.knownPaths() });
  }

  get agentRoot(): string {
    return this.options.agentRoot ?? 'Claude';
  }

  /**
   * The vault writer: inside a tool call, one journaling under the calling session's run id (see
   * identity.ts), so sessions sharing this engine stay apart in the journal; outside one (a
   * daemon's own work), one run id per engine.
   */
  writer(): VaultWriter {
    const identity = currentIdentity();
    if (!identity) {
      this.vaultWriter ??= this.session.writer(this.runId);
      return this.vaultWriter;
    }
    const runId = sessionRunId(identity);
    let writer = this.sessionWriters.get(runId);
    if (!writer) {
      writer = this.session.writer(runId);
      this.sessionWriters.set(runId, writer);
      // Oldest first in a Map: forget the longest-known session's writer (a new one is cheap).
      if (this.sessionWriters.size > MAX_SESSION_WRITERS) this.sessionWriters.delete(this.sessionWriters.keys().next().value!);
    }
    return writer;
  }

  /** Starts the background index run and the watcher; returns at once. */
  start(): void {
    try {
      this.writer().sweepStaleTemps(); // a write killed mid-way left its temporary file
    } catch (error) {
      this.options.log.err(`engram: removing left-over temporary files failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.options.indexCommand) this.startIndexRun(this.options.indexCommand);
    if (this.options.watch !== false) this.startWatcher();
  }

  /** The search engine over the index as it is now (rebuilt only after a change). */
  search(): VaultSearch {
    this.noticeOtherWriters();
    if (this.engine === null || this.engineGeneration !== this.generation) {
      const fusion = this.options.fusion ?? this.session.settings.fusion;
      this.engine = VaultSearch.open(this.db, this.vault, { model: this.settings.model, written: this.written, ...(fusion ? { fusion } : {}) });
      this.engineGeneration = this.generation;
    }
    return this.engine;
  }

  /** Vault-relative paths of the indexed notes (cached until the index changes). */
  knownPaths(): string[] {
    this.noticeOtherWriters();
    if (this.known === null || this.knownGeneration !== this.generation) {
      this.known = this.db.prepare('SELECT path FROM notes').pluck().all() as string[];
      this.knownGeneration = this.generation;
    }
    return this.known;
  }

  /** The query as a vector, from an embedder opened once and kept warm; or why not. */
  async queryVector(text: string): Promise<{ vector: Float32Array } | { reason: string }> {
    this.embedder ??= openConfiguredEmbedder(this.settings, this.options.log);
    const opened = await this.embedder;
    if ('reason' in opened) return opened;
    const [vector] = await opened.embedder.embed([queryInput(this.settings.model, text)]);
    return vector ? { vector } : { reason: 'the embedder returned no vector' };
  }

  /** Re-indexes the given vault-relative paths now (the watcher calls this, tests may too). */
  async refresh(paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    const report = indexPaths(this.db, paths, { root: this.vault, exclude: this.settings.exclude, extensions: [this.extension] });
    // Engram's own writes are indexed by whoever wrote them; their watcher events change nothing
    // here, so search keeps its loaded engine instead of reloading it.
    if (report.added + report.modified + report.moved.length + report.deleted === 0) return;
    // The caretaker lease is rewritten every heartbeat (2 minutes), by this daemon or, synced, by
    // another device's: its row is kept current, but search keeps its loaded engine — reloading
    // it (about a second of a 10k-note vault, paid by the next search of every attached session)
    // for a note nobody searches for would be the daemon's largest steady cost.
    if (paths.every((path) => path === leasePath(this.agentRoot))) return;
    this.generation++;
    // Changed notes get vectors in the background when the embedder is already warm.
    const opened = this.embedder ? await this.embedder : null;
    if (opened && 'embedder' in opened) {
      await embedBacklog(this.db, { root: this.vault, embedder: opened.embedder, budgetMs: 5_000 });
      this.generation++;
    }
  }

  /*
   * The tools change the vault only through the methods below, which index every path the
   * change touched before returning: the one place the server re-indexes after its own writes,
   * so whatever a tool wrote (and the audit note recording it) is searchable when it answers.
   */

  /** A write inside the agent folder (see `VaultWriter.write`). */
  async write(request: WriteRequest): Promise<IndexedReceipt> {
    return this.indexReceipt(this.writer().write(request));
  }

  /** Applies a preview's token, checked against what the caller sent along with it. */
  async apply(token: string, expect: ApplyExpectation): Promise<IndexedReceipt> {
    return this.indexReceipt(this.writer().apply(token, expect));
  }

  /** An agent's undo of one journaled write (see `VaultWriter.undo`). */
  async undo(journalId: number): Promise<IndexedReceipt> {
    return this.indexReceipt(this.writer().undo(journalId, { agent: true }));
  }

  /**
   * A job that changes many notes through the writer (a filing, an undo, an extraction, a merge),
   * run `exclusive`ly; `touched` names the notes its result says it changed. Those and the audit
   * note every journaled change appends to are indexed before this returns (nothing when none).
   */
  async change<T>(purpose: string, run: () => T | Promise<T>, touched: (result: T) => readonly string[]): Promise<T> {
    const result = await this.exclusive(purpose, run);
    const paths = touched(result);
    if (paths.length > 0) await this.indexWritten([...paths, `${this.agentRoot}/Audit.md`]);
    return result;
  }

  private async indexReceipt(receipt: WriteReceipt): Promise<IndexedReceipt> {
    return { ...receipt, indexWarning: await this.indexWritten(receipt.touched) };
  }

  /**
   * Indexes what a write just put in the vault, so it is searchable when the tool answers. The
   * write has happened whatever this does: a failure here must not become an error an agent
   * would retry (and so write twice). It is logged, the paths are queued to be indexed again
   * shortly, and the reply gets the warning returned here.
   */
  private async indexWritten(paths: readonly string[]): Promise<string | null> {
    try {
      await this.refresh(paths);
      return null;
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      this.options.log.err(`engram: indexing a write failed (${message}); it is indexed again shortly`);
      this.schedule(paths);
      return `the write is done, but indexing it failed (${message}); it is indexed again shortly — do not repeat the write`;
    }
  }

  /**
   * Whether search may miss notes: an index run is under way and the index was not already
   * current when it began. The start-up run of a server whose index is up to date changes
   * nothing, and saying "results may be incomplete" then was false. Checked once per run, from
   * a listing and the stored stats (~100 ms at 10k notes), on the first call that asks.
   */
  indexBehind(): boolean {
    if (this.indexState.state !== 'indexing') return false;
    this.currentAtStart ??= this.indexIsCurrent();
    return !this.currentAtStart;
  }

  private indexIsCurrent(): boolean {
    const meta = (key: string) => this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
    if (meta('last_indexed_at') === undefined || meta('parser_version') !== PARSER_VERSION) return false;
    if (meta(extensionMetaKey(this.extension)) !== this.extension.version) return false;
    const plan = planIndex(this.db, { root: this.vault, exclude: this.settings.exclude });
    return plan.added + plan.changed + plan.gone === 0;
  }

  /**
   * Another process (a second server, `engram librarian`, the daemon) committed to the shared
   * database: SQLite's `data_version` moves only for other connections' commits, so one pragma
   * (microseconds) tells whether what this engine loaded is still current.
   */
  private noticeOtherWriters(): void {
    // A prepared statement: `db.pragma()` compiles its SQL on every call (4% of a busy server's time).
    this.dataVersionQuery ??= this.db.prepare('PRAGMA data_version').pluck();
    const version = this.dataVersionQuery.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.generation++;
    }
  }

  /** Says the index changed behind the engine's back (a sweep in this process): search reloads. */
  changed(): void {
    this.generation++;
  }

  /**
   * Runs a job that changes the vault and the index (a filing, an undo, an extraction, a merge)
   * under the state's `index` lock, like sweeps and index runs, so it never interleaves with one
   * in another process — when one runs, the job is refused with who holds it. Search reloads
   * afterwards: the job indexed on this engine's own connection, which `data_version` does not
   * report, so a later `refresh` of the same paths finds nothing changed.
   */
  async exclusive<T>(purpose: string, run: () => T | Promise<T>): Promise<T> {
    return this.session.exclusive(purpose, async () => {
      try {
        return await run();
      } finally {
        this.changed();
      }
    });
  }

  /** Resolves once every change seen so far has been indexed. */
  async settled(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.flush();
    }
    await this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
    this.child?.kill();
    const opened = this.embedder ? await this.embedder : null;
    if (opened && 'embedder' in opened) await opened.embedder.close();
  }

  private startIndexRun(command: { command: string; args: string[] }): void {
    this.indexState = { state: 'indexing', since: new Date().toISOString() };
    this.currentAtStart = null;
    const child = spawn(command.command, command.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('exit', (code) => {
      this.child = null;
      this.generation++;
      // Another process already indexing this vault is not a failure: its results are shared.
      const busy = /already running/.test(stderr);
      this.indexState = code === 0 || busy ? { state: 'ready' } : { state: 'failed', reason: stderr.trim().split('\n').pop() ?? `exit ${code}` };
    });
  }

  /** Resolves once the watcher has scanned the vault, so a change from then on is seen (at once when not watching). */
  watching(): Promise<void> {
    return this.watchReady;
  }

  private startWatcher(): void {
    this.watcher = watchVault(this.vault, {
      onFiles: (paths) => this.schedule(paths),
      // A folder deleted or moved away: each file indexed under it is looked at again (and so dropped).
      onFolderGone: (folder) => {
        const indexed = this.indexedUnder(folder);
        if (indexed.length > 0) this.schedule(indexed);
      },
      onError: (message) => this.options.log.err(`engram: watcher: ${message}`),
      onNotice: (message) => this.options.log.err(`engram: watcher: ${message}`),
    });
    this.watchReady = this.watcher.ready;
  }

  /** Vault-relative paths of the notes and attachments indexed under a folder. */
  private indexedUnder(folder: string): string[] {
    // A range on the path, not LIKE (a folder name may hold % or _): `/` + 1 is `0`.
    const range = [`${folder}/`, `${folder}0`];
    return this.db
      .prepare('SELECT path FROM notes WHERE path >= ? AND path < ? UNION ALL SELECT path FROM attachments WHERE path >= ? AND path < ?')
      .pluck()
      .all(...range, ...range) as string[];
  }

  /** Queues vault-relative paths to be re-indexed after a quiet period. */
  private schedule(paths: readonly string[]): void {
    for (const path of paths) this.pending.add(path);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.options.debounceMs ?? 150);
  }

  private flush(): void {
    const paths = [...this.pending];
    this.pending.clear();
    this.flushing = this.flushing
      .then(() => this.refresh(paths))
      .catch((error: unknown) => {
        this.options.log.err(`engram: re-indexing ${paths.length} changed paths failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      // Told even when indexing failed: what it reacts to is the files, not the index.
      .then(() => this.options.onWatched?.(paths));
  }
}
