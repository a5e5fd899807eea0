/**
 * Dates a query names, and the day a note is dated by its file name. Memory vaults are kept by
 * date — daily notes, meeting notes, session logs are named `2026-05-12 …` — and agents ask by
 * date ("what did Joanna say on 1 May, 2022?", "1:1 with Priya May 2026"), in words no note's
 * text needs to share: the note is *dated* that day, its name (or its `date:`) says so in digits. Pure: words and
 * paths in, day numbers out (days since 1970-01-01, UTC).
 */
import { foldToken } from './tokenizer.js';

/** A span of days a query names, inclusive, and the query words that named it. */
export interface DateRange {
  from: number;
  to: number;
  /** The words as written (`1 May 2022`), for `--explain`. */
  text: string;
}

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

function monthRange(year: number, month: number, text: string): DateRange | null {
  const from = dayNumber(year, month, 1);
  if (from === -1) return null;
  return { from, to: dayNumber(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - 1, text };
}

function dayRange(year: number, month: number, day: number, text: string): DateRange | null {
  const at = dayNumber(year, month, day);
  return at === -1 ? null : { from: at, to: at, text };
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
      const range = iso[3] === undefined ? monthRange(+iso[1]!, +iso[2]!, word) : dayRange(+iso[1]!, +iso[2]!, +iso[3], word);
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
  return day ? dayRange(+year[1]!, month, +day[1]!, text) : monthRange(+year[1]!, month, text);
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

/** A note dated inside a span the query names: the bonus and the words that named the span. */
export interface DateBoost {
  score: number;
  text: string;
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

  /** Doc → its bonus, for the dates `words` name (empty when they name none or no note is so dated). */
  boosts(words: readonly string[]): Map<number, DateBoost> {
    const boosts = new Map<number, DateBoost>();
    if (this.dated === 0) return boosts;
    const total = this.days.length;
    const seen = new Set<string>();
    for (const range of queryDateRanges(words)) {
      // A query repeating a date (or pasted text full of them) walks the notes once per span.
      const key = `${range.from}:${range.to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const docs: number[] = [];
      for (let doc = 0; doc < total; doc++) {
        const day = this.days[doc]!;
        if (day >= range.from && day <= range.to) docs.push(doc);
      }
      const n = docs.length;
      const score = Math.log(1 + (total - n + 0.5) / (n + 0.5));
      for (const doc of docs) if (score > (boosts.get(doc)?.score ?? 0)) boosts.set(doc, { score, text: range.text });
    }
    return boosts;
  }
}
