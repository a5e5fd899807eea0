/**
 * Names the query shares words with: a note whose title, file name or alias has all its content
 * words in the query ("how do I embed a file" covers `Embed files`) is very likely what was
 * asked for, even though the query has words the name lacks; a name it half covers (`Tomasz` of
 * `Tomasz Wójcik`, `domain` of `Custom domains`) is half as likely. BM25F's title weight cannot
 * see this: it merges title and body counts before saturating them, so a long note repeating
 * one of the words competes on equal terms (FTS5 scores each column on its own, which is why it
 * found these notes). Matching is on tokens (stemmed, folded), so `files` meets `file`.
 */
import { analyzeQuery } from './query.js';
import type { Tokenizer } from './tokenizer.js';

export interface SharedName {
  doc: number;
  /** The query's content tokens the name holds. */
  terms: readonly string[];
  /** The bonus: the shared tokens' weight times the share of the name they make up (1 = covered). */
  score: number;
}

export class NameIndex {
  /** Token → the names containing it. */
  private readonly byTerm = new Map<string, number[]>();
  private readonly docs: number[] = [];
  /** Each name's content tokens needed to cover it: its initials are not. */
  private readonly sizes: number[] = [];
  private readonly initials: (ReadonlySet<string> | null)[] = [];
  /** Each name's number of words with a content token (a word yields a token per language). */
  private readonly wordCounts: number[] = [];
  /** Each name as written (the string the caller already holds), for the fuzzy lane to show. */
  private readonly spellings: string[] = [];

  constructor(private readonly tokenize: Tokenizer) {}

  /** Adds one name of a note (its title, file name or an alias). */
  add(doc: number, name: string): void {
    const analyzed = analyzeQuery(name, this.tokenize);
    const terms = [...new Set(analyzed.content)];
    if (terms.length === 0) return;
    const initials = terms.filter((term) => isInitial(analyzed.words[analyzed.wordOf.get(term)!]!));
    const id = this.docs.length;
    this.docs.push(doc);
    // An initial (`W` of `Tomasz W`, `J.` of `J. Smith`) is matched but not needed to cover the name.
    this.initials.push(initials.length > 0 && initials.length < terms.length ? new Set(initials) : null);
    this.sizes.push(terms.length - (this.initials[id]?.size ?? 0));
    this.spellings.push(name);
    this.wordCounts.push(new Set(terms.map((term) => analyzed.wordOf.get(term))).size);
    for (const term of terms) {
      let names = this.byTerm.get(term);
      if (!names) this.byTerm.set(term, (names = []));
      names.push(id);
    }
  }

  /** Every token some name holds (the fuzzy lane's dictionary). */
  terms(): IterableIterator<string> {
    return this.byTerm.keys();
  }

  /** The names holding a token, by id. */
  namesWith(term: string): readonly number[] {
    return this.byTerm.get(term) ?? [];
  }

  /** A name's note. */
  docOf(id: number): number {
    return this.docs[id]!;
  }

  /** A name's number of words (with a content token). */
  wordsIn(id: number): number {
    return this.wordCounts[id]!;
  }

  /** A name as written. */
  spellingOf(id: number): string {
    return this.spellings[id]!;
  }

  /**
   * Each note with a name sharing a query token, scored Σ weight(shared) × shared / size, initials
   * counted in the weight but not in the share — the note's best name. A covered name scores its full weight; at most the query's own weight.
   */
  shared(queryTerms: readonly string[], weightOf: (term: string) => number): SharedName[] {
    const hits = new Map<number, string[]>();
    for (const term of new Set(queryTerms)) {
      for (const id of this.byTerm.get(term) ?? []) {
        const terms = hits.get(id);
        if (terms) terms.push(term);
        else hits.set(id, [term]);
      }
    }
    const best = new Map<number, SharedName>();
    for (const [id, terms] of hits) {
      let weight = 0;
      let covering = 0;
      for (const term of terms) {
        weight += weightOf(term);
        if (!this.initials[id]?.has(term)) covering++;
      }
      const score = (weight * covering) / this.sizes[id]!;
      const doc = this.docs[id]!;
      if (score > (best.get(doc)?.score ?? 0)) best.set(doc, { doc, terms, score });
    }
    return [...best.values()];
  }
}

/** A one-letter word, with or without its period: an initial in a name. */
function isInitial(word: string): boolean {
  return /^\p{L}\.?$/u.test(word);
}
