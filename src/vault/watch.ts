/**
 * Watching the vault for changes: one `fs.watch` per folder, none per file.
 *
 * Why not a watcher library (chokidar, which Engram used before): it opens a watch handle for
 * every file and keeps each file's `Stats` and listeners in memory — on a 10k-note vault about
 * 30 MB of live heap and ~100 MB of a process's RSS, and 10k of the system's inotify watches
 * (8,192 by default on older Linux kernels). A folder's watch already reports what happens to
 * the files in it (created, changed, renamed, deleted: inotify, FSEvents and
 * ReadDirectoryChangesW all do), and the caller stats every reported path anyway
 * (`statVaultPath`), so knowing the name is enough: nothing per file is kept here.
 *
 * What is reported: the vault-relative paths of files that may have been added, changed or
 * removed; every file under a folder that appeared (created, or moved in); and a folder that
 * went away (deleted, or moved out), for the caller to expand into what it had indexed under
 * it. Dot-entries are neither watched nor reported, and symlinked folders are not followed
 * (as the walk). Recursive `fs.watch` is not used: on Linux, Node 20 emulates it by polling
 * every file.
 */
import { lstatSync, watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { systemErrorCode } from '../errors.js';

export interface VaultWatchOptions {
  /** Vault-relative, `/`-separated paths of files that may have changed. */
  onFiles(paths: string[]): void;
  /** A folder that is no longer there: everything indexed under it may be gone. */
  onFolderGone(path: string): void;
  onError(message: string): void;
}

export interface VaultWatcher {
  /** Resolves once every folder present at start is watched (a change from then on is reported). */
  ready: Promise<void>;
  close(): void;
}

export function watchVault(root: string, options: VaultWatchOptions): VaultWatcher {
  const folders = new FolderWatches(root, options);
  const ready = folders.add('', { report: false }).catch((error: unknown) => options.onError(`watching the vault failed (${error instanceof Error ? error.message : String(error)})`));
  return { ready, close: () => folders.close() };
}

/** The watched folders, by vault-relative path ('' is the vault). */
class FolderWatches {
  private readonly folders = new Map<string, FSWatcher>();
  private closed = false;
  private warned = false;

  constructor(
    private readonly root: string,
    private readonly options: VaultWatchOptions,
  ) {}

  /** Watches a folder and every folder below it; `report` names the files found (a folder that appeared). */
  async add(rel: string, { report }: { report: boolean }): Promise<void> {
    if (this.closed || this.folders.has(rel)) return;
    let watcher: FSWatcher;
    try {
      // Watched before it is listed, so a file created in between is seen by one or the other.
      watcher = watch(this.absolute(rel), { persistent: true }, (_event, name) => this.changed(rel, name === null ? null : String(name)));
    } catch (error) {
      this.cannotWatch(rel, error);
      return;
    }
    watcher.on('error', () => this.drop(rel)); // the folder went away under its watch (Windows says EPERM)
    this.folders.set(rel, watcher);
    let entries;
    try {
      entries = await readdir(this.absolute(rel), { withFileTypes: true });
    } catch {
      return; // gone meanwhile: its parent's watch reports that
    }
    const files: string[] = [];
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) below.push(this.add(path, { report }));
      else if (report) files.push(path);
    }
    if (files.length > 0 && !this.closed) this.options.onFiles(files);
    await Promise.all(below);
  }

  close(): void {
    this.closed = true;
    this.drop('');
  }

  private absolute(rel: string): string {
    return rel === '' ? this.root : join(this.root, ...rel.split('/'));
  }

  private cannotWatch(rel: string, error: unknown): void {
    const code = systemErrorCode(error);
    // Said once: past the system's limit every further folder fails the same way.
    if (code === 'ENOENT' || code === 'ENOTDIR' || this.warned) return;
    this.warned = true;
    const limit = code === 'ENOSPC' ? ': the system limit of watched folders is reached (on Linux raise fs.inotify.max_user_watches)' : '';
    this.options.onError(`cannot watch ${rel === '' ? 'the vault' : `"${rel}"`} (${code ?? String(error)})${limit}; changes there are seen at the next index run`);
  }

  /** Stops watching a folder and every folder below it; whether it was watched. */
  private drop(rel: string): boolean {
    let dropped = false;
    for (const [path, watcher] of this.folders) {
      if (path === rel || rel === '' || path.startsWith(`${rel}/`)) {
        watcher.close();
        this.folders.delete(path);
        dropped = true;
      }
    }
    return dropped;
  }

  /** A folder's watch fired for `name` in it (null: the platform did not say which entry). */
  private changed(folder: string, name: string | null): void {
    if (this.closed) return;
    if (name === null) {
      // Everything in the folder may have changed: what was indexed there, and what is there now.
      this.options.onFolderGone(folder);
      this.drop(folder);
      void this.add(folder, { report: true });
      return;
    }
    const path = folder === '' ? name.split(/[\\/]/).join('/') : `${folder}/${name.split(/[\\/]/).join('/')}`;
    if (path.split('/').some((segment) => segment.startsWith('.'))) return;
    let isFolder = false;
    try {
      isFolder = lstatSync(this.absolute(path)).isDirectory();
    } catch {
      // gone: a file (reported below) or a watched folder
    }
    if (isFolder) {
      if (!this.folders.has(path)) void this.add(path, { report: true });
      return;
    }
    if (this.drop(path)) this.options.onFolderGone(path);
    this.options.onFiles([path]);
  }
}
