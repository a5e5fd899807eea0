/**
 * The graph cache in SQLite: entities with aliases, and the mentions and relations each note
 * asserted. Updated one note at a time — retract what the note said before, record what it says
 * now — in one transaction, so a kill never leaves half a note's assertions.
 */
import type Database from 'better-sqlite3';
import { normalizeName, TYPE_FOLDERS, type EntityType, type Extraction } from './model.js';

export interface EntityRow {
  id: number;
  name: string;
  type: EntityType;
  note_path: string;
  mentions: number;
}

export class GraphStore {
  /** Statements by SQL, prepared once per store: a 10k-note run makes ~100k calls. */
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly agentRoot: string,
  ) {}

  private sql(text: string, { pluck = false }: { pluck?: boolean } = {}): Database.Statement {
    const key = `${pluck ? 'p' : 'r'}${text}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(text);
      if (pluck) statement.pluck();
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** Replaces what note `noteId` asserts with `extraction`; returns the entity ids touched. */
  recordNote(noteId: number, extraction: Pick<Extraction, 'entities' | 'relations'>, now: string): number[] {
    const db = this.db;
    return db.transaction(() => {
      this.sql('DELETE FROM mentions WHERE note_id = ?').run(noteId);
      this.sql('DELETE FROM relations WHERE note_id = ?').run(noteId);
      const ids = new Map<string, number>();
      for (const entity of extraction.entities) {
        const id = this.upsertEntity(entity.name, entity.type, entity.aliases, now);
        ids.set(normalizeName(entity.name), id);
        this.sql('INSERT OR REPLACE INTO mentions (entity_id, note_id, evidence) VALUES (?, ?, ?)').run(id, noteId, entity.evidence);
        this.sql('UPDATE entities SET dirty = 1, updated = ? WHERE id = ?').run(now, id);
      }
      for (const relation of extraction.relations) {
        const from = ids.get(normalizeName(relation.from));
        const to = ids.get(normalizeName(relation.to));
        if (from === undefined || to === undefined) continue;
        this.sql('INSERT OR REPLACE INTO relations (from_id, to_id, relation, note_id, evidence) VALUES (?, ?, ?, ?, ?)').run(from, to, relation.relation, noteId, relation.evidence);
        this.sql('UPDATE entities SET dirty = 1 WHERE id IN (?, ?)').run(from, to);
      }
      return [...ids.values()];
    })();
  }

  /** An entity by name or alias (normalized), preferring the given type; created when new. */
  private upsertEntity(name: string, type: EntityType, aliases: readonly string[], now: string): number {
    const norm = normalizeName(name);
    const existing =
      (this.sql('SELECT id FROM entities WHERE norm = ? AND type = ?', { pluck: true }).get(norm, type) as number | undefined) ??
      (this.sql('SELECT e.id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.norm = ? AND e.type = ?', { pluck: true }).get(norm, type) as number | undefined);
    // A merged entity's name still resolves — to the entity it was merged into.
    const winner = existing === undefined ? undefined : this.winnerOf(existing);
    if (winner !== undefined && winner !== existing) return this.upsertEntity(this.nameOf(winner), type, [...aliases, name], now);
    const id =
      existing ??
      Number(this.sql('INSERT INTO entities (name, norm, type, note_path, created, updated) VALUES (?, ?, ?, ?, ?, ?)').run(name, norm, type, `${this.agentRoot}/Graph/${TYPE_FOLDERS[type]}/${fileName(name)}.md`, now, now).lastInsertRowid);
    for (const alias of aliases) {
      const aliasNorm = normalizeName(alias);
      if (aliasNorm !== norm) this.sql('INSERT OR IGNORE INTO entity_aliases (entity_id, alias, norm) VALUES (?, ?, ?)').run(id, alias, aliasNorm);
    }
    if (existing !== undefined && norm !== normalizeName(this.nameOf(existing))) {
      this.sql('INSERT OR IGNORE INTO entity_aliases (entity_id, alias, norm) VALUES (?, ?, ?)').run(id, name, norm);
    }
    // A name first seen in lower case (a tag, a frontmatter value) takes the capitalized
    // spelling when one comes along: `atlas` becomes `Atlas`.
    if (existing !== undefined && name !== name.toLowerCase()) {
      this.sql('UPDATE entities SET name = ? WHERE id = ? AND name = lower(name) AND norm = ?').run(name, id, norm);
    }
    return id;
  }

  /**
   * Relations that point at a merged entity are moved to its winner (duplicates and
   * self-relations dropped); returns how many were looked at.
   */
  repointMergedRelations(): number {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare(
          `SELECT r.from_id, r.to_id, r.relation, r.note_id, r.evidence FROM relations r JOIN entities a ON a.id = r.from_id JOIN entities b ON b.id = r.to_id
        WHERE a.merged_into IS NOT NULL OR b.merged_into IS NOT NULL`,
        )
        .all() as { from_id: number; to_id: number; relation: string; note_id: number; evidence: string }[];
      const insert = this.sql('INSERT OR IGNORE INTO relations (from_id, to_id, relation, note_id, evidence) VALUES (?, ?, ?, ?, ?)');
      const remove = this.sql('DELETE FROM relations WHERE from_id = ? AND to_id = ? AND relation = ? AND note_id = ?');
      for (const row of rows) {
        const from = this.winnerOf(row.from_id);
        const to = this.winnerOf(row.to_id);
        remove.run(row.from_id, row.to_id, row.relation, row.note_id);
        if (from !== to) insert.run(from, to, row.relation, row.note_id, row.evidence);
      }
      return rows.length;
    })();
  }

  /** The entity an id stands for now: itself, or the one it was (transitively) merged into. */
  private winnerOf(id: number): number {
    let current = id;
    for (let hops = 0; hops < 16; hops++) {
      const next = this.sql('SELECT merged_into FROM entities WHERE id = ?', { pluck: true }).get(current) as number | null | undefined;
      if (next === null || next === undefined) return current;
      current = next;
    }
    return current;
  }

  private nameOf(id: number): string {
    return this.sql('SELECT name FROM entities WHERE id = ?', { pluck: true }).get(id) as string;
  }

  /** Entities whose notes must be (re)written. */
  dirty(): number[] {
    return this.sql('SELECT id FROM entities WHERE dirty = 1 ORDER BY id', { pluck: true }).all() as number[];
  }

  clean(id: number): void {
    this.sql('UPDATE entities SET dirty = 0 WHERE id = ?').run(id);
  }

  /** Everything an entity note shows. */
  describe(id: number) {
    const entity = this.sql('SELECT id, name, type, note_path, created, updated, merged_into FROM entities WHERE id = ?').get(id) as {
      id: number;
      name: string;
      type: EntityType;
      note_path: string;
      created: string;
      updated: string;
      merged_into: number | null;
    };
    const mergedInto = entity.merged_into === null ? null : (this.sql('SELECT name, note_path FROM entities WHERE id = ?').get(entity.merged_into) as { name: string; note_path: string });
    const aliases = this.sql('SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY alias', { pluck: true }).all(id) as string[];
    const mentions = this.sql(`SELECT n.path, n.title, m.evidence FROM mentions m JOIN notes n ON n.id = m.note_id WHERE m.entity_id = ? ORDER BY n.path`).all(id) as { path: string; title: string; evidence: string }[];
    const relations = this.sql(
      `
      SELECT r.relation, 'out' AS direction, e.name AS other, e.note_path AS other_path, n.path AS source, r.evidence FROM relations r JOIN entities e ON e.id = r.to_id JOIN notes n ON n.id = r.note_id WHERE r.from_id = @id
      UNION ALL
      SELECT r.relation, 'in' AS direction, e.name, e.note_path, n.path, r.evidence FROM relations r JOIN entities e ON e.id = r.from_id JOIN notes n ON n.id = r.note_id WHERE r.to_id = @id
      ORDER BY 1, 3, 5`,
    ).all({ id }) as { relation: string; direction: 'in' | 'out'; other: string; other_path: string; source: string; evidence: string }[];
    return { entity, aliases, mentions, relations, mergedInto };
  }

  find(query: string, type: EntityType | null, limit: number): EntityRow[] {
    const norm = normalizeName(query);
    const rows = this.sql(
      `SELECT e.id, e.name, e.type, e.note_path, (SELECT count(*) FROM mentions WHERE entity_id = e.id) AS mentions,
        CASE WHEN e.norm = @norm THEN 0 WHEN EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND a.norm = @norm) THEN 1
             WHEN e.norm LIKE @prefix ESCAPE '\\' THEN 2 ELSE 3 END AS rank
      FROM entities e
      WHERE e.merged_into IS NULL AND (@type IS NULL OR e.type = @type) AND (e.norm LIKE @contains ESCAPE '\\' OR EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = e.id AND a.norm LIKE @contains ESCAPE '\\'))
      ORDER BY rank, mentions DESC, e.name LIMIT @limit`,
    ).all({ norm, prefix: `${escapeLike(norm)}%`, contains: `%${escapeLike(norm)}%`, type, limit }) as (EntityRow & { rank: number })[];
    return rows.map(({ rank: _rank, ...row }) => row);
  }
}

/** An entity's file name: its name with the characters notes cannot hold replaced. */
export function fileName(name: string): string {
  // Leading dots would hide the note; trailing dots and spaces are dropped by Windows.
  return (
    name
      .replace(/\s*:\s+/g, ' - ') // a title and its subtitle: `Dune: Part Two` → `Dune - Part Two`
      .replace(/[*"\\/<>:|?#^[\]]/g, '-')
      .replace(/^\.+/, '')
      .slice(0, 100)
      .replace(/[. ]+$/, '')
      .trim() || 'Unnamed'
  );
}

function escapeLike(text: string): string {
  return text.replace(/[%_\\]/g, (char) => `\\${char}`);
}
