/**
 * AJSON, Smart Connections' append-only log format: one `"<collection>:<item key>": <json>,`
 * per line, the value being a full snapshot of the item or `null` for a deletion. Parsing is
 * pure; `forEachLine` streams a file in chunks so a shard of tens of MB never becomes one string.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface AjsonEntry {
  /** The full key, e.g. `smart_sources:Notes/a:b #c.md`. */
  key: string;
  /** The parsed value; `null` is a tombstone. */
  value: unknown;
}

/**
 * One log line, read as the plugin reads it: trim, drop one trailing comma, the key is the first
 * JSON string (escape-aware, so it may hold `:`, `#`, `"`), the value is the JSON after the next
 * `:`. Returns null for a line that is not a record (blank, half-written, garbage).
 */
export function parseAjsonLine(line: string): AjsonEntry | null {
  const text = line.trim().replace(/,\s*$/, '');
  if (text === '' || !text.startsWith('"')) return null;
  let keyEnd = -1;
  for (let i = 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x5c /* \ */) {
      i++;
      continue;
    }
    if (ch === 0x22 /* " */) {
      keyEnd = i + 1;
      break;
    }
  }
  if (keyEnd === -1) return null;
  const colon = text.indexOf(':', keyEnd);
  if (colon === -1 || text.slice(keyEnd, colon).trim() !== '') return null;
  try {
    const key: unknown = JSON.parse(text.slice(0, keyEnd));
    if (typeof key !== 'string') return null;
    return { key, value: JSON.parse(text.slice(colon + 1)) as unknown };
  } catch {
    return null;
  }
}

export interface AjsonKey {
  /** `smart_sources`, `smart_blocks`, `embedding_models`, … (2.x class names mapped). */
  collection: string;
  item: string;
}

const CLASS_TO_COLLECTION: Record<string, string> = {
  SmartSource: 'smart_sources',
  SmartNote: 'smart_sources',
  SmartBlock: 'smart_blocks',
};

/** Splits a record key on its first `:` only: item keys (note paths) may contain `:`. */
export function splitAjsonKey(key: string): AjsonKey | null {
  const colon = key.indexOf(':');
  if (colon <= 0) return null;
  const prefix = key.slice(0, colon);
  return { collection: CLASS_TO_COLLECTION[prefix] ?? prefix, item: key.slice(colon + 1) };
}

/**
 * A whole 2.x `multi/*.ajson` file, parsed as the plugin does: the records wrapped in `{ }` and
 * parsed as one object (records can share a physical line; duplicates: last wins). The oldest
 * files have no trailing commas, so a second try adds one per line. When both fail (a torn
 * write), lines are read one by one and `damaged` counts the ones that could not be.
 */
export function parseLegacyAjson(text: string): { entries: AjsonEntry[]; damaged: number } {
  const body = text.trim().replace(/,\s*$/, '');
  if (body === '') return { entries: [], damaged: 0 };
  const asObject = (candidate: string): AjsonEntry[] | null => {
    try {
      const parsed: unknown = JSON.parse(`{${candidate}}`);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
      return Object.entries(parsed as Record<string, unknown>).map(([key, value]) => ({ key, value }));
    } catch {
      return null;
    }
  };
  const whole = asObject(body);
  if (whole) return { entries: whole, damaged: 0 };
  const lines = body.split('\n');
  const withCommas = asObject(
    lines
      .map((line) => (/,\s*$/.test(line) || line.trim() === '' ? line : `${line},`))
      .join('\n')
      .replace(/,\s*$/, ''),
  );
  if (withCommas) return { entries: withCommas, damaged: 0 };
  const entries: AjsonEntry[] = [];
  let damaged = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const entry = parseAjsonLine(line);
    if (entry) entries.push(entry);
    else damaged++;
  }
  return { entries, damaged };
}

export const AJSON_DEFAULTS = {
  /** Bytes read per system call while streaming a log; lines may be longer (372 KB seen). */
  chunkBytes: 1024 * 1024,
} as const;

/** Calls `onLine` for every line of a UTF-8 file (without its `\n`), reading it in chunks. */
export function forEachLine(path: string, onLine: (line: string) => void, chunkBytes: number = AJSON_DEFAULTS.chunkBytes): void {
  const fd = openSync(path, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(chunkBytes);
    // Pieces of a line longer than one chunk; searched once each, joined once.
    let pending: string[] = [];
    const take = (text: string): void => {
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const piece = text.slice(start, nl);
        onLine(pending.length === 0 ? piece : pending.join('') + piece);
        pending = [];
        start = nl + 1;
      }
      if (start < text.length) pending.push(text.slice(start));
    };
    for (;;) {
      const read = readSync(fd, buffer, 0, chunkBytes, null);
      if (read === 0) break;
      take(decoder.write(buffer.subarray(0, read)));
    }
    take(decoder.end());
    if (pending.length > 0) onLine(pending.join(''));
  } finally {
    closeSync(fd);
  }
}
