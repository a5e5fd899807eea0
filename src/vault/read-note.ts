/**
 * Reading one note file, with the checks that keep bad files from hurting the index: a size
 * limit, binary detection, UTF-8 validation. A file that fails a check is skipped with a reason;
 * a file with invalid UTF-8 is indexed with replacement characters and a warning.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { systemErrorCode } from '../errors.js';

export const READ_DEFAULTS = {
  /** Notes larger than this are skipped (a 50 MB log pasted into a vault is not a note). */
  maxNoteBytes: 10 * 1024 * 1024,
  /** How much of the file is searched for a NUL byte to call it binary. */
  binarySniffBytes: 8192,
} as const;

export type ReadOutcome = { ok: true; text: string; hash: string; size: number; warning: string | null } | { ok: false; vanished: boolean; reason: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

export function readNoteFile(absPath: string, maxNoteBytes: number = READ_DEFAULTS.maxNoteBytes): ReadOutcome {
  let bytes: Buffer;
  try {
    // A note replaced by a symlink since it was indexed is not followed (it could lead anywhere).
    if (lstatSync(absPath).isSymbolicLink()) return { ok: false, vanished: false, reason: 'is now a symlink (not followed)' };
    bytes = readFileSync(absPath);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT') return { ok: false, vanished: true, reason: 'deleted while indexing' };
    return { ok: false, vanished: false, reason: `cannot be read (${code ?? String(error)}); check its permissions` };
  }
  if (bytes.length > maxNoteBytes) {
    return { ok: false, vanished: false, reason: `larger than the ${formatBytes(maxNoteBytes)} note limit (${formatBytes(bytes.length)})` };
  }
  const nul = bytes.subarray(0, READ_DEFAULTS.binarySniffBytes).indexOf(0);
  if (nul !== -1) return { ok: false, vanished: false, reason: `binary content (NUL byte at offset ${nul}), not a markdown note` };
  const hash = hashContent(bytes);
  try {
    return { ok: true, text: strictUtf8.decode(bytes), hash, size: bytes.length, warning: null };
  } catch {
    return { ok: true, text: lenientUtf8.decode(bytes), hash, size: bytes.length, warning: 'not valid UTF-8; unreadable bytes were replaced with U+FFFD for indexing' };
  }
}

/**
 * A note's text for reading only (search evidence, excerpts): the same checks as
 * `readNoteFile`, without hashing the content, which only change detection needs.
 */
export function readNoteText(absPath: string, maxNoteBytes: number = READ_DEFAULTS.maxNoteBytes): { ok: true; text: string } | { ok: false; reason: string } {
  const read = readNoteTextStamped(absPath, maxNoteBytes);
  return read.ok ? { ok: true, text: read.text } : read;
}

/**
 * `readNoteText` with the file's stamp, from the open file (so it is the stamp of the bytes
 * read, and costs no system call more: reading to the stamp's size needs no second one).
 */
export function readNoteTextStamped(absPath: string, maxNoteBytes: number = READ_DEFAULTS.maxNoteBytes): { ok: true; text: string; stat: Stats } | { ok: false; reason: string } {
  let bytes: Buffer;
  let stat: Stats;
  let fd: number | null = null;
  try {
    // One open that refuses a symlink (ELOOP) instead of an lstat and an open: this runs for
    // every search hit.
    fd = openSync(absPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    stat = fstatSync(fd);
    bytes = readToSize(fd, stat.size);
  } catch (error) {
    const code = systemErrorCode(error);
    return { ok: false, reason: code === 'ELOOP' ? 'is now a symlink (not followed)' : `cannot be read (${code ?? String(error)})` };
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (bytes.length > maxNoteBytes || bytes.subarray(0, READ_DEFAULTS.binarySniffBytes).indexOf(0) !== -1) return { ok: false, reason: 'not a readable note' };
  return { ok: true, text: lenientUtf8.decode(bytes), stat };
}

/** As `readFileSync(fd)` reads a file of a known size (up to it); a size of 0 (not reported) reads to the end. */
function readToSize(fd: number, size: number): Buffer {
  if (size === 0) return readFileSync(fd);
  const buffer = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const read = readSync(fd, buffer, at, size - at, null);
    if (read === 0) break;
    at += read;
  }
  return at < size ? buffer.subarray(0, at) : buffer;
}

/** Content identity used for change and move detection: sha256, first 128 bits, hex. */
export function hashContent(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
