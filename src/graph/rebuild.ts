/**
 * Rebuilding the graph cache from the entity notes. The notes under `<agent root>/Graph/` are the
 * graph's durable form; the SQLite tables are a cache of them. When the cache is empty (a new
 * state directory, a deleted database) but entity notes exist, this reads them back — entities,
 * aliases, mentions, relations, merges — instead of paying to extract the whole vault again.
 *
 * A source note counts as extracted only if it has not changed since the newest entity note that
 * cites it was written; anything newer, or anything no entity note cites, is extracted as usual.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { parseNote, readNoteFile } from '../vault/index.js';
import { ENTITY_TYPES, normalizeName, type EntityType, type Extractor } from './model.js';

export interface RebuildReport {
  entities: number;
  mentions: number;
  relations: number;
  merged: number;
  /** Source notes recorded as already extracted (their entity notes are newer than they are). */
  notesRecovered: number;
  /** Entity notes that could not be read back (no `entity:` type, no title). */
  skipped: string[];
}

const MENTION = /^- \[\[([^|\]]+)\|[^\]]*\]\](?: — "(.*)")?$/;
const RELATION_OUT = /^- (.+?) \[\[([^|\]]+)\|[^\]]*\]\] \(from \[\[([^\]|]+)\]\]\)(?: — "(.*)")?$/;
const LINK = /\[\[([^|\]]+)(?:\|([^\]]*))?\]\]/;

interface Parsed {
  path: string;
  name: string;
  type: EntityType;
  aliases: string[];
  created: string;
  updated: string;
  updatedMs: number;
  mergedInto: string | null;
  mentions: { note: string; evidence: string }[];
  relations: { relation: string; other: string; source: string; evidence: string }[];
}

/** True when the cache holds no entities but entity notes are indexed. */
export function needsRebuild(db: Database.Database, agentRoot: string): boolean {
  if (db.prepare('SELECT 1 FROM entities LIMIT 1').get()) return false;
  const graph = `${agentRoot}/Graph/`;
  return Boolean(db.prepare('SELECT 1 FROM notes WHERE substr(path, 1, length(?)) = ? LIMIT 1').get(graph, graph));
}

export function rebuildGraphCache(db: Database.Database, options: { root: string; agentRoot: string; extractor: Pick<Extractor, 'backend' | 'model' | 'promptVersion'>; now?: () => number }): RebuildReport {
  const graph = `${options.agentRoot}/Graph/`;
  const report: RebuildReport = { entities: 0, mentions: 0, relations: 0, merged: 0, notesRecovered: 0, skipped: [] };
  const paths = db.prepare('SELECT path FROM notes WHERE substr(path, 1, length(?)) = ? ORDER BY path').pluck().all(graph, graph) as string[];
  const parsed: Parsed[] = [];
  for (const path of paths) {
    const read = readNoteFile(join(options.root, path));
    const entity = read.ok ? parseEntityNote(path, read.text) : null;
    if (entity) parsed.push(entity);
    else report.skipped.push(path);
  }
  const at = new Date((options.now ?? Date.now)()).toISOString();
  db.transaction(() => {
    const insert = db.prepare('INSERT INTO entities (name, norm, type, note_path, created, updated, dirty) VALUES (?, ?, ?, ?, ?, ?, 0)');
    const alias = db.prepare('INSERT OR IGNORE INTO entity_aliases (entity_id, alias, norm) VALUES (?, ?, ?)');
    const noteId = db.prepare('SELECT id FROM notes WHERE path = ?').pluck();
    const mention = db.prepare('INSERT OR IGNORE INTO mentions (entity_id, note_id, evidence) VALUES (?, ?, ?)');
    const relation = db.prepare('INSERT OR IGNORE INTO relations (from_id, to_id, relation, note_id, evidence) VALUES (?, ?, ?, ?, ?)');
    const byIdentity = db.prepare('SELECT id FROM entities WHERE norm = ? AND type = ?').pluck();
    const merge = db.prepare('UPDATE entities SET merged_into = ? WHERE id = ?');
    const ids = new Map<string, number>();
    for (const entity of parsed) {
      const norm = normalizeName(entity.name);
      // Two notes for one (name, type) — a copy, a conflict file — fold into the first.
      const existing = byIdentity.get(norm, entity.type) as number | undefined;
      const id = existing ?? Number(insert.run(entity.name, norm, entity.type, entity.path, entity.created, entity.updated).lastInsertRowid);
      if (existing === undefined) report.entities++;
      ids.set(entity.path.replace(/\.md$/i, ''), id);
      for (const name of entity.aliases) if (normalizeName(name) !== norm) alias.run(id, name, normalizeName(name));
    }
    // Source notes cited, with the newest entity note that cites each.
    const cited = new Map<number, number>();
    const cite = (note: number, updatedMs: number) => cited.set(note, Math.max(cited.get(note) ?? 0, updatedMs));
    for (const entity of parsed) {
      const id = ids.get(entity.path.replace(/\.md$/i, ''))!;
      if (entity.mergedInto !== null) {
        const winner = ids.get(entity.mergedInto);
        if (winner !== undefined && winner !== id) {
          merge.run(winner, id);
          report.merged++;
        }
      }
      for (const m of entity.mentions) {
        const note = noteId.get(`${m.note}.md`) as number | undefined;
        if (note === undefined) continue;
        report.mentions += mention.run(id, note, m.evidence).changes;
        cite(note, entity.updatedMs);
      }
      for (const r of entity.relations) {
        const other = ids.get(r.other);
        const note = noteId.get(`${r.source}.md`) as number | undefined;
        if (other === undefined || note === undefined) continue;
        report.relations += relation.run(id, other, r.relation, note, r.evidence).changes;
        cite(note, entity.updatedMs);
      }
    }
    const source = db.prepare('SELECT hash, mtime_ms FROM notes WHERE id = ?');
    const record = db.prepare(`INSERT OR IGNORE INTO extractions (note_id, note_hash, backend, model, prompt_version, status, attempts, input_tokens, output_tokens, cost_usd, error, at)
      VALUES (?, ?, ?, ?, ?, 'ok', 1, 0, 0, 0, 'recovered from the entity notes', ?)`);
    for (const [note, updatedMs] of cited) {
      const row = source.get(note) as { hash: string; mtime_ms: number };
      if (row.mtime_ms > updatedMs) continue; // changed after its entities were written: extract again
      report.notesRecovered += record.run(note, row.hash, options.extractor.backend, options.extractor.model, options.extractor.promptVersion, at).changes;
    }
  })();
  return report;
}

/** An entity note as `renderEntityNote` writes it, read back; null when it is not one. */
export function parseEntityNote(path: string, text: string): Parsed | null {
  const note = parseNote(path, text);
  const front = note.frontmatter ?? {};
  const type = String(front.entity ?? '') as EntityType;
  if (!ENTITY_TYPES.includes(type)) return null;
  const title = /^# (.+)$/m.exec(text)?.[1]?.trim();
  if (!title) return null;
  const stamp = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value ?? ''));
  const updated = stamp(front.updated);
  const updatedMs = Date.parse(updated);
  const aliases = Array.isArray(front.aliases) ? front.aliases.filter((value): value is string => typeof value === 'string') : [];
  const mergedLink = typeof front.merged_into === 'string' ? (LINK.exec(front.merged_into)?.[1] ?? null) : null;
  const mentions: Parsed['mentions'] = [];
  const relations: Parsed['relations'] = [];
  let section = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      continue;
    }
    if (section === 'Mentions') {
      const match = MENTION.exec(line);
      if (match) mentions.push({ note: match[1]!, evidence: match[2] ?? '' });
    } else if (section === 'Relations') {
      // Only outgoing lines: each relation also appears, incoming, in the other entity's note.
      const match = RELATION_OUT.exec(line);
      if (match && !match[1]!.startsWith('[[')) relations.push({ relation: match[1]!.replace(/ /g, '_'), other: match[2]!, source: match[3]!, evidence: match[4] ?? '' });
    }
  }
  return {
    path,
    name: title,
    type,
    aliases,
    created: stamp(front.created) || updated,
    updated,
    updatedMs: Number.isFinite(updatedMs) ? updatedMs : 0,
    mergedInto: mergedLink,
    mentions,
    relations,
  };
}
