/**
 * Walking the vault: every `.md` note and every other file (attachments, which links may point
 * at), skipping dot-folders, configured exclusions and symlinks. Symlinks are never followed:
 * one pointing outside would leak files that are not the vault's, one pointing inside would
 * index the same note twice, and a loop would never end.
 */
import { lstatSync, readdirSync, realpathSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { systemErrorCode } from '../errors.js';
import { FORBIDDEN_CHARS } from './note-path.js';
import { excludedFolderKeys, foldPath, isNotePath, pathKey } from './paths.js';

/**
 * Why a file or folder with a control character in its name (a line break, a bidi override) is
 * not indexed: no tool accepts such a path, so a search must not return one.
 */
const UNSAFE_NAME = 'name contains a control character (such as a line break); rename it to index it';

export interface DiskEntry {
  /** Vault-relative, `/`-separated, original spelling. */
  path: string;
  /** NFC identity of `path`. */
  key: string;
  kind: 'note' | 'attachment';
  mtimeMs: number;
  size: number;
}

export interface Skipped {
  path: string;
  reason: string;
}

export interface WalkOptions {
  /** Vault-relative folder paths to leave out with everything below them (case-insensitive): `Archive`, `Work/Old`, read by `excludedFolder` (`./Archive/` is `Archive`). */
  exclude?: readonly string[];
}

export interface WalkResult {
  entries: DiskEntry[];
  skipped: Skipped[];
}

/** Lists the vault. `root` must be an existing directory (checked by the caller). */
export function walkVault(root: string, options: WalkOptions = {}): WalkResult {
  const realRoot = realpathSync(root);
  const exclude = excludedFolderKeys(options.exclude ?? []);
  const entries: DiskEntry[] = [];
  const skipped: Skipped[] = [];
  const byKey = new Map<string, string>();

  const visit = (dir: string, relDir: string): void => {
    let children: Dirent[];
    try {
      children = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (relDir !== '') skipped.push({ path: relDir, reason: `folder cannot be read (${systemErrorCode(error) ?? 'error'})` });
      return;
    }
    for (const child of children) {
      const name = child.name;
      if (name.startsWith('.')) continue;
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      const abs = join(dir, name);
      if (FORBIDDEN_CHARS.test(name)) {
        skipped.push({ path: rel, reason: UNSAFE_NAME });
        continue;
      }
      if (child.isSymbolicLink()) {
        const reason = symlinkReason(abs, realRoot);
        if (reason) skipped.push({ path: rel, reason });
        continue;
      }
      if (child.isDirectory()) {
        if (!exclude.has(foldPath(rel))) visit(abs, rel);
        continue;
      }
      if (!child.isFile()) continue;
      let stat;
      try {
        stat = lstatSync(abs);
      } catch (error) {
        const code = systemErrorCode(error);
        if (code !== 'ENOENT') skipped.push({ path: rel, reason: `cannot be read (${code ?? 'error'})` });
        continue;
      }
      const key = pathKey(rel);
      const twin = byKey.get(key);
      if (twin !== undefined) {
        skipped.push({ path: rel, reason: `same name as "${twin}" after Unicode normalization; rename one of them` });
        continue;
      }
      byKey.set(key, rel);
      entries.push({ path: rel, key, kind: isNotePath(name) ? 'note' : 'attachment', mtimeMs: Math.trunc(stat.mtimeMs), size: stat.size });
    }
  };

  visit(realRoot, '');
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, skipped };
}

/** Why a symlink was skipped, or null for symlinks to non-note files (not worth a line). */
function symlinkReason(abs: string, realRoot: string): string | null {
  let target: string;
  try {
    target = realpathSync(abs);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ELOOP') return 'symlink loop (not followed)';
    return isNotePath(abs) ? 'broken symlink (not followed)' : null;
  }
  const inside = target === realRoot || (!relative(realRoot, target).startsWith('..') && !relative(realRoot, target).startsWith(sep));
  let isDir: boolean;
  try {
    isDir = lstatSync(target).isDirectory();
  } catch {
    return null;
  }
  if (!isDir && !isNotePath(abs)) return null;
  return inside ? 'symlink inside the vault (not followed; its target is indexed at its own path)' : 'symlink to outside the vault (not followed)';
}

export type PathStat = { found: true; entry: DiskEntry } | { found: false; skipped: Skipped | null };

/**
 * One vault-relative path, under the same rules as `walkVault` (dot segments, exclusions,
 * symlinks anywhere on the way, folders): what a watcher event or a targeted re-index needs
 * without listing the whole vault. `skipped` is null when the path simply does not exist or is
 * not a file Engram tracks.
 */
export function statVaultPath(realRoot: string, path: string, options: WalkOptions = {}): PathStat {
  const rel = path.replace(/\\/g, '/').replace(/^\/+/, '');
  const segments = rel.split('/');
  if (rel === '' || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return { found: false, skipped: null };
  if (segments.some((segment) => segment.startsWith('.'))) return { found: false, skipped: null };
  if (FORBIDDEN_CHARS.test(rel)) return { found: false, skipped: { path: rel, reason: UNSAFE_NAME } };
  const excluded = excludedFolderKeys(options.exclude ?? []);
  for (let i = 1; i < segments.length; i++) {
    if (excluded.has(foldPath(segments.slice(0, i).join('/')))) return { found: false, skipped: null };
  }
  const abs = join(realRoot, ...segments);
  // A symlinked folder on the way would make this path a back door out of the vault.
  try {
    const parent = realpathSync(join(realRoot, ...segments.slice(0, -1)));
    if (parent !== join(realRoot, ...segments.slice(0, -1))) return { found: false, skipped: { path: rel, reason: 'inside a symlinked folder (not followed)' } };
  } catch {
    return { found: false, skipped: null };
  }
  let stat;
  try {
    stat = lstatSync(abs);
  } catch (error) {
    const code = systemErrorCode(error);
    return { found: false, skipped: code === 'ENOENT' || code === 'ENOTDIR' ? null : { path: rel, reason: `cannot be read (${code ?? 'error'})` } };
  }
  if (stat.isSymbolicLink()) {
    const reason = symlinkReason(abs, realRoot);
    return { found: false, skipped: reason ? { path: rel, reason } : null };
  }
  if (!stat.isFile()) return { found: false, skipped: null };
  const entry: DiskEntry = { path: rel, key: pathKey(rel), kind: isNotePath(rel) ? 'note' : 'attachment', mtimeMs: Math.trunc(stat.mtimeMs), size: stat.size };
  return { found: true, entry };
}
