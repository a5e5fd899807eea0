/**
 * Entity vectors without a new embedding: an entity's vector is the normalized mean of the fresh
 * vectors (one model's space) of the notes that mention it. Used to ground extraction prompts
 * and to find consolidation candidates.
 */
import type Database from 'better-sqlite3';
import { vectorFromBlob } from '../index/index.js';
import type { EntityType } from './model.js';

export interface EntityVector {
  id: number;
  name: string;
  type: EntityType;
  norm: string;
  notes: Set<number>;
  /** Unit length: the normalized mean of the fresh vectors of the notes that mention it. */
  unit: Float32Array;
}

/** Every unmerged entity's vector in `model`'s space (entities whose notes have none are left out). */
export function entityVectors(db: Database.Database, model: string): EntityVector[] {
  const rows = db
    .prepare(
      `SELECT m.entity_id AS entity, e.name, e.type, e.norm, m.note_id AS note, v.vector FROM mentions m
      JOIN entities e ON e.id = m.entity_id AND e.merged_into IS NULL
      JOIN notes n ON n.id = m.note_id
      JOIN vectors v ON v.note_id = m.note_id AND v.block_key = '' AND v.model = ? AND v.content_hash = n.hash`,
    )
    .all(model) as { entity: number; name: string; type: string; norm: string; note: number; vector: Buffer }[];
  const byEntity = new Map<number, { name: string; type: string; norm: string; notes: Set<number>; sum: Float64Array }>();
  for (const row of rows) {
    const vector = vectorFromBlob(row.vector);
    let entry = byEntity.get(row.entity);
    if (!entry) byEntity.set(row.entity, (entry = { name: row.name, type: row.type, norm: row.norm, notes: new Set(), sum: new Float64Array(vector.length) }));
    if (entry.sum.length !== vector.length) continue;
    entry.notes.add(row.note);
    for (let i = 0; i < vector.length; i++) entry.sum[i]! += vector[i]!;
  }
  const out: EntityVector[] = [];
  for (const [id, entry] of byEntity) {
    let norm = 0;
    for (const value of entry.sum) norm += value * value;
    if (norm === 0) continue;
    out.push({ id, name: entry.name, type: entry.type as EntityType, norm: entry.norm, notes: entry.notes, unit: Float32Array.from(entry.sum, (value) => value / Math.sqrt(norm)) });
  }
  return out;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let k = 0; k < a.length; k++) dot += a[k]! * b[k]!;
  return dot;
}
