/**
 * Dates a query names, and the day a note is dated by its file name. Memory vaults are kept by
 * date — daily notes, meeting notes, session logs are named `2026-05-12 …` — and agents ask by
 * date ("what did Joanna say on 1 May, 2022?", "1:1 with Priya May 2026", "what did I do
 * yesterday?"), in words no note's text needs to share: the note is *dated* that day, its name
 * (or its `date:`) says so in digits. Pure: words and paths in (and today's day number, for
 * relative dates), day numbers out (days since 1970-01-01, UTC).
 */
import { foldToken, scanWordSpans } from './tokenizer.js';

/** A span of days a query names, inclusive, and the query words that named it. */
export interface DateRange {
  from: number;
  to: number;
  /** The words as written (`1 May 2022`), for `--explain`. */
  text: string;
  /** The query words that named it, `words[first..last]`. */
  first: number;
  last: number;
  /** Named relative to today ("last week"): its notes are ranked even when no other word matches them. */
  relative?: true;
}

/** The widest span a relative date names: a year. */
export const MAX_SPAN_DAYS = 366;

/** What a note only mentioning a day of a relative span gets of the bonus of a note dated in it. */
const MENTION_SHARE = 0.5;

/**
 * How much a note dated in a relative span gets, in units of the span's idf. A date named in
 * full is also words of the dated note's name (`2026-05-12`, "Friday, 1 May 2026"), which count
 * in the note's score and again in each of its passages (read with its name); "yesterday" is
 * none of them, so its bonus stands for both: 2, not 1 (measured for named dates too: LoCoMo
 * MRR −0.001, so those stay at 1).
 */
const RELATIVE_WEIGHT = 2;

/** Languages whose month names are read (the languages the tokenizer stems). */
const MONTH_LANGUAGES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl', 'ru'];

/**
 * Folded month name → month (1–12): each language's long name as it stands alone and inside a
 * date (Russian declines it: `май`, `мая`) and its abbreviation, from the platform's own
 * calendar data (`Intl`), not a hand-written table; English abbreviations too (`Sep 2026`). A
 * spelling two languages give different months is dropped.
 */
const MONTHS: ReadonlyMap<string, number> = (() => {
  const months = new Map<string, number>();
  const clash = new Set<string>();
  for (const language of MONTH_LANGUAGES) {
    for (let month = 1; month <= 12; month++) {
      const date = new Date(Date.UTC(2021, month - 1, 15));
      const names = new Set<string>();
      // Abbreviations in English only: elsewhere they are words (Portuguese `set`, Dutch `mei` is whole).
      for (const style of language === 'en' ? (['long', 'short'] as const) : (['long'] as const)) {
        names.add(new Intl.DateTimeFormat(language, { month: style, timeZone: 'UTC' }).format(date));
        const part = new Intl.DateTimeFormat(language, { month: style, day: 'numeric', timeZone: 'UTC' }).formatToParts(date).find((p) => p.type === 'month');
        if (part) names.add(part.value);
      }
      for (const name of names) {
        const folded = foldToken(name.replace(/\.$/, ''));
        if (folded.length < 3 || !/^\p{L}+$/u.test(folded)) continue;
        if (months.has(folded) && months.get(folded) !== month) clash.add(folded);
        else months.set(folded, month);
      }
    }
  }
  for (const folded of clash) months.delete(folded);
  return months;
})();

/** Words that may stand between a day, its month and its year: `1st of May`, `12 de maio de 2026`. */
const CONNECTORS = new Set(['of', 'the', 'de', 'del', 'di', 'le', 'van']);

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{1,2})(?:st|nd|rd|th|er|e|º|ª)?$/i;
const YEAR = /^(1[89]\d\d|2[01]\d\d)$/;

/** Days since the epoch of a calendar date, or -1 when there is no such day (`2026-02-30`). */
export function dayNumber(year: number, month: number, day: number): number {
  if (month < 1 || month > 12 || day < 1 || day > 31) return -1;
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  return date.getUTCDate() === day && date.getUTCMonth() === month - 1 ? Math.round(ms / 86_400_000) : -1;
}

/** The calendar date of a day number: `2026-05-01`. */
export function isoDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** The local calendar day of a moment (ms since the epoch), as a day number: the day a person writing a daily note is in. */
export function localDay(ms: number): number {
  const date = new Date(ms);
  return dayNumber(date.getFullYear(), date.getMonth() + 1, date.getDate());
}

function monthRange(year: number, month: number, text: string, first: number, last: number): DateRange | null {
  const from = dayNumber(year, month, 1);
  if (from === -1) return null;
  return { from, to: dayNumber(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - 1, text, first, last };
}

function dayRange(year: number, month: number, day: number, text: string, first: number, last: number): DateRange | null {
  const at = dayNumber(year, month, day);
  return at === -1 ? null : { from: at, to: at, text, first, last };
}

/**
 * The dates a query's words name: an ISO day or month (`2026-05-01`, `2026-05`), or a month name
 * with a year and, if given, a day on either side (`1 May, 2022`, `May 1st 2022`, `12 de maio
 * de 2026`, `May 2026`). A month without a year names no span: which year is a guess.
 */
export function queryDateRanges(words: readonly string[]): DateRange[] {
  const ranges: DateRange[] = [];
  for (const [i, word] of words.entries()) {
    const iso = ISO_DAY.exec(word) ?? ISO_MONTH.exec(word);
    if (iso) {
      const range = iso[3] === undefined ? monthRange(+iso[1]!, +iso[2]!, word, i, i) : dayRange(+iso[1]!, +iso[2]!, +iso[3], word, i, i);
      if (range) ranges.push(range);
      continue;
    }
    const month = MONTHS.get(foldToken(word));
    if (month === undefined) continue;
    const range = monthNamed(words, i, month);
    if (range) ranges.push(range);
  }
  return ranges;
}

/** The span named around the month name at `i`, or null without a year. */
function monthNamed(words: readonly string[], i: number, month: number): DateRange | null {
  // A day right before (`1 May`, `1st of May`, `12 de maio`) or right after (`May 1st`).
  let before = i - 1;
  while (before >= 0 && CONNECTORS.has(foldToken(words[before]!))) before--;
  const dayBefore = before >= 0 && before >= i - 2 ? DAY.exec(words[before]!) : null;
  const dayAfter = dayBefore ? null : i + 1 < words.length ? DAY.exec(words[i + 1]!) : null;
  let next = dayAfter ? i + 2 : i + 1;
  while (next < words.length && CONNECTORS.has(foldToken(words[next]!))) next++;
  const year = next < words.length ? YEAR.exec(words[next]!) : null;
  if (!year) return null;
  const first = dayBefore ? before : i;
  const text = words.slice(first, next + 1).join(' ');
  const day = dayBefore ?? dayAfter;
  return day ? dayRange(+year[1]!, month, +day[1]!, text, first, next) : monthRange(+year[1]!, month, text, first, next);
}

type Unit = 'day' | 'week' | 'month' | 'quarter' | 'year';
const UNITS: readonly Unit[] = ['day', 'week', 'month', 'quarter', 'year'];

/**
 * A way a language says a day, week, month or year relative to today: `yesterday`, `last week`,
 * `há 2 semanas` (`#` stands for the number), as folded words.
 */
interface RelativePhrase {
  words: readonly string[];
  language: string;
  /** `weekday`: a named day of the week ("last Friday"), `weekday` saying which. */
  unit: Unit | 'weekday';
  /** 0 Monday … 6 Sunday, for `unit: 'weekday'`. */
  weekday?: number;
  /**
   * Units from today (-1: yesterday, last week), or the number's sign for a phrase with `#`. A
   * weekday: -1 the last one before today, 0 the one of this week, 1 the first one after today.
   */
  offset: number;
  counted: boolean;
}

/**
 * A word as relative phrases are compared: folded, the typographic apostrophe straightened
 * (`aujourd’hui`), an English possessive dropped ("yesterday's notes", "last week's sync").
 */
function phraseWord(word: string): string {
  const folded = foldToken(word);
  // Most words have no apostrophe: two regular expressions per query word were most of a query's reading.
  return folded.includes("'") || folded.includes('\u2019') ? folded.replace(/\u2019/g, "'").replace(/'s$/, '') : folded;
}

/**
 * First folded word → the phrases it opens, longest first: each language's words for "the day
 * before yesterday" to "next year", and "N days ago" / "in N weeks" in every unit, from the
 * platform's own relative-time data (`Intl.RelativeTimeFormat`), not a hand-written table —
 * as the month names are. Made on the first search: formatting its 700-odd phrases
 * takes about 40 ms, which a command that never searches should not pay at start-up.
 */
let relativePhrases: ReadonlyMap<string, readonly RelativePhrase[]> | null = null;

function relativeTable(): ReadonlyMap<string, readonly RelativePhrase[]> {
  if (relativePhrases !== null) return relativePhrases;
  const byFirst = new Map<string, RelativePhrase[]>();
  const seen = new Set<string>();
  const add = (text: string, phrase: Omit<RelativePhrase, 'words'>): void => {
    const words: string[] = [];
    scanWordSpans(text, (start, end) => words.push(/^\d+$/.test(text.slice(start, end)) ? '#' : phraseWord(text.slice(start, end))));
    const key = `${phrase.language} ${words.join(' ')}`;
    if (words.length === 0 || seen.has(key)) return;
    seen.add(key);
    const entry = { ...phrase, words };
    // An English phrase opening with its number is also found by a number word ("two weeks ago").
    for (const first of words[0] === '#' && phrase.language === 'en' ? ['#', ENGLISH_COUNT] : [words[0]!]) {
      const list = byFirst.get(first) ?? [];
      list.push(entry);
      byFirst.set(first, list);
    }
  };
  for (const language of MONTH_LANGUAGES) {
    const named = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    const counted = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
    for (const unit of UNITS) {
      for (let offset = -2; offset <= 1; offset++) {
        const text = named.format(offset, unit);
        if (!/\d/.test(text)) add(text, { language, unit, offset, counted: false });
      }
      // Several numbers, for languages whose unit word agrees with it (Russian `2 дня`, `5 дней`).
      for (const n of [1, 2, 3, 5, 7, 11, 21]) {
        add(counted.format(-n, unit), { language, unit, offset: -1, counted: true });
        add(counted.format(n, unit), { language, unit, offset: 1, counted: true });
      }
    }
  }
  // English says -2 and +2 days in words Intl's English does not give ("2 days ago"): read
  // as yesterday, "the day before yesterday" named the wrong day.
  add('day before yesterday', { language: 'en', unit: 'day', offset: -2, counted: false });
  add('day after tomorrow', { language: 'en', unit: 'day', offset: 2, counted: false });
  // A day of the week with the word that places it ("last Friday", "on Monday", "next Tuesday").
  // Alone a weekday stays a word: "Friday standup" names a meeting, not a day.
  const weekdayName = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' });
  for (let weekday = 0; weekday < 7; weekday++) {
    const name = weekdayName.format(new Date((4 + weekday) * 86_400_000)); // day 4 (1970-01-05) was a Monday
    for (const [word, offset] of [
      ['last', -1],
      ['on', -1],
      ['this', 0],
      ['next', 1],
    ] as const) {
      add(`${word} ${name}`, { language: 'en', unit: 'weekday', weekday, offset, counted: false });
    }
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  return (relativePhrases = byFirst);
}

/** English numbers written as words, for "two weeks ago", "in a month" (Intl's phrases take digits). */
const ENGLISH_NUMBERS: ReadonlyMap<string, number> = new Map([['a', 1], ['an', 1], ...['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'].map((word, i) => [word, i + 1] as const)]);

/** The table's key for English phrases that open with their number, which a number word opens too: only those, not every language's. */
const ENGLISH_COUNT = '#en';

/** The number a counted phrase's `#` stands on: digits (up to three), or an English number word in an English phrase. */
function countAt(word: string | undefined, language: string): number {
  if (word === undefined) return -1;
  if (/^\d{1,3}$/.test(word)) return +word;
  return language === 'en' ? (ENGLISH_NUMBERS.get(word) ?? -1) : -1;
}

/** Monday 0 … Sunday 6 of a day number (day 0, 1970-01-01, was a Thursday). */
function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The day a weekday phrase names: the last such weekday before today (-1), this week's (0), the first after today (1). */
function weekdaySpan(today: number, weekday: number, offset: number): { from: number; to: number } {
  // Days since the last such weekday, today included (0 when today is one).
  const back = (weekdayOf(today) - weekday + 7) % 7;
  const day = offset < 0 ? today - (back || 7) : offset > 0 ? today + 7 - back : today - weekdayOf(today) + weekday;
  return { from: day, to: day };
}

/** The days of the unit `offset` units from `today`: a calendar week from Monday, a calendar month, quarter or year. */
function relativeSpan(today: number, unit: Unit, offset: number): { from: number; to: number } {
  if (unit === 'day') return { from: today + offset, to: today + offset };
  if (unit === 'week') {
    const monday = today - weekdayOf(today) + 7 * offset;
    return { from: monday, to: monday + 6 };
  }
  const date = new Date(today * 86_400_000);
  if (unit === 'year') {
    const year = date.getUTCFullYear() + offset;
    return { from: dayNumber(year, 1, 1), to: dayNumber(year, 12, 31) };
  }
  // Date.UTC carries a month past December (or before January) into the year.
  const months = unit === 'quarter' ? 3 : 1;
  const first = unit === 'quarter' ? date.getUTCMonth() - (date.getUTCMonth() % 3) : date.getUTCMonth();
  const from = Date.UTC(date.getUTCFullYear(), first + offset * months, 1) / 86_400_000;
  const next = Date.UTC(date.getUTCFullYear(), first + (offset + 1) * months, 1) / 86_400_000;
  return { from, to: next - 1 };
}

/**
 * The spans a query names relative to `today` (a day number): "yesterday", "last week", "this
 * month", "3 days ago", "semana passada", "vor 2 Wochen"… in the languages whose month names are
 * read. A phrase of one word counts only when the query's function words are of its language or
 * of none (French `hier` is yesterday; German and Dutch `hier` is here). The longest phrase
 * starting at a word wins.
 */
export function relativeDateRanges(words: readonly string[], today: number, languageOf: () => string | null = () => null): DateRange[] {
  const ranges: DateRange[] = [];
  if (words.length === 0) return ranges;
  const table = relativeTable();
  const folded = words.map(phraseWord);
  // The query's language is found only when a one-word phrase asks for it.
  let language: string | null | undefined;
  for (let i = 0; i < folded.length; i++) {
    const word = folded[i]!;
    const own = table.get(word);
    // A number opens counted phrases ("3 days ago"); `a`, `one`, `two` … English ones ("a week ago").
    const counted = /^\d+$/.test(word) ? table.get('#') : ENGLISH_NUMBERS.has(word) ? table.get(ENGLISH_COUNT) : undefined;
    const phrases = own === undefined ? counted : counted === undefined ? own : [...own, ...counted];
    if (phrases === undefined) continue;
    for (const phrase of phrases) {
      if (phrase.words.length === 1) {
        language = language === undefined ? languageOf() : language;
        if (language !== null && language !== phrase.language) continue;
      }
      let number = 0;
      const fits = phrase.words.every((word, at) => {
        const actual = folded[i + at];
        if (word !== '#') return actual === word;
        number = countAt(actual, phrase.language);
        return number !== -1;
      });
      if (!fits) continue;
      const last = i + phrase.words.length - 1;
      const span = phrase.unit === 'weekday' ? weekdaySpan(today, phrase.weekday!, phrase.offset) : relativeSpan(today, phrase.unit, phrase.counted ? phrase.offset * number : phrase.offset);
      ranges.push({ ...span, text: words.slice(i, last + 1).join(' '), first: i, last, relative: true });
      i = last;
      break;
    }
  }
  return ranges;
}

/** The day a frontmatter value names (`2026-05-28`, `2026-05-28T10:00`, `2026-05-28 10:00`), or -1. */
export function dayOfValue(value: string | null): number {
  const match = value === null ? null : /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value.trim());
  return match ? dayNumber(+match[1]!, +match[2]!, +match[3]!) : -1;
}

/** The day a note's file name is dated (`2026-05-12 1-1 Priya.md`, `Daily/2026-05-01.md`), or -1. */
export function dayOfName(path: string): number {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const match = /(?:^|\D)(\d{4})-(\d{2})-(\d{2})(?!\d)/.exec(name);
  return match ? dayNumber(+match[1]!, +match[2]!, +match[3]!) : -1;
}

/** A span a query names and its notes: dated in it, and (a relative span) only mentioning one of its days. */
export interface SpanNotes {
  range: DateRange;
  dated: number[];
  mentioning: number[];
}

const NO_NOTES: ReadonlySet<number> = new Set();

/** A note dated inside a span the query names: the bonus and the words that named the span. */
export interface DateBoost {
  score: number;
  text: string;
  /** From a relative span: the note is ranked even when no other word of the query matches it. */
  relative: boolean;
}

/**
 * Each note's day (its file name's date, else its frontmatter `date`), and the bonus a query naming a date gives the notes dated in it:
 * the span's idf, as if being dated that day were a word the dated notes contain —
 * ln(1 + (N − n + 0.5) / (n + 0.5)) for n notes so dated among N — so one daily note of a day
 * weighs like a rare word, a month of meetings like a common one. Only notes that match the
 * query's words are ranked, so the date orders them and never brings in a note by itself.
 */
export class NoteDates {
  private readonly days: Int32Array;
  private readonly dated: number;

  /**
   * `frontmatter[i]`: the note's frontmatter `date`, when it has one — a meeting note named
   * `Architecture review.md` is dated by it. Not `created`: when a file was made says little of
   * what it is about (counted too, it cost the sample vault's date questions 0.012 MRR).
   */
  constructor(paths: readonly string[], frontmatter: readonly (string | null)[] = []) {
    this.days = Int32Array.from(paths, (path, i) => {
      const named = dayOfName(path);
      return named !== -1 ? named : dayOfValue(frontmatter[i] ?? null);
    });
    this.dated = this.days.reduce((count, day) => (day === -1 ? count : count + 1), 0);
  }

  /** Doc → its bonus, for the spans a query names (`queryDateRanges`): empty when no note is so dated. */
  boosts(ranges: readonly DateRange[]): Map<number, DateBoost> {
    return this.bonuses(this.spansOf(ranges));
  }

  /** Each distinct span's dated notes (a query repeating a date, or pasted text full of them, walks the notes once per span). */
  spansOf(ranges: readonly DateRange[]): SpanNotes[] {
    if (this.dated === 0) return [];
    const seen = new Set<string>();
    const spans: SpanNotes[] = [];
    for (const range of ranges) {
      const key = `${range.from}:${range.to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      spans.push(this.notesIn(range));
    }
    return spans;
  }

  /** The notes dated in a span, and the others of `mentioning` (notes whose text holds one of its days). */
  notesIn(range: DateRange, mentioning: ReadonlySet<number> = NO_NOTES): SpanNotes {
    const dated: number[] = [];
    for (let doc = 0; doc < this.days.length; doc++) {
      const day = this.days[doc]!;
      if (day >= range.from && day <= range.to) dated.push(doc);
    }
    const held = new Set(dated);
    return { range, dated, mentioning: [...mentioning].filter((doc) => !held.has(doc)) };
  }

  /**
   * Doc → its bonus from the spans' notes: the span's idf over all its notes, times
   * `RELATIVE_WEIGHT` for a note dated in a relative span, `MENTION_SHARE` for one only
   * mentioning a day of it; a note in several spans gets its best.
   */
  bonuses(spans: readonly SpanNotes[]): Map<number, DateBoost> {
    const boosts = new Map<number, DateBoost>();
    const total = this.days.length;
    for (const { range, dated, mentioning } of spans) {
      const n = dated.length + mentioning.length;
      const score = Math.log(1 + (total - n + 0.5) / (n + 0.5));
      const relative = range.relative === true;
      const give = (doc: number, bonus: number): void => {
        if (bonus > (boosts.get(doc)?.score ?? 0)) boosts.set(doc, { score: bonus, text: range.text, relative });
      };
      for (const doc of dated) give(doc, relative ? score * RELATIVE_WEIGHT : score);
      for (const doc of mentioning) give(doc, score * MENTION_SHARE);
    }
    return boosts;
  }
}
