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
