/**
 * The keyword lane's persistent half: an index extension that writes each note's term
 * statistics (in the note's own transaction), and the loader that reads them back.
 */
import type Database from 'better-sqlite3';
import type { IndexExtension } from '../index/index.js';
import type { Note } from '../vault/index.js';
import { FIELDS, noteFieldTexts } from './fields.js';
import { DETECTION_VERSION, LANGUAGES, noteLanguage, type Language } from './language.js';
import { decodeTermStats, encodeTermStats, StatsArena, TermCounter, type TermStats } from './term-stats.js';
import { createTokenizer, tokenizerSignature, unionTokenizer, type Tokenizer, type TokenizerOptions } from './tokenizer.js';

/** Bump when fields or their text change: stored statistics are then rebuilt. */
const FIELDS_VERSION = 2;

export function lexicalExtension(options: Partial<TokenizerOptions> = {}): IndexExtension {
  // One tokenizer per language, made when a note in it first comes: an English vault never
  // loads a Snowball stemmer.
  const tokenizers = new Map<Language, Tokenizer>();
  const tokenizerOf = (language: Language): Tokenizer => {
    let tokenizer = tokenizers.get(language);
    if (!tokenizer) tokenizers.set(language, (tokenizer = createTokenizer({ ...options, language })));
    return tokenizer;
  };
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
  // A counter per language: each caches its words' term ids, and a word's ids depend on the language.
  let counters = new Map<Language, TermCounter>();
  const counterOf = (language: Language): TermCounter => {
    let counter = counters.get(language);
    if (!counter) counters.set(language, (counter = new TermCounter(tokenizerOf(language), idOf)));
    return counter;
  };
  let writeLanguage: Database.Statement | null = null;
  return {
    name: 'search',
    version: `${FIELDS_VERSION}:${FIELDS.join(',')}:${tokenizerSignature(options)}:${LANGUAGES.join(',')}/${DETECTION_VERSION}`,
    open(db) {
      // Cached ids belong to one database and one run: start both caches afresh.
      vocabulary = new Map();
      counters = new Map();
      // The table comes with the extension (not a schema migration): only this lane reads it,
      // and a state dir indexed before languages were told apart gets it on its next index,
      // the same run that re-derives every note (the version above changed).
      db.exec(`CREATE TABLE IF NOT EXISTS note_languages (
        note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
        language TEXT NOT NULL
      )`);
      writeLanguage = db.prepare('INSERT OR REPLACE INTO note_languages (note_id, language) VALUES (?, ?)');
      fresh = db.prepare('SELECT 1 FROM terms LIMIT 1').get() === undefined;
      findTerm = db.prepare('SELECT id FROM terms WHERE term = ?').pluck();
      insertTerm = db.prepare('INSERT INTO terms (term) VALUES (?) ON CONFLICT (term) DO NOTHING RETURNING id').pluck();
      writeStats = db.prepare('INSERT OR REPLACE INTO note_terms (note_id, stats) VALUES (?, ?)');
    },
    noteWritten(noteId: number, note: Note, text: string) {
      const fields = noteFieldTexts(note, text);
      // A language given in the options is every note's (a vault known to be in one language).
      const language = options.language ?? noteLanguage(note, fields.body);
      const stats = counterOf(language).count(fields);
      writeStats!.run(noteId, encodeTermStats(stats));
      writeLanguage!.run(noteId, language);
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
  const arena = new StatsArena();
  for (const [noteId, blob] of db.prepare('SELECT note_id, stats FROM note_terms ORDER BY note_id').raw().iterate() as IterableIterator<[number, Buffer]>) {
    notes.push({ noteId, stats: decodeTermStats(blob, arena) });
  }
  return { vocabulary, notes };
}

/**
 * The languages of the vault's notes, most notes first (English when none is stored: a state
 * dir indexed before languages were told apart, whose notes were all read as English).
 */
export function loadLanguages(db: Database.Database): Language[] {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'note_languages'").get();
  if (table === undefined) return ['en'];
  const rows = db.prepare('SELECT language FROM note_languages GROUP BY language ORDER BY count(*) DESC, language').pluck().all() as string[];
  const known = rows.filter((language): language is Language => (LANGUAGES as readonly string[]).includes(language));
  return known.length === 0 ? ['en'] : known;
}

/**
 * The search side's tokenizer for an indexed vault: every language its notes are in, as one
 * (see unionTokenizer). An English vault gets exactly the English tokenizer.
 */
export function vaultTokenizer(db: Database.Database, options: Partial<TokenizerOptions> = {}): Tokenizer {
  return unionTokenizer(loadLanguages(db).map((language) => createTokenizer({ ...options, language })));
}
