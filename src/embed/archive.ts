/**
 * Reading a model archive the user fetched elsewhere (`.tar.gz`, `.tgz`, `.tar`, `.zip`) into
 * memory, with every entry's path checked before anything is written: an absolute path, a `..`
 * segment, a link or a device is refused with the entry's name, so an archive can never write
 * outside the staging folder. Model archives are tens to hundreds of megabytes, so holding them
 * in memory is fine and keeps the readers pure (bytes in, entries out).
 */
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { EngramError } from '../errors.js';

export interface ArchiveEntry {
  /** Forward slashes, no leading `./`, never absolute, never containing `..`. */
  path: string;
  data: Buffer;
}

export type ArchiveKind = 'tar' | 'tar.gz' | 'zip';

export function archiveKind(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.zip')) return 'zip';
  return null;
}

/** The files of an archive (folders dropped); throws a USAGE error naming a bad entry. */
export function readArchive(bytes: Buffer, kind: ArchiveKind, name: string): ArchiveEntry[] {
  try {
    if (kind === 'zip') return readZip(bytes, name);
    return readTar(kind === 'tar.gz' ? gunzipSync(bytes) : bytes, name);
  } catch (error) {
    if (error instanceof EngramError) throw error;
    throw new EngramError('INVALID_INPUT', `${name} is not a readable ${kind} archive: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A safe relative path, or a thrown USAGE error: archives must not write outside their folder. */
export function safeEntryPath(raw: string, archive: string): string {
  const path = raw.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) throw new EngramError('INVALID_INPUT', `${archive} has an entry with an absolute path (${raw}); refusing to install from it`);
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw new EngramError('INVALID_INPUT', `${archive} has an entry that climbs out of its folder (${raw}); refusing to install from it`);
  return parts.join('/');
}

const BLOCK = 512;

function readTar(tar: Buffer, name: string): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  let offset = 0;
  let longName: string | null = null;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = parseOctal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] ?? 0);
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (data.length < size) throw new EngramError('INVALID_INPUT', `${name} is truncated (an entry runs past the end of the archive)`);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const prefix = cString(header.subarray(345, 500));
    const headerName = longName ?? (prefix ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)));
    longName = null;
    if (type === 'L') {
      longName = cString(data);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data);
      continue;
    }
    if (type === 'g' || type === '5') continue;
    if (type !== '0' && type !== '\0' && type !== '7') throw new EngramError('INVALID_INPUT', `${name} has an entry that is a link or a device (${headerName}); a model archive holds plain files only`);
    const path = safeEntryPath(headerName, name);
    if (path !== '') entries.push({ path, data: Buffer.from(data) });
  }
  return entries;
}

function parseOctal(field: Buffer): number {
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8');
}

/** The `path=` record of a pax extended header, or null. */
function paxPath(data: Buffer): string | null {
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
  return match ? match[1]! : null;
}

function readZip(zip: Buffer, name: string): ArchiveEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end === -1) throw new EngramError('INVALID_INPUT', `${name} is not a zip archive (no central directory; truncated?)`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (at === 0xffffffff) throw new EngramError('INVALID_INPUT', `${name} is a zip64 archive; repack it as .tar.gz`);
  const entries: ArchiveEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new EngramError('INVALID_INPUT', `${name} has a damaged central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const unixMode = zip.readUInt32LE(at + 38) >>> 16;
    const local = zip.readUInt32LE(at + 42);
    const entryName = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + skip;
    if ((unixMode & 0o170000) === 0o120000) throw new EngramError('INVALID_INPUT', `${name} has an entry that is a link (${entryName}); a model archive holds plain files only`);
    const path = safeEntryPath(entryName, name);
    if (path === '' || entryName.endsWith('/')) continue;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    if (raw.length < compressed) throw new EngramError('INVALID_INPUT', `${name} is truncated (${entryName} runs past the end)`);
    if (method !== 0 && method !== 8) throw new EngramError('INVALID_INPUT', `${name} compresses ${entryName} with method ${method}; only stored and deflate are read`);
    entries.push({ path, data: method === 0 ? Buffer.from(raw) : inflateRawSync(raw) });
  }
  return entries;
}
