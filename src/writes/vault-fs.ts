/**
 * File operations at vault-relative paths that a folder swapped for a symlink (or another
 * folder) cannot redirect out of the vault. The path gate checks a path, but a check by name is
 * stale the moment it returns: another process can exchange `Notes/` for a link to anywhere
 * before the write. So every operation here walks the path one folder at a time, opening each
 * with O_NOFOLLOW | O_DIRECTORY, and then acts on names *inside the open folder*:
 *
 * - on Linux through `/proc/self/fd/<fd>/<name>`, which the kernel resolves from the open folder
 *   itself (Node has no openat/renameat; this is the same thing by another door). A swap after
 *   the folder was opened cannot change which folder the name is in.
 * - elsewhere (no such magic links) by the folder's absolute path, checked before and after each
 *   step: its real path must still be itself and name the inode we opened. That leaves a window
 *   of one system call between a check and the act (documented in ARCHITECTURE.md).
 *
 * On both, a write also checks that the open folder is still where it was before the rename
 * that publishes the file, and again after it; if the folder was moved away in between, the
 * previous file is put back (it was kept as a hard link) and the write is refused.
 */
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EngramError, systemErrorCode } from '../errors.js';
import { fillTemp } from './atomic.js';

/** Temporary (and backup) files of a write start with this; a dot name is never taken for a note. */
export const TEMP_PREFIX = '.engram-write-';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY } = constants;

let pinnedSupport: boolean | null = null;

/** True when `/proc/self/fd/<fd>/<name>` reaches `name` inside the folder open as `fd` (Linux). */
export function canPinFolders(): boolean {
  if (pinnedSupport === null) {
    pinnedSupport = false;
    if (process.platform === 'linux') {
      try {
        const fd = openSync('/', O_RDONLY | O_DIRECTORY);
        try {
          pinnedSupport = statSync(`/proc/self/fd/${fd}/.`).ino === fstatSync(fd).ino;
        } finally {
          closeSync(fd);
        }
      } catch {
        // no /proc: the checked-path fallback
      }
    }
  }
  return pinnedSupport;
}

/** An open folder of the vault, and how to name a file inside it. */
class Folder {
  private readonly pinned: boolean;

  constructor(
    readonly fd: number,
    readonly absolute: string,
    readonly relative: string,
    { pinned }: { pinned: boolean },
  ) {
    this.pinned = pinned;
  }

  at(name: string): string {
    return this.pinned ? `/proc/self/fd/${this.fd}/${name}` : join(this.absolute, name);
  }

  /** Still at the path it was opened by (not moved out, not exchanged, not replaced by a link). */
  inPlace(): boolean {
    try {
      if (this.pinned) return readlinkSync(`/proc/self/fd/${this.fd}`) === this.absolute;
      const real = realpathSync.native(this.absolute);
      const now = statSync(real);
      const opened = fstatSync(this.fd);
      return real === this.absolute && now.ino === opened.ino && now.dev === opened.dev;
    } catch {
      return false;
    }
  }

  /**
   * The file open as `fd` is `name` in this folder, and the folder is in place. (Pinned: true by
   * construction. By path: a swap while the file was created put it in another folder.)
   */
  holds(name: string, fd: number): boolean {
    if (this.pinned) return true;
    try {
      const seen = lstatSync(this.at(name));
      const made = fstatSync(fd);
      return seen.ino === made.ino && seen.dev === made.dev && this.inPlace();
    } catch {
      return false;
    }
  }
}

export interface VaultFsOptions {
  /** Force the checked-path fallback (tests exercise it on Linux too). */
  pinned?: boolean;
}

/** File operations inside one vault (its real path), never through a symlink. */
export class VaultFs {
  private readonly pinned: boolean;

  constructor(
    private readonly realRoot: string,
    options: VaultFsOptions = {},
  ) {
    this.pinned = options.pinned ?? canPinFolders();
  }

  /** The note's bytes, or null when it (or its folder) does not exist. Refuses a symlink. */
  read(path: string): Buffer | null {
    const { folder, name } = split(path);
    return this.inFolder(folder, { create: false }, (dir) => {
      if (dir === null) return null;
      let fd: number;
      try {
        fd = openSync(dir.at(name), O_RDONLY | O_NOFOLLOW);
      } catch (error) {
        const code = systemErrorCode(error);
        if (code === 'ENOENT') return null;
        if (code === 'ELOOP') throw new EngramError('WRITE_REFUSED', `${path} is a symlink; Engram does not write through symlinks`);
        throw error;
      }
      try {
        if (!fstatSync(fd).isFile()) throw new EngramError('WRITE_REFUSED', `${path} is not a regular file; Engram writes only notes`);
        return readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    });
  }

  /** Replaces (or creates) the note atomically, creating missing folders one level at a time. */
  write(path: string, bytes: Uint8Array): void {
    const { folder, name } = split(path);
    this.inFolder(folder, { create: true }, (dir) => writeIn(dir!, name, bytes, path));
  }

  /** Removes the note. */
  remove(path: string): void {
    const { folder, name } = split(path);
    this.inFolder(folder, { create: false }, (dir) => {
      if (dir === null) throw new EngramError('NOT_FOUND', `${path} is gone; nothing to remove`);
      unlinkSync(dir.at(name));
    });
  }

  /** Removes `folder` if it is empty; false when it is not (or is gone, or is not a folder). */
  removeEmptyFolder(folder: string): boolean {
    const { folder: parent, name } = split(folder);
    try {
      return this.inFolder(parent, { create: false }, (dir) => {
        if (dir === null) return false;
        rmdirSync(dir.at(name)); // a symlink is not a folder: ENOTDIR, never followed
        return true;
      });
    } catch {
      return false;
    }
  }

  /**
   * Removes the temporary files a killed write left in `folder`: those older than `olderThanMs`,
   * or all of them when it is 0 (the caller holds the write lock, so none is in flight).
   */
  sweepTemps(folder: string, now: number, olderThanMs: number): number {
    try {
      return this.inFolder(folder, { create: false }, (dir) => {
        if (dir === null) return 0;
        let removed = 0;
        for (const name of readdirSync(dir.at('.'))) {
          if (!name.startsWith(TEMP_PREFIX)) continue;
          try {
            const stat = lstatSync(dir.at(name));
            if (stat.isFile() && (olderThanMs === 0 || now - stat.mtimeMs >= olderThanMs)) {
              unlinkSync(dir.at(name));
              removed++;
            }
          } catch {
            // gone already: nothing to do
          }
        }
        return removed;
      });
    } catch {
      return 0; // a folder that became a symlink is not swept through
    }
  }

  /** Opens `folder` (vault-relative, '' for the root) level by level without following links. */
  private inFolder<T>(folder: string, { create }: { create: boolean }, run: (dir: Folder | null) => T): T {
    let fd = openSync(this.realRoot, O_RDONLY | O_DIRECTORY);
    let absolute = this.realRoot;
    const done: string[] = [];
    try {
      for (const segment of folder === '' ? [] : folder.split('/')) {
        const next = this.openLevel(new Folder(fd, absolute, done.join('/'), { pinned: this.pinned }), segment, create, folder);
        if (next === null) return run(null);
        closeSync(fd);
        fd = next;
        absolute = join(absolute, segment);
        done.push(segment);
        if (!this.pinned && !new Folder(fd, absolute, '', { pinned: false }).inPlace()) throw moved(done.join('/'));
      }
      return run(new Folder(fd, absolute, folder, { pinned: this.pinned }));
    } finally {
      closeSync(fd);
    }
  }

  /** The fd of `segment` inside `parent`, created when missing and `create`; null when missing. */
  private openLevel(parent: Folder, segment: string, create: boolean, folder: string): number | null {
    const at = parent.at(segment);
    const shown = parent.relative === '' ? segment : `${parent.relative}/${segment}`;
    for (let attempt = 0; ; attempt++) {
      try {
        return openSync(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        let code = systemErrorCode(error);
        // O_DIRECTORY may answer ENOTDIR before O_NOFOLLOW answers ELOOP: tell a link apart.
        if (code === 'ENOTDIR' && !isFile(at)) code = 'ELOOP';
        if (code === 'ELOOP') throw new EngramError('CONFLICT', `${shown} is a symlink now, or changed while it was opened; nothing was written through it — check the vault and try again`);
        if (code === 'ENOTDIR') throw new EngramError('INVALID_INPUT', `${shown} is a file, not a folder, so ${folder}/ cannot hold a note; pick another path`);
        if (code !== 'ENOENT') throw error;
        if (!create) return null;
        if (attempt > 0) throw new EngramError('CONFLICT', `${shown} keeps disappearing while it is created; check the vault and try again`);
      }
      try {
        mkdirSync(at);
      } catch (error) {
        if (systemErrorCode(error) !== 'EEXIST') throw error;
      }
    }
  }
}

/** `Folder/Sub/Name.md` → folder `Folder/Sub`, name `Name.md`. */
function split(path: string): { folder: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? { folder: '', name: path } : { folder: path.slice(0, slash), name: path.slice(slash + 1) };
}

function moved(folder: string): EngramError {
  return new EngramError('CONFLICT', `the folder ${folder === '' ? 'of the vault' : `${folder}/`} was moved or swapped for a link during the write; nothing was written — check the vault and try again`);
}

/**
 * The atomic write in an open folder: temp file, flush, check the folder is in place, keep the
 * old file as a hard link, rename, check again — and put the old file back if the folder moved.
 */
function writeIn(dir: Folder, name: string, bytes: Uint8Array, path: string): void {
  const target = dir.at(name);
  let mode = 0o644;
  let existed = false;
  try {
    mode = lstatSync(target).mode & 0o777;
    existed = true;
  } catch {
    // a new note: the default mode
  }
  const tempName = `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`;
  const temp = dir.at(tempName);
  const fd = openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  // Before any content goes in: created where we meant (by path, a swap could have moved it).
  if (!dir.holds(tempName, fd)) {
    closeSync(fd);
    removeQuietly(temp);
    throw moved(dir.relative);
  }
  fillTemp(fd, temp, bytes, mode);
  const backup = existed ? dir.at(`${TEMP_PREFIX}${randomBytes(6).toString('hex')}`) : null;
  try {
    if (!dir.inPlace()) throw moved(dir.relative);
    if (backup !== null) linkSync(target, backup);
    renameSync(temp, target);
  } catch (error) {
    removeQuietly(temp);
    if (backup !== null) removeQuietly(backup);
    throw error instanceof EngramError ? error : new EngramError('IO_FAILED', `could not write ${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (!dir.inPlace()) {
    // Moved between the check and the rename: undo the rename where the folder now is.
    if (backup !== null) renameSync(backup, target);
    else removeQuietly(target);
    throw moved(dir.relative);
  }
  if (backup !== null) removeQuietly(backup);
}

/** A regular file (not a link, nor a folder it was swapped back to since). */
function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
