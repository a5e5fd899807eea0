/**
 * Languages of the keyword lane: which language a note is written in, and that language's stop
 * words and stemmer. A Portuguese note stemmed with English rules keeps `estudos` and `estudar`
 * apart; with Portuguese Snowball both are `estud`, so a query in either form finds the other.
 *
 * English stays exactly as it was measured best (Porter2 and Lucene's short stop list). The
 * other languages take the Snowball algorithms (`snowball-stemmers`) and the Snowball stop
 * lists, which are the ones each Snowball stemmer was designed with (from `lunr-languages`; the
 * Russian one from `stopword`, which ships Snowball's Russian list: lunr's has content words
 * such as `близко`). Nothing here is a hand-written table.
 */
import { createRequire } from 'node:module';
import { stem as porter2 } from 'porter2';
import type { Note } from '../vault/index.js';
import { ENGLISH_STOP_WORDS, scanWordSpans } from './tokenizer.js';
import { WordTable } from './word-table.js';

export const LANGUAGES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
/** A note that shows no language clearly (a title, a list of links, code) is taken as English. */
export const DEFAULT_LANGUAGE: Language = 'en';

const require = createRequire(import.meta.url);

const SNOWBALL_NAMES: Record<Exclude<Language, 'en'>, string> = {
  pt: 'portuguese',
  es: 'spanish',
  fr: 'french',
  de: 'german',
  it: 'italian',
  nl: 'dutch',
  ru: 'russian',
};

/** Other names a frontmatter `lang` may use: ISO 639-2/3 codes and the languages' own and English names. */
const ALIASES: Record<Language, readonly string[]> = {
  en: ['eng', 'english', 'inglês', 'ingles'],
  pt: ['por', 'portuguese', 'português', 'portugues'],
  es: ['spa', 'spanish', 'español', 'espanol', 'castellano'],
  fr: ['fra', 'fre', 'french', 'français', 'francais'],
  de: ['deu', 'ger', 'german', 'deutsch'],
  it: ['ita', 'italian', 'italiano'],
  nl: ['nld', 'dut', 'dutch', 'nederlands'],
  ru: ['rus', 'russian', 'русский'],
};
const BY_NAME = new Map<string, Language>(LANGUAGES.flatMap((language) => [[language, language], ...ALIASES[language].map((alias) => [alias, language] as [string, Language])]));

/**
 * The language a frontmatter value names (`pt`, `pt-BR`, `pt_BR`, `Portuguese`, `por`), or
 * null when it names none this lane analyses: the caller then detects the language instead.
 */
export function normalizeLanguage(value: unknown): Language | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().toLowerCase();
  return BY_NAME.get(name) ?? BY_NAME.get(name.split(/[-_]/)[0]!) ?? null;
}

/** lunr-languages registers each language on a `lunr` object; this one only keeps the stop lists. */
function lunrStopLists(): Record<string, readonly string[]> {
  const lists: Record<string, readonly string[]> = {};
  const lunr: Record<string, unknown> = {
    Pipeline: { registerFunction: () => undefined },
    trimmerSupport: { generateTrimmer: () => () => undefined },
    generateStopWordFilter: (words: string[]) => ({ words: words.filter(Boolean) }),
  };
  (require('lunr-languages/lunr.stemmer.support.js') as (lunr: unknown) => void)(lunr);
  for (const language of ['pt', 'es', 'fr', 'de', 'it', 'nl']) {
    (require(`lunr-languages/lunr.${language}.js`) as (lunr: unknown) => void)(lunr);
    lists[language] = (lunr[language] as { stopWordFilter: { words: string[] } }).stopWordFilter.words;
  }
  return lists;
}

let stopLists: Record<Language, readonly string[]> | null = null;

/** The language's stop words, as written (with accents): folded by the tokenizer. */
export function stopWordsOf(language: Language): readonly string[] {
  if (stopLists === null) {
    const lunr = lunrStopLists();
    const stopword = require('stopword') as Record<string, string[]>;
    stopLists = { en: ENGLISH_STOP_WORDS, pt: lunr.pt!, es: lunr.es!, fr: lunr.fr!, de: lunr.de!, it: lunr.it!, nl: lunr.nl!, ru: stopword.rus! };
  }
  return stopLists[language];
}

/**
 * The language's stemmer, for a lower-cased word with its accents (Snowball's rules read them:
 * Portuguese `ações` and `ação` meet only before the accents are folded away).
 */
export function stemmerOf(language: Language): (word: string) => string {
  if (language === 'en') return porter2;
  const snowball = require('snowball-stemmers') as { newStemmer(name: string): { stem(word: string): string } };
  const stemmer = snowball.newStemmer(SNOWBALL_NAMES[language]);
  return (word) => stemmer.stem(word);
}

/**
 * Detection by a stop-word profile: function words make up a large share of any running text
 * and differ between languages, so counting them tells the language of a paragraph reliably
 * and in a few microseconds (a trigram detector such as tinyld took 4.6 ms a note: 46 s for
 * 10k notes). A word several languages share (`a`, `de`, `que`) counts for each of them in
 * equal parts. The lists are wider than the stop lists for English (Lucene's is 33 words),
 * so each language's profile is its Snowball list or `stopword`'s, of comparable size.
 */
interface Profile {
  /** Per language index in LANGUAGES: the weight a word adds. */
  weights: Float64Array;
}

let profile: Map<string, Profile> | null = null;

function detectionProfile(): Map<string, Profile> {
  if (profile !== null) return profile;
  const stopword = require('stopword') as Record<string, string[]>;
  const byWord = new Map<string, Set<number>>();
  LANGUAGES.forEach((language, index) => {
    const words = language === 'en' ? stopword.eng! : stopWordsOf(language);
    for (const word of words) {
      const key = word.toLowerCase();
      if (!byWord.has(key)) byWord.set(key, new Set());
      byWord.get(key)!.add(index);
    }
  });
  profile = new Map();
  for (const [word, languages] of byWord) {
    const weights = new Float64Array(LANGUAGES.length);
    for (const index of languages) weights[index] = 1 / languages.size;
    profile.set(word, { weights });
  }
  return profile;
}

/** Bump when detection changes: every note's language (and so its terms) is derived again. */
export const DETECTION_VERSION = 1;

/** Characters of a note read for detection: the opening paragraphs tell the language. */
const DETECT_CHARS = 1000;
/**
 * Evidence a language needs: a least weight, a share of the words read (running text is about
 * 40 % function words; names, code and made-up words that happen to be Italian `vi` or `lo`
 * are a few per cent), and a lead over English before a text is not English.
 */
const MIN_EVIDENCE = 3;
const MIN_SHARE = 0.15;
const LEAD_OVER_ENGLISH = 1.5;

/**
 * Letters that only some of the languages write, as evidence of the same weight as a function
 * word: short notes (a definition, a list of links) have few function words, and Portuguese
 * `execução` or German `Größe` tell their language at once. A letter several languages share
 * counts for each in equal parts, as words do.
 */
const LETTER_EVIDENCE: ReadonlyMap<number, readonly [Language, number][]> = new Map(
  [
    ['ã', [['pt', 1]]],
    ['õ', [['pt', 1]]],
    ['ñ', [['es', 1]]],
    ['ß', [['de', 1]]],
    ['ä', [['de', 1]]],
    ['ö', [['de', 1]]],
    [
      'ç',
      [
        ['pt', 0.5],
        ['fr', 0.5],
      ],
    ],
    [
      'ê',
      [
        ['pt', 0.5],
        ['fr', 0.5],
      ],
    ],
    [
      'è',
      [
        ['fr', 0.5],
        ['it', 0.5],
      ],
    ],
    ['ì', [['it', 1]]],
    ['ò', [['it', 1]]],
  ].map(([letter, weights]) => [(letter as string).charCodeAt(0), weights as [Language, number][]]),
);

/**
 * The language of a text by its function words and telling letters, or null when it shows none
 * clearly. Words are looked up by their hash in a table (no string per repeated word).
 */
export function detectLanguage(text: string, words: WordTable<Profile | null> = sharedWords): Language | null {
  const scores = new Float64Array(LANGUAGES.length);
  // Most notes tell their language in their first lines: read more only when those do not.
  let count = scoreSample(text, 0, Math.min(text.length, FIRST_CHARS), scores, words);
  let best = leader(scores);
  if (text.length > FIRST_CHARS && !(scores[best]! >= DECISIVE && scores[best]! >= 2 * runnerUp(scores, best))) {
    count += scoreSample(text, FIRST_CHARS, Math.min(text.length, DETECT_CHARS), scores, words);
    best = leader(scores);
  }
  if (scores[best]! < MIN_EVIDENCE || scores[best]! < MIN_SHARE * count) return null;
  if (best !== 0 && scores[best]! < LEAD_OVER_ENGLISH * scores[0]!) return null;
  return LANGUAGES[best]!;
}

/** Characters read first, and the weight that settles the language there (with twice the runner-up's). */
const FIRST_CHARS = 400;
const DECISIVE = 8;

/** Adds the profile weights of `text[from, to)` (cut at a word boundary) to `scores`; returns the words read. */
function scoreSample(text: string, from: number, to: number, scores: Float64Array, words: WordTable<Profile | null>): number {
  const table = detectionProfile();
  // Whole words only: back `from` and `to` off to the space before them.
  while (from > 0 && from < to && !isSpace(text.charCodeAt(from - 1))) from++;
  while (to < text.length && to > from && !isSpace(text.charCodeAt(to))) to--;
  const sample = text.slice(from, to);
  let count = 0;
  scanWordSpans(sample, (start, stop, hash) => {
    count++;
    const entry = words.lookup(sample, start, stop, (word) => table.get(word.toLowerCase()) ?? null, hash);
    if (entry === null) return;
    for (let i = 0; i < scores.length; i++) scores[i]! += entry.weights[i]!;
  });
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code < 0xe0 || code > 0xff) continue;
    for (const [language, weight] of LETTER_EVIDENCE.get(code) ?? []) scores[LANGUAGE_INDEX[language]]! += weight;
  }
  return count;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

function leader(scores: Float64Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  return best;
}

function runnerUp(scores: Float64Array, best: number): number {
  let second = 0;
  for (let i = 0; i < scores.length; i++) if (i !== best && scores[i]! > second) second = scores[i]!;
  return second;
}

const LANGUAGE_INDEX = Object.fromEntries(LANGUAGES.map((language, index) => [language, index])) as Record<Language, number>;
const sharedWords = new WordTable<Profile | null>();

/** The frontmatter keys that name a note's language. */
const LANGUAGE_KEYS = ['lang', 'language'];

/**
 * A note's language: its frontmatter `lang` or `language` when that names a language analysed
 * here; otherwise detected from its text; otherwise English. An unknown value (`lang: klingon`)
 * is not an error: the text still tells.
 */
export function noteLanguage(note: Pick<Note, 'frontmatter'>, text: string): Language {
  for (const key of LANGUAGE_KEYS) {
    const declared = normalizeLanguage(note.frontmatter?.[key]);
    if (declared !== null) return declared;
  }
  return detectLanguage(text) ?? DEFAULT_LANGUAGE;
}
