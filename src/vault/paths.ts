/**
 * Vault-relative paths. Paths are stored with `/` separators and their original spelling (for
 * display); identity uses the NFC form, because macOS may hand us NFD names for the same note.
 * Link matching is case-insensitive, as in Obsidian, so it also needs a lower-cased form.
 */

/** The identity of a vault-relative path: NFC, `/`-separated. Case is kept (Linux tells them apart). */
export function pathKey(path: string): string {
  return path.normalize('NFC');
}

/** The case-insensitive form used for link matching. */
export function foldPath(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

/** `Projects/Atlas/Overview.md` → `Overview.md`. */
export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** `Projects/Atlas/Overview.md` → `Projects/Atlas`; a root file → ``. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** True for `.md` files (any case of the extension). */
export function isNotePath(path: string): boolean {
  return /\.md$/i.test(path);
}

/** The file name without a `.md` extension: what a bare `[[link]]` names. */
export function noteName(path: string): string {
  return baseName(path).replace(/\.md$/i, '');
}

/** True when any segment starts with a dot (`.obsidian/…`, `a/.trash/b.md`). */
export function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
}

/**
 * Joins `folder` and a relative `path`, resolving `.` and `..`. Returns null when the result
 * would climb above the vault root.
 */
export function joinVaultPath(folder: string, path: string): string | null {
  const out: string[] = folder === '' ? [] : folder.split('/');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else {
      out.push(segment);
    }
  }
  return out.join('/');
}

/** Why a value cannot be an excluded folder, as a message finishes the sentence `… "X" ___`. */
export type ExcludedFolderProblem = 'names no folder' | 'is outside the vault' | 'is a drive path';

/**
 * An excluded folder as written (`./Archive/`, `/Archive`, `Work//Old`, `Work\Old`, ` Archive `)
 * read as the vault-relative folder it names (`Archive`, `Work/Old`): spaces around it trimmed,
 * backslashes read as `/`, a leading `/` as the vault's root (as Obsidian writes paths, and as
 * exclusions were always read), `.` and empty segments dropped, `..` resolved. A problem instead
 * when it names no folder inside the vault: nothing (`/`, `./`, `a/..`), above the root (`..`),
 * a Windows drive path (`C:\Notes`), which the walker would never match.
 */
export function excludedFolder(raw: string): { folder: string } | { problem: ExcludedFolderProblem } {
  const path = raw.trim().replace(/\\/g, '/');
  if (path.split('/').every((segment) => segment === '' || segment === '.')) return { problem: 'names no folder' };
  if (/^[A-Za-z]:/.test(path)) return { problem: 'is a drive path' };
  const folder = joinVaultPath('', path);
  if (folder === null) return { problem: 'is outside the vault' };
  return folder === '' ? { problem: 'names no folder' } : { folder };
}

/**
 * The excluded folders as the walker and the vector scope match paths against them: each read by
 * `excludedFolder`, case-folded. One naming no folder inside the vault is left out (the command
 * line refuses it before it gets here).
 */
export function excludedFolderKeys(folders: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const raw of folders) {
    const read = excludedFolder(raw);
    if ('folder' in read) keys.add(foldPath(read.folder));
  }
  return keys;
}
