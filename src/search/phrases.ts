/**
 * The two pieces of search syntax people and agents reach for first: a "quoted phrase" (these
 * words, in this order, side by side) and a -word to leave out (`lisbon -paris`). Both are read
 * out of the query before it is analyzed; what is left is ranked as before. Pure: text in,
 * syntax and verdicts out; which notes hold a phrase is found by the search engine with
 * `holdsPhrase` over the few notes holding all its words.
 *
 * A phrase orders, it does not filter: notes holding it come before notes holding only its
 * words, so a phrase written slightly differently in the note it was meant for (a line break,
 * a hyphen, another word between) still finds that note. An exclusion filters: a note holding
 * the word is never returned, by any lane.
 */
import type { QueryScope } from './filters.js';
import { foldToken, type Tokenizer } from './tokenizer.js';

export interface QuotedSpan {
  from: number;
  to: number;
}

export interface QuerySyntax {
  /** The query to rank by: quotes dropped (their words kept), exclusions removed. */
  text: string;
  /** Quoted phrases of two or more words, as written. */
  phrases: string[];
  /**
   * Where `text` holds quoted words, one or more (character ranges, end exclusive): searched as
   * words, never read as asking for something (a date, the newest, what is open).
   */
  quoted: QuotedSpan[];
  /** Words and quoted phrases written after a `-`, as written. */
  excluded: string[];
  /** Obsidian's search operators `tag:`, `path:` and `file:` (a `-` before one leaves its notes out). */
  scopes: QueryScope[];
  /** Operators written with no value (`tag:` alone), as written: left out of the text, for a notice to name. */
  empty?: string[];
}

/** Opening quote → the closing quotes that end it (typographic pairs, and the straight quote for any). */
const QUOTES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['“', '”"'],
  ['„', '“”"'],
  ['«', '»'],
]);

const SYNTAX = /["“„«-]|(?:tag|path|file):/iu;
const LETTER = /\p{L}/u;
const SPACE = /\s/u;

/**
 * Reads the syntax out of a query. A `-` marks an exclusion only at the start of a word (after
 * whitespace, or first) and before a letter or a quote: `e-mail`, `-5 °C` and `--verbose` stay
 * text. A quote without its closing quote is text too.
 */
export function parseQuerySyntax(query: string): QuerySyntax {
  // Most queries have neither: they are searched exactly as written.
  if (!SYNTAX.test(query)) return { text: query, phrases: [], quoted: [], excluded: [], scopes: [] };
  const text: string[] = [];
  const phrases: string[] = [];
  // Quoted spans in the text as pushed (before its white space is collapsed).
  const spans: QuotedSpan[] = [];
  let length = 0;
  const excluded: string[] = [];
  const scopes: QueryScope[] = [];
  const empty: string[] = [];
  const unclosed = new Map<string, number>();
  let i = 0;
  while (i < query.length) {
    const char = query[i]!;
    const atWordStart = i === 0 || SPACE.test(query[i - 1]!);
    const scope = atWordStart ? scopeAt(query, i, unclosed) : null;
    if (scope) {
      if (scope.scope.value === '') empty.push(query.slice(i, scope.end).trim());
      else scopes.push(scope.scope);
      text.push(' ');
      length++;
      i = scope.end;
      continue;
    }
    const next = query[i + 1] ?? '';
    if (char === '-' && atWordStart && (LETTER.test(next) || QUOTES.has(next))) {
      const quoted = QUOTES.has(next) ? quotedAt(query, i + 1, unclosed) : null;
      const end = quoted ? quoted.end : wordEnd(query, i + 1);
      const written = (quoted ? quoted.inner : query.slice(i + 1, end)).trim();
      if (phraseWords(written).length > 0) excluded.push(written);
      text.push(' ');
      length++;
      i = end;
      continue;
    }
    const quoted = QUOTES.has(char) ? quotedAt(query, i, unclosed) : null;
    if (quoted) {
      const inner = quoted.inner.trim();
      if (phraseWords(inner).length > 1 && !phrases.includes(inner)) phrases.push(inner);
      if (inner !== '') spans.push({ from: length + 1, to: length + 1 + quoted.inner.length });
      text.push(' ', quoted.inner, ' ');
      length += quoted.inner.length + 2;
      i = quoted.end;
      continue;
    }
    text.push(char);
    length += char.length;
    i++;
  }
  return { ...collapsed(text.join(''), spans), phrases, excluded, scopes, ...(empty.length > 0 ? { empty } : {}) };
}

/**
 * The text with its white space collapsed to single spaces and trimmed, and the quoted spans
 * moved with it (a span's own inner white space collapses too).
 */
function collapsed(raw: string, spans: readonly QuotedSpan[]): { text: string; quoted: QuotedSpan[] } {
  // Where each character of `raw` lands in the text (a dropped space: at most where the next character lands).
  const at = new Int32Array(raw.length + 1);
  let text = '';
  let space = false;
  for (let i = 0; i < raw.length; i++) {
    at[i] = text.length + (space && text.length > 0 ? 1 : 0);
    if (SPACE.test(raw[i]!)) {
      space = true;
      continue;
    }
    if (space && text.length > 0) text += ' ';
    space = false;
    text += raw[i];
  }
  at[raw.length] = text.length;
  // A span's ends land on its first word's start and at most on the next word's start: it holds exactly its words.
  return { text, quoted: spans.map(({ from, to }) => ({ from: at[from]!, to: at[to]! })) };
}

const OPERATOR = /(-?)(tag|path|file):/iy;

/**
 * An operator with its value (`tag:#travel`, `path:"Daily notes"`, `-file:draft`) at `at`, or
 * null. A quote its value opens and never closes is no part of it (`path:"Claude` is the folder
 * `Claude`); an operator with no value at the query's end (`Harbor tag:`) or empty quotes
 * (`tag:""`) has the value ''.
 */
function scopeAt(query: string, at: number, unclosed: Map<string, number>): { scope: QueryScope; end: number } | null {
  OPERATOR.lastIndex = at;
  const match = OPERATOR.exec(query);
  if (match === null) return null;
  const from = at + match[0].length;
  const opens = QUOTES.has(query[from] ?? '');
  const quoted = opens ? quotedAt(query, from, unclosed) : null;
  const end = quoted ? quoted.end : wordEnd(query, from);
  const value = (quoted ? quoted.inner : query.slice(opens ? from + 1 : from, end)).trim();
  // Before a space, "file:" is prose ("cannot open file: permission denied"); at the end, or with empty quotes, an operator left unfinished.
  if (value === '' && quoted === null && query.slice(end).trim() !== '') return null;
  return { scope: { key: match[2]!.toLowerCase() as QueryScope['key'], value, negated: match[1] === '-' }, end };
}

/**
 * The quoted span opening at `at`: its inner text and where it ends (past the closing quote), or
 * null when it is not closed. `unclosed` remembers, per opening quote, where a scan found no
 * closing one — none follows any later opening either — so a query of 10,000 lone `“` is read
 * in one pass, not 10,000.
 */
function quotedAt(query: string, at: number, unclosed: Map<string, number>): { inner: string; end: number } | null {
  const opener = query[at]!;
  if ((unclosed.get(opener) ?? query.length) <= at) return null;
  const closers = QUOTES.get(opener)!;
  for (let j = at + 1; j < query.length; j++) {
    if (closers.includes(query[j]!)) return { inner: query.slice(at + 1, j), end: j + 1 };
  }
  unclosed.set(opener, at);
  return null;
}

function wordEnd(query: string, from: number): number {
  let end = from;
  while (end < query.length && !SPACE.test(query[end]!)) end++;
  return end;
}

/** Words as a phrase compares them: runs of letters, digits and marks (`self-hosted` is two, `don't` one). */
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;

export function phraseWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Whether two words are one for a phrase: the same after case and accent folding, or sharing a
 * term (`operators` holds `operator`; in a vault of several languages, any language's reading).
 * Made once per phrase: each phrase word's folded form and terms are computed once.
 */
export type WordMatcher = (phraseWord: number, word: string) => boolean;

export function wordMatcher(words: readonly string[], tokenize: Tokenizer): WordMatcher {
  const folded = words.map(foldToken);
  const terms = folded.map((word) => new Set(tokenize.expand(word)));
  return (w, word) => {
    const target = folded[w]!;
    const fold = foldToken(word);
    if (fold === target) return true;
    // Stemming keeps a word's first letter: most words are told apart without being tokenized.
    if (fold[0] !== target[0] || terms[w]!.size === 0) return false;
    for (const term of tokenize.expand(fold)) if (terms[w]!.has(term)) return true;
    return false;
  };
}

/**
 * Whether `text` holds the phrase: its words in order, side by side (punctuation and line
 * breaks between them allowed). Chinese and Japanese have no spaces between words, so a phrase
 * in them is looked for as written, spaces removed.
 */
export function holdsPhrase(text: string, words: readonly string[], same: WordMatcher): boolean {
  if (words.length === 0) return false;
  if (words.some((word) => CJK.test(word))) return text.normalize('NFC').toLowerCase().includes(words.join('').normalize('NFC').toLowerCase());
  const found = text.match(WORD);
  if (found === null) return false;
  for (let start = 0; start + words.length <= found.length; start++) {
    let w = 0;
    while (w < words.length && same(w, found[start + w]!)) w++;
    if (w === words.length) return true;
  }
  return false;
}

/** Notes whose text is read to confirm a phrase at most (the rest are not looked at, and a notice says so). */
export const PHRASE_CHECKS = 2000;

export interface PhraseSources {
  tokenize: Tokenizer;
  index: { documentCount: number; forEachDocumentWith(term: string, visit: (doc: number) => void): void; documentFrequency(term: string): number };
  /** A note's name and text, or null when it cannot be read. */
  textOf(doc: number): string | null;
}

/**
 * The notes holding a phrase (or one excluded word): the notes holding a term of each of its
 * words are found in the index, and only their text is read. Words the tokenizer drops (`do`,
 * `the`) narrow nothing but must still stand in their place. A phrase of such words alone
 * holds nothing here: the keyword lane has nothing to rank it by either, and the substring lane
 * finds it as written.
 */
export function notesHolding(phrase: string, sources: PhraseSources, limit = PHRASE_CHECKS): { docs: Set<number>; capped: boolean } {
  const words = phraseWords(phrase);
  const docs = new Set<number>();
  const { tokenize, index } = sources;
  const seen = new Int32Array(index.documentCount);
  let narrowing = 0;
  for (const word of words) {
    const terms = tokenize.expand(foldToken(word));
    // A word some language of the vault stops is not in that language's notes' terms.
    if (terms.length === 0 || tokenize.isStopWord(word)) continue;
    if (!terms.some((term) => index.documentFrequency(term) > 0)) return { docs, capped: false };
    // `seen[d]` counts the words so far with a term in note d (each word once).
    const next = narrowing + 1;
    for (const term of terms) {
      index.forEachDocumentWith(term, (d) => {
        if (seen[d] === narrowing) seen[d] = next;
      });
    }
    narrowing = next;
  }
  if (narrowing === 0) return { docs, capped: false };
  const same = wordMatcher(words, tokenize);
  let checked = 0;
  for (let d = 0; d < seen.length; d++) {
    if (seen[d] !== narrowing) continue;
    if (checked++ === limit) return { docs, capped: true };
    const text = sources.textOf(d);
    if (text !== null && holdsPhrase(text, words, same)) docs.add(d);
  }
  return { docs, capped: false };
}
