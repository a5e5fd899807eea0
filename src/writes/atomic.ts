/**
 * Writing one file so that a crash at any moment leaves either the old or the new bytes: write
 * a temporary file in the same folder, flush it to disk, rename it over the target. The
 * temporary name starts with a dot, so a left-over one is never taken for a note. For files
 * outside the vault (state, plugins); notes are written through VaultFs, which never follows a
 * symlink.
 */
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TEMP_PREFIX } from './vault-fs.js';

/**
 * Replaces `absolute` with `bytes`. The temporary name is short whatever the note's name (a
 * long but valid name plus a prefix would exceed the 255-byte limit), and an existing note's
 * permissions carry over to the new file.
 */
export function writeFileAtomic(absolute: string, bytes: Uint8Array): void {
  const temp = join(dirname(absolute), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
  let mode = 0o644;
  try {
    mode = statSync(absolute).mode & 0o777;
  } catch {
    // a new note: the default mode
  }
  fillTemp(openSync(temp, 'wx', mode), temp, bytes, mode);
  try {
    renameSync(temp, absolute);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/**
 * Writes all of `bytes` into a freshly created temp file, gives it `mode` (openSync's mode is
 * filtered by the umask), syncs and closes it; on failure the temp file is removed. Shared by
 * this module and the vault's link-refusing writer (vault-fs.ts).
 */
export function fillTemp(fd: number, temp: string, bytes: Uint8Array, mode: number): void {
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fchmodSync(fd, mode);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
}
