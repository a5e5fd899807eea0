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
 *
 * Where the file system raises no events for changes made elsewhere — a network share (NFS,
 * SMB), WSL's view of a Windows drive (9p: Obsidian on Windows writes, Linux hears nothing), a
 * FUSE mount — folder watches would stay silent and search would go stale without a word. There
 * the vault is polled instead, by chokidar (a stat of every file every few seconds: heavier, and
 * only there), and the log says why.
 */
import { lstatSync, statfsSync, watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { systemErrorCode } from '../errors.js';

export interface VaultWatchOptions {
  /** Vault-relative, `/`-separated paths of files that may have changed. */
  onFiles(paths: string[]): void;
  /** A folder that is no longer there: everything indexed under it may be gone. */
  onFolderGone(path: string): void;
  onError(message: string): void;
  /** Poll instead of watching (default: only where the file system raises no events, `pollingReason`). */
  poll?: boolean;
  /** Told once why the vault is polled. */
  onNotice?(message: string): void;
}

/** How often a polled vault is looked at. */
export const POLL_INTERVAL_MS = 2_000;

/**
 * File systems (Linux `statfs` magic numbers) whose changes made elsewhere raise no inotify
 * event here: NFS, SMB/CIFS (three magics), 9p (WSL's Windows drives), FUSE (sshfs, rclone…).
 */
const SILENT_FILE_SYSTEMS = new Map<number, string>([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x01021997, '9p (a WSL view of a Windows drive)'],
  [0x65735546, 'FUSE'],
]);

/** Why the vault must be polled (its file system raises no events for others' changes), or null. */
export function pollingReason(root: string): string | null {
  if (process.platform !== 'linux') return null;
  let type: number;
  try {
    type = Number(statfsSync(root).type);
  } catch {
    return null;
  }
  const name = SILENT_FILE_SYSTEMS.get(type >>> 0);
  return name === undefined ? null : `the vault is on ${name}, which raises no change events for edits made elsewhere; polling it every ${POLL_INTERVAL_MS / 1000} s`;
}

export interface VaultWatcher {
  /** Resolves once every folder present at start is watched (a change from then on is reported). */
  ready: Promise<void>;
  close(): void;
}

export function watchVault(root: string, options: VaultWatchOptions): VaultWatcher {
  const reason = options.poll === undefined ? pollingReason(root) : options.poll ? 'polling the vault, as asked' : null;
  if (reason !== null) {
    options.onNotice?.(reason);
    return pollVault(root, options);
  }
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

/** The vault polled by chokidar (loaded only here): every file's stat every `POLL_INTERVAL_MS`. */
function pollVault(root: string, options: VaultWatchOptions): VaultWatcher {
  let closed = false;
  let close = (): void => {
    closed = true;
  };
  const ready = import('chokidar').then(
    ({ watch: chokidarWatch }) =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        const rel = (path: string) => relative(root, path).split(sep).join('/');
        const watcher = chokidarWatch(root, {
          usePolling: true,
          interval: POLL_INTERVAL_MS,
          binaryInterval: POLL_INTERVAL_MS,
          ignoreInitial: true,
          followSymlinks: false,
          // Dot-entries are neither watched nor reported (the vault itself is not one of them).
          ignored: (path: string) =>
            path !== root &&
            rel(path)
              .split('/')
              .some((segment) => segment.startsWith('.')),
        });
        close = () => void watcher.close();
        const files = (path: string) => !closed && options.onFiles([rel(path)]);
        watcher.on('add', files).on('change', files).on('unlink', files);
        watcher.on('unlinkDir', (path: string) => !closed && options.onFolderGone(rel(path)));
        watcher.on('error', (error: unknown) => options.onError(`polling the vault failed (${error instanceof Error ? error.message : String(error)})`));
        watcher.on('ready', () => resolve());
      }),
    (error: unknown) => options.onError(`cannot poll the vault (${error instanceof Error ? error.message : String(error)})`),
  );
  return { ready, close: () => close() };
}
