/**
 * Names covered by a query: a note whose title, file name or alias has all its content words
 * in the query ("how do I embed a file" covers `Embed files`) is very likely what was asked
 * for, even though the query has words the name lacks. BM25F's title weight cannot see this:
 * it rewards each title word separately, so a long note repeating one of them competes on equal
 * terms. Matching is on tokens (stemmed, folded), so `files` meets `file`.
 */
import { analyzeQuery } from './query.js';
import type { Tokenizer } from './tokenizer.js';

export interface CoveredName {
  doc: number;
  /** The covered name's content tokens (the longest covered name of the note). */
  terms: readonly string[];
}

export class NameIndex {
  /** Token → the names containing it. */
  private readonly byTerm = new Map<string, number[]>();
  private readonly docs: number[] = [];
  private readonly terms: string[][] = [];

  constructor(private readonly tokenize: Tokenizer) {}

  /** Adds one name of a note (its title, file name or an alias). */
  add(doc: number, name: string): void {
    const terms = [...new Set(analyzeQuery(name, this.tokenize).content)];
    if (terms.length === 0) return;
    const id = this.docs.length;
    this.docs.push(doc);
    this.terms.push(terms);
    for (const term of terms) {
      let names = this.byTerm.get(term);
      if (!names) this.byTerm.set(term, (names = []));
      names.push(id);
    }
  }

  /** Notes with a name whose every content token is among the query's; the longest such name of each. */
  covered(queryTerms: readonly string[]): CoveredName[] {
    const hits = new Map<number, number>();
    for (const term of new Set(queryTerms)) {
      for (const id of this.byTerm.get(term) ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
    }
    const best = new Map<number, readonly string[]>();
    for (const [id, count] of hits) {
      const terms = this.terms[id]!;
      if (count !== terms.length) continue;
      const doc = this.docs[id]!;
      if ((best.get(doc)?.length ?? 0) < terms.length) best.set(doc, terms);
    }
    return [...best].map(([doc, terms]) => ({ doc, terms }));
  }
}
