/**
 * The reference engine every keyword-ranking change is measured against: SQLite FTS5 with
 * `tokenize='porter unicode61'` and its `bm25()`, given the same fields and field weights as
 * Engram's keyword lane, in memory, over the same documents. A query is its words OR-ed, each
 * quoted (FTS5 ANDs bare terms, and `-`, `:`, `*` or `"` in a word would be query syntax).
 */
import Database from 'better-sqlite3';
import { DEFAULT_FIELD_WEIGHTS, FIELDS, type FieldTexts, type FieldWeights } from '../search/index.js';

export interface Fts5Document {
  id: string;
  fields: FieldTexts;
}

/** The FTS5 MATCH expression for a free-text query: its words, quoted, OR-ed; null when it has none. */
export function fts5Query(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const unique = [...new Set(words.map((word) => word.toLowerCase()))];
  // No `"` can survive the match above, so quoting needs no escaping.
  return unique.length === 0 ? null : unique.map((word) => `"${word}"`).join(' OR ');
}

export class Fts5Baseline {
  private readonly db: Database.Database;
  private readonly ids: string[] = [];
  private readonly statement: Database.Statement<[string, number], { rowid: number }>;
  /** Build time in ms (inserts and the index merge). */
  readonly buildMs: number;

  constructor(documents: readonly Fts5Document[], weights: FieldWeights = DEFAULT_FIELD_WEIGHTS) {
    const started = performance.now();
    this.db = new Database(':memory:');
    this.db.exec(`CREATE VIRTUAL TABLE docs USING fts5(${FIELDS.join(', ')}, tokenize='porter unicode61')`);
    const insert = this.db.prepare(`INSERT INTO docs(rowid, ${FIELDS.join(', ')}) VALUES (?, ${FIELDS.map(() => '?').join(', ')})`);
    this.db.transaction(() => {
      documents.forEach((document, i) => {
        this.ids.push(document.id);
        insert.run(i, ...FIELDS.map((field) => document.fields[field]));
      });
    })();
    this.db.exec(`INSERT INTO docs(docs) VALUES ('optimize')`);
    // bm25() takes one weight per column, in column order: the same weights the keyword lane uses.
    const columnWeights = FIELDS.map((field) => Number(weights[field])).join(', ');
    this.statement = this.db.prepare(`SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, ${columnWeights}), rowid LIMIT ?`);
    this.buildMs = performance.now() - started;
  }

  /** Document ids, best first; `keep` filters before the limit (as Engram's filters do). */
  search(query: string, limit: number, keep?: (id: string) => boolean): string[] {
    const match = fts5Query(query);
    if (match === null) return [];
    const out: string[] = [];
    // A filter runs after FTS5 ranks, so ask for everything when one is set (dev sets are small).
    const depth = keep ? this.ids.length : limit;
    for (const row of this.statement.iterate(match, depth)) {
      const id = this.ids[row.rowid]!;
      if (keep && !keep(id)) continue;
      out.push(id);
      if (out.length >= limit) break;
    }
    return out;
  }

  close(): void {
    this.db.close();
  }
}
