/**
 * The tokenizer, shared by indexing and querying so both sides always agree. Unicode letters
 * and digits; case and accent folding; English stop words and Porter2 stemming (both
 * configurable); CJK runs as character bigrams; code identifiers searchable both whole and in
 * parts (`snake_case` → `snake`, `case`, `snake_case`; `getUserName` → `get`, `user`, `name`,
 * `getusername`; `INC-212` → `inc`, `212`, `inc-212`). A `#tag` yields its words, so `#atlas`
 * finds notes tagged `atlas`.
 */
import porter2 from 'wink-porter2-stemmer';

/** Lucene's English stop words: measured best on SciFact with Porter stemming (research/corpora.md). */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
];

export interface TokenizerOptions {
  /** Porter2 stemming of Latin-script words (default true). */
  stem: boolean;
  /** Folded words dropped from index and query (default: Lucene's English list). */
  stopWords: readonly string[];
  /** Also emit joined forms of `a-b`, `a_b`, `a.b` and camelCase words (default true). */
  compounds: boolean;
}

export const DEFAULTS: TokenizerOptions = { stem: true, stopWords: ENGLISH_STOP_WORDS, compounds: true };

export type Tokenizer = (text: string, out?: string[]) => string[];

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const WORD = String.raw`[\p{L}\p{N}\p{M}]`;
/** A CJK run, or a word with inner `_ - . ' ’` joins (`inc-212`, `v1.2`, `don't`). */
const TOKEN = new RegExp(String.raw`[${CJK}]+|(?:(?![${CJK}])${WORD})+(?:[_\-.'’](?:(?![${CJK}])${WORD})+)*`, 'gu');
const CJK_RUN = new RegExp(`^[${CJK}]`, 'u');
const JOINS = /[_\-.'’]/;
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const MARKS = /\p{M}/gu;
const ASCII_WORD = /^[a-z]+$/;

/** Lower-case and strip accents: `Núñez` → `nunez`. Idempotent. */
export function foldToken(token: string): string {
  // Fast path: ASCII needs only lower-casing.
  if (/^[\x00-\x7f]*$/.test(token)) return token.toLowerCase();
  return token.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFC');
}

export function createTokenizer(options: Partial<TokenizerOptions> = {}): Tokenizer {
  const settings = { ...DEFAULTS, ...options };
  const stop = new Set(settings.stopWords.map(foldToken));
  const stems = new Map<string, string>();
  const stem = (word: string): string => {
    if (!settings.stem || word.length < 3 || !ASCII_WORD.test(word)) return word;
    let stemmed = stems.get(word);
    if (stemmed === undefined) {
      stemmed = porter2(word);
      if (stems.size < 200_000) stems.set(word, stemmed);
    }
    return stemmed;
  };
  const emit = (raw: string, out: string[]): void => {
    const folded = foldToken(raw);
    if (folded === '' || stop.has(folded)) return;
    out.push(stem(folded));
  };

  return (text, out = []) => {
    TOKEN.lastIndex = 0;
    for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
      const token = match[0];
      if (CJK_RUN.test(token)) {
        emitBigrams(token, out);
        continue;
      }
      let word = token;
      // A possessive or contraction tail (`Maya's`, `don't`) is not a word of its own.
      const tail = /['’]\p{L}{1,2}$/u.exec(word);
      if (tail) word = word.slice(0, tail.index);
      const pieces = JOINS.test(word) ? word.split(/[_\-.'’]+/) : [word];
      let parts = 0;
      for (const piece of pieces) {
        for (const part of settings.compounds ? piece.split(CAMEL) : [piece]) {
          emit(part, out);
          parts++;
        }
      }
      // The whole word goes through the same folding and stemming as any word, so a query that
      // spells it in one piece (`getusername`) meets it.
      if (settings.compounds && parts > 1) emit(word, out);
    }
    return out;
  };
}

function emitBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** A short stable signature of the options: stored tokens are rebuilt when it changes. */
export function tokenizerSignature(options: Partial<TokenizerOptions> = {}): string {
  const settings = { ...DEFAULTS, ...options };
  return JSON.stringify({ v: 1, stem: settings.stem, compounds: settings.compounds, stop: [...settings.stopWords].sort() });
}
