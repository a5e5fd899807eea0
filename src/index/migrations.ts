/**
 * Schema migrations: named, ordered, each applied in one transaction together with its record
 * in `migrations`. Never edit a migration that has shipped; add the next one.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '001-notes-blocks-links',
    up(db) {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE notes (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL,
          path_key TEXT NOT NULL UNIQUE,
          name_key TEXT NOT NULL,
          title TEXT NOT NULL,
          type TEXT,
          aliases TEXT NOT NULL,
          frontmatter TEXT,
          hash TEXT NOT NULL,
          mtime_ms INTEGER NOT NULL,
          size INTEGER NOT NULL,
          word_count INTEGER NOT NULL,
          line_count INTEGER NOT NULL,
          warnings TEXT
        );
        CREATE INDEX notes_name ON notes(name_key);
        CREATE INDEX notes_hash ON notes(hash);
        CREATE TABLE blocks (
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,
          key TEXT NOT NULL,
          heading_path TEXT NOT NULL,
          level INTEGER NOT NULL,
          line_start INTEGER NOT NULL,
          line_end INTEGER NOT NULL,
          body_end INTEGER NOT NULL,
          PRIMARY KEY (note_id, ord)
        ) WITHOUT ROWID;
        CREATE TABLE links (
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          ord INTEGER NOT NULL,
          kind TEXT NOT NULL,
          target TEXT NOT NULL,
          subpath TEXT,
          display TEXT,
          line INTEGER NOT NULL,
          target_name TEXT NOT NULL,
          resolved_path TEXT,
          resolved_kind TEXT,
          resolve_pending INTEGER NOT NULL DEFAULT 1,
          PRIMARY KEY (note_id, ord)
        ) WITHOUT ROWID;
        CREATE INDEX links_target_name ON links(target_name);
        CREATE INDEX links_resolved ON links(resolved_path);
        CREATE INDEX links_pending ON links(resolve_pending) WHERE resolve_pending = 1;
        CREATE TABLE tags (
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          tag TEXT NOT NULL,
          PRIMARY KEY (note_id, tag)
        ) WITHOUT ROWID;
        CREATE INDEX tags_tag ON tags(tag);
        CREATE TABLE tasks (
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          line INTEGER NOT NULL,
          status TEXT NOT NULL,
          text TEXT NOT NULL,
          due TEXT, scheduled TEXT, start TEXT, created TEXT, done TEXT, cancelled TEXT,
          priority TEXT, recurrence TEXT,
          PRIMARY KEY (note_id, line)
        ) WITHOUT ROWID;
        CREATE INDEX tasks_due ON tasks(due) WHERE due IS NOT NULL;
        CREATE TABLE attachments (
          path_key TEXT PRIMARY KEY,
          path TEXT NOT NULL,
          name_key TEXT NOT NULL,
          mtime_ms INTEGER NOT NULL,
          size INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX attachments_name ON attachments(name_key);
        -- File names whose set of paths changed: links naming them must be resolved again.
        CREATE TABLE dirty_names (name_key TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE TABLE skipped (path TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;
      `);
    },
  },
  {
    name: '002-search-terms',
    up(db) {
      db.exec(`
        -- The search vocabulary: term ids are stable, so per-note statistics can be stored as ids.
        CREATE TABLE terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
        -- Per-note term statistics for the keyword ranker, written with the note (search/lexical-store.ts
        -- has the encoding), so start-up never re-tokenizes the vault.
        CREATE TABLE note_terms (
          note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
          stats BLOB NOT NULL
        );
      `);
    },
  },
  {
    name: '003-vectors',
    up(db) {
      db.exec(`
        -- One vector per note ('' block key) or block, per model. content_hash is the note's hash
        -- when the vector was made: a vector whose note has changed since is stale and never served.
        -- A rowid table, not WITHOUT ROWID: with 1.5 KB rows the latter read 60k vectors in 665 ms,
        -- this in 145 ms (SQLite advises WITHOUT ROWID only for small rows).
        CREATE TABLE vectors (
          id INTEGER PRIMARY KEY,
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          block_key TEXT NOT NULL,
          model TEXT NOT NULL,
          source TEXT NOT NULL CHECK (source IN ('smart-connections', 'local')),
          content_hash TEXT NOT NULL,
          vector BLOB NOT NULL,
          UNIQUE (note_id, block_key, model)
        );
        -- Local embeddings by what was embedded (input text hash, model, input-prep version), so
        -- an unchanged input is never embedded twice.
        CREATE TABLE embed_cache (
          id INTEGER PRIMARY KEY,
          input_hash TEXT NOT NULL,
          model TEXT NOT NULL,
          prep TEXT NOT NULL,
          vector BLOB NOT NULL,
          UNIQUE (input_hash, model, prep)
        );
      `);
    },
  },
  {
    name: '004-write-journal',
    up(db) {
      db.exec(`
        -- Every write Engram makes into the vault, with what it replaced, so it can be undone.
        CREATE TABLE journal (
          id INTEGER PRIMARY KEY,
          run_id TEXT NOT NULL,
          tool TEXT NOT NULL,
          path TEXT NOT NULL,
          before_hash TEXT,
          after_hash TEXT NOT NULL,
          before_bytes BLOB,
          at TEXT NOT NULL,
          undone_at TEXT
        );
        CREATE INDEX journal_path ON journal(path);
        -- Writes outside the agent territory wait here between preview and apply.
        CREATE TABLE previews (
          token TEXT PRIMARY KEY,
          tool TEXT NOT NULL,
          path TEXT NOT NULL,
          before_hash TEXT,
          after_bytes BLOB NOT NULL,
          expires_ms INTEGER NOT NULL,
          used_ms INTEGER
        );
      `);
    },
  },
  {
    name: '005-graph',
    up(db) {
      db.exec(`
        -- Entities by (normalized name, type); their markdown notes are the source of truth for
        -- humans, these rows the cache for traversal. dirty = its note must be regenerated.
        CREATE TABLE entities (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          norm TEXT NOT NULL,
          type TEXT NOT NULL,
          note_path TEXT NOT NULL,
          created TEXT NOT NULL,
          updated TEXT NOT NULL,
          dirty INTEGER NOT NULL DEFAULT 1,
          UNIQUE (norm, type)
        );
        CREATE TABLE entity_aliases (
          entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          alias TEXT NOT NULL,
          norm TEXT NOT NULL,
          PRIMARY KEY (entity_id, norm)
        ) WITHOUT ROWID;
        CREATE INDEX entity_aliases_norm ON entity_aliases(norm);
        -- What each note asserted: retracted exactly when the note changes, moves or goes.
        CREATE TABLE mentions (
          entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          evidence TEXT NOT NULL,
          PRIMARY KEY (entity_id, note_id)
        ) WITHOUT ROWID;
        CREATE INDEX mentions_note ON mentions(note_id);
        CREATE TABLE relations (
          from_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          to_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          relation TEXT NOT NULL,
          note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
          evidence TEXT NOT NULL,
          PRIMARY KEY (from_id, to_id, relation, note_id)
        ) WITHOUT ROWID;
        CREATE INDEX relations_note ON relations(note_id);
        CREATE INDEX relations_to ON relations(to_id);
        CREATE TRIGGER mentions_gone AFTER DELETE ON mentions BEGIN UPDATE entities SET dirty = 1 WHERE id = OLD.entity_id; END;
        CREATE TRIGGER relations_gone AFTER DELETE ON relations BEGIN UPDATE entities SET dirty = 1 WHERE id IN (OLD.from_id, OLD.to_id); END;
        -- One row per note: what was extracted from which content with which backend.
        CREATE TABLE extractions (
          note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
          note_hash TEXT NOT NULL,
          backend TEXT NOT NULL,
          model TEXT NOT NULL,
          prompt_version TEXT NOT NULL,
          status TEXT NOT NULL,
          attempts INTEGER NOT NULL,
          input_tokens INTEGER NOT NULL,
          output_tokens INTEGER NOT NULL,
          cost_usd REAL NOT NULL,
          error TEXT,
          at TEXT NOT NULL
        );
        -- Every note sent to an LLM: what, where, how much.
        CREATE TABLE egress (
          id INTEGER PRIMARY KEY,
          note_path TEXT NOT NULL,
          backend TEXT NOT NULL,
          model TEXT NOT NULL,
          bytes INTEGER NOT NULL,
          at TEXT NOT NULL
        );
      `);
    },
  },
  {
    name: '006-graph-proposals',
    up(db) {
      db.exec(`
        -- An entity merged into another: its note becomes a stub that points to the winner.
        ALTER TABLE entities ADD COLUMN merged_into INTEGER REFERENCES entities(id);
        -- Durable merge proposals: reviewed, then applied exactly as reviewed, and undoable.
        CREATE TABLE proposals (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL,
          winner_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          loser_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
          reason TEXT NOT NULL,
          verdict TEXT NOT NULL,
          status TEXT NOT NULL,
          created TEXT NOT NULL,
          decided TEXT,
          undo TEXT,
          UNIQUE (kind, winner_id, loser_id)
        );
      `);
    },
  },
  {
    name: '007-notes-path-index',
    up(db) {
      // Lookups by the exact path (the graph's extractor, rebuild and related notes, the MCP
      // tools) scanned the whole table: 82k lookups took 39 s at 16k notes.
      db.exec('CREATE INDEX notes_path ON notes(path)');
    },
  },
  {
    name: '008-librarian',
    up(db) {
      db.exec(`
        -- One row per Librarian sweep (and daemon backlog drain): its run id, outcome and report.
        CREATE TABLE runs (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          started_at TEXT NOT NULL,
          finished_at TEXT,
          status TEXT NOT NULL,
          report TEXT
        );
        -- A note moved by the organizer; its journal rows (the move and every link rewrite) carry move_id.
        CREATE TABLE moves (
          id INTEGER PRIMARY KEY,
          run_id TEXT NOT NULL,
          from_path TEXT NOT NULL,
          to_path TEXT NOT NULL,
          at TEXT NOT NULL,
          undone_at TEXT
        );
        ALTER TABLE journal ADD COLUMN move_id INTEGER REFERENCES moves(id);
        CREATE INDEX journal_run ON journal(run_id);
        -- Filing proposals: durable, one per (note, target folder), refreshed rather than repeated.
        CREATE TABLE organize_proposals (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL,
          note_hash TEXT NOT NULL,
          target TEXT NOT NULL,
          share REAL NOT NULL,
          reason TEXT NOT NULL,
          status TEXT NOT NULL,
          run_id TEXT NOT NULL,
          created TEXT NOT NULL,
          seen TEXT NOT NULL,
          decided TEXT,
          move_id INTEGER REFERENCES moves(id),
          UNIQUE (path, target)
        );
        -- Entities the consolidation slice has looked at, as they were then: checked again only when changed.
        CREATE TABLE consolidation_checked (
          entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
          updated TEXT NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    name: '009-move-completion',
    up(db) {
      // A move whose files were not all written (the process was killed) has no completion
      // time; the next sweep rolls it back. Moves made before this column existed completed.
      db.exec(`
        ALTER TABLE moves ADD COLUMN completed_at TEXT;
        UPDATE moves SET completed_at = at;
      `);
    },
  },
  {
    name: '010-egress-redactions',
    up(db) {
      // What was redacted from text sent to an LLM, as JSON counts by kind ({"password":1});
      // never the secret. NULL on rows logged before redaction existed.
      db.exec('ALTER TABLE egress ADD COLUMN redacted TEXT');
    },
  },
  {
    name: '011-release-environment-failures',
    up(db) {
      // Extraction once counted a logged-out CLI, a bad key or a missing model against each note
      // it tried, and parked the notes after a few runs. Those failures were the setup's, not the
      // notes': forget them, so the notes are pending again. The patterns are the messages the
      // earlier extractors wrote (a whole CLI run failing, an API refusal for the account).
      const environment = /\(HTTP (401|402|403|404)\b|no API key|credit balance|not logged in|\/login|invalid api key|was not found on the PATH|could not start|the CLI exited with|the CLI was killed|did not print its JSON envelope/i;
      const rows = db.prepare("SELECT note_id, error FROM extractions WHERE status = 'failed'").all() as { note_id: number; error: string | null }[];
      const release = db.prepare('DELETE FROM extractions WHERE note_id = ?');
      for (const row of rows) if (environment.test(row.error ?? '')) release.run(row.note_id);
    },
  },
  {
    name: '012-note-ids-relations',
    up(db) {
      // A note's frontmatter id (idKey form): links by id follow it across renames. Not unique:
      // two notes sharing an id are reported, never merged. A related: entry is a link of kind
      // 'related' with the id it names (tried before its path), its type and note.
      db.exec(`
        ALTER TABLE notes ADD COLUMN uid TEXT;
        CREATE INDEX notes_uid ON notes(uid) WHERE uid IS NOT NULL;
        ALTER TABLE links ADD COLUMN target_id TEXT;
        ALTER TABLE links ADD COLUMN rel_type TEXT;
        ALTER TABLE links ADD COLUMN rel_note TEXT;
        CREATE INDEX links_target_id ON links(target_id) WHERE target_id IS NOT NULL;
      `);
    },
  },
  {
    name: '013-block-link-lists',
    up(db) {
      // Whether a block's own text is a list of links (`isLinkList`): a search reads its passage
      // as pointers to other notes. Filled when the notes are parsed again (parser version 5).
      db.exec('ALTER TABLE blocks ADD COLUMN link_list INTEGER NOT NULL DEFAULT 0');
    },
  },
];

/** Applies the migrations not yet recorded, in order. Returns the names applied. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT NOT NULL)');
  const isDone = db.prepare('SELECT 1 FROM migrations WHERE name = ?').pluck();
  const record = db.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)');
  const applied: string[] = [];
  for (const migration of migrations) {
    // IMMEDIATE takes the write lock before the check, so two processes opening a new state
    // directory at once cannot both apply the same migration.
    const ran = db
      .transaction(() => {
        if (isDone.get(migration.name)) return false;
        migration.up(db);
        record.run(migration.name, new Date().toISOString());
        return true;
      })
      .immediate();
    if (ran) applied.push(migration.name);
  }
  return applied;
}
