/**
 * More like this: a note's own distinctive terms as a keyword query over the vault's index
 * (Lucene's MoreLikeThis, the BM25 signal of Smart Relations). Needs no model: a note relates to
 * the notes that use its rarer words most. The note's terms come from its stored statistics, so
 * nothing is re-tokenized; scoring is the keyword lane's own BM25L (`LexicalIndex`).
 */
import type Database from 'better-sqlite3';
import { FIELDS } from './fields.js';
import type { LexicalIndex } from './lexical-index.js';
import { isFunctionWord } from './query.js';
import { decodeTermStats } from './term-stats.js';

export const MORE_LIKE_THIS = {
  /** Query terms taken from the note: the best by tf·idf. */
  terms: 25,
  /** A term in more than this share of the notes says little about any of them. */
  maxDocShare: 0.25,
} as const;

export interface SimilarNote {
  /** Position in the index's document list. */
  doc: number;
  score: number;
  /** The shared query terms that added most, best first (at most 3). */
  terms: string[];
}

/**
 * Notes sharing `doc`'s distinctive terms, best first, `doc` itself left out; empty when the
 * note has no statistics or no term another note shares.
 */
export function moreLikeThis(db: Database.Database, index: LexicalIndex, doc: number, depth: number, accept: (doc: number) => boolean = () => true): SimilarNote[] {
  const query = distinctiveTerms(db, index, doc);
  if (query.length === 0) return [];
  const scored: { doc: number; score: number }[] = [];
  index.forEachScored(query, {
    visit: (other, score) => {
      if (other !== doc && accept(other)) scored.push({ doc: other, score });
    },
  });
  scored.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return scored.slice(0, depth).map((hit) => ({
    ...hit,
    terms: index
      .explain(hit.doc, query)
      .sort((a, b) => b.score - a.score)
      .slice(0, 3)
      .map((part) => part.term),
  }));
}

/** The note's best terms by field-weighted tf × idf, among those another note has too, function words left out. */
export function distinctiveTerms(db: Database.Database, index: LexicalIndex, doc: number): string[] {
  const noteId = index.ids[doc];
  if (noteId === undefined) return [];
  const blob = db.prepare('SELECT stats FROM note_terms WHERE note_id = ?').pluck().get(noteId) as Buffer | undefined;
  if (!blob) return [];
  const stats = decodeTermStats(blob);
  const weights = FIELDS.map((field) => index.weights[field]);
  const tf = new Map<number, number>();
  for (let i = 0; i < stats.termIds.length; i++) tf.set(stats.termIds[i]!, (tf.get(stats.termIds[i]!) ?? 0) + stats.tfs[i]! * weights[stats.fields[i]!]!);
  const names = new Map<number, string>();
  const rows = db
    .prepare('SELECT id, term FROM terms WHERE id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify([...tf.keys()])) as [number, string][];
  for (const [id, term] of rows) names.set(id, term);
  const ceiling = Math.max(2, MORE_LIKE_THIS.maxDocShare * index.documentCount);
  const ranked: { term: string; weight: number }[] = [];
  for (const [id, count] of tf) {
    const term = names.get(id);
    if (term === undefined) continue;
    const df = index.documentFrequency(term);
    if (df < 2 || df > ceiling) continue; // only this note has it, or most notes do
    // Pronouns and other function words the stop list keeps (`he`, `him`) say nothing of a topic.
    if (isFunctionWord(term)) continue;
    ranked.push({ term, weight: (1 + Math.log(count)) * index.idf(term) });
  }
  ranked.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  return ranked.slice(0, MORE_LIKE_THIS.terms).map((entry) => entry.term);
}
