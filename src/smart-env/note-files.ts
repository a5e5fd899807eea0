/**
 * Finding and hashing the notes that Smart Connections records name. Record keys are compared
 * in NFC (macOS may hand the plugin NFD names); a key with `..`, an empty segment or a symlink
 * on the way is never followed, so a crafted log cannot make the reader open files outside the
 * vault. Content hashes follow the plugin: murmur of the text as read (smart-env 3 and late
 * 2.x), sha256 of the trimmed first 100,000 UTF-16 units (early 2.x `create_hash`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { systemErrorCode } from '../errors.js';
import { murmurHash32Alphanumeric } from './murmur.js';
import type { HashKind } from './records.js';

export const NOTE_FILES_DEFAULTS = {
  /** Notes larger than this are not read to check freshness; their vectors count as stale. */
  maxNoteBytes: 32 * 1024 * 1024,
} as const;

/** Locates notes under `root` by vault-relative path, NFC-insensitively, caching folder listings. */
export class NoteFiles {
  private readonly folders = new Map<string, Map<string, Dirent> | null>();

  constructor(private readonly root: string) {}

  /** The absolute path of a regular file at `path` (no symlinks on the way), or null. */
  locate(path: string): string | null {
    const segments = path.split('/');
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\\'))) return null;
    let dir = this.root;
    for (let i = 0; i < segments.length; i++) {
      const entry = this.entry(dir, segments[i]!);
      if (!entry) return null;
      const last = i === segments.length - 1;
      if (last ? !entry.isFile() : !entry.isDirectory()) return null;
      dir = join(dir, entry.name);
    }
    return dir;
  }

  private entry(dir: string, name: string): Dirent | null {
    let listing = this.folders.get(dir);
    if (listing === undefined) {
      try {
        listing = new Map();
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const key = entry.name.normalize('NFC');
          // An exact spelling wins over another spelling of the same NFC name.
          if (!listing.has(key) || entry.name === key) listing.set(key, entry);
        }
      } catch {
        // Gone, or unreadable (the vault walker reports those): either way no note here.
        listing = null;
      }
      this.folders.set(dir, listing);
    }
    return listing?.get(name.normalize('NFC')) ?? null;
  }
}

export type NoteText = { ok: true; text: string } | { ok: false; reason: string };

/** The note's text as the plugin reads it (UTF-8), or why it could not be read. */
export function readNoteText(absPath: string, maxBytes: number = NOTE_FILES_DEFAULTS.maxNoteBytes): NoteText {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absPath);
  } catch (error) {
    return { ok: false, reason: systemErrorCode(error) ?? 'error' };
  }
  if (bytes.length > maxBytes) return { ok: false, reason: 'too large' };
  return { ok: true, text: bytes.toString('utf8') };
}

/** The content hash of `text` in the record's scheme. */
export function contentHash(text: string, kind: HashKind): string {
  if (kind === 'sha256') {
    const cut = text.length > 100_000 ? text.slice(0, 100_000) : text;
    return createHash('sha256').update(cut.trim(), 'utf8').digest('hex');
  }
  return murmurHash32Alphanumeric(text);
}

/**
 * The text variant whose hash matches `expected`: as read, or without a leading BOM (whether
 * the plugin's read kept it is not known; accepting either costs one hash and only on a BOM).
 */
export function matchText(text: string, expected: string | null, kind: HashKind): { text: string; matches: boolean } {
  if (expected === null) return { text, matches: false };
  if (contentHash(text, kind) === expected) return { text, matches: true };
  if (text.charCodeAt(0) === 0xfeff) {
    const bare = text.slice(1);
    if (contentHash(bare, kind) === expected) return { text: bare, matches: true };
  }
  return { text, matches: false };
}

/** Lines `start`..`end` (1-based, inclusive) joined with `\n`; null when the note is shorter. */
export function sliceLines(lines: readonly string[], range: readonly [number, number]): string | null {
  const [start, end] = range;
  if (end > lines.length) return null;
  return lines.slice(start - 1, end).join('\n');
}
