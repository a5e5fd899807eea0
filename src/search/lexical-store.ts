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
  // SQLite assigns new ids inside the writing transaction, which holds the write lock: several
  // processes index the one database, so an id counted ahead in memory would collide with
  // another process's terms. Terms are never deleted, so an id once committed stays valid.
  let vocabulary = new Map<string, number>();
  /** An empty vocabulary at open: most terms are new, so insert first and look up on conflict. */
  let fresh = true;
  let findTerm: Database.Statement | null = null;
  let insertTerm: Database.Statement | null = null;
  let writeStats: Database.Statement | null = null;
  const find = (term: string) => findTerm!.get(term) as number | undefined;
  const insert = (term: string) => insertTerm!.get(term) as number | undefined;
  const idOf = (term: string): number => {
    let id = vocabulary.get(term);
    if (id === undefined) {
      id = fresh ? (insert(term) ?? find(term)) : (find(term) ?? insert(term));
      if (id === undefined) throw new Error(`the search term "${term}" could be neither found nor stored`);
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
      fresh = db.prepare('SELECT 1 FROM terms LIMIT 1').get() === undefined;
      findTerm = db.prepare('SELECT id FROM terms WHERE term = ?').pluck();
      insertTerm = db.prepare('INSERT INTO terms (term) VALUES (?) ON CONFLICT (term) DO NOTHING RETURNING id').pluck();
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
