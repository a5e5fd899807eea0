/**
 * Phrases that ask something of the notes rather than name what they hold: "the latest …" asks
 * for the newest, "what is still open on …" for unfinished tasks. Each reading keeps its
 * phrases per language (`|` parting them); this finds them in a query's words.
 */
import { foldToken } from './tokenizer.js';

/** Folded first word → the phrases (folded words) it begins, longest first. */
export type PhraseTable = ReadonlyMap<string, readonly (readonly string[])[]>;

/** The table of phrases listed per language (`{ en: 'latest | most recent', … }`). */
export function phraseTable(lists: Readonly<Record<string, string>>): PhraseTable {
  const table = new Map<string, string[][]>();
  for (const list of Object.values(lists)) {
    for (const phrase of list.split('|')) {
      // Folded as a query's words are (`foldWords`), so "haven't" meets `haven’t` too.
      const words = foldWords(phrase.trim().split(' '));
      const known = table.get(words[0]!) ?? [];
      if (!known.some((other) => other.join(' ') === words.join(' '))) known.push(words);
      table.set(
        words[0]!,
        known.sort((x, y) => y.length - x.length),
      );
    }
  }
  return table;
}

/**
 * A query's words as phrases are matched: folded, the typographic apostrophe written plain, and a
 * short elided article or pronoun taken off (`l'ultima`, `qu'il`), but not an English
 * contraction's stem (`can't`, `isn't`, `it's` stay whole). Most words have no apostrophe: the
 * regular expressions run only on those that do.
 */
export function foldWords(words: readonly string[]): string[] {
  return words.map((word) => {
    const bare = foldToken(word);
    if (!bare.includes("'") && !bare.includes('\u2019')) return bare;
    const plain = bare.replaceAll('\u2019', "'");
    return CONTRACTION.test(plain) ? plain : plain.replace(ELIDED, '');
  });
}

/** An English contraction's tail: `n't`, `'s`, `'re`, `'ve`, `'ll`, `'d`, `'m`. */
const CONTRACTION = /'(?:t|s|re|ve|ll|d|m)$/u;
/** An elided article or pronoun before a word: `l'`, `d'`, `qu'`, `dell'`. */
const ELIDED = /^\p{L}{1,4}'/u;

/** A phrase found in a query: its first and last word, and its text as written. */
export interface AskedPhrase {
  first: number;
  last: number;
  text: string;
}

/**
 * The phrases of `table` in `words` (folded by `foldWords`), the longest at each word, none
 * overlapping; `accept` may turn one down by where it stands.
 */
export function phrasesIn(words: readonly string[], folded: readonly string[], table: PhraseTable, accept: (first: number, last: number) => boolean): AskedPhrase[] {
  const asked: AskedPhrase[] = [];
  for (let i = 0; i < folded.length; i++) {
    const phrase = table.get(folded[i]!)?.find((candidate) => candidate.every((word, at) => folded[i + at] === word));
    if (phrase === undefined) continue;
    const end = i + phrase.length - 1;
    if (!accept(i, end)) continue;
    asked.push({ first: i, last: end, text: words.slice(i, end + 1).join(' ') });
    i = end;
  }
  return asked;
}

/** How many distinct asking phrases a notice names before counting the rest (a pasted text full of them). */
const SAID_PHRASES = 5;

/**
 * The phrases found, as a notice names them: each once (as first written; `ultima` and `última`
 * are one), at most `SAID_PHRASES` joined, and how many more there were.
 */
export function phrasesSaid(asked: readonly AskedPhrase[]): { text: string; more: number } {
  const distinct = new Map<string, string>();
  for (const { text } of asked) if (!distinct.has(foldToken(text))) distinct.set(foldToken(text), text);
  const texts = [...distinct.values()];
  return { text: texts.slice(0, SAID_PHRASES).join(', '), more: Math.max(0, texts.length - SAID_PHRASES) };
}

/** A notice's quotation of the phrases: `"latest, newest"`, `"a, b, c, d, e" and 3 more`. */
export function quotedPhrases(said: { text: string; more: number }): string {
  return `"${said.text}"${said.more > 0 ? ` and ${said.more} more` : ''}`;
}
