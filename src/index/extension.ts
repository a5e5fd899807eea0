/**
 * What a higher layer derives from each note at index time (search term statistics now;
 * vectors and extraction backlogs later) plugs in here, so the index stays below the layers
 * that use it. Extensions run inside the same transaction as the note's own rows: a kill can
 * never leave a note indexed without its derived data.
 */
import type Database from 'better-sqlite3';
import type { Note } from '../vault/index.js';

export interface IndexExtension {
  /** Stable name; its version is kept in `meta` under `extension:<name>`. */
  readonly name: string;
  /** Changes whenever what is derived from a note changes: every note is then re-derived. */
  readonly version: string;
  /** Called once per run, before any write (load caches here). */
  open(db: Database.Database): void;
  /** A note was added, changed or moved; `text` is its full content. Rows cascade on delete. */
  noteWritten(noteId: number, note: Note, text: string): void;
}

export function extensionMetaKey(extension: IndexExtension): string {
  return `extension:${extension.name}`;
}
