/**
 * Spelling correction for query words no note contains: `fesetival` → `festival`, `obsidan` →
 * `obsidian`, `Canvs` → `Canvas`. A term the vault knows is never touched, so a query whose
 * words all occur ranks exactly as without this; a misspelt word, which would match nothing,
 * is searched as the indexed term nearest in edit distance (the most frequent of the nearest).
 *
 * Terms are the tokenizer's (stemmed) forms on both sides. Candidates come from padded
 * trigrams (`^fe`, `fes`, … `iv$`): one edit changes at most four of a word's trigrams (three
 * for an insertion, deletion or substitution, four for swapping two neighbours), so a term
 * within k edits shares at least `grams − 4k` of them (the q-gram lemma), and only those
 * are checked with a bounded Damerau–Levenshtein (optimal string alignment) distance. The
 * trigram table is built on the first misspelt query, not at start-up.
 */
import { boundedDistance } from './edit-distance.js';
import { isFunctionWord } from './query.js';
import { foldToken, scanWords } from './tokenizer.js';

export interface SpellingCorrection {
  /** The query term no note contains. */
  from: string;
  /** The indexed term searched instead. */
  to: string;
  edits: number;
  /** The word some note writes that the correction was read from, when it was (`nearestWritten`). */
  spelled?: string;
}

export const SPELLING_DEFAULTS = {
  /** Shorter terms are never corrected: at three letters almost every edit is another word. */
  minLength: 4,
  /** Terms this long or longer may be two edits away; shorter ones one. */
  twoEditsFrom: 8,
  /**
   * A term in more than this share of the notes is never a correction: it would rank nothing
   * (`canvs` is one edit from `can` as from `canvas`, and `can` is in nine notes of ten).
   */
  maxShare: 0.5,
};

/** Letters only (any script): numbers, codes and dates are not misspellings. */
const CORRECTABLE = /^\p{L}+$/u;

export class SpellingIndex {
  private grams: Map<string, Int32Array> | null = null;
  /** Per term (index into `terms`): how many of the query's trigrams it shares; reused. */
  private shared: Uint16Array | null = null;
  private readonly terms: string[];

  /**
   * @param terms every indexed term
   * @param frequencyOf how many notes contain a term: among equally near terms, the commonest wins
   * @param documentCount how many notes there are
   */
  constructor(
    terms: Iterable<string>,
    private readonly frequencyOf: (term: string) => number,
    documentCount: number,
    private readonly options: typeof SPELLING_DEFAULTS = SPELLING_DEFAULTS,
  ) {
    // A stem may be a letter shorter than the misspelt one (`loging` → `log`).
    const maxFrequency = documentCount * options.maxShare;
    this.terms = [...terms].filter((term) => term.length >= options.minLength - 1 && CORRECTABLE.test(term) && frequencyOf(term) <= maxFrequency);
  }

  /**
   * The indexed term nearest to `term`, or null when none is close enough (or `term` is not a
   * word). `fits`, when given, must accept a term for it to be chosen (the query's context).
   */
  correct(term: string, fits?: (candidate: string) => boolean): SpellingCorrection | null {
    if (term.length < this.options.minLength || !CORRECTABLE.test(term)) return null;
    const maxEdits = term.length >= this.options.twoEditsFrom ? 2 : 1;
    const grams = trigrams(term);
    const table = this.table();
    const shared = this.shared!;
    const touched: number[] = [];
    for (const gram of new Set(grams)) {
      const holders = table.get(gram);
      if (holders === undefined) continue;
      for (const t of holders) if (shared[t]!++ === 0) touched.push(t);
    }
    const needed = grams.length - 4 * maxEdits;
    let best: SpellingCorrection | null = null;
    let bestFrequency = 0;
    let bestExtends = false;
    for (const t of touched) {
      const count = shared[t]!;
      shared[t] = 0;
      const candidate = this.terms[t]!;
      if (count < needed || Math.abs(candidate.length - term.length) > maxEdits) continue;
      const edits = boundedDistance(term, candidate, best === null ? maxEdits : best.edits);
      if (edits > maxEdits || edits === 0) continue;
      const frequency = this.frequencyOf(candidate);
      const extends_ = candidate.startsWith(term);
      // The context is asked only of a term that would be chosen: it walks posting lists.
      if (best === null || edits < best.edits || (edits === best.edits && isBetter(extends_, frequency, candidate, bestExtends, bestFrequency, best.to))) {
        if (fits !== undefined && !fits(candidate)) continue;
        best = { from: term, to: candidate, edits };
        bestFrequency = frequency;
        bestExtends = extends_;
      }
    }
    return best;
  }

  /** Trigram → the terms holding it, built once. */
  private table(): Map<string, Int32Array> {
    if (this.grams !== null) return this.grams;
    const lists = new Map<string, number[]>();
    this.terms.forEach((term, t) => {
      for (const gram of new Set(trigrams(term))) {
        const list = lists.get(gram);
        if (list) list.push(t);
        else lists.set(gram, [t]);
      }
    });
    this.grams = new Map([...lists].map(([gram, list]) => [gram, Int32Array.from(list)]));
    this.shared = new Uint16Array(this.terms.length);
    return this.grams;
  }
}

/**
 * Among equally near terms: one the misspelt term begins (a word cut short: `canv` → `canva`, not
 * `cave`), then the commoner, then the first in code-point order.
 */
function isBetter(extendsTerm: boolean, frequency: number, term: string, bestExtends: boolean, bestFrequency: number, bestTerm: string): boolean {
  if (extendsTerm !== bestExtends) return extendsTerm;
  return frequency > bestFrequency || (frequency === bestFrequency && term < bestTerm);
}

/** The padded trigrams of a term, in order (`cat` → `^ca`, `cat`, `at$`). */
function trigrams(term: string): string[] {
  const padded = `^${term}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  return out;
}

/** English contractions: `aren't` leaves `aren`, which is no misspelling of `area`. */
const CONTRACTION = /['\u2019](?:t|s|re|ve|ll|d|m)$/i;

/**
 * Whether a word no note contains may be a misspelling: not a word some vault language stops
 * (`that's` is `that` to a language that does not stop it, and English stops `that`), not a
 * function word, not a contraction.
 */
function isCorrectable(written: string, terms: readonly string[], isStopWord: (word: string) => boolean): boolean {
  return !isStopWord(written) && !terms.some(isStopWord) && !isFunctionWord(written) && !CONTRACTION.test(written);
}

/** A query word no note contains, and the indexed term searched in its place. */
export interface WordCorrection extends SpellingCorrection {
  /** The word as the query wrote it. */
  word: string;
}

/**
 * The corrections a query needs: for each query word none of whose content terms the vault
 * knows, its best-corrected term (fewest edits, then the commonest). A word with any known
 * term is left alone (a compound's known part, or one language's stem in a vault of several),
 * and so is a word some language of the vault stops or reads as a function word: `that` is in
 * no English note's terms because English drops it, not because it is misspelt.
 */
export function correctQuery(
  /** `quoted`: the words inside the query's quotes, searched as written (never corrected), and `quotedTerms` their tokens, which no copy of the word outside the quotes corrects either. */
  query: { content: readonly string[]; wordOf: ReadonlyMap<string, number>; termWords?: ReadonlyMap<string, readonly number[]>; words: readonly string[]; quoted?: ReadonlySet<number>; quotedTerms?: ReadonlySet<string> },
  vault: {
    isKnown: (term: string) => boolean;
    isStopWord: (word: string) => boolean;
    /** Whether a candidate shares a note with the query's other words (the notes searched). */
    contextOf?: (others: readonly string[]) => (candidate: string) => boolean;
    /** Whether a candidate is in a note searched at all (a filter's), when the query has no other known word. */
    held?: (candidate: string) => boolean;
    /** A word one edit from the written one that some note writes, when no term is near (`nearestWritten`). */
    written?: (word: string, fits?: (candidate: string) => boolean) => SpellingCorrection | null;
    /** Whether a term begins a word of some note's name (`harb` of Harbor): a name being typed, not misspelt. */
    beginsAName?: (term: string) => boolean;
    /** Whether a word is a function word of the vault's languages, which no correction lands on (default: of any language). */
    isFunctionWord?: (word: string) => boolean;
  },
  spelling: Pick<SpellingIndex, 'correct'>,
): WordCorrection[] {
  // Each word with all its tokens, also those an earlier word yields too: in "queries query" the
  // second word's English stem is the first's, and only its other language's spelling is new.
  const byWord = new Map<number, string[]>();
  for (const term of new Set(query.content)) {
    for (const word of query.termWords?.get(term) ?? [query.wordOf.get(term) ?? -1]) {
      const terms = byWord.get(word);
      if (terms) terms.push(term);
      else byWord.set(word, [term]);
    }
  }
  const out: WordCorrection[] = [];
  // A word written twice ("harbr harbr") is one correction.
  const tried = new Set<string>();
  const isFunction = vault.isFunctionWord ?? isFunctionWord;
  for (const [word, terms] of byWord) {
    const key = terms.join(' ');
    if (tried.has(key)) continue;
    tried.add(key);
    const written = query.words[word];
    // A quoted word is taken as written, and so is its unquoted copy (`harbr "harbr"`): the token is one.
    if (written === undefined || query.quoted?.has(word) === true || terms.some((term) => query.quotedTerms?.has(term) === true || vault.isKnown(term)) || !isCorrectable(written, terms, vault.isStopWord)) continue;
    // The query's other words the vault knows: a correction must share a note with one of them.
    const others = vault.contextOf === undefined ? [] : query.content.filter((term) => !(query.termWords?.get(term) ?? [query.wordOf.get(term)]).includes(word) && vault.isKnown(term));
    const near = others.length === 0 ? vault.held : vault.contextOf!(others);
    // Never a function word of the vault's languages either: "four" is no misspelt "your" (but "warr" is English "war", a German function word).
    const fits = (candidate: string): boolean => !isFunction(candidate) && !vault.isStopWord(candidate) && (near?.(candidate) ?? true);
    let best: SpellingCorrection | null = null;
    for (const term of terms) {
      const correction = spelling.correct(term, fits);
      if (correction !== null && (best === null || correction.edits < best.edits)) best = correction;
    }
    const spelled = best === null ? (vault.written?.(written, fits) ?? null) : null;
    if (spelled !== null) best = { ...spelled, from: terms[0]! };
    // The start of a name ("Harb" of Harbor) is a name being typed: read as its own longer form
    // (`histor` → `histori`), not as another word (`harb` → `hard`), which the fuzzy lane would hide.
    if (best !== null && !(best.spelled ?? best.to).startsWith(best.from) && !best.to.startsWith(best.from) && vault.beginsAName?.(best.from) === true) continue;
    if (best !== null) out.push({ ...best, word: written });
  }
  return out;
}

/**
 * Folded Latin, Cyrillic and Greek letters, the ones a one-letter slip inserts or changes to
 * (besides the word's own), for a word holding any of them. Folded: no `é`, and no `й` or `ё`
 * (`foldToken` makes them `и` and `е`), but the letters folding keeps (`ß`, `ø`, `ł`, `і`, `ς`).
 */
const ALPHABETS: readonly [RegExp, string][] = [
  [/[a-zßøæœłđþ]/, 'abcdefghijklmnopqrstuvwxyzßøæœłđþ'],
  [/[а-яієґ]/, 'абвгдежзиклмнопрстуфхцчшщъыьэюяієґ'],
  [/[α-ω]/, 'αβγδεζηθικλμνξοπρςστυφχψω'],
];

/**
 * The spellings one edit from a folded word: a letter left out, two neighbours swapped, a
 * letter changed or put in (from the alphabet of the word's script and its own letters). About
 * 65 per letter of a Latin word.
 */
export function oneEditSpellings(word: string): Set<string> {
  const letters = [...new Set([...(ALPHABETS.find(([script]) => script.test(word))?.[1] ?? ''), ...word])];
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of letters) {
      out.add(head + letter + tail);
      if (tail.length > 0) out.add(head + letter + tail.slice(1));
    }
  }
  out.delete(word);
  return out;
}

/**
 * The shortest word `nearestWritten` reads as another: a word of five letters has a real word one
 * edit away too often (Portuguese `cofre` is English `core` less a letter), and what the stemmer
 * does not reach of a short word the nearest-term correction does.
 */
const WRITTEN_MIN_LENGTH = 6;
/** The longest: its spellings are about 55 per letter, each as long as it (a 10,000-letter "word" is no slip). */
const WRITTEN_MAX_LENGTH = 40;
/** Words of an alphabet: a run of Chinese or Japanese text is no word one letter off. */
const ALPHABETIC = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]+$/u;
/** Where a compound's parts join (`file-attachments`, `attachments.md`): each part is a word the note writes too. */
const JOINS = /[_\-.'\u2019]/;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The words the vault's notes write, folded (`Attachments` and `attachments` are one; so are
 * `válidas` and `validas`), each with a spelling a note writes: the form its terms are taken from
 * (a stemmer reads the accents). Only words `nearestWritten` may find: alphabetic, one letter
 * shorter than `WRITTEN_MIN_LENGTH` or longer.
 */
export class WrittenWords {
  /** Folded word → its id. */
  private ids = new Map<string, number>();
  /** Per id: the vault's spelling (as written by the first note to write it since no note did), and how many notes write it now. */
  private spellings: string[] = [];
  private counts = new Uint32Array(1024);
  /** Per id: the text `count` last counted it for, so a text counts a word once; and that text's number. */
  private marks = new Uint32Array(1024);
  private texts = 0;
  /** Scratch: the ids of the text being counted. */
  private readonly found: number[] = [];
  /** Per note read: the content stamp it was read at, and the ids of the words it writes. */
  private readonly notes = new Map<string, { stamp: string; words: Uint32Array }>();
  /** How many note texts `update` has read in all (a carried list reads only what changed). */
  notesRead = 0;

  /**
   * Brings the list to `notes` (each with a stamp of its content, such as the index's hash): a
   * note not read yet, or whose stamp changed, is read; a note no longer listed, or whose text
   * cannot be read, takes its words out (it is tried again next time). An engine opened after an
   * index change carries the list on and reads only those, and the list stays what reading every
   * note afresh would make.
   */
  update(notes: readonly { path: string; stamp: string }[], textOf: (path: string) => string | null): void {
    // What went or changed is taken out first, so a word the vault now spells otherwise takes the new spelling.
    const listed = new Map(notes.map(({ path, stamp }) => [path, stamp]));
    for (const [path, known] of this.notes) if (listed.get(path) !== known.stamp) this.forget(path, known.words);
    for (const [path, stamp] of listed) {
      if (this.notes.has(path)) continue;
      const text = textOf(path);
      this.notesRead++;
      if (text !== null) this.notes.set(path, { stamp, words: this.count(text) });
    }
    this.compact();
  }

  /** How many words the list holds, written now or before (`compact` bounds those no note writes). */
  get held(): number {
    return this.spellings.length;
  }

  /** The vault's own spelling of a folded word, if some note writes it. */
  spellingOf(folded: string): string | undefined {
    const id = this.ids.get(folded);
    return id !== undefined && this.counts[id]! > 0 ? this.spellings[id] : undefined;
  }

  /** Counts each distinct word of a text once (and a compound's parts), returning their ids. */
  private count(text: string): Uint32Array {
    const mark = ++this.texts;
    const found = this.found;
    found.length = 0;
    const add = (raw: string): void => {
      // Text pasted from macOS may be decomposed (`a` + combining acute): a mark is no letter, so composed first.
      const word = NON_ASCII.test(raw) ? raw.normalize('NFC') : raw;
      if (word.length < WRITTEN_MIN_LENGTH - 1 || word.length > WRITTEN_MAX_LENGTH + 1 || !ALPHABETIC.test(word)) return;
      const folded = foldToken(word);
      let id = this.ids.get(folded);
      if (id === undefined) {
        id = this.spellings.length;
        this.ids.set(folded, id);
        this.spellings.push(word.toLowerCase());
        if (id >= this.counts.length) {
          this.counts = grown(this.counts);
          this.marks = grown(this.marks);
        }
      }
      if (this.marks[id] === mark) return;
      this.marks[id] = mark;
      found.push(id);
      // A word no note wrote any more takes this note's spelling (`résumé` gone, `resume` written).
      if (this.counts[id] === 0) this.spellings[id] = word.toLowerCase();
      this.counts[id]!++;
    };
    scanWords(text, (word) => {
      add(word);
      if (JOINS.test(word)) for (const part of word.split(JOINS)) add(part);
    });
    return Uint32Array.from(found);
  }

  private forget(path: string, words: Uint32Array): void {
    for (const id of words) this.counts[id]!--;
    this.notes.delete(path);
  }

  /**
   * Drops the words no note writes any more once they outnumber the others and `COMPACT_AFTER`
   * (a long-running server over notes being typed keeps every half-word an autosave caught).
   */
  private compact(): void {
    const total = this.spellings.length;
    let live = 0;
    for (let id = 0; id < total; id++) if (this.counts[id]! > 0) live++;
    if (total - live <= Math.max(COMPACT_AFTER, live)) return;
    const moved = new Int32Array(total);
    const ids = new Map<string, number>();
    const spellings: string[] = [];
    const counts = new Uint32Array(Math.max(1024, live * 2));
    for (const [folded, id] of this.ids) {
      if (this.counts[id] === 0) continue;
      moved[id] = spellings.length;
      ids.set(folded, spellings.length);
      counts[spellings.length] = this.counts[id]!;
      spellings.push(this.spellings[id]!);
    }
    // Every word of a note still read is written by it: each id moves.
    for (const note of this.notes.values()) note.words = note.words.map((id) => moved[id]!);
    this.ids = ids;
    this.spellings = spellings;
    this.counts = counts;
    this.marks = new Uint32Array(counts.length);
  }
}

/** How many words no note writes a list keeps before `compact` drops them (when they also outnumber the rest). */
const COMPACT_AFTER = 4096;

/** The array at twice its length, its values kept. */
function grown(values: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(values.length * 2);
  larger.set(values);
  return larger;
}

/** What `nearestWritten` asks of the vault. */
export interface WrittenNear {
  /** The vault's own spelling of a folded word some note writes (`WrittenWords.spellingOf`). */
  spellingOf: (folded: string) => string | undefined;
  /** The indexed terms a spelling is searched as (its stems in the vault's languages). */
  termsOf: (spelling: string) => readonly string[];
  /** How many notes hold a term (0: none). */
  frequencyOf: (term: string) => number;
  /** The most notes a correction may be in (it would rank nothing past that: `SPELLING_DEFAULTS.maxShare`). */
  maxFrequency: number;
}

/**
 * A misspelt word no term is near, searched as a word one edit from it that some note writes:
 * `chnage` → `change` (`chang`), `attachmnets` → `attachments` (`attach`), `vlaidas` → `válidas`.
 * Terms are stems, and a slip in the letters a stemmer reads can take a word's stem further from
 * the right one than the word is from the right word (`chnage` keeps its `e`, two edits from
 * `chang`). So the folded word's spellings one edit away are looked up among the words the notes
 * write, and the terms of the vault's own spelling of each found are the candidates: a real word
 * of the vault, never a form only the stemmer makes (`pagings` → `page`, one letter from Spanish
 * `paginas`). Among several: the commonest term, then the first in code-point order.
 */
export function nearestWritten(word: string, vault: WrittenNear, fits?: (candidate: string) => boolean): SpellingCorrection | null {
  const folded = foldToken(word);
  if (folded.length < WRITTEN_MIN_LENGTH || folded.length > WRITTEN_MAX_LENGTH || !ALPHABETIC.test(folded)) return null;
  let best: SpellingCorrection | null = null;
  let bestFrequency = 0;
  const refused = new Set<string>();
  for (const spelling of oneEditSpellings(folded)) {
    const written = vault.spellingOf(spelling);
    if (written === undefined) continue;
    for (const term of vault.termsOf(written)) {
      const frequency = vault.frequencyOf(term);
      if (frequency === 0 || frequency > vault.maxFrequency || refused.has(term)) continue;
      if (best !== null && (frequency < bestFrequency || (frequency === bestFrequency && term >= best.to))) continue;
      if (fits !== undefined && !fits(term)) {
        refused.add(term);
        continue;
      }
      best = { from: folded, to: term, edits: 1, spelled: written };
      bestFrequency = frequency;
    }
  }
  return best;
}
