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
import { spellingGroups, type Tokenizer } from './tokenizer.js';

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
  /** Each name's tokens needed to cover it, counting a token's spellings in several languages once; optional ones are not needed. */
  private readonly sizes: number[] = [];
  /** Tokens a name holds but a query need not: initials, and words one of the vault's languages stops (`de` in a Portuguese name). */
  private readonly optional: (ReadonlySet<string> | null)[] = [];
  /** Token → its group of spellings, for names with a token spelled differently by the vault's languages (else null: a group each). */
  private readonly groups: (ReadonlyMap<string, number> | null)[] = [];
  /** Each name's number of words with a content token (a word yields a token per language). */
  private readonly wordCounts: number[] = [];
  /** Each name as written (the string the caller already holds), for the fuzzy lane to show. */
  private readonly spellings: string[] = [];

  /** `languages`: the vault's, so a name is read as its queries are (`QueryReading`). */
  constructor(
    private readonly tokenize: Tokenizer,
    private readonly languages?: readonly string[],
  ) {}

  /** Adds one name of a note (its title, file name or an alias). */
  add(doc: number, name: string): void {
    const analyzed = analyzeQuery(name, this.tokenize, this.languages === undefined ? {} : { languages: this.languages });
    // Pictographs (`🕰️ Ocasionalismo`, common in Notion exports) decorate a name; no one asks for them.
    const terms = [...new Set(analyzed.content)].filter((term) => LETTER_OR_DIGIT.test(term));
    if (terms.length === 0) return;
    const optional = terms.filter((term) => {
      const word = analyzed.words[analyzed.wordOf.get(term)!]!;
      return isInitial(word) || this.tokenize.isStopWord(word);
    });
    const id = this.docs.length;
    this.docs.push(doc);
    // An initial (`W` of `Tomasz W`, `J.` of `J. Smith`) is matched but not needed to cover the name.
    this.optional.push(optional.length > 0 && optional.length < terms.length ? new Set(optional) : null);
    const groups = this.spellingGroups(analyzed.words, terms);
    this.groups.push(groups);
    this.sizes.push(
      distinct(
        terms.filter((term) => !this.optional[id]?.has(term)),
        groups,
      ),
    );
    this.spellings.push(name);
    this.wordCounts.push(new Set(terms.map((term) => analyzed.wordOf.get(term))).size);
    for (const term of terms) {
      let names = this.byTerm.get(term);
      if (!names) this.byTerm.set(term, (names = []));
      names.push(id);
    }
  }

  /**
   * The name's tokens grouped by spelling (`Ocasionalismo` → `ocasionalismo` and `ocasional` in
   * an English and Portuguese vault: one word, not two of which a query can share half), or null
   * when every token is its own group.
   */
  private spellingGroups(words: readonly string[], terms: readonly string[]): ReadonlyMap<string, number> | null {
    const groups = spellingGroups(this.tokenize, words, terms);
    if (groups.every((group) => group.length === 1)) return null;
    return new Map(groups.flatMap((group, id) => group.map((term) => [term, id] as const)));
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
   * Each note with a name sharing a query token, scored Σ weight(shared) × shared / size, optional tokens
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
      const groups = this.groups[id] ?? null;
      // A token's spellings count once, with the weight of the heaviest.
      const weights = new Map<string | number, number>();
      for (const term of terms) {
        const key = groups?.get(term) ?? term;
        weights.set(key, Math.max(weights.get(key) ?? 0, weightOf(term)));
      }
      let weight = 0;
      for (const value of weights.values()) weight += value;
      const covering = distinct(
        terms.filter((term) => !this.optional[id]?.has(term)),
        groups,
      );
      const score = (weight * covering) / this.sizes[id]!;
      const doc = this.docs[id]!;
      if (score > (best.get(doc)?.score ?? 0)) best.set(doc, { doc, terms, score });
    }
    return [...best.values()];
  }
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A one-letter word, with or without its period: an initial in a name. */
function isInitial(word: string): boolean {
  return /^\p{L}\.?$/u.test(word);
}

/** How many tokens the terms are, a token's spellings (one group) counting once. */
function distinct(terms: readonly string[], groups: ReadonlyMap<string, number> | null): number {
  return groups === null ? terms.length : new Set(terms.map((term) => groups.get(term) ?? term)).size;
}
