/**
 * Dates a query names, and the day a note is dated by its file name. Memory vaults are kept by
 * date — daily notes, meeting notes, session logs are named `2026-05-12 …` — and agents ask by
 * date ("what did Joanna say on 1 May, 2022?", "1:1 with Priya May 2026", "what did I do
 * yesterday?"), in words no note's text needs to share: the note is *dated* that day, its name
 * (or its `date:`) says so in digits. Pure: words and paths in (and today's day number, for
 * relative dates and those named without a year), day numbers out (days since 1970-01-01, UTC).
 */
import { foldWords, phrasesIn, phraseTable, type AskedPhrase } from './asked.js';
import { inverseDocumentFrequency } from './bm25l.js';
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
  /** Named without a year ("in June", "on August 11"): the year is the last one up to today, and a notice says so. */
  yearless?: true;
  /**
   * Two dates joined into the days between them ("between April 1 and April 30", "from 5 to 10
   * May"), or a date up to today ("since June 1", "after May 1"), by `joinSpans`: its words stand
   * for days, as a relative date's do, and it is read as one (`relative`).
   */
  span?: true;
  /** A span open into the past ("before May 1", "until April"): every day up to `to`; `from` is day 0. */
  until?: true;
}

/** The widest span a relative date names, and the most days of any span whose mentions are looked up: a year. */
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

/**
 * What being the newest of the notes matching a query that asks for the newest is worth, in
 * units of its idf (`NoteDates.newest`): 2, as for a relative date, for the same reason — the
 * asking words ("latest") are no word of the notes.
 */
const NEWEST_WEIGHT = 2;

/** Languages whose month names are read (the languages the tokenizer stems). */
const MONTH_LANGUAGES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl', 'ru'];

/**
 * Folded month name → month (1–12): each language's long name as it stands alone and inside a
 * date (Russian declines it: `май`, `мая`) and its abbreviation, from the platform's own
 * calendar data (`Intl`), not a hand-written table; English abbreviations too (`Sep 2026`). A
 * spelling two languages give different months is dropped. Beside it, each long name's
 * languages (`BEFORE_A_BARE_MONTH` asks which language a month without a year is in).
 */
const { MONTHS, LONG_MONTH_LANGUAGES } = (() => {
  const months = new Map<string, number>();
  const languages = new Map<string, Set<string>>();
  const clash = new Set<string>();
  for (const language of MONTH_LANGUAGES) {
    for (let month = 1; month <= 12; month++) {
      const date = new Date(Date.UTC(2021, month - 1, 15));
      const names = new Set<string>();
      // Abbreviations in English only: elsewhere they are words (Portuguese `set`, Dutch `mei` is whole).
      for (const style of language === 'en' ? (['long', 'short'] as const) : (['long'] as const)) {
        const alone = new Intl.DateTimeFormat(language, { month: style, timeZone: 'UTC' }).format(date);
        names.add(alone);
        if (style === 'long') languages.set(foldToken(alone), (languages.get(foldToken(alone)) ?? new Set<string>()).add(language));
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
  return { MONTHS: months as ReadonlyMap<string, number>, LONG_MONTH_LANGUAGES: languages as ReadonlyMap<string, ReadonlySet<string>> };
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
 * de 2026`, `May 2026`). Given `today`, also a day or a month named without a year, read as the
 * last one up to today (`monthNamed`).
 */
export function queryDateRanges(words: readonly string[], today = -1): DateRange[] {
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
    // The second month of "between May and June" is placed by the first.
    const previous = ranges.at(-1);
    const joined = previous !== undefined && previous.last === i - 2 && spanLanguage(words, previous.first - 1, i - 1) !== null;
    const range = monthNamed(words, i, month, today, joined);
    if (range) ranges.push(range);
  }
  return joinSpans(words, ranges, today);
}

/**
 * The dates a query writes that no calendar has, as written: an ISO day past its month's end or
 * in a thirteenth month (`2026-02-30`, `2025-13-01`), or a month name beside a day it never has
 * ("February 30", "31 April", "29 Feb 2025"). `queryDateRanges` reads none of them, so their
 * words are searched as words; a notice says why no date was read.
 */
export function impossibleDates(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const [i, word] of words.entries()) {
    const iso = ISO_DAY.exec(word);
    if (iso) {
      if (dayNumber(+iso[1]!, +iso[2]!, +iso[3]!) === -1) out.push(word);
      continue;
    }
    const month = MONTHS.get(foldToken(word));
    if (month === undefined) continue;
    const { first, last, day: written, year } = aroundMonth(words, i);
    const day = written === null ? 0 : +written[1]!;
    if (day < 1 || day > 31) continue;
    // Without a year, a leap year's February is the longest.
    if (dayNumber(year ? +year[1]! : 2024, month, day) === -1) out.push(words.slice(first, last + 1).join(' '));
  }
  return out;
}

/**
 * Each language's words that place a month named without a year in time ("in June", "the second
 * week of November", "em junho", "im Juni", "a maggio"): the word and the month must be of one
 * language, so English "a June wedding" and "exploration of Mars" (French `mars`) are no dates.
 */
const BEFORE_A_BARE_MONTH: Readonly<Partial<Record<string, readonly string[]>>> = {
  en: ['in', 'during', 'of'],
  pt: ['em', 'de', 'durante'],
  es: ['en', 'de', 'durante'],
  fr: ['en', 'de', 'pendant'],
  de: ['im'],
  it: ['a', 'di', 'in', 'durante'],
  nl: ['in', 'van', 'tijdens'],
};

/**
 * Words before a day named without a year ("on Aug 15th", "between August 11 and …", "no dia 5
 * de junho", "am 5. Juni"): without one of them or an ordinal (`15th`), a number beside a month
 * may count something ("top 5 June", "June 2 people").
 */
const BEFORE_A_YEARLESS_DAY = new Set([
  'on',
  'by',
  'until',
  'till',
  'since',
  'from',
  'between',
  'through',
  'the',
  'dem',
  'zum',
  'após',
  'tras',
  'depuis',
  'après',
  'ab',
  'zwischen',
  'dopo',
  'tra',
  'fra',
  'vanaf',
  'tussen',
  'and',
  'to',
  'before',
  'after',
  'em',
  'no',
  'dia',
  'até',
  'desde',
  'entre',
  'el',
  'hasta',
  'le',
  'au',
  'du',
  'am',
  'bis',
  'seit',
  'vom',
  'il',
  'al',
  'dal',
  'op',
  'tot',
  'sinds',
  'van',
  "jusqu'au",
  "jusqu'a",
]);

/** The span named around the month name at `i`: with a year, that month or day; without one, see `yearlessDate`. */
/**
 * What is written around the month name at `i`: a day right before (`1 May`, `1st of May`, `12
 * de maio`) or right after (`May 1st`), then a year, connectors between; `first`..`last` the
 * words they span.
 */
function aroundMonth(words: readonly string[], i: number): { first: number; last: number; day: RegExpExecArray | null; year: RegExpExecArray | null } {
  let before = i - 1;
  while (before >= 0 && CONNECTORS.has(foldToken(words[before]!))) before--;
  const dayBefore = before >= 0 && before >= i - 2 ? DAY.exec(words[before]!) : null;
  const dayAfter = dayBefore ? null : i + 1 < words.length ? DAY.exec(words[i + 1]!) : null;
  let next = dayAfter ? i + 2 : i + 1;
  while (next < words.length && CONNECTORS.has(foldToken(words[next]!))) next++;
  const year = next < words.length ? YEAR.exec(words[next]!) : null;
  return { first: dayBefore ? before : i, last: year ? next : dayAfter ? i + 1 : i, day: dayBefore ?? dayAfter, year };
}

function monthNamed(words: readonly string[], i: number, month: number, today: number, joined = false): DateRange | null {
  const { first, last, day, year } = aroundMonth(words, i);
  if (!year) return today === -1 ? null : yearlessDate(words, { at: i, first, last, month, day, joined }, today);
  const text = words.slice(first, last + 1).join(' ');
  return day ? dayRange(+year[1]!, month, +day[1]!, text, first, last) : monthRange(+year[1]!, month, text, first, last);
}

/**
 * A day or month named without a year, read as the last one up to today — as "on Friday" is the
 * last Friday. A day needs an ordinal or a word placing it before it ("on Aug 15th"); it is the
 * last such day up to today (a 29 February the last leap year's). A month needs a word of its
 * language placing it in time before it ("in June", "of November") and no name after it
 * ("August Strindberg"); it is the last such month begun by today. Alone a month may be a name
 * ("June said …"), and `may` and `march` written lower-case are a modal and a verb.
 */
function yearlessDate(words: readonly string[], named: { at: number; first: number; last: number; month: number; day: RegExpExecArray | null; joined: boolean }, today: number): DateRange | null {
  const { at, first, last, month, day, joined } = named;
  const text = words.slice(first, last + 1).join(' ');
  const { year: thisYear, month: thisMonth, day: thisDay } = partsOf(today);
  const placedBy = first > 0 ? foldToken(words[first - 1]!) : '';
  let range: DateRange | null = null;
  if (day) {
    // Placed also as the second day of a span: "de 10 a 15 de maio", "с 5 по 10 мая".
    const spanned = first >= 3 && DAY.test(words[first - 2]!) && spanLanguage(words, first - 3, first - 1) !== null;
    // The whole query ("May 20", "20 May") is a date too: it counts nothing.
    const whole = first === 0 && last === words.length - 1;
    if (!BEFORE_A_YEARLESS_DAY.has(placedBy) && !/\D/.test(day[0]) && !spanned && !whole) return null;
    const passed = month < thisMonth || (month === thisMonth && +day[1]! <= thisDay);
    for (let back = passed ? 0 : 1; range === null && back < 9; back++) range = dayRange(thisYear - back, month, +day[1]!, text, first, last);
  } else {
    const word = words[at]!;
    const following = words[at + 1];
    if (word === 'may' || word === 'march' || (following !== undefined && /^\p{Lu}/u.test(following))) return null;
    const languages = LONG_MONTH_LANGUAGES.get(foldToken(word));
    if (languages === undefined || !(joined || [...languages].some((language) => (BEFORE_A_BARE_MONTH[language] ?? []).includes(placedBy)) || placedInSpan(words, at))) return null;
    range = monthRange(month <= thisMonth ? thisYear : thisYear - 1, month, text, first, last);
  }
  return range && { ...range, yearless: true };
}

/**
 * The words that join two dates into the days between them, per language: a word opening the
 * span before the first date and the words joining the dates that go with it ("between … and",
 * "from … to", "entre … e", "zwischen … und", "du … au"; `:` parts them, `|` the pairs). "from
 * May 1 and May 20" is two days, not a span; without an opening word two dates stay two ("May
 * and June": the notes of either).
 */
const SPAN_WORDS: Readonly<Record<string, string>> = {
  en: 'between: and | from: to until till through',
  pt: 'entre: e | de desde do da: a até ao',
  es: 'entre: y | de desde del: a hasta al',
  fr: 'entre: et | du de depuis: au à',
  de: 'zwischen: und | von vom seit: bis zum',
  it: 'tra fra: e | dal da: al a',
  nl: 'tussen: en | van vanaf sinds: tot',
  ru: 'между: и | с со: по до',
};

/** Folded opening word → language → the joining words that go with it. */
const SPAN_PAIRS: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>> = (() => {
  const pairs = new Map<string, Map<string, Set<string>>>();
  for (const [language, list] of Object.entries(SPAN_WORDS)) {
    for (const pair of list.split('|')) {
      const [opens, joins] = pair.split(':').map((part) => part.trim().split(' ').map(foldToken));
      for (const open of opens!) {
        const languages = pairs.get(open) ?? new Map<string, Set<string>>();
        languages.set(language, new Set([...(languages.get(language) ?? []), ...joins!]));
        pairs.set(open, languages);
      }
    }
  }
  return pairs;
})();

/**
 * Words a month named without a year may stand before when a word opening a span up to today
 * placed it ("since June", "since June in the billing project"): a name after "since" or
 * "after" is as often a person ("after June left the team", "since April joined").
 */
const AFTER_A_SINCE_MONTH = new Set('in on for with about at and or em no na para com sobre en con dans pour avec sur im für mit über per su voor met over'.split(' '));

/**
 * Whether a month named without a year at `at` is placed by a span: the first date of "between
 * May and June" or "from May until now" (a date or now follows the joining word), or the one of
 * "since June" / "desde maio" / "until April" (the query ends there or goes on with a preposition).
 */
function placedInSpan(words: readonly string[], at: number): boolean {
  if (at === 0) return false;
  if (spanLanguage(words, at - 1, at + 1) !== null) {
    const next = words[at + 2] ?? '';
    return MONTHS.has(foldToken(next)) || DAY.test(next) || ISO_DAY.test(next) || ISO_MONTH.test(next) || NOW_WORDS.has(foldToken(next));
  }
  const opener = foldToken(words[at - 1]!);
  const since = SINCE_WORDS.has(opener) || UNTIL_WORDS.has(opener) || (at > 1 && UNTIL_PAIRS.get(opener)?.has(foldToken(words[at - 2]!)) === true);
  return since && (at === words.length - 1 || AFTER_A_SINCE_MONTH.has(foldToken(words[at + 1]!)));
}

/** Words that open a span from a date up to today ("since June 1", "desde maio", "seit Mai"); `after` and its kin begin the day after. */
const SINCE_WORDS: ReadonlyMap<string, 'from' | 'after'> = new Map([
  // Not `da`: Italian "since", but Portuguese "of the" ("notas da semana passada"; it opens a span only with its joining word, "da … a").
  ...['since', 'desde', 'depuis', 'seit', 'ab', 'sinds', 'vanaf', 'dal'].map((word) => [word, 'from'] as const),
  ...['after', 'após', 'tras', 'après', 'dopo'].map((word) => [word, 'after'] as const),
]);

/** The language in which `words[open]` opens a span and `words[join]` joins its dates, or null. */
function spanLanguage(words: readonly string[], open: number, join: number): string | null {
  if (open < 0 || join >= words.length) return null;
  const joining = foldToken(words[join]!);
  for (const [language, joins] of SPAN_PAIRS.get(foldToken(words[open]!)) ?? []) if (joins.has(joining)) return language;
  return null;
}

/** A day number as year, month and day. */
function partsOf(day: number): { year: number; month: number; day: number } {
  const date = new Date(day * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** A range named without a year moved into `year` (a month stays a month, a day a day), or itself when that day does not exist. */
function inYear(range: DateRange, year: number): DateRange {
  const from = partsOf(range.from);
  const to = partsOf(range.to);
  const [first, last] = [dayNumber(year, from.month, from.day), dayNumber(year + to.year - from.year, to.month, to.day)];
  return first === -1 || last === -1 ? range : { ...range, from: first, to: last };
}

/**
 * Dates joined into spans: "between A and B", "from A to B" (B's year given to a year-less A,
 * and A's to B; two year-less ends read as the latest such span), a day alone at one end taking
 * the other's month ("from May 5 to 10", "du 5 au 10 mai"), and "since A" / "after A" up to
 * `today`. The other ranges are kept as they are.
 */
function joinSpans(words: readonly string[], ranges: readonly DateRange[], today: number): DateRange[] {
  if (ranges.length === 0) return ranges as DateRange[];
  const joined: DateRange[] = [];
  for (let k = 0; k < ranges.length; k++) {
    const a = ranges[k]!;
    const b = ranges[k + 1];
    const open = pastArticle(words, a.first - 1, -1);
    if (b !== undefined && b.first === pastArticle(words, a.last + 2, 1) && spanLanguage(words, open, a.last + 1) !== null) {
      joined.push(between(words, a, b, open));
      k++;
      continue;
    }
    const untilNow = a.relative ? null : toNow(words, a, open, today);
    if (untilNow !== null) {
      joined.push(untilNow);
      continue;
    }
    const lone = a.relative ? null : loneDayEnd(words, a, b);
    if (lone !== null) {
      joined.push(lone);
      continue;
    }
    const until = untilSpan(words, a, open, today);
    const previous = joined.at(-1);
    // "from May 1 up to May 15", "since April 1 until May 1", "after April 1 and before May 1": one span, the first date to the second.
    if (until !== null && previous !== undefined && previous.until !== true && previous.last >= until.first - 2 && previous.from <= until.to) {
      const yearless = previous.yearless === true && until.yearless === true ? { yearless: true as const } : {};
      const { yearless: _dropped, ...rest } = previous;
      joined[joined.length - 1] = { ...rest, to: until.to, text: words.slice(previous.first, a.last + 1).join(' '), last: a.last, relative: true, span: true, ...yearless };
      continue;
    }
    joined.push(sinceSpan(words, a, open, today) ?? until ?? a);
  }
  return joined;
}

/**
 * Words that open a span into the past up to a date ("until April", "before May 1", "antes de
 * maio", "bis Mai"): `before` and its kin end the day before it. Two-word openers are read from
 * their second word (`de` of "antes de", `to` of "up to").
 */
type Until = 'through' | 'before';
const UNTIL_WORDS: ReadonlyMap<string, Until> = new Map<string, Until>([
  ...['until', 'till', 'até', 'hasta', "jusqu'au", "jusqu'à", 'bis', 'tot', 'до'].map((word) => [foldToken(word), 'through'] as const),
  ...['before', 'avant'].map((word) => [word, 'before'] as const),
]);
const UNTIL_PAIRS: ReadonlyMap<string, ReadonlyMap<string, Until>> = new Map<string, ReadonlyMap<string, Until>>([
  ['to', new Map([['up', 'through']])],
  ['de', new Map([['antes', 'before']])],
  ['del', new Map([['antes', 'before']])],
  ['di', new Map([['prima', 'before']])],
  ['a', new Map([['fino', 'through']])],
  ['al', new Map([['fino', 'through']])],
]);

/**
 * Words before "before" that make it relative to the date, not a span: "the week before August
 * 3", "two weeks before", "the Sunday before October 25", "right before May 1" name a day near it.
 */
const BEFORE_RELATIVE = new Set(
  [
    'day days week weeks weekend weekends month months year years night nights morning evening monday tuesday wednesday thursday friday saturday sunday',
    'jour jours veille semaine semaines mois an ans année années dia dias día días semana semanas mês meses mes ano anos año años',
    'tag tage woche wochen monat monate jahr jahre giorno giorni settimana settimane mese mesi anno anni dag dagen week weken maand jaar',
    // "right before", "just before", "juste avant", "logo antes": a moment near it.
    'right just shortly immediately juste peu logo pouco justo poco',
  ]
    .join(' ')
    .split(' ')
    .map(foldToken),
);

/**
 * "until A" / "up to A" (through its last day) or "before A" (up to the day before), a span open
 * into the past opened by `words[open]`, or null; A named without a year is this year's. Not
 * "the week before A" ("la semaine avant …"), which names a day near A.
 */
function untilSpan(words: readonly string[], named: DateRange, open: number, today: number): DateRange | null {
  if (open < 0) return null;
  // Named without a year, it is this year's: "before July 1" asked in June is a few days away, not last year.
  const a = named.yearless === true && today !== -1 ? inYear(named, partsOf(today).year) : named;
  const word = foldToken(words[open]!);
  const pair = open > 0 ? UNTIL_PAIRS.get(word)?.get(foldToken(words[open - 1]!)) : undefined;
  const until = pair ?? UNTIL_WORDS.get(word);
  if (until === undefined) return null;
  const first = pair === undefined ? open : open - 1;
  if (first > 0 && BEFORE_RELATIVE.has(foldToken(words[first - 1]!))) return null;
  const to = until === 'before' ? a.from - 1 : a.to;
  if (to < 0) return null;
  return { ...a, from: 0, to, text: words.slice(first, a.last + 1).join(' '), first, relative: true, span: true, until: true };
}

/** The words for now and today, whatever the language ("from May 1 until now", "desde maio até hoje", "von Mai bis heute"). */
const NOW_WORDS = new Set(['now', 'today', 'agora', 'hoje', 'ahora', 'hoy', 'maintenant', "aujourd'hui", 'heute', 'jetzt', 'ora', 'oggi', 'nu', 'vandaag', 'сейчас', 'сегодня']);

/** "from A until now", "between A and today": A's first day up to `today`, or null. */
function toNow(words: readonly string[], a: DateRange, open: number, today: number): DateRange | null {
  const now = words[a.last + 2];
  if (today === -1 || now === undefined || !NOW_WORDS.has(foldToken(now).replace('\u2019', "'")) || spanLanguage(words, open, a.last + 1) === null || a.from > today) return null;
  return { ...a, to: today, text: words.slice(open, a.last + 3).join(' '), first: open, last: a.last + 2, relative: true, span: true };
}

/** Articles between a span's words and its dates ("since the 1st of June", "desde el 5 de mayo", "seit dem 5. Mai"; `zum` of "bis zum 10. Mai"). */
const ARTICLES = new Set(['the', 'el', 'la', 'le', 'il', 'lo', 'dem', 'den', 'zum']);

/** `i`, or the next word in the direction of `step` when `words[i]` is an article. */
function pastArticle(words: readonly string[], i: number, step: -1 | 1): number {
  return i >= 0 && i < words.length && ARTICLES.has(foldToken(words[i]!)) ? i + step : i;
}

/**
 * "since A" / "after A" (the day after) up to `today`, opened by `words[open]`, or null. A
 * year-less A not yet begun after it (asked in June, "after June") is last year's.
 */
function sinceSpan(words: readonly string[], a: DateRange, open: number, today: number): DateRange | null {
  const since = today === -1 || open < 0 ? undefined : SINCE_WORDS.get(foldToken(words[open]!));
  if (since === undefined) return null;
  const dated = a.yearless && (since === 'after' ? a.to + 1 : a.from) > today ? inYear(a, partsOf(a.from).year - 1) : a;
  const from = since === 'after' ? dated.to + 1 : dated.from;
  if (from > today) return null;
  return { ...dated, from, to: today, text: words.slice(open, a.last + 1).join(' '), first: open, relative: true, span: true };
}

/** The span from `a` to `b` (both named), read from the word opening it, `words[first]`. */
function between(words: readonly string[], a: DateRange, b: DateRange, first: number): DateRange {
  let [start, end] = [a, b];
  if (start.yearless && !end.yearless) {
    // "between 28 December and 3 January 2026": the start is the year before.
    const year = partsOf(end.from).year;
    start = inYear(start, inYear(start, year).from > end.to ? year - 1 : year);
  } else if (end.yearless && !start.yearless) {
    // "from November 2025 to February": the end is the year after.
    const year = partsOf(start.from).year;
    end = inYear(end, inYear(end, year).to < start.from ? year + 1 : year);
  } else if (start.yearless && end.yearless && end.to < start.from) {
    // Across the new year ("between December 28 and January 3"), or written the other way round
    // ("between June 30 and June 1"): whichever reading is the shorter span.
    const across = inYear(start, partsOf(start.from).year - 1);
    if (end.to - across.from < start.to - end.from) start = across;
  }
  const yearless = start.yearless === true && end.yearless === true ? { yearless: true as const } : {};
  return { from: Math.min(start.from, end.from), to: Math.max(start.to, end.to), text: words.slice(first, b.last + 1).join(' '), first, last: b.last, relative: true, span: true, ...yearless };
}

/**
 * "from May 5 to 10" or "du 5 au 10 mai": a day-long range and a day number alone across a
 * joining word, the number taking the range's month (and a year written after it: "between
 * August 11 and 15, 2023").
 */
function loneDayEnd(words: readonly string[], a: DateRange, b: DateRange | undefined): DateRange | null {
  if (a.from !== a.to) return null;
  const { year, month, day } = partsOf(a.from);
  // A year written after the day alone (`writtenYear`) is the span's, and it is not year-less.
  const make = (first: number, last: number, start: number, end: number, writtenYear = -1): DateRange | null => {
    const spanYear = writtenYear === -1 ? year : writtenYear;
    const [from, to] = [dayNumber(spanYear, month, start), dayNumber(spanYear, month, end)];
    if (from === -1 || to === -1 || to < from) return null;
    const yearless = a.yearless && writtenYear === -1 ? { yearless: true as const } : {};
    return { from, to, text: words.slice(first, last + 1).join(' '), first, last, relative: true, span: true, ...yearless };
  };
  // The word before the range: the span's opening word when the lone day comes after, its joining word when before.
  const prior = pastArticle(words, a.first - 1, -1);
  // After: "from May 5 to 10", "from May 5 to the 10th" (and not "… to 10 June", a range of its own).
  const dayAt = pastArticle(words, a.last + 2, 1);
  const after = DAY.exec(words[dayAt] ?? '');
  if (after && (b === undefined || b.first > dayAt) && spanLanguage(words, prior, a.last + 1) !== null) {
    const written = a.yearless ? YEAR.exec(words[dayAt + 1] ?? '') : null;
    return written ? make(prior, dayAt + 1, day, +after[1]!, +written[1]!) : make(prior, dayAt, day, +after[1]!);
  }
  // Before: "du 5 au 10 mai", "between 11 and 15 August", "entre el 5 y el 10 de mayo".
  const before = prior >= 1 ? DAY.exec(words[prior - 1]!) : null;
  const opening = pastArticle(words, prior - 2, -1);
  if (before && spanLanguage(words, opening, prior) !== null) return make(opening, a.last, +before[1]!, day);
  return null;
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

/** Words after a weekday that make it every such day ("on Tuesday mornings"): no date. */
const HABITUAL = new Set(['mornings', 'afternoons', 'evenings', 'nights']);

/**
 * The words that place a day of the week, per language (Intl has the days' names, not these):
 * `*` stands for the day's name, `|` parts the phrases. `last` names the last such day before
 * today ("last Friday", "sexta passada", "в прошлую пятницу"), `this` this week's ("esta
 * sexta-feira", "diesen Freitag"), `next` the first after today ("next Friday", "vendredi
 * prochain"); an `on` word ("on Monday", "am Montag", "в пятницу") the last one before today,
 * as a question to notes asks of the past. A word agrees with some days (Portuguese `passada`
 * with segunda…sexta, `passado` with sábado and domingo): each form is read with any day, a
 * wrong pairing being nothing anyone writes. Alone a weekday stays a word: "Friday standup"
 * names a meeting as often as a day.
 */
const WEEKDAY_WORDS: Readonly<Record<string, { last: string; this: string; next: string; on?: string }>> = {
  en: { last: 'last *', this: 'this *', next: 'next *', on: 'on' },
  pt: { last: '* passada | * passado | última * | último *', this: 'esta * | este * | nesta * | neste *', next: '* que vem | próxima * | próximo *', on: 'na no' },
  // "el viernes" is Spanish for "on Friday".
  es: { last: '* pasado | pasado *', this: 'este *', next: '* que viene | próximo *', on: 'el' },
  // French and Italian say "on Friday" with the day alone ("le vendredi": on Fridays).
  fr: { last: '* dernier | * passé', this: 'ce *', next: '* prochain' },
  de: { last: 'letzten * | vergangenen *', this: 'diesen *', next: 'nächsten * | kommenden *', on: 'am' },
  it: { last: '* scorso | * scorsa | scorso * | scorsa *', this: 'questo * | questa *', next: '* prossimo | * prossima | prossimo * | prossima *' },
  nl: { last: 'afgelopen * | vorige *', this: 'deze *', next: 'volgende * | komende * | aanstaande *', on: 'op' },
  // Masculine, feminine and neuter accusative (прошлый вторник, прошлую пятницу, прошлое воскресенье); во before вторник.
  ru: { last: 'прошлый * | прошлую * | прошлое *', this: 'этот * | эту * | это *', next: 'следующий * | следующую * | следующее *', on: 'в во' },
};

/**
 * The numbers one to twelve written as words, per language, for "two weeks ago", "há duas
 * semanas", "vor einer Woche" (Intl's phrases take digits): `/` parts the forms of one number
 * (gender and case: Portuguese `um/uma`, German `einem/einer`). A number word fills the number
 * of its own language's phrases only, and alone is nothing.
 */
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  en: 'a/an/one two three four five six seven eight nine ten eleven twelve',
  pt: 'um/uma dois/duas três quatro cinco seis sete oito nove dez onze doze',
  es: 'un/una/uno dos tres cuatro cinco seis siete ocho nueve diez once doce',
  fr: 'un/une deux trois quatre cinq six sept huit neuf dix onze douze',
  de: 'ein/eine/einen/einem/einer zwei drei vier fünf sechs sieben acht neun zehn elf zwölf',
  it: 'un/una/uno due tre quattro cinque sei sette otto nove dieci undici dodici',
  nl: 'een/één twee drie vier vijf zes zeven acht negen tien elf twaalf',
  ru: 'один/одна/одну/одно два/две три четыре пять шесть семь восемь девять десять одиннадцать двенадцать',
};

/** Language → folded number word → its number. */
const NUMBERS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(
  Object.entries(NUMBER_WORDS).map(([language, list]) => [language, new Map(list.split(' ').flatMap((forms, i) => forms.split('/').map((form) => [foldToken(form), i + 1] as const)))]),
);

/**
 * The forms of a weekday's name (Intl's, in the nominative) that `WEEKDAY_WORDS` place: `full`
 * read in every phrase; `short` only in `last` and `next` phrases.
 * Russian puts the day in the accusative (`в пятницу`, `среду`, `субботу`; the masculine and
 * neuter names do not change). Portuguese writes `sexta-feira` also apart, and says `sexta`:
 * alone an ordinal too ("na segunda versão", "nesta segunda edição"), so `sexta` is read only in
 * phrases of the past or the next one ("sexta passada", "na sexta que vem", "próxima sexta").
 */
function weekdayForms(language: string, name: string): { full: string[]; short: string[] } {
  if (language === 'ru') return { full: [name.replace(/а$/, 'у')], short: [] };
  if (!name.includes('-')) return { full: [name], short: [] };
  return { full: [name, name.replace('-', ' ')], short: [name.slice(0, name.indexOf('-'))] };
}

/** Each phrase placing a weekday in `language` (`WEEKDAY_WORDS`), with the day (0 Monday) and where it places it. */
function weekdayPhrases(language: string): { text: string; weekday: number; offset: number }[] {
  const words = WEEKDAY_WORDS[language];
  if (words === undefined) return [];
  // `short`: whether a short name (`sexta`) is read in it: not in `this` phrases nor after an `on` word alone.
  const templates = (list: string, offset: number) => list.split('|').map((template) => ({ template: template.trim(), offset, short: offset !== 0 }));
  const placed = [...templates(words.last, -1), ...templates(words.this, 0), ...templates(words.next, 1)];
  // An `on` word also opens the phrases whose placing word follows the day: else "na sexta-feira
  // que vem" would be read as "na sexta-feira", the last one, before "sexta-feira que vem" was.
  for (const on of (words.on ?? '').split(' ').filter(Boolean)) {
    for (const { template, offset, short } of placed.filter((p) => p.template.startsWith('*'))) placed.push({ template: `${on} ${template}`, offset, short });
    placed.push({ template: `${on} *`, offset: -1, short: false });
  }
  const weekdayName = new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' });
  const phrases: { text: string; weekday: number; offset: number }[] = [];
  for (let weekday = 0; weekday < 7; weekday++) {
    const forms = weekdayForms(language, weekdayName.format(new Date((4 + weekday) * 86_400_000))); // day 4 (1970-01-05) was a Monday
    for (const { template, offset, short } of placed) {
      for (const form of short ? [...forms.full, ...forms.short] : forms.full) phrases.push({ text: template.replace('*', form), weekday, offset });
    }
  }
  return phrases;
}

/**
 * First folded word → the phrases it opens, longest first: each language's words for "the day
 * before yesterday" to "next year", and "N days ago" / "in N weeks" in every unit, from the
 * platform's own relative-time data (`Intl.RelativeTimeFormat`), not a hand-written table —
 * as the month names are; then what Intl does not say: a weekday placed by a word
 * (`WEEKDAY_WORDS`), English's day before yesterday. A phrase opening with its number is filed
 * under `#` (digits) and under each of its language's number words (`two`, `twee`, `две`): a
 * number word opens its own language's phrases only, in the one look-up every word gets.
 * Made on the first search: formatting its phrases takes about 50 ms, which a command that
 * never searches should not pay at start-up.
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
    // One shape for every phrase (a weekday or not): the loop reading them stays monomorphic.
    const entry: RelativePhrase = { words, language: phrase.language, unit: phrase.unit, weekday: phrase.weekday, offset: phrase.offset, counted: phrase.counted };
    for (const first of words[0] === '#' ? ['#', ...NUMBERS.get(phrase.language)!.keys()] : [words[0]!]) {
      const list = byFirst.get(first) ?? [];
      list.push(entry);
      byFirst.set(first, list);
    }
  };
  for (const language of MONTH_LANGUAGES) {
    const named = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    const counted = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
    for (const unit of UNITS) {
      // ±2 days are words in most languages ("anteontem", "übermorgen"); English's ("in 2 days") are counted phrases, below.
      for (let offset = -2; offset <= 2; offset++) {
        const text = named.format(offset, unit);
        if (!/\d/.test(text)) add(text, { language, unit, offset, counted: false });
      }
      // Several numbers, for languages whose unit word agrees with it (Russian `2 дня`, `5 дней`).
      for (const n of [1, 2, 3, 5, 7, 11, 21]) {
        add(counted.format(-n, unit), { language, unit, offset: -1, counted: true });
        add(counted.format(n, unit), { language, unit, offset: 1, counted: true });
      }
      // Russian leaves "one" unsaid: "неделю назад" (a week ago), "через месяц" (in a month); not
      // "через день", which is also "every other day".
      if (language === 'ru') {
        add(counted.format(-1, unit).replace(/\d+ /, ''), { language, unit, offset: -1, counted: false });
        if (unit !== 'day') add(counted.format(1, unit).replace(/\d+ /, ''), { language, unit, offset: 1, counted: false });
      }
    }
    for (const { text, weekday, offset } of weekdayPhrases(language)) add(text, { language, unit: 'weekday', weekday, offset, counted: false });
  }
  // English says -2 and +2 days in words Intl's English does not give ("2 days ago"): read
  // as yesterday, "the day before yesterday" named the wrong day.
  add('day before yesterday', { language: 'en', unit: 'day', offset: -2, counted: false });
  add('day after tomorrow', { language: 'en', unit: 'day', offset: 2, counted: false });
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  return (relativePhrases = byFirst);
}

/** The number a counted phrase's `#` stands on: digits (up to three), or a number word of the phrase's language. */
function countAt(word: string | undefined, language: string): number {
  if (word === undefined) return -1;
  if (/^\d{1,3}$/.test(word)) return +word;
  return NUMBERS.get(language)?.get(word) ?? -1;
}

/**
 * Whether `phrase` is said at `words[i]`: the number its `#` stands on (0 for a phrase without
 * one), or -1. A plain loop: a word such as Portuguese `no` opens some sixty phrases, each of
 * which fails at its second word.
 */
function numberAt(phrase: RelativePhrase, words: readonly string[], i: number): number {
  if (i + phrase.words.length > words.length) return -1;
  let number = 0;
  for (let at = 0; at < phrase.words.length; at++) {
    const word = phrase.words[at]!;
    if (word !== '#') {
      if (words[i + at] !== word) return -1;
    } else if ((number = countAt(words[i + at], phrase.language)) === -1) return -1;
  }
  return number;
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
    // Digits open counted phrases ("3 days ago"); a number word is a key of its own ("two weeks ago").
    const phrases = table.get(/^\d+$/.test(word) ? '#' : word);
    if (phrases === undefined) continue;
    for (const phrase of phrases) {
      if (phrase.words.length === 1) {
        language = language === undefined ? languageOf() : language;
        if (language !== null && language !== phrase.language) continue;
      }
      const number = numberAt(phrase, folded, i);
      if (number === -1) continue;
      const last = i + phrase.words.length - 1;
      // "on Tuesday mornings" is every Tuesday, not the last one.
      if (phrase.unit === 'weekday' && HABITUAL.has(folded[last + 1] ?? '')) continue;
      const span = phrase.unit === 'weekday' ? weekdaySpan(today, phrase.weekday!, phrase.offset) : relativeSpan(today, phrase.unit, phrase.counted ? phrase.offset * number : phrase.offset);
      ranges.push({ ...span, text: words.slice(i, last + 1).join(' '), first: i, last, relative: true });
      i = last;
      break;
    }
  }
  return joinSpans(words, ranges, today);
}

/**
 * The words that ask for the newest of the notes matching the rest ("the latest 1:1 with
 * Priya", "when was the last search sync?", "a reunião mais recente"), per language, `|`
 * parting phrases. Not "recently" nor "currently": a question about a conversation asks "what
 * did John recently get promoted to?" of a time within it, not of the newest notes.
 */
const NEWEST_WORDS: Readonly<Record<string, string>> = {
  en: 'latest | newest | last | last time | most recent | most recently | recent | recently | lately',
  pt: 'último | última | últimos | últimas | mais recente | mais recentes | recente | recentes | recentemente',
  es: 'último | última | últimos | últimas | más reciente | más recientes | reciente | recientes | recientemente',
  fr: 'dernier | dernière | derniers | dernières | plus récent | plus récente | plus récents | plus récentes | récent | récente | récents | récentes | récemment',
  de: 'neueste | neuesten | neuester | neuestes | letzte | letzten | letzter | letztes | zuletzt | kürzlich | neulich',
  it: 'ultimo | ultima | ultimi | ultime | più recente | più recenti | recente | recenti | recentemente',
  nl: 'nieuwste | laatste | recentste | meest recente | recent | recente | onlangs',
  ru: 'последний | последняя | последнее | последние | последнюю | последнего | последней | последним | новейший | недавно | недавний | недавние',
};

const NEWEST = phraseTable(NEWEST_WORDS);

/**
 * Adverbs of `NEWEST_WORDS` ("recently", "lately") that ask for the newest only when the query
 * asks nothing else ("what did I write recently?"). Beside a subject they tell when something
 * happened as the asker recalls it ("what did Melanie paint recently?"), often long before the
 * newest note, and the word itself is what the note said ("I recently painted …"): read there,
 * they cost LoCoMo's session recall 0.002 s@5.
 */
const ALONE_ONLY: ReadonlySet<string> = new Set(foldWords(['recently', 'lately', 'recentemente', 'recientemente', 'récemment', 'kürzlich', 'neulich', 'onlangs', 'недавно']));

/** Whether a phrase `newestAsked` found asks for the newest only when the query asks nothing else (`ALONE_ONLY`). */
export function asksAloneOnly(words: readonly string[], phrase: AskedPhrase): boolean {
  return phrase.first === phrase.last && ALONE_ONLY.has(foldWords([words[phrase.first]!])[0]!);
}

/** The languages in which a newest word means something else: German and Dutch `Last` is a load. */
const FALSE_FRIENDS: ReadonlyMap<string, readonly string[]> = new Map([['last', ['de', 'nl']]]);

/** Words before English `last` asking for the newest: a determiner or a subject ("the last sync", "when did I last …"). */
const BEFORE_LAST = new Set(['the', 'my', 'our', 'your', 'his', 'her', 'their', 'i', 'we', 'you', 'he', 'she', 'they', 'was', 'were', 'did']);

/**
 * The words of a query asking for the newest notes (`NEWEST_WORDS`): each phrase's first and
 * last word and its text; empty when none does. Italian's elided article is read apart
 * (`l'ultima`). Not read: a word where the query's function words (`languageOf`) are of a
 * language in which it means something else (German `Last`), an idiom after "at" ("at last",
 * "at the very latest", `idiomAfterAt`), and English `last` alone after no determiner or
 * subject ("last resort", "first and last steps", "will the battery last"), ending the query,
 * or before `name` ("last time" is read wherever it stands).
 */
export function newestAsked(words: readonly string[], languageOf: () => string | null = () => null): AskedPhrase[] {
  const folded = foldWords(words);
  return phrasesIn(words, folded, NEWEST, (first, last) => {
    if (idiomAfterAt(folded, first, last)) return false;
    const one = first === last;
    if (one && folded[first] === 'last' && (!BEFORE_LAST.has(folded[first - 1] ?? '') || last === folded.length - 1 || folded[last + 1] === 'name' || folded[last + 1] === 'names')) return false;
    const unlike = FALSE_FRIENDS.get(folded[first]!);
    return !(unlike !== undefined && one && unlike.includes(languageOf() ?? ''));
  });
}

/**
 * Whether a newest phrase is the end of an idiom after "at": "at last", "at (the) latest", "at the
 * very latest", "… at the last" — not "at the last Harbor review" nor "look at my latest notes".
 */
function idiomAfterAt(folded: readonly string[], first: number, last: number): boolean {
  // `lastIndexOf` from -1 would search the whole query: a first word has no "at" before it.
  const at = first === 0 ? -1 : folded.lastIndexOf('at', first - 1);
  if (at === -1 || first - at > 3 || !folded.slice(at + 1, first).every((word) => word === 'the' || word === 'very')) return false;
  // "at the latest by Friday" ends a clause; "at the latest Harbor review" names what is newest.
  return at === first - 1 || last === folded.length - 1 || AFTER_THE_IDIOM.has(folded[last + 1]!);
}

/** Words after "at the latest" that end the idiom's clause ("at the latest by Friday", "… and then"). */
const AFTER_THE_IDIOM = new Set(['by', 'on', 'in', 'to', 'for', 'and', 'or', 'but', 'then', 'so', 'if', 'when', 'before', 'after', 'until']);

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

  /** Whether any note is dated (by its name or `date:`). */
  get anyDated(): boolean {
    return this.dated > 0;
  }

  /**
   * Doc → its bonus among `docs` for a query asking for the newest ("the latest 1:1 with
   * Priya"): for the r-th newest of the m dated notes there (notes of one day share their rank),
   * the idf of being among the r newest, ln(1 + (m − r + 0.5) / (r + 0.5)) — as if being that new
   * were a word those notes contain — times `NEWEST_WEIGHT`. Undated notes get none.
   */
  newest(docs: readonly number[]): Map<number, number> {
    // Sorted newest first, a note's rank is where its day's group ends: no pairwise count.
    const dated = docs.filter((doc) => this.days[doc] !== -1).sort((a, b) => this.days[b]! - this.days[a]!);
    const bonuses = new Map<number, number>();
    for (let i = 0; i < dated.length;) {
      let end = i;
      while (end < dated.length && this.days[dated[end]!] === this.days[dated[i]!]) end++;
      const bonus = NEWEST_WEIGHT * inverseDocumentFrequency(dated.length, end, 'lucene');
      for (; i < end; i++) bonuses.set(dated[i]!, bonus);
    }
    return bonuses;
  }

  /** `newest` over every note of the vault (a query asking only for the newest). */
  newestOfAll(): Map<number, number> {
    return this.newest(Array.from(this.days.keys()));
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
   * Doc → its bonus from the spans' notes: being dated in a span is a word with its own idf, over
   * the notes dated in it, times `RELATIVE_WEIGHT` for a relative span; a note only mentioning a
   * day of it gets `MENTION_SHARE` of the idf over both kinds, so it never outweighs a note dated
   * there; a note in several spans gets its best. One idf over both for the dated notes had let
   * the notes mentioning a day lower its own daily note's bonus: "what happened with the old
   * Elasticsearch cluster last Friday?" left that Friday's note out of the first five, six notes
   * mentioning the day beside it; with its own idf it is in them (sample vault relative dates
   * MRR 0.944 → 0.972, spans 0.852 → 0.861, the blind sets' `timeline` 0.559 → 0.631 and `when`
   * 0.750 → 0.778; no set lower, LoCoMo unchanged). Mentions were measured with their own idf
   * too, scoring the same, but where one note mentions a day of a month of daily notes it
   * outweighed them all.
   */
  bonuses(spans: readonly SpanNotes[]): Map<number, DateBoost> {
    const boosts = new Map<number, DateBoost>();
    const total = this.days.length;
    const idf = (n: number): number => inverseDocumentFrequency(total, n, 'lucene');
    for (const { range, dated, mentioning } of spans) {
      const relative = range.relative === true;
      const give = (doc: number, bonus: number): void => {
        if (bonus > (boosts.get(doc)?.score ?? 0)) boosts.set(doc, { score: bonus, text: range.text, relative });
      };
      const datedScore = idf(dated.length) * (relative ? RELATIVE_WEIGHT : 1);
      for (const doc of dated) give(doc, datedScore);
      const mentionScore = idf(dated.length + mentioning.length) * MENTION_SHARE;
      for (const doc of mentioning) give(doc, mentionScore);
    }
    return boosts;
  }
}
