/**
 * Sync conflict copies: the files sync tools leave when two devices changed one note — Syncthing's
 * `Note.sync-conflict-20261201-153012-ABCDEFG.md`, a parenthesised conflict note (`Note
 * (conflict 2026-12-01).md`, Dropbox's `Note (Ana's conflicted copy 2026-12-01).md`, Obsidian
 * Sync's and Nextcloud's `Note (Conflicted copy …)`), and the numbered copies iCloud and others
 * make (`Note 2.md`) when the copy carries its original's id. They are the human's to reconcile:
 * health names each with its original, and an id both share resolves to the original.
 *
 * Also here: files a sync is still writing or has not downloaded (`partialOriginalOf`), and notes
 * a git merge left conflict markers in (`hasMergeConflictMarkers`). Pure: names and text in,
 * originals and verdicts out.
 */

export interface SyncConflict {
  /** The conflict copy's vault-relative path. */
  path: string;
  /** The note it is a copy of (same folder). */
  original: string;
  /** How it was recognised. */
  kind: 'syncthing' | 'conflicted copy' | 'numbered copy' | 'temporary copy';
}

const SYNCTHING = /^(.*)\.sync-conflict-\d{8}-\d{6}(?:-[A-Za-z0-9]{7})?(\.md)$/i;
const PARENTHESISED = /^(.*?) \([^()]*\bconflict(?:ed)?\b[^()]*\)(\.md)$/i;
const NUMBERED = /^(.*) \d{1,2}(\.md)$/;
/** Microsoft Office's owner file beside an open document (`~$Note.md`): a few bytes, never the note. */
const OFFICE_OWNER = /^~\$(.+\.md)$/i;

/**
 * The original a path's name says it is a conflict copy of, or null. A numbered copy (`Note
 * 2.md`) is only a candidate: `Chapter 2.md` is a note of its own, so `findSyncConflicts` keeps it
 * only when it and `Note.md` share a note id.
 */
export function conflictOriginalOf(path: string): { original: string; kind: SyncConflict['kind'] } | null {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const owner = OFFICE_OWNER.exec(name);
  if (owner) return { original: `${folder}${owner[1]}`, kind: 'temporary copy' };
  const syncthing = SYNCTHING.exec(name);
  if (syncthing) return { original: `${folder}${syncthing[1]}${syncthing[2]}`, kind: 'syncthing' };
  const copy = PARENTHESISED.exec(name);
  if (copy) return { original: `${folder}${copy[1]}${copy[2]}`, kind: 'conflicted copy' };
  const numbered = NUMBERED.exec(name);
  if (numbered) return { original: `${folder}${numbered[1]}${numbered[2]}`, kind: 'numbered copy' };
  return null;
}

/** Whether the name alone says a sync tool made this file as a conflict copy (numbered copies need their ids). */
export function isNamedConflictCopy(path: string): boolean {
  const kind = conflictOriginalOf(path)?.kind;
  return kind !== undefined && kind !== 'numbered copy';
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

/** A file a sync tool is still writing, or one it has not downloaded: never a note of its own. */
export interface PartialFile {
  path: string;
  /** The note it stands for (same folder). */
  original: string;
  /** Whose naming, and what it means for the note. */
  kind: 'icloud placeholder' | 'syncthing temporary' | 'resilio partial' | 'download partial' | 'temporary';
}

/*
 * The names, from the tools' own conventions: iCloud keeps an evicted file as `.Note.md.icloud`
 * (the note itself is not on this device until opened); Syncthing writes `.syncthing.Note.md.tmp`
 * (`~syncthing~Note.md.tmp` on Windows) and renames it when complete; Resilio/BitTorrent Sync
 * writes `Note.md.!sync`; browsers and Dropbox-style clients leave `.part`, `.partial`,
 * `.crdownload` and `.download`; editors and other tools `.tmp`.
 */
const PARTIAL: readonly [RegExp, PartialFile['kind']][] = [
  [/^\.(.+\.md)\.icloud$/i, 'icloud placeholder'],
  [/^(?:\.syncthing\.|~syncthing~)(.+\.md)\.tmp$/i, 'syncthing temporary'],
  [/^(.+\.md)\.!sync$/i, 'resilio partial'],
  [/^(.+\.md)\.(?:part|partial|crdownload|download)$/i, 'download partial'],
  [/^(.+\.md)\.(?:tmp|temp)$/i, 'temporary'],
];

/** The note a partially-synced or temporary file's name stands for, or null. */
export function partialOriginalOf(path: string): Omit<PartialFile, 'path'> | null {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  for (const [pattern, kind] of PARTIAL) {
    const match = pattern.exec(name);
    if (match) return { original: `${folder}${match[1]}`, kind };
  }
  return null;
}

/**
 * Whether a note holds an unresolved git merge: a `<<<<<<< ` line, then `=======`, then a
 * `>>>>>>> ` line, each at a line start and outside code fences (a note *about* git may show
 * them in a fence). Such a note holds both sides of the conflict; writing it, or reading facts
 * from it, would make one side's text look settled.
 */
export function hasMergeConflictMarkers(text: string): boolean {
  if (!text.includes('<<<<<<<')) return false;
  let fence: string | null = null;
  let stage = 0;
  for (const line of text.split(/\r?\n/)) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opener) {
      if (fence === null) fence = opener[1]!;
      else if (opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    if (stage === 0 && /^<{7}(?: |$)/.test(line)) stage = 1;
    else if (stage === 1 && /^={7}\s*$/.test(line)) stage = 2;
    else if (stage === 2 && /^>{7}(?: |$)/.test(line)) return true;
  }
  return false;
}
