/**
 * The text of the notes a search engine has read, kept while each file's stamp (size,
 * modification and change times, inode) is the one it had when read. A keyword search reads
 * its best notes for their passages on every query, and the same notes answer many queries:
 * one `lstat` replaces an open, an fstat, a read, a close and a decode (about half the read's
 * time where system calls are slow), and a note read for the first time costs what it did. A
 * file changed since — written in place, or replaced by a rename — has another stamp and is
 * read again, so an edit shows in the next search even before the index catches up, as it did
 * when every search read the file.
 */
import { lstatSync } from 'node:fs';
import { readNoteTextStamped, type readNoteText } from '../vault/index.js';
import type { NotePositions } from './positions.js';

/** Characters kept at most (16 MB of UTF-16): the candidates of many searches, not the vault. */
export const NOTE_TEXT_CACHE_CHARS = 8_000_000;

interface Kept {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  text: string;
  /** Its term positions, once searches have scored it twice (see `positionsOf`). */
  positions?: NotePositions;
  scored?: true;
}

export class NoteTexts {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  constructor(private readonly maxChars = NOTE_TEXT_CACHE_CHARS) {}

  /** `readNoteText`, from memory when the file is unchanged since it was last read here. */
  read(absPath: string): ReturnType<typeof readNoteText> {
    const kept = this.kept.get(absPath);
    if (kept !== undefined) {
      const stat = lstatSync(absPath, { throwIfNoEntry: false });
      if (stat !== undefined && stat.isFile() && kept.size === stat.size && kept.mtimeMs === stat.mtimeMs && kept.ctimeMs === stat.ctimeMs && kept.ino === stat.ino) return { ok: true, text: kept.text };
      this.forget(absPath, kept);
    }
    // A note not kept costs no stat: the stamp comes from the open file, so a read is no dearer than before.
    const read = readNoteTextStamped(absPath);
    if (!read.ok) return read;
    // A changed file is stamped as the bytes read, so a change during the read is seen next time.
    if (read.text.length <= this.maxChars) {
      // Bounded by dropping everything at the cap, as the engine's block rows are.
      if (this.chars + read.text.length > this.maxChars) this.clear();
      const { size, mtimeMs, ctimeMs, ino } = read.stat;
      this.kept.set(absPath, { size, mtimeMs, ctimeMs, ino, text: read.text });
      this.chars += read.text.length;
    }
    return { ok: true, text: read.text };
  }

  /**
   * The term positions of the text `read` gave for `absPath`, for a search that scores it:
   * undefined the first time (the search scans the text), made by `derive` the second time and
   * kept with the text while it is kept (they count against the cap: a token's eight bytes are
   * four characters). Deriving costs about two scans, so a note scored once — what a one-shot
   * `engram search` scores — never pays for them, and a note asked about again scores in a
   * fraction of a scan from then on. Undefined too for a text this cache does not hold.
   */
  positionsOf(absPath: string, text: string, derive: (text: string) => NotePositions | undefined): NotePositions | undefined {
    const kept = this.kept.get(absPath);
    if (kept === undefined || kept.text !== text) return undefined;
    if (kept.positions === undefined) {
      if (kept.scored === undefined) {
        kept.scored = true;
        return undefined;
      }
      // A search that has derived enough already gives none: scanned now, derived next time.
      kept.positions = derive(text);
      if (kept.positions === undefined) return undefined;
      this.chars += charsOf(kept.positions);
    }
    return kept.positions;
  }

  private forget(absPath: string, kept: Kept): void {
    this.kept.delete(absPath);
    this.chars -= kept.text.length + (kept.positions ? charsOf(kept.positions) : 0);
  }

  private clear(): void {
    this.kept.clear();
    this.chars = 0;
  }
}

/** What a note's positions hold, in UTF-16 characters (their one array's bytes / 2; the text is the kept one). */
function charsOf(positions: NotePositions): number {
  return positions.data.byteLength / 2;
}
