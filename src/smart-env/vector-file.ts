/**
 * `mf_*` vector files: raw little-endian float32, no header, one row of `dims` values per
 * vector. `smart_sources/mf_x` and `smart_blocks/mf_x` are unrelated files with their own row
 * numbers, so open files are cached by `collection/file`. Rows are read one by one (the files
 * only grow between compactions and are mostly garbage rows) and copied out: a Float32Array
 * view over a Buffer throws when the Buffer's offset is not a multiple of 4.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { systemErrorCode } from '../errors.js';

/** Decodes `dims` little-endian float32 values at `offset`, whatever the buffer's alignment. */
export function decodeFloat32LE(bytes: Uint8Array, offset: number, dims: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(dims);
  for (let i = 0; i < dims; i++) out[i] = view.getFloat32(offset + i * 4, true);
  return out;
}

export type RowResult = { ok: true; vector: Float32Array } | { ok: false; reason: 'missing-file' | 'bad-file' | 'bad-pointer' | 'past-eof' | 'not-finite' };

interface OpenFile {
  fd: number | null;
  size: number;
}

/** A vector file name as the plugin writes it; anything else (a path, `..`) is refused. */
export function isVectorFileName(name: unknown): name is string {
  return typeof name === 'string' && /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(name) && !/\.(tmp|bak|backup)$/.test(name);
}

export class VectorFiles {
  private readonly open = new Map<string, OpenFile>();
  /** Files opened whose length is not a whole number of rows (a torn append). */
  readonly partial = new Set<string>();

  constructor(
    private readonly dataDir: string,
    private readonly dims: number,
  ) {}

  /** Row `row` of `<collection>/<file>`, copied. */
  read(collection: string, file: unknown, row: unknown): RowResult {
    if (!isVectorFileName(file)) return { ok: false, reason: 'bad-pointer' };
    if (typeof row !== 'number' || !Number.isInteger(row) || row < 0) return { ok: false, reason: 'bad-pointer' };
    const handle = this.handle(collection, file);
    if (handle.fd === null) return { ok: false, reason: 'missing-file' };
    // The plugin refuses a file whose length is not a whole number of float32 values.
    if (handle.size % 4 !== 0) return { ok: false, reason: 'bad-file' };
    const rowBytes = this.dims * 4;
    if ((row + 1) * rowBytes > handle.size) return { ok: false, reason: 'past-eof' };
    const buffer = Buffer.allocUnsafe(rowBytes);
    const got = readSync(handle.fd, buffer, 0, rowBytes, row * rowBytes);
    if (got !== rowBytes) return { ok: false, reason: 'past-eof' };
    const vector = decodeFloat32LE(buffer, 0, this.dims);
    for (const value of vector) if (!Number.isFinite(value)) return { ok: false, reason: 'not-finite' };
    return { ok: true, vector };
  }

  close(): void {
    for (const handle of this.open.values()) if (handle.fd !== null) closeSync(handle.fd);
    this.open.clear();
  }

  private handle(collection: string, file: string): OpenFile {
    const id = `${collection}/${file}`;
    let handle = this.open.get(id);
    if (!handle) {
      handle = { fd: null, size: 0 };
      try {
        const fd = openSync(join(this.dataDir, collection, file), 'r');
        const stat = fstatSync(fd);
        if (stat.isFile()) {
          handle = { fd, size: stat.size };
          if (stat.size % (this.dims * 4) !== 0) this.partial.add(id);
        } else {
          closeSync(fd);
        }
      } catch (error) {
        const code = systemErrorCode(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') throw error;
      }
      this.open.set(id, handle);
    }
    return handle;
  }
}
