/**
 * Sync conflict copies: the files sync tools leave when two devices changed one note — Syncthing's
 * `Note.sync-conflict-20261201-153012-ABCDEFG.md`, a parenthesised conflict note (`Note
 * (conflict 2026-12-01).md`, Dropbox's `Note (Ana's conflicted copy 2026-12-01).md`, `Note
 * (Conflicted copy …)`), and the numbered copies iCloud and others make (`Note 2.md`) when the
 * copy carries its original's id. They are the human's to reconcile: health names each with its
 * original, and an id both share resolves to the original. Pure: paths in, originals out.
 */

export interface SyncConflict {
  /** The conflict copy's vault-relative path. */
  path: string;
  /** The note it is a copy of (same folder). */
  original: string;
  /** How it was recognised. */
  kind: 'syncthing' | 'conflicted copy' | 'numbered copy';
}

const SYNCTHING = /^(.*)\.sync-conflict-\d{8}-\d{6}(?:-[A-Za-z0-9]{7})?(\.md)$/i;
const PARENTHESISED = /^(.*?) \([^()]*\bconflict(?:ed)?\b[^()]*\)(\.md)$/i;
const NUMBERED = /^(.*) \d{1,2}(\.md)$/;

/**
 * The original a path's name says it is a conflict copy of, or null. A numbered copy (`Note
 * 2.md`) is only a candidate: `Chapter 2.md` is a note of its own, so `findSyncConflicts` keeps it
 * only when it and `Note.md` share a note id.
 */
export function conflictOriginalOf(path: string): { original: string; kind: SyncConflict['kind'] } | null {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const syncthing = SYNCTHING.exec(name);
  if (syncthing) return { original: `${folder}${syncthing[1]}${syncthing[2]}`, kind: 'syncthing' };
  const copy = PARENTHESISED.exec(name);
  if (copy) return { original: `${folder}${copy[1]}${copy[2]}`, kind: 'conflicted copy' };
  const numbered = NUMBERED.exec(name);
  if (numbered) return { original: `${folder}${numbered[1]}${numbered[2]}`, kind: 'numbered copy' };
  return null;
}

/**
 * The vault's conflict copies whose original exists: named as a conflict by a sync tool, or
 * numbered and sharing the original's note id. `idOf` gives a note's id (null when it has none).
 */
export function findSyncConflicts(paths: readonly string[], idOf: (path: string) => string | null): SyncConflict[] {
  const present = new Set(paths);
  const out: SyncConflict[] = [];
  for (const path of paths) {
    const found = conflictOriginalOf(path);
    if (found === null || !present.has(found.original) || found.original === path) continue;
    if (found.kind === 'numbered copy') {
      const id = idOf(path);
      if (id === null || id !== idOf(found.original)) continue;
    }
    out.push({ path, original: found.original, kind: found.kind });
  }
  return out;
}
