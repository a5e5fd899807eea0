/**
 * Note rows in the state database: the statements that write a parsed note (and its blocks,
 * links, tags and tasks) and the reads the indexer needs. Callers own the transactions.
 */
import type Database from 'better-sqlite3';
import { fileTargetName, linkTargetName, type Note, type Skipped } from '../vault/index.js';
import type { IndexedFile, ListedFile } from './plan-changes.js';

/** A `dirty_names` key for an id: links naming it are resolved again. */
export const ID_DIRTY_PREFIX = '/id:';

const NOTE_COLUMNS = 'id, path_key AS key, path, mtime_ms AS mtimeMs, size, hash';
const ATTACHMENT_COLUMNS = "0 AS id, path_key AS key, path, mtime_ms AS mtimeMs, size, '' AS hash";

export interface StoredFile extends ListedFile {
  hash: string;
}

export class NoteStore {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      insertNote: db.prepare(`INSERT INTO notes (path, path_key, name_key, title, uid, type, aliases, frontmatter, hash, mtime_ms, size, word_count, line_count, warnings)
        VALUES (@path, @path_key, @name_key, @title, @uid, @type, @aliases, @frontmatter, @hash, @mtime_ms, @size, @word_count, @line_count, @warnings)`),
      updateNote: db.prepare(`UPDATE notes SET path = @path, path_key = @path_key, name_key = @name_key, title = @title, uid = @uid, type = @type, aliases = @aliases,
        frontmatter = @frontmatter, hash = @hash, mtime_ms = @mtime_ms, size = @size, word_count = @word_count, line_count = @line_count, warnings = @warnings WHERE id = @id`),
      uidOf: db.prepare('SELECT uid FROM notes WHERE id = ?').pluck(),
      // Guarded by the path too: a row id the planner saw may since belong to another note (a
      // concurrent run deleted it and SQLite reused the id).
      touchNote: db.prepare('UPDATE notes SET mtime_ms = ?, size = ? WHERE id = ? AND path_key = ?'),
      deleteNote: db.prepare('DELETE FROM notes WHERE id = ? AND path_key = ?'),
      idOf: db.prepare('SELECT id FROM notes WHERE path_key = ?').pluck(),
      deleteBlocks: db.prepare('DELETE FROM blocks WHERE note_id = ?'),
      deleteLinks: db.prepare('DELETE FROM links WHERE note_id = ?'),
      deleteTags: db.prepare('DELETE FROM tags WHERE note_id = ?'),
      deleteTasks: db.prepare('DELETE FROM tasks WHERE note_id = ?'),
      insertBlock: db.prepare('INSERT INTO blocks (note_id, ord, key, heading_path, level, line_start, line_end, body_end, link_list) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      insertLink: db.prepare('INSERT INTO links (note_id, ord, kind, target, subpath, display, line, target_name, target_id, rel_type, rel_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      insertTag: db.prepare('INSERT INTO tags (note_id, tag) VALUES (?, ?)'),
      insertTask: db.prepare(`INSERT OR REPLACE INTO tasks (note_id, line, status, text, due, scheduled, start, created, done, cancelled, priority, recurrence)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      markDirty: db.prepare('INSERT OR IGNORE INTO dirty_names (name_key) VALUES (?)'),
      upsertAttachment: db.prepare(`INSERT INTO attachments (path_key, path, name_key, mtime_ms, size) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(path_key) DO UPDATE SET path = excluded.path, mtime_ms = excluded.mtime_ms, size = excluded.size`),
      deleteAttachment: db.prepare('DELETE FROM attachments WHERE path_key = ?'),
    };
  }

  /** Inserts a new note; returns its id. Its file name is marked so links naming it are re-resolved. */
  insert(file: StoredFile, note: Note): number {
    const id = Number(this.statements.insertNote.run(this.noteRow(file, note)).lastInsertRowid);
    this.insertChildren(id, note);
    this.statements.markDirty.run(fileTargetName(file.path));
    this.markIdDirty(note.id);
    return id;
  }

  /** Replaces a note's row and children in place, keeping its id (a move passes the new path). */
  replace(id: number, file: StoredFile, note: Note, previousPath: string | null): void {
    const previousId = this.statements.uidOf.get(id) as string | null | undefined;
    this.statements.updateNote.run({ ...this.noteRow(file, note), id });
    // Links by id follow the note: its old and new ids are resolved again (a move keeps the id).
    if (previousId !== note.id || previousPath !== null) {
      this.markIdDirty(previousId ?? null);
      this.markIdDirty(note.id);
    }
    this.deleteChildren(id);
    this.insertChildren(id, note);
    if (previousPath !== null) {
      this.statements.markDirty.run(fileTargetName(previousPath));
      this.statements.markDirty.run(fileTargetName(file.path));
    }
  }

  touch(id: number, file: ListedFile): void {
    this.statements.touchNote.run(file.mtimeMs, file.size, id, file.key);
  }

  delete(file: IndexedFile): void {
    const uid = this.statements.uidOf.get(file.id) as string | null | undefined;
    if (this.statements.deleteNote.run(file.id, file.key).changes > 0) {
      this.statements.markDirty.run(fileTargetName(file.path));
      this.markIdDirty(uid ?? null);
    }
  }

  /** Links naming this id are resolved again; `/` cannot occur in a file name, so the key is its own. */
  private markIdDirty(uid: string | null): void {
    if (uid) this.statements.markDirty.run(`${ID_DIRTY_PREFIX}${uid}`);
  }

  /** The id of the note indexed at this path key now, or null. */
  idOf(key: string): number | null {
    return (this.statements.idOf.get(key) as number | undefined) ?? null;
  }

  upsertAttachment(file: ListedFile, isNew: boolean): void {
    this.statements.upsertAttachment.run(file.key, file.path, fileTargetName(file.path), file.mtimeMs, file.size);
    if (isNew) this.statements.markDirty.run(fileTargetName(file.path));
  }

  deleteAttachment(file: ListedFile): void {
    this.statements.deleteAttachment.run(file.key);
    this.statements.markDirty.run(fileTargetName(file.path));
  }

  /** Everything the planner needs about indexed notes. */
  listNotes(): IndexedFile[] {
    return this.db.prepare(`SELECT ${NOTE_COLUMNS} FROM notes`).all() as IndexedFile[];
  }

  /** The indexed notes among the given path keys. */
  getNotes(keys: readonly string[]): IndexedFile[] {
    return this.db.prepare(`SELECT ${NOTE_COLUMNS} FROM notes WHERE path_key IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)) as IndexedFile[];
  }

  listAttachments(): IndexedFile[] {
    return this.db.prepare(`SELECT ${ATTACHMENT_COLUMNS} FROM attachments`).all() as IndexedFile[];
  }

  getAttachments(keys: readonly string[]): IndexedFile[] {
    return this.db.prepare(`SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE path_key IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)) as IndexedFile[];
  }

  countNotes(): number {
    return this.db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  }

  /** Replaces the skipped list: wholly after a full walk, or only for `paths` after a targeted run. */
  replaceSkipped(skipped: readonly Skipped[], paths?: readonly string[]): void {
    if (paths) this.db.prepare('DELETE FROM skipped WHERE path IN (SELECT value FROM json_each(?))').run(JSON.stringify(paths));
    else this.db.prepare('DELETE FROM skipped').run();
    const insert = this.db.prepare('INSERT OR REPLACE INTO skipped (path, reason) VALUES (?, ?)');
    for (const entry of skipped) insert.run(entry.path, entry.reason);
  }

  /**
   * Deletes rows that name a note which is no longer indexed, in every table with a `note_id`
   * referencing notes (search statistics, vectors, blocks, graph mentions…); returns how many.
   * Foreign keys cascade deletes, so there are none unless a database was written without
   * them enforced (an older version, a hand-edit): a whole-vault run then cleans them.
   */
  removeOrphans(): number {
    const tables = this.db
      .prepare(
        `SELECT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f
      WHERE m.type = 'table' AND f."table" = 'notes' AND f."from" = 'note_id'`,
      )
      .pluck()
      .all() as string[];
    let removed = 0;
    for (const table of tables) {
      removed += this.db.prepare(`DELETE FROM "${table}" WHERE note_id NOT IN (SELECT id FROM notes)`).run().changes;
    }
    return removed;
  }

  getMeta(key: string): string | null {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  deleteMeta(key: string): void {
    this.db.prepare('DELETE FROM meta WHERE key = ?').run(key);
  }

  private noteRow(file: StoredFile, note: Note) {
    return {
      path: file.path,
      path_key: file.key,
      name_key: fileTargetName(file.path),
      title: note.title,
      uid: note.id,
      type: note.type,
      aliases: JSON.stringify(note.aliases),
      frontmatter: note.frontmatter === null ? null : JSON.stringify(note.frontmatter),
      hash: file.hash,
      mtime_ms: file.mtimeMs,
      size: file.size,
      word_count: note.wordCount,
      line_count: note.lineCount,
      warnings: note.warnings.length === 0 ? null : JSON.stringify(note.warnings),
    };
  }

  private insertChildren(id: number, note: Note): void {
    const s = this.statements;
    note.blocks.forEach((block, ord) => {
      s.insertBlock.run(id, ord, block.key, JSON.stringify(block.headingPath), block.level, block.start, block.end, block.bodyEnd, block.linkList ? 1 : 0);
    });
    note.links.forEach((link, ord) => {
      s.insertLink.run(id, ord, link.kind, link.target, link.subpath, link.display, link.line, linkTargetName(link.target), link.id ?? null, link.type ?? null, link.note ?? null);
    });
    for (const tag of note.tags) s.insertTag.run(id, tag);
    for (const task of note.tasks) {
      s.insertTask.run(id, task.line, task.status, task.text, task.due, task.scheduled, task.start, task.created, task.done, task.cancelled, task.priority, task.recurrence);
    }
  }

  private deleteChildren(id: number): void {
    const s = this.statements;
    s.deleteBlocks.run(id);
    s.deleteLinks.run(id);
    s.deleteTags.run(id);
    s.deleteTasks.run(id);
  }
}

/** Every indexed note and attachment path: what a link can resolve to. */
export function linkablePaths(db: Database.Database): string[] {
  return [...(db.prepare('SELECT path FROM notes').pluck().all() as string[]), ...(db.prepare('SELECT path FROM attachments').pluck().all() as string[])];
}
