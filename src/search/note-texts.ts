/**
 * The text of the notes a search engine has read, kept while each file's stamp (size,
 * modification and change times, inode) is the one it had when read. A keyword search reads
 * its best notes for their passages on every query, and the same notes answer many queries:
 * one `lstat` replaces an open, an fstat, a read, a close and a decode (about half the read's
 * time where system calls are slow). A file changed since — written in place, or replaced by a
 * rename — has another stamp and is read again, so an edit shows in the next search even before
 * the index catches up, as it did when every search read the file.
 */
import { lstatSync } from 'node:fs';
import { readNoteText } from '../vault/index.js';

/** Characters kept at most (16 MB of UTF-16): the candidates of many searches, not the vault. */
export const NOTE_TEXT_CACHE_CHARS = 8_000_000;

interface Kept {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  text: string;
}

export class NoteTexts {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  constructor(private readonly maxChars = NOTE_TEXT_CACHE_CHARS) {}

  /** `readNoteText`, from memory when the file is unchanged since it was last read here. */
  read(absPath: string): ReturnType<typeof readNoteText> {
    // Stamped before reading: a change during the read leaves an older stamp, so it is read again next time.
    const stat = lstatSync(absPath, { throwIfNoEntry: false });
    const kept = this.kept.get(absPath);
    if (stat !== undefined && kept !== undefined && stat.isFile() && kept.size === stat.size && kept.mtimeMs === stat.mtimeMs && kept.ctimeMs === stat.ctimeMs && kept.ino === stat.ino) {
      return { ok: true, text: kept.text };
    }
    if (kept !== undefined) this.forget(absPath, kept);
    const read = readNoteText(absPath);
    // A symlink or a file that is not a note is refused by the read each time, never kept.
    if (read.ok && stat !== undefined && stat.isFile() && read.text.length <= this.maxChars) {
      // Bounded by dropping everything at the cap, as the engine's block rows are.
      if (this.chars + read.text.length > this.maxChars) this.clear();
      this.kept.set(absPath, { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, text: read.text });
      this.chars += read.text.length;
    }
    return read;
  }

  private forget(absPath: string, kept: Kept): void {
    this.kept.delete(absPath);
    this.chars -= kept.text.length;
  }

  private clear(): void {
    this.kept.clear();
    this.chars = 0;
  }
}
