/**
 * The keyword lane's persistent half: an index extension that writes each note's term
 * statistics (in the note's own transaction), and the loader that reads them back.
 */
import type Database from 'better-sqlite3';
import type { IndexExtension } from '../index/index.js';
import type { Note } from '../vault/index.js';
import { FIELDS, noteFieldTexts } from './fields.js';
import { decodeTermStats, encodeTermStats, TermCounter, type TermStats } from './term-stats.js';
import { createTokenizer, tokenizerSignature, type TokenizerOptions } from './tokenizer.js';

/** Bump when fields or their text change: stored statistics are then rebuilt. */
const FIELDS_VERSION = 1;

export function lexicalExtension(options: Partial<TokenizerOptions> = {}): IndexExtension {
  const tokenize = createTokenizer(options);
  // The vocabulary is read lazily, term by term: re-indexing one note then costs its own ~150
  // look-ups instead of loading every term of the vault (which tripled a one-note update).
  let vocabulary = new Map<string, number>();
  let nextId = 1;
  let firstId = 1;
  let findTerm: Database.Statement | null = null;
  let insertTerm: Database.Statement | null = null;
  let writeStats: Database.Statement | null = null;
  const idOf = (term: string): number => {
    let id = vocabulary.get(term);
    if (id === undefined) {
      // An index built from empty has every stored term in `vocabulary` already: no look-up.
      id = firstId === 1 ? undefined : (findTerm!.pluck().get(term) as number | undefined);
      if (id === undefined) insertTerm!.run((id = nextId++), term);
      vocabulary.set(term, id);
    }
    return id;
  };
  let counter = new TermCounter(tokenize, idOf);
  return {
    name: 'search',
    version: `${FIELDS_VERSION}:${FIELDS.join(',')}:${tokenizerSignature(options)}`,
    open(db) {
      // Cached ids belong to one database and one run: start both caches afresh.
      vocabulary = new Map();
      counter = new TermCounter(tokenize, idOf);
      firstId = nextId = ((db.prepare('SELECT max(id) FROM terms').pluck().get() as number | null) ?? 0) + 1;
      findTerm = db.prepare('SELECT id FROM terms WHERE term = ?');
      insertTerm = db.prepare('INSERT INTO terms (id, term) VALUES (?, ?)');
      writeStats = db.prepare('INSERT OR REPLACE INTO note_terms (note_id, stats) VALUES (?, ?)');
    },
    noteWritten(noteId: number, note: Note, text: string) {
      const stats = counter.count(noteFieldTexts(note, text));
      writeStats!.run(noteId, encodeTermStats(stats));
    },
  };
}

export interface StoredNoteStats {
  noteId: number;
  stats: TermStats;
}

/** Every note's statistics and the vocabulary (id → term). */
export function loadTermStats(db: Database.Database): { vocabulary: Map<string, number>; notes: StoredNoteStats[] } {
  const vocabulary = new Map<string, number>();
  for (const [id, term] of db.prepare('SELECT id, term FROM terms').raw().iterate() as IterableIterator<[number, string]>) vocabulary.set(term, id);
  const notes: StoredNoteStats[] = [];
  for (const [noteId, blob] of db.prepare('SELECT note_id, stats FROM note_terms ORDER BY note_id').raw().iterate() as IterableIterator<[number, Buffer]>) {
    notes.push({ noteId, stats: decodeTermStats(blob) });
  }
  return { vocabulary, notes };
}
