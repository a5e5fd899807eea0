import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asksAloneOnly, dayNumber, dayOfName, dayOfValue, impossibleDates, isoDay, localDay, newestAsked, NoteDates, queryDateRanges, relativeDateRanges } from '../../src/search/dates.js';
import { scanWords, VaultSearch } from '../../src/search/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

const words = (query: string): string[] => {
  const out: string[] = [];
  scanWords(query, (word) => {
    out.push(word);
  });
  return out;
};
const spans = (query: string) => queryDateRanges(words(query)).map(({ from, to, text }) => [from, to, text]);
const day = (iso: string) => dayNumber(+iso.slice(0, 4), +iso.slice(5, 7), +iso.slice(8, 10));

test('the dates a query names: ISO days and months, a month name with its year and day on either side', () => {
  assert.deepEqual(spans('what did I log on 2026-05-01'), [[day('2026-05-01'), day('2026-05-01'), '2026-05-01']]);
  assert.deepEqual(spans('What movie did Joanna watch on 1 May, 2022?'), [[day('2022-05-01'), day('2022-05-01'), '1 May 2022']]);
  assert.deepEqual(spans('May 1st, 2022'), [[day('2022-05-01'), day('2022-05-01'), 'May 1st 2022']]);
  assert.deepEqual(spans('the 3rd of March 2026'), [[day('2026-03-03'), day('2026-03-03'), '3rd of March 2026']]);
  assert.deepEqual(spans('1:1 with Priya May 2026'), [[day('2026-05-01'), day('2026-05-31'), 'May 2026']]);
  assert.deepEqual(spans('Dec 2025 and 2026-02'), [
    [day('2025-12-01'), day('2025-12-31'), 'Dec 2025'],
    [day('2026-02-01'), day('2026-02-28'), '2026-02'],
  ]);
  // Other languages' month names, from the platform's calendar data (Russian declined).
  assert.deepEqual(spans('reunião de 12 de maio de 2026'), [[day('2026-05-12'), day('2026-05-12'), '12 de maio de 2026']]);
  assert.deepEqual(spans('le 3 mars 2025'), [[day('2025-03-03'), day('2025-03-03'), '3 mars 2025']]);
  assert.deepEqual(spans('1 мая 2022'), [[day('2022-05-01'), day('2022-05-01'), '1 мая 2022']]);
});

test('no date without a year unless a today is given, no impossible day, and a month word alone is a word', () => {
  assert.deepEqual(spans('what did Melanie paint in May?'), []);
  assert.deepEqual(spans('2026-02-30 and 2026-13'), []);
  assert.deepEqual(spans('a test set 2026'), [], 'abbreviations are English only: Portuguese `set` is an English word');
  assert.deepEqual(spans('May I embed a file?'), []);
});

test('with a today, a month or day named without a year is the last one up to today; a month alone, or a lower-case may, is not', () => {
  const today = day('2023-10-23');
  const yearless = (query: string) => queryDateRanges(words(query), today).map(({ from, to, text, yearless }) => [isoDay(from), isoDay(to), text, yearless]);
  assert.deepEqual(yearless('When did Melanie go camping in June?'), [['2023-06-01', '2023-06-30', 'June', true]]);
  assert.deepEqual(yearless('the second week of November'), [['2022-11-01', '2022-11-30', 'November', true]], 'not begun by today: the year before');
  assert.deepEqual(yearless('what happened in October'), [['2023-10-01', '2023-10-31', 'October', true]], 'this month, begun');
  assert.deepEqual(yearless('when they met on Aug 15th'), [['2023-08-15', '2023-08-15', 'Aug 15th', true]]);
  assert.deepEqual(yearless('between August 11 and August 15 2023'), [['2023-08-11', '2023-08-15', 'between August 11 and August 15 2023', undefined]], "a span: the year of one end is the other one's");
  assert.deepEqual(yearless('o que fiz em junho'), [['2023-06-01', '2023-06-30', 'junho', true]]);
  assert.deepEqual(yearless('June said the budget is fine'), [], 'a month alone may be a name');
  assert.deepEqual(yearless('what did June say'), []);
  assert.deepEqual(yearless('it may rain in may'), [], 'lower-case may is a modal');
  assert.deepEqual(yearless('in May 2022'), [['2022-05-01', '2022-05-31', 'May 2022', undefined]], 'a year given is kept');
  assert.deepEqual(yearless('on may 5th'), [['2023-05-05', '2023-05-05', 'may 5th', true]], 'with a day, lower-case may is the month');
  assert.deepEqual(yearless('on Dec 4'), [['2022-12-04', '2022-12-04', 'Dec 4', true]], 'a day not yet come this year: the year before');
  assert.deepEqual(yearless('on Feb 29'), [['2020-02-29', '2020-02-29', 'Feb 29', true]], 'the last leap day');
  // The whole query a day and its month: a date, though nothing places it ("top 5 June" counts).
  assert.deepEqual(yearless('May 20'), [['2023-05-20', '2023-05-20', 'May 20', true]]);
  assert.deepEqual(yearless('20 May'), [['2023-05-20', '2023-05-20', '20 May', true]]);
  // Two year-less ends the wrong way round: the shorter reading, across the new year or the other way round.
  const span = (query: string) => yearless(query).map(([from, to]) => [from, to]);
  assert.deepEqual(span('between December 28 and January 3'), [['2022-12-28', '2023-01-03']]);
  assert.deepEqual(span('between June 30 and June 1'), [['2023-06-01', '2023-06-30']]);
  assert.deepEqual(span('between May 20 and April 2'), [['2023-04-02', '2023-05-20']]);
  assert.deepEqual(span('between November 20 and February 2'), [['2022-11-20', '2023-02-02']]);
});

test("a month or day without a year is a date only where placed as one: not after another language's word, not before a name, not a count", () => {
  const yearless = (query: string) => queryDateRanges(words(query), day('2023-10-23')).map(({ text }) => text);
  assert.deepEqual(yearless('a June wedding'), [], 'English "a" is an article');
  assert.deepEqual(yearless('exploration of Mars'), [], 'French mars after English of');
  assert.deepEqual(yearless('agua de mar'), [], 'an abbreviation alone is no month');
  assert.deepEqual(yearless('letters of August Strindberg'), [], 'a name follows');
  assert.deepEqual(yearless('top 5 June'), []);
  assert.deepEqual(yearless('June 2 people'), []);
  assert.deepEqual(yearless('vacanze a maggio'), ['maggio'], 'Italian a before an Italian month');
  assert.deepEqual(yearless('was ist im Juni passiert'), ['Juni']);
  assert.deepEqual(yearless('что было в июнь'), [], 'Russian has no placing words listed: its month alone is no date');
});

test("a note's day is the ISO date in its file name, not in its folders", () => {
  assert.equal(dayOfName('Meetings/2026/2026-05-12 1-1 Priya.md'), day('2026-05-12'));
  assert.equal(dayOfName('Daily/2026-05-01.md'), day('2026-05-01'));
  assert.equal(dayOfName('2026-05-01/Notes.md'), -1);
  assert.equal(dayOfName('Build 120260-05-01.md'), -1);
  assert.equal(dayOfName('Plans.md'), -1);
});

test('a frontmatter date dates a note its name does not: ISO days, with or without a time', () => {
  assert.equal(dayOfValue('2026-05-28'), day('2026-05-28'));
  assert.equal(dayOfValue('2026-05-28T10:00:00.000Z'), day('2026-05-28'));
  assert.equal(dayOfValue(' 2026-05-28 10:00'), day('2026-05-28'));
  for (const value of ['May 28', '28/05/2026', '2026-05-280', '2026-13-01', null]) assert.equal(dayOfValue(value), -1, String(value));
  const dates = new NoteDates(['Architecture review.md', 'Daily/2026-05-01.md', 'Plans.md'], ['2026-05-28', '2020-01-01', 'someday']);
  assert.deepEqual([...dates.boosts(queryDateRanges(words('May 2026'))).keys()], [0, 1], "the file name's date comes first");
});

test('NoteDates: notes dated in a named span get its idf, a day more than a month', () => {
  const dates = new NoteDates(['Daily/2026-05-01.md', 'Daily/2026-05-02.md', 'Daily/2026-06-01.md', 'Plans.md']);
  const oneDay = dates.boosts(queryDateRanges(words('what happened on 2026-05-01')));
  assert.deepEqual([...oneDay.keys()], [0]);
  const month = dates.boosts(queryDateRanges(words('May 2026')));
  assert.deepEqual([...month.keys()], [0, 1]);
  assert.ok(oneDay.get(0)!.score > month.get(0)!.score, 'a day is rarer than its month');
  assert.equal(oneDay.get(0)!.score, Math.log(1 + (4 - 1 + 0.5) / 1.5));
  assert.deepEqual(dates.boosts(queryDateRanges(words('what happened on 2027-01-01'))).size, 0);
  // A long pasted query repeating a date gives what the date once gives.
  assert.deepEqual(dates.boosts(queryDateRanges(words('notes from May 2026, '.repeat(500)))), month);
  assert.deepEqual(new NoteDates(['Plans.md']).boosts(queryDateRanges(words('2026-05-01'))).size, 0);
});

test('a query naming a date puts the note dated then above its siblings, and explains why', (t) => {
  const meeting = (day: string) => `# 1:1 with Priya — ${day}\nWe went over the roadmap, hiring and the on-call rotation.\n`;
  const { db, root } = indexedVault(t, {
    'Meetings/2026-03-10 1-1 Priya.md': meeting('2026-03-10'),
    'Meetings/2026-04-14 1-1 Priya.md': meeting('2026-04-14'),
    'Meetings/2026-05-12 1-1 Priya.md': meeting('2026-05-12'),
    'Meetings/2026-06-09 1-1 Priya.md': meeting('2026-06-09'),
    'Plans.md': '# Plans\nA hiring freeze until May 2026.\n',
    'Reviews/Architecture review (spring).md': '---\ndate: 2026-03-03\n---\n# Architecture review (spring)\nThe storage layer and the search index.\n',
    'Reviews/Architecture review (summer).md': '---\ndate: 2026-05-28\n---\n# Architecture review (summer)\nThe storage layer and the search index.\n',
  });
  const engine = VaultSearch.open(db, root);
  const response = engine.search({ query: '1:1 with Priya May 2026', mode: 'keyword', explain: true });
  assert.equal(response.results[0]!.path, 'Meetings/2026-05-12 1-1 Priya.md');
  assert.deepEqual(
    response.results[0]!.boosts?.filter((boost) => boost.kind === 'date').map((boost) => boost.terms),
    [['May 2026']],
  );
  assert.ok(
    response.results.some((hit) => hit.path === 'Plans.md'),
    'an undated note saying the date still matches by its words',
  );
  const byDay = engine.search({ query: 'roadmap on 2026-05-12', mode: 'keyword' }).results.map((hit) => hit.path);
  assert.equal(byDay[0], 'Meetings/2026-05-12 1-1 Priya.md');
  // Dated by its frontmatter: a review note whose name has no date.
  assert.equal(engine.search({ query: 'architecture review May 2026', mode: 'keyword' }).results[0]!.path, 'Reviews/Architecture review (summer).md');
});

const relative = (query: string, today: string, language: string | null = null) => relativeDateRanges(words(query), day(today), () => language).map(({ from, to, text, first, last }) => [isoDay(from), isoDay(to), text, first, last]);

test('relative dates: days, calendar weeks from Monday, calendar months and years, counted back or ahead', () => {
  // 2026-12-02 is a Wednesday.
  assert.deepEqual(relative('what did I do yesterday', '2026-12-02'), [['2026-12-01', '2026-12-01', 'yesterday', 4, 4]]);
  assert.deepEqual(relative('today', '2026-12-02'), [['2026-12-02', '2026-12-02', 'today', 0, 0]]);
  assert.deepEqual(relative('plans for tomorrow', '2026-12-02'), [['2026-12-03', '2026-12-03', 'tomorrow', 2, 2]]);
  assert.deepEqual(relative('meetings last week', '2026-12-02'), [['2026-11-23', '2026-11-29', 'last week', 1, 2]]);
  assert.deepEqual(relative('this week', '2026-11-30'), [['2026-11-30', '2026-12-06', 'this week', 0, 1]], 'a Monday starts its own week');
  assert.deepEqual(relative('this week', '2026-12-06'), [['2026-11-30', '2026-12-06', 'this week', 0, 1]], 'a Sunday ends it');
  assert.deepEqual(relative('last month', '2026-01-15'), [['2025-12-01', '2025-12-31', 'last month', 0, 1]], 'across a year');
  assert.deepEqual(relative('next month', '2026-12-31'), [['2027-01-01', '2027-01-31', 'next month', 0, 1]]);
  assert.deepEqual(relative('last month', '2024-03-31'), [['2024-02-01', '2024-02-29', 'last month', 0, 1]], 'a leap February');
  assert.deepEqual(relative('goals this year', '2026-06-30'), [['2026-01-01', '2026-12-31', 'this year', 1, 2]]);
  assert.deepEqual(relative('3 days ago', '2026-12-02'), [['2026-11-29', '2026-11-29', '3 days ago', 0, 2]]);
  assert.deepEqual(relative('in 2 weeks', '2026-12-02'), [['2026-12-14', '2026-12-20', 'in 2 weeks', 0, 2]]);
  assert.deepEqual(relative('1 year ago', '2026-12-02'), [['2025-01-01', '2025-12-31', '1 year ago', 0, 2]]);
  assert.deepEqual(relative("yesterday's notes", '2026-12-02'), [['2026-12-01', '2026-12-01', "yesterday's", 0, 0]], 'a possessive');
  assert.deepEqual(relative('last week’s billing sync', '2026-12-02'), [['2026-11-23', '2026-11-29', 'last week’s', 0, 1]]);
});

test("relative dates in the languages whose months are read, from the platform's words for them", () => {
  assert.deepEqual(relative('o que fiz ontem', '2026-12-02'), [['2026-12-01', '2026-12-01', 'ontem', 3, 3]]);
  assert.deepEqual(relative('reuniões da semana passada', '2026-12-02'), [['2026-11-23', '2026-11-29', 'semana passada', 2, 3]]);
  assert.deepEqual(relative('há 3 dias', '2026-12-02'), [['2026-11-29', '2026-11-29', 'há 3 dias', 0, 2]]);
  assert.deepEqual(relative('notas de la semana pasada', '2026-12-02'), [['2026-11-23', '2026-11-29', 'la semana pasada', 2, 4]]);
  assert.deepEqual(relative("ce que j'ai écrit aujourd'hui", '2026-12-02'), [['2026-12-02', '2026-12-02', "aujourd'hui", 4, 4]], 'a straight apostrophe as well as the typographic one');
  assert.deepEqual(relative('Notizen von vor 2 Wochen', '2026-12-02'), [['2026-11-16', '2026-11-22', 'vor 2 Wochen', 2, 4]]);
  assert.deepEqual(relative('5 дней назад', '2026-12-02'), [['2026-11-27', '2026-11-27', '5 дней назад', 0, 2]], 'a unit word agreeing with its number');
});

test('relative dates in English words Intl does not give: the day before yesterday, a weekday placed by a word, numbers written out', () => {
  // 2026-12-02 is a Wednesday.
  assert.deepEqual(relative('what did I do the day before yesterday', '2026-12-02'), [['2026-11-30', '2026-11-30', 'day before yesterday', 5, 7]], 'not yesterday');
  assert.deepEqual(relative('the day after tomorrow', '2026-12-02'), [['2026-12-04', '2026-12-04', 'day after tomorrow', 1, 3]]);
  assert.deepEqual(relative('notes from last Friday', '2026-12-02'), [['2026-11-27', '2026-11-27', 'last Friday', 2, 3]]);
  assert.deepEqual(relative('what did we decide on Monday?', '2026-12-02'), [['2026-11-30', '2026-11-30', 'on Monday', 4, 5]]);
  assert.deepEqual(relative('why is the handoff on Tuesday mornings?', '2026-12-02'), [], 'every Tuesday morning is no date');
  assert.deepEqual(relative('what broke on Tuesday morning?', '2026-12-02'), [['2026-12-01', '2026-12-01', 'on Tuesday', 2, 3]]);
  assert.deepEqual(relative('last Wednesday', '2026-12-02'), [['2026-11-25', '2026-11-25', 'last Wednesday', 0, 1]], "the last one before today, never today's");
  assert.deepEqual(relative('next Wednesday', '2026-12-02'), [['2026-12-09', '2026-12-09', 'next Wednesday', 0, 1]]);
  assert.deepEqual(relative('this Friday', '2026-12-02'), [['2026-12-04', '2026-12-04', 'this Friday', 0, 1]], "this week's, ahead or behind");
  assert.deepEqual(relative('this Monday', '2026-12-02'), [['2026-11-30', '2026-11-30', 'this Monday', 0, 1]]);
  assert.deepEqual(relative("last Sunday's walk", '2026-12-02'), [['2026-11-29', '2026-11-29', "last Sunday's", 0, 1]]);
  assert.deepEqual(relative('two weeks ago', '2026-12-02'), [['2026-11-16', '2026-11-22', 'two weeks ago', 0, 2]]);
  assert.deepEqual(relative('a month ago', '2026-12-02'), [['2026-11-01', '2026-11-30', 'a month ago', 0, 2]]);
  assert.deepEqual(relative('in three days', '2026-12-02'), [['2026-12-05', '2026-12-05', 'in three days', 0, 2]]);
  assert.deepEqual(relative('Friday standup', '2026-12-02'), [], 'a weekday alone names a meeting as often as a day');
  assert.deepEqual(relative('what did we do last weekend', '2026-12-02'), [], 'a weekend stays words (see decision 016)');
  assert.deepEqual(relative('goals last quarter', '2026-12-02'), [['2026-07-01', '2026-09-30', 'last quarter', 1, 2]], 'a calendar quarter (Intl has the unit in every language)');
  assert.deepEqual(relative('this quarter', '2026-02-10'), [['2026-01-01', '2026-03-31', 'this quarter', 0, 1]]);
  assert.deepEqual(relative('next quarter', '2026-12-02'), [['2027-01-01', '2027-03-31', 'next quarter', 0, 1]], 'across a year');
  assert.deepEqual(relative('a day in the life', '2026-12-02'), []);
  assert.deepEqual(relative('over a week', '2026-12-02'), [], "a number word fills its own language's phrases only: Dutch `over 1 week` is in a week");
});

// 2026-12-02 is a Wednesday: the last Friday before it 2026-11-27, this week's Thursday 2026-12-03, the next Tuesday 2026-12-08.
const WEEKDAYS_AND_NUMBERS: Record<string, { dates: [string, [string, string, string, number, number][]][]; words: string[] }> = {
  pt: {
    dates: [
      ['o que fiz na sexta passada?', [['2026-11-27', '2026-11-27', 'na sexta passada', 3, 5]]],
      ['notas da última sexta-feira', [['2026-11-27', '2026-11-27', 'última sexta-feira', 2, 3]]],
      ['o que fiz no sábado', [['2026-11-28', '2026-11-28', 'no sábado', 3, 4]]],
      ['nesta quinta-feira', [['2026-12-03', '2026-12-03', 'nesta quinta-feira', 0, 1]]],
      ['na terça que vem', [['2026-12-08', '2026-12-08', 'na terça que vem', 0, 3]]],
      ['próxima terça feira', [['2026-12-08', '2026-12-08', 'próxima terça feira', 0, 2]]],
      ['reunião de há duas semanas', [['2026-11-16', '2026-11-22', 'há duas semanas', 2, 4]]],
      ['há um mês', [['2026-11-01', '2026-11-30', 'há um mês', 0, 2]]],
      ['depois de amanhã', [['2026-12-04', '2026-12-04', 'depois de amanhã', 0, 2]]],
    ],
    // `segunda` … `sexta` are ordinals too: only `sexta-feira` is read after `na` or `nesta`.
    words: ['na segunda versão do contrato', 'nesta segunda edição', 'a sexta edição', 'sexta-feira reunião de equipe', 'dois dias de trabalho', 'um ano de estudo'],
  },
  es: {
    dates: [
      ['el viernes pasado', [['2026-11-27', '2026-11-27', 'el viernes pasado', 0, 2]]],
      ['este jueves', [['2026-12-03', '2026-12-03', 'este jueves', 0, 1]]],
      ['el martes que viene', [['2026-12-08', '2026-12-08', 'el martes que viene', 0, 3]]],
      ['el próximo martes', [['2026-12-08', '2026-12-08', 'próximo martes', 1, 2]]],
      ['hace dos semanas', [['2026-11-16', '2026-11-22', 'hace dos semanas', 0, 2]]],
      ['hace una semana', [['2026-11-23', '2026-11-29', 'hace una semana', 0, 2]]],
    ],
    words: ['viernes de tapas', 'dos semanas de vacaciones', 'un día de estos'],
  },
  fr: {
    dates: [
      ['vendredi dernier', [['2026-11-27', '2026-11-27', 'vendredi dernier', 0, 1]]],
      ['ce jeudi', [['2026-12-03', '2026-12-03', 'ce jeudi', 0, 1]]],
      ['mardi prochain', [['2026-12-08', '2026-12-08', 'mardi prochain', 0, 1]]],
      ['il y a deux semaines', [['2026-11-16', '2026-11-22', 'il y a deux semaines', 0, 4]]],
      ['dans une semaine', [['2026-12-07', '2026-12-13', 'dans une semaine', 0, 2]]],
    ],
    words: ['vendredi soir', 'un mois de travail', 'ce que je fais le vendredi'],
  },
  de: {
    dates: [
      ['was war letzten Freitag', [['2026-11-27', '2026-11-27', 'letzten Freitag', 2, 3]]],
      ['am Freitag', [['2026-11-27', '2026-11-27', 'am Freitag', 0, 1]]],
      ['diesen Donnerstag', [['2026-12-03', '2026-12-03', 'diesen Donnerstag', 0, 1]]],
      ['am kommenden Dienstag', [['2026-12-08', '2026-12-08', 'kommenden Dienstag', 1, 2]]],
      ['vor zwei Wochen', [['2026-11-16', '2026-11-22', 'vor zwei Wochen', 0, 2]]],
      ['vor einer Woche', [['2026-11-23', '2026-11-29', 'vor einer Woche', 0, 2]]],
      ['übermorgen', [['2026-12-04', '2026-12-04', 'übermorgen', 0, 0]]],
    ],
    words: ['Freitag Meeting mit ein paar Leuten', 'ein Monat Urlaub', 'vor ein paar Tagen'],
  },
  it: {
    dates: [
      ['venerdì scorso', [['2026-11-27', '2026-11-27', 'venerdì scorso', 0, 1]]],
      ['domenica scorsa', [['2026-11-29', '2026-11-29', 'domenica scorsa', 0, 1]]],
      ['questo giovedì', [['2026-12-03', '2026-12-03', 'questo giovedì', 0, 1]]],
      ['martedì prossimo', [['2026-12-08', '2026-12-08', 'martedì prossimo', 0, 1]]],
      ['due settimane fa', [['2026-11-16', '2026-11-22', 'due settimane fa', 0, 2]]],
      ['un anno fa', [['2025-01-01', '2025-12-31', 'un anno fa', 0, 2]]],
    ],
    words: ['venerdì sera', 'sei settimane di ferie', 'una settimana'],
  },
  nl: {
    dates: [
      ['afgelopen vrijdag', [['2026-11-27', '2026-11-27', 'afgelopen vrijdag', 0, 1]]],
      ['deze donderdag', [['2026-12-03', '2026-12-03', 'deze donderdag', 0, 1]]],
      ['volgende dinsdag', [['2026-12-08', '2026-12-08', 'volgende dinsdag', 0, 1]]],
      ['twee weken geleden', [['2026-11-16', '2026-11-22', 'twee weken geleden', 0, 2]]],
      ['een week geleden', [['2026-11-23', '2026-11-29', 'een week geleden', 0, 2]]],
    ],
    words: ['een week vakantie', 'vrijdag overleg', 'deze notitie', 'een'],
  },
  ru: {
    dates: [
      ['в прошлую пятницу', [['2026-11-27', '2026-11-27', 'прошлую пятницу', 1, 2]]],
      ['во вторник', [['2026-12-01', '2026-12-01', 'во вторник', 0, 1]]],
      ['в эту субботу', [['2026-12-05', '2026-12-05', 'эту субботу', 1, 2]]],
      ['в следующий вторник', [['2026-12-08', '2026-12-08', 'следующий вторник', 1, 2]]],
      ['две недели назад', [['2026-11-16', '2026-11-22', 'две недели назад', 0, 2]]],
      ['неделю назад', [['2026-11-23', '2026-11-29', 'неделю назад', 0, 1]]],
    ],
    words: ['это пятница', 'пятница совещание', 'две недели отпуска', 'через день'],
  },
};

for (const [language, { dates, words: plain }] of Object.entries(WEEKDAYS_AND_NUMBERS)) {
  test(`relative dates in ${language}: a weekday placed by a word (last, this, next), numbers written out; a weekday or a number alone is a word`, () => {
    for (const [query, expected] of dates) assert.deepEqual(relative(query, '2026-12-02', language), expected, query);
    for (const query of plain) assert.deepEqual(relative(query, '2026-12-02', language), [], query);
  });
}

test("relative dates: a one-word phrase of another language than the query's is not read; numbers and words that only look alike are not", () => {
  assert.deepEqual(relative('wo ist hier die Datei', '2026-12-02', 'de'), [], 'German hier is here, French hier yesterday');
  assert.deepEqual(relative('hier', '2026-12-02', 'fr'), [['2026-12-01', '2026-12-01', 'hier', 0, 0]]);
  assert.deepEqual(relative('last', '2026-12-02'), []);
  assert.deepEqual(relative('the last weekly review', '2026-12-02'), []);
  assert.deepEqual(relative('1000 days ago', '2026-12-02'), [], 'a count of more than three digits is not a date');
  assert.deepEqual(relative('', '2026-12-02'), []);
});

test('localDay is the calendar day where the clock is read', () => {
  assert.equal(isoDay(localDay(new Date(2026, 11, 2, 12).getTime())), '2026-12-02');
  assert.equal(isoDay(localDay(new Date(2026, 11, 2, 0, 5).getTime())), '2026-12-02');
  assert.equal(isoDay(localDay(new Date(2026, 11, 2, 23, 55).getTime())), '2026-12-02');
});

test("a relative date brings in the notes of its days: yesterday's daily note, notes dated in last week or mentioning a day of it, with a notice", (t) => {
  const { db, root } = indexedVault(t, {
    'Daily/2026-11-30.md': '# Monday\nShipped the release notes.\n',
    'Daily/2026-12-01.md': '# Tuesday\nCall with the bank about the mortgage.\n',
    'Daily/2026-12-02.md': '# Wednesday\nWrote about what happened yesterday at the bank.\n',
    'Meetings/Budget review.md': '---\ndate: 2026-11-24\n---\n# Budget review\nThe mortgage and the budget.\n',
    'Projects/Roadmap.md': '# Roadmap\nMilestones, decided on 2026-11-26 with the team.\n',
    'Ideas.md': '# Ideas\nSomething about the bank, some day.\n',
    'Layers.md': '# Layers\nThe cake has a layer of cream and a layer of jam.\n',
  });
  const engine = VaultSearch.open(db, root);
  const yesterday = engine.search({ query: 'what did I do yesterday?', mode: 'keyword', today: '2026-12-02' });
  assert.equal(yesterday.results[0]!.path, 'Daily/2026-12-01.md', 'the note of that day, not the one saying "yesterday"');
  assert.ok(yesterday.notices.includes('read "yesterday" as 2026-12-01: 1 note dated then, 0 mentioning a day of it'), yesterday.notices.join(' | '));
  assert.equal(yesterday.results.length, 1, 'no other note is of that day');
  const week = engine.search({ query: 'last week', mode: 'keyword', today: '2026-12-02' }).results.map((hit) => hit.path);
  assert.deepEqual(new Set(week), new Set(['Meetings/Budget review.md', 'Projects/Roadmap.md']), 'dated by `date:`, or mentioning a day of it');
  const topic = engine.search({ query: 'mortgage yesterday', mode: 'keyword', today: '2026-12-02' }).results.map((hit) => hit.path);
  assert.deepEqual(topic, ['Daily/2026-12-01.md', 'Meetings/Budget review.md'], "the day's note first, then the other note on the topic");
  // A one-word date of another language than the vault's, in a query of no function word, is still read.
  for (const query of ['Hypothek gestern', 'hipoteca ontem', 'вчера банк']) {
    const other = engine.search({ query, mode: 'keyword', today: '2026-12-02' });
    assert.equal(other.results[0]?.path, 'Daily/2026-12-01.md', query);
  }
  // In another language: the Portuguese "on Monday last" (`segunda`, not `segunda-feira`).
  const monday = engine.search({ query: 'o que fiz na segunda passada?', mode: 'keyword', today: '2026-12-02' });
  assert.equal(monday.results[0]!.path, 'Daily/2026-11-30.md');
  assert.ok(monday.notices.includes('read "na segunda passada" as 2026-11-30: 1 note dated then, 0 mentioning a day of it'), monday.notices.join(' | '));
  // Nothing in the vault from then: the words are words again, and the notice says so.
  const empty = engine.search({ query: 'bank last year', mode: 'keyword', today: '2026-12-02' });
  assert.ok(empty.notices.includes('read "last year" as 2025-01-01 to 2025-12-31; no note is dated then or mentions a day of it, so its words were searched as words'), empty.notices.join(' | '));
  assert.ok(empty.results.length > 0);
  // Searched as words, they are still a date's: never corrected to a word one typo away (`ayer` → `layer`).
  const ayer = engine.search({ query: 'ayer', mode: 'keyword', today: '2026-12-09' });
  assert.ok(ayer.notices[0]!.startsWith('read "ayer" as 2026-12-08; no note is dated then'), ayer.notices.join(' | '));
  assert.ok(!ayer.notices.some((notice) => notice.includes('nearest')), ayer.notices.join(' | '));
  // Beside a date named in full, a relative one is relative to that date, not to today: not read.
  const anchored = engine.search({ query: 'what did I do yesterday, 2026-11-24?', mode: 'keyword', today: '2026-12-02' });
  assert.deepEqual(anchored.notices, []);
  assert.equal(anchored.results[0]!.path, 'Meetings/Budget review.md');
  // A long pasted query repeating the phrase: one notice, and the same notes as once.
  const repeated = engine.search({ query: 'mortgage yesterday '.repeat(200), mode: 'keyword', today: '2026-12-02' });
  assert.deepEqual(repeated.notices, ['read "yesterday" as 2026-12-01: 1 note dated then, 0 mentioning a day of it']);
  assert.deepEqual(
    repeated.results.map((hit) => hit.path),
    topic,
  );
  // Inside a filter, and with the date bonus shown.
  const filtered = engine.search({ query: 'last week', mode: 'keyword', today: '2026-12-02', filters: { folders: ['Projects'] }, explain: true });
  assert.deepEqual(
    filtered.results.map((hit) => hit.path),
    ['Projects/Roadmap.md'],
  );
  assert.deepEqual(
    filtered.results[0]!.boosts?.map((boost) => [boost.kind, boost.terms]),
    [['date', ['last week']]],
  );
});

test('spans: between two dates, from one to another, a day alone at one end, and since or after a date up to today', () => {
  const today = day('2026-06-30');
  const span = (query: string) => queryDateRanges(words(query), today).map(({ from, to, text, span, yearless }) => [isoDay(from), isoDay(to), text, span === true, yearless === true]);
  const ends = (query: string) => span(query).map(([from, to]) => [from, to]);
  assert.deepEqual(span('sessions between April 1 and April 30'), [['2026-04-01', '2026-04-30', 'between April 1 and April 30', true, true]]);
  assert.deepEqual(span('billing syncs between March and April'), [['2026-03-01', '2026-04-30', 'between March and April', true, true]], 'the second month is placed by the first');
  assert.deepEqual(span('from May 2026 to June 2026'), [['2026-05-01', '2026-06-30', 'from May 2026 to June 2026', true, false]]);
  assert.deepEqual(span('between November and February'), [['2025-11-01', '2026-02-28', 'between November and February', true, true]], 'across a new year: the latest such span');
  assert.deepEqual(span('between August 11 and 15, 2023'), [['2023-08-11', '2023-08-15', 'between August 11 and 15 2023', true, false]], 'a day alone after, and the year after it');
  assert.deepEqual(span('du 5 au 10 mai'), [['2026-05-05', '2026-05-10', 'du 5 au 10 mai', true, true]], 'a day alone before');
  assert.deepEqual(span('de 10 a 15 de maio'), [['2026-05-10', '2026-05-15', 'de 10 a 15 de maio', true, true]], 'the second day placed by the span');
  assert.deepEqual(ends('с 5 по 10 мая'), [['2026-05-05', '2026-05-10']]);
  assert.deepEqual(ends('zwischen 11. und 15. Juni 2026'), [['2026-06-11', '2026-06-15']]);
  assert.deepEqual(span('search syncs since June 1'), [['2026-06-01', '2026-06-30', 'since June 1', true, true]]);
  assert.deepEqual(span('1:1 with Priya after May 1'), [['2026-05-02', '2026-06-30', 'after May 1', true, true]], 'after: from the day after');
  assert.deepEqual(span('reuniões do Harbor desde maio'), [['2026-05-01', '2026-06-30', 'desde maio', true, true]]);
  assert.deepEqual(span('since 2026-05-01'), [['2026-05-01', '2026-06-30', 'since 2026-05-01', true, false]]);
  // Not spans: two dates without an opening word, a date after today, words that only look alike.
  assert.deepEqual(span('May 2026 and June 2026').length, 2);
  assert.deepEqual(span('since 2027-01-01'), [['2027-01-01', '2027-01-01', '2027-01-01', false, false]], 'since a day not yet come: the day itself');
  assert.deepEqual(span('Tom and June went hiking'), []);
  assert.deepEqual(
    relativeDateRanges(words('notas da semana passada'), today).map(({ from, to }) => [isoDay(from), isoDay(to)]),
    [['2026-06-22', '2026-06-28']],
    'Portuguese da is "of the", not "since": last week, not last week up to today',
  );
  // Across a new year with the year written at the end only: the start is the year before.
  assert.deepEqual(ends('between 28 December and 3 January 2026'), [['2025-12-28', '2026-01-03']]);
  assert.deepEqual(ends('from November to February 2026'), [['2025-11-01', '2026-02-28']]);
  // A year written after a day alone: not year-less.
  assert.deepEqual(span('between August 11 and 15, 2026'), [['2026-08-11', '2026-08-15', 'between August 11 and 15 2026', true, false]]);
  // Articles between the span's words and its dates.
  assert.deepEqual(ends('desde el 5 de mayo'), [['2026-05-05', '2026-06-30']]);
  assert.deepEqual(ends('since the 1st of June'), [['2026-06-01', '2026-06-30']]);
  assert.deepEqual(ends('seit dem 5. Mai'), [['2026-05-05', '2026-06-30']]);
  assert.deepEqual(ends('entre el 5 y el 10 de mayo'), [['2026-05-05', '2026-05-10']]);
  assert.deepEqual(ends('entre le 5 et le 10 mai'), [['2026-05-05', '2026-05-10']]);
  assert.deepEqual(ends('vom 5. bis zum 10. Mai'), [['2026-05-05', '2026-05-10']]);
  assert.deepEqual(ends('from May 5 to the 10th'), [['2026-05-05', '2026-05-10']]);
  // Up to now or today, in words.
  assert.deepEqual(span('what did we ship from May 1 until now'), [['2026-05-01', '2026-06-30', 'from May 1 until now', true, true]]);
  assert.deepEqual(ends('desde maio até hoje'), [['2026-05-01', '2026-06-30']]);
  assert.deepEqual(ends('von Mai bis heute'), [['2026-05-01', '2026-06-30']]);
  assert.deepEqual(ends('between 2026-05-01 and today'), [['2026-05-01', '2026-06-30']]);
  assert.equal(span('from May 1 and now').filter(([, , , isSpan]) => isSpan).length, 0, '"from … and" is no span');
  // "after June" asked in June: last year's June, up to today.
  assert.deepEqual(ends('what changed after June'), [['2025-07-01', '2026-06-30']]);
  // Open into the past: "until A" through its last day, "before A" up to the day before, from day 0.
  const until = (query: string) => queryDateRanges(words(query), today).map(({ from, to, text, until }) => [from, isoDay(to), text, until === true]);
  assert.deepEqual(until('meetings until April'), [[0, '2026-04-30', 'until April', true]]);
  assert.deepEqual(until('notes before May 1'), [[0, '2026-04-30', 'before May 1', true]]);
  assert.deepEqual(until('harbor up to 2026-05-15'), [[0, '2026-05-15', 'up to 2026-05-15', true]]);
  assert.deepEqual(until('reuniões antes de maio'), [[0, '2026-04-30', 'antes de maio', true]]);
  assert.deepEqual(until('Besprechungen bis Mai'), [[0, '2026-05-31', 'bis Mai', true]]);
  assert.deepEqual(until('réunions avant le 3 mai'), [[0, '2026-05-02', 'avant le 3 mai', true]]);
  // Named without a year, this year's: "before July 1" asked on June 30 is tomorrow, not last year.
  assert.deepEqual(until('meetings before July'), [[0, '2026-06-30', 'before July', true]]);
  assert.deepEqual(until('until December'), [[0, '2026-12-31', 'until December', true]]);
  assert.deepEqual(until('up to April'), [[0, '2026-04-30', 'up to April', true]]);
  assert.deepEqual(until("jusqu'au 3 mai"), [[0, '2026-05-03', "jusqu'au 3 mai", true]]);
  // After a date, the span runs from it: one span, not the first date and all of the past.
  assert.deepEqual(ends('from May 1 up to May 15'), [['2026-05-01', '2026-05-15']]);
  assert.deepEqual(ends('since April 1 until May 1'), [['2026-04-01', '2026-05-01']]);
  assert.deepEqual(ends('after April 1 and before May 1'), [['2026-04-02', '2026-04-30']]);
  // Not a span: a day near the date ("the week before", "two weeks before", "the Sunday before").
  for (const query of ['the week before August 3, 2023', 'two weeks before August 11, 2023', 'the Sunday before October 25, 2022', 'la semaine avant le 3 mai 2026', 'right before May 1, 2026', 'just before May 1, 2026']) {
    assert.deepEqual(
      until(query).map(([, , , open]) => open),
      [false],
      query,
    );
  }
  // A relative date takes no day number after it: "5" is an hour.
  assert.deepEqual(
    relativeDateRanges(words('from yesterday to 5 pm'), today).map(({ from, to }) => [isoDay(from), isoDay(to)]),
    [['2026-06-29', '2026-06-29']],
  );
  // An opening word goes with its own joining words: "from … and" is two dates.
  assert.equal(span('notes from May 1 and May 20').length, 2);
  assert.equal(span('as férias de julho e dezembro').filter(([, , , isSpan]) => isSpan).length, 0);
  // A month alone after "since", "after", "between" or "from" is a person as often as a month.
  const todayLater = day('2026-09-15');
  const read = (query: string) => queryDateRanges(words(query), todayLater).map(({ text }) => text);
  assert.deepEqual(read('what happened after June left the team'), []);
  assert.deepEqual(read('since April joined we ship weekly'), []);
  assert.deepEqual(read('a conversation between June and Tom'), []);
  assert.deepEqual(read('what did I hear from June'), []);
  assert.deepEqual(read('what changed since June'), ['since June']);
  assert.deepEqual(read('what changed since June in the billing project'), ['since June']);
  // Relative dates join too: since last week is last week up to today.
  const since = relativeDateRanges(words('what changed since last week'), today).map(({ from, to, text }) => [isoDay(from), isoDay(to), text]);
  assert.deepEqual(since, [['2026-06-22', '2026-06-30', 'since last week']]);
});

test('the words asking for the newest, in each language read, one or two words long', () => {
  const asked = (query: string) => newestAsked(words(query)).map(({ first, last, text }) => [first, last, text]);
  assert.deepEqual(asked('latest 1:1 with Priya'), [[0, 0, 'latest']]);
  assert.deepEqual(asked('the most recent architecture review'), [[1, 2, 'most recent']]);
  assert.deepEqual(asked('when was the last search sync?'), [[3, 3, 'last']]);
  assert.deepEqual(asked('a reunião mais recente sobre o Harbor'), [[2, 3, 'mais recente']]);
  assert.deepEqual(asked('die neueste Besprechung'), [[1, 1, 'neueste']]);
  // "recently" is found, but asks for the newest only when the query asks nothing else: beside a subject it places the question in time.
  const recently = words('what did John recently get promoted to?');
  assert.deepEqual(
    newestAsked(recently).map((phrase) => asksAloneOnly(recently, phrase)),
    [true],
  );
  assert.deepEqual(asked('the recent changes'), [[1, 1, 'recent']], 'the adjective asks wherever it stands');
  assert.deepEqual(asked('how long does the battery last'), [], 'a verb at the end');
  assert.deepEqual(asked("what is Priya's last name"), []);
  assert.deepEqual(asked('send it by Friday at the latest'), []);
  assert.deepEqual(asked('at last, the release'), []);
  assert.deepEqual(asked('what did we decide at the last Harbor review'), [[6, 6, 'last']], 'not the idiom: a meeting follows');
  assert.deepEqual(asked('look at my latest notes on Harbor'), [[3, 3, 'latest']]);
  assert.deepEqual(asked('finish it at the last'), []);
  assert.deepEqual(asked('latest standup at harbor'), [[0, 0, 'latest']], 'an "at" after the phrase is no idiom before it');
  assert.deepEqual(asked('page numbers at the latest on-call retro'), [[4, 4, 'latest']]);
  assert.deepEqual(asked('send it at the latest by Friday'), [], 'the idiom, ending its clause');
  for (const query of ['last resort fallback', 'last but not least', 'the second to last item', 'first and last steps', 'will the battery last all day', 'send it at the very latest']) assert.deepEqual(asked(query), [], query);
  assert.deepEqual(asked('when did I last talk to Priya'), [[3, 3, 'last']]);
  assert.deepEqual(asked('what did Priya say last time'), [[4, 5, 'last time']]);
  assert.deepEqual(asked("l'ultima riunione"), [[0, 0, "l'ultima"]], 'the elided article read apart');
  const inLanguage = (query: string, language: string) => newestAsked(words(query), () => language).map(({ text }) => text);
  assert.deepEqual(inLanguage('hohe Last auf dem Server', 'de'), [], 'German Last is a load');
  assert.deepEqual(inLanguage('la dernière réunion', 'es'), ['dernière'], 'a short query may be guessed wrong: only a language where the word means something else stops it');
  assert.deepEqual(inLanguage('die letzte Besprechung', 'de'), ['letzte']);
  assert.deepEqual(inLanguage('a reunião mais recente', 'pt'), ['mais recente']);
  assert.deepEqual(inLanguage('latest 1:1 with Priya', 'en'), ['latest']);
});

test('NoteDates.bonuses: being dated in a span has its own idf, which mentions do not lower; a mention never outweighs a dated note', () => {
  const dates = new NoteDates(['Daily/2026-06-26.md', 'Daily/2026-06-25.md', 'Notes/A.md', 'Notes/B.md', 'Notes/C.md', 'Notes/D.md']);
  const friday = { from: dayNumber(2026, 6, 26), to: dayNumber(2026, 6, 26), text: 'last Friday', first: 0, last: 1, relative: true as const };
  const idf = (n: number) => Math.log(1 + (6 - n + 0.5) / (n + 0.5));
  const alone = dates.bonuses([dates.notesIn(friday)]);
  const mentioned = dates.bonuses([dates.notesIn(friday, new Set([2, 3, 4]))]);
  assert.equal(alone.get(0)!.score, 2 * idf(1), 'the daily note: its idf among the notes dated then, doubled for a relative date');
  assert.equal(mentioned.get(0)!.score, alone.get(0)!.score, 'notes mentioning the day do not lower it');
  assert.equal(mentioned.get(2)!.score, 0.5 * idf(4), 'a mention: half the idf over the notes dated then or mentioning it');
  assert.equal(mentioned.has(1) || mentioned.has(5), false);
  // Two months of daily notes and one plan mentioning a day of them: the plan stays below them.
  const days = Array.from({ length: 60 }, (_, i) => `Daily/${isoDay(dayNumber(2026, 4, 1) + i)}.md`);
  const spring = new NoteDates([...days, 'Projects/Old plan.md', ...Array.from({ length: 100 }, (_, i) => `Notes/${i}.md`)]);
  const span = { from: dayNumber(2026, 4, 1), to: dayNumber(2026, 5, 31), text: 'since April', first: 0, last: 1, relative: true as const };
  const bonuses = spring.bonuses([spring.notesIn(span, new Set([60]))]);
  assert.equal(spring.notesIn(span).dated.length, 60);
  assert.ok(bonuses.get(60)!.score < bonuses.get(0)!.score, `${bonuses.get(60)!.score} < ${bonuses.get(0)!.score}`);
});

test('NoteDates.newest: among the notes given, the r-th newest of m dated gets 2·ln(1 + (m − r + 0.5)/(r + 0.5)); undated notes none', () => {
  const dates = new NoteDates(['Meetings/2026-03-05 Sync.md', 'Meetings/2026-06-09 Sync.md', 'Meetings/2026-06-09 Other.md', 'Notes/Sync.md', 'Meetings/2026-05-01 Sync.md']);
  const bonuses = dates.newest([0, 1, 2, 3, 4]);
  const idf = (m: number, r: number) => 2 * Math.log(1 + (m - r + 0.5) / (r + 0.5));
  assert.equal(bonuses.get(1), idf(4, 2), 'two notes of the newest day share its rank');
  assert.equal(bonuses.get(2), idf(4, 2));
  assert.equal(bonuses.get(4), idf(4, 3));
  assert.equal(bonuses.get(0), idf(4, 4));
  assert.equal(bonuses.has(3), false);
  assert.ok(bonuses.get(1)! > bonuses.get(4)! && bonuses.get(4)! > bonuses.get(0)!);
  assert.equal(dates.anyDated, true);
  assert.equal(new NoteDates(['Notes/Sync.md']).anyDated, false);
});

test('a span or a request for the newest ranks the dated notes it names, with notices; a date named in full beside them wins', (t) => {
  const meeting = (day: string) => `# 1:1 with Priya — ${day}\nWe went over the roadmap, hiring and the on-call rotation.\n`;
  const { db, root } = indexedVault(t, {
    'Meetings/2026-03-10 1-1 Priya.md': meeting('2026-03-10'),
    'Meetings/2026-04-14 1-1 Priya.md': meeting('2026-04-14'),
    'Meetings/2026-05-12 1-1 Priya.md': meeting('2026-05-12'),
    'Meetings/2026-06-09 1-1 Priya.md': meeting('2026-06-09'),
    'Daily/2026-04-01.md': '# Wednesday, 1 April 2026\nDentist at 9.\n',
    'Daily/2026-04-30.md': '# Thursday, 30 April 2026\nPacked for the trip; hiring plan on the train.\n',
    'People/Priya Raman.md': '# Priya Raman\nStaff engineer; 1:1 every four weeks on the roadmap and hiring.\n',
  });
  const engine = VaultSearch.open(db, root);
  const latest = engine.search({ query: 'latest 1:1 with Priya', mode: 'keyword', today: '2026-06-30', explain: true });
  assert.equal(latest.results[0]!.path, 'Meetings/2026-06-09 1-1 Priya.md');
  assert.ok(latest.notices.includes('read "latest" as asking for the newest: among the best matches, a note dated later (by its name or date:) ranks higher'), latest.notices.join(' | '));
  assert.deepEqual(
    latest.results[0]!.boosts?.filter((boost) => boost.kind === 'newest').map((boost) => boost.terms),
    [['latest']],
  );
  assert.equal(
    latest.results.find((hit) => hit.path === 'People/Priya Raman.md')?.boosts?.some((boost) => boost.kind === 'newest'),
    false,
    'an undated note gets no bonus',
  );
  assert.deepEqual(latest.results.find((hit) => hit.path === 'People/Priya Raman.md') !== undefined, true, 'and still matches');
  // Said where it acts: not when no word of the query is known; and when no best match is dated, it says so.
  assert.ok(!engine.search({ query: 'latest zzzqqq', mode: 'keyword', today: '2026-06-30' }).notices.some((notice) => notice.includes('newest')));
  const undated = engine.search({ query: 'latest staff engineer', mode: 'keyword', today: '2026-06-30' });
  assert.ok(undated.notices.includes('read "latest" as asking for the newest, but none of the best matches is dated (by its name or date:)'), undated.notices.join(' | '));
  const last = engine.search({ query: 'when was my last 1:1 with Priya?', mode: 'keyword', today: '2026-06-30' });
  assert.equal(last.results[0]!.path, 'Meetings/2026-06-09 1-1 Priya.md');
  // A span: the 1:1 dated inside it first; its words ("April", "30") are read, not searched.
  const april = engine.search({ query: '1:1 with Priya between April 1 and April 30', mode: 'keyword', today: '2026-06-30' });
  assert.equal(april.results[0]!.path, 'Meetings/2026-04-14 1-1 Priya.md');
  assert.ok(
    april.notices.some((notice) => notice.startsWith('read "between April 1 and April 30" as 2026-04-01 to 2026-04-30 (no year was given: the latest such span): 3 notes dated then')),
    april.notices.join(' | '),
  );
  // "today" ending a span is not a day of its own: one notice.
  const toToday = engine.search({ query: 'hiring between May 1 and today', mode: 'keyword', today: '2026-06-30' });
  assert.deepEqual(
    toToday.notices.filter((notice) => notice.startsWith('read ')),
    ['read "between May 1 and today" as 2026-05-01 to 2026-06-30 (no year was given: the latest such span): 2 notes dated then, 0 mentioning a day of it'],
  );
  const since = engine.search({ query: 'hiring since May 1', mode: 'keyword', today: '2026-06-30' }).results.map((hit) => hit.path);
  assert.deepEqual(since.slice(0, 2).sort(), ['Meetings/2026-05-12 1-1 Priya.md', 'Meetings/2026-06-09 1-1 Priya.md']);
  // Open into the past: "before May" is every day up to April 30.
  const before = engine.search({ query: '1:1 with Priya before May', mode: 'keyword', today: '2026-06-30' });
  assert.deepEqual(
    before.results
      .slice(0, 2)
      .map((hit) => hit.path)
      .sort(),
    ['Meetings/2026-03-10 1-1 Priya.md', 'Meetings/2026-04-14 1-1 Priya.md'],
  );
  assert.ok(
    before.notices.some((notice) => notice.startsWith('read "before May" as up to 2026-04-30')),
    before.notices.join(' | '),
  );
  // A span named in full is a date named in full: a relative phrase beside it is relative to it, not read from today.
  const anchored = engine.search({ query: 'hiring last Friday between 1 May 2026 and 15 May 2026', mode: 'keyword', today: '2026-06-30' });
  assert.equal(anchored.results[0]!.path, 'Meetings/2026-05-12 1-1 Priya.md');
  assert.ok(!anchored.notices.some((notice) => notice.includes('last Friday')), anchored.notices.join(' | '));
  // A text full of dates: five notices, and one counting the rest.
  const many = engine.search({ query: Array.from({ length: 9 }, (_, i) => `hiring since 2026-03-0${i + 1}`).join(' '), mode: 'keyword', today: '2026-06-30' });
  assert.equal(many.notices.length, 6, many.notices.join(' | '));
  assert.equal(many.notices[5], '… and 4 more dates read, not listed');
  // A date named beside it answers: "latest" is then a word (no note has it), not a request.
  const dated = engine.search({ query: 'latest 1:1 with Priya in March 2026', mode: 'keyword', today: '2026-06-30' });
  assert.equal(dated.results[0]!.path, 'Meetings/2026-03-10 1-1 Priya.md');
  assert.ok(!dated.notices.some((notice) => notice.includes('asking for the newest')));
});

test('in a vault with no dated note, "latest" stays a word and nothing is reordered', (t) => {
  const { db, root } = indexedVault(t, {
    'Install.md': '# Install\nGet the latest version from the releases page.\n',
    'Upgrade.md': '# Upgrade\nMove to a new version.\n',
  });
  const response = VaultSearch.open(db, root).search({ query: 'latest version', mode: 'keyword', today: '2026-06-30' });
  assert.equal(response.results[0]!.path, 'Install.md');
  assert.deepEqual(response.notices, []);
});

test('the newest of every dated note: the idf of being among the r newest (notes of one day share r), undated ones none; a subset is ranked among itself', () => {
  const paths = ['Daily/2026-05-01.md', 'Daily/2026-05-02.md', 'Plans.md', 'Meetings/2026-05-02 Sync.md', 'Daily/2026-06-01.md', 'Notes/Idea.md'];
  const dates = new NoteDates(paths, [null, null, null, null, null, '2026-04-30']);
  const all = dates.newestOfAll();
  // Five dated notes; r counts the notes as new or newer: 1 (June), 3 (the two of 2 May), 4, 5.
  const idf = (r: number) => Math.log(1 + (5 - r + 0.5) / (r + 0.5));
  for (const [doc, r] of [
    [1, 3],
    [0, 4],
    [5, 5],
  ] as const)
    assert.ok(Math.abs(all.get(doc)! / all.get(4)! - idf(r) / idf(1)) < 1e-9, String(doc));
  const among = dates.newest([0, 5]);
  assert.ok(among.get(0)! > among.get(5)! && among.get(0)! < all.get(4)!, 'the newer of two is first of two, not first of five');
  assert.equal(all.get(1), all.get(3), 'one day, one rank');
  assert.ok(all.get(4)! > all.get(1)! && all.get(1)! > all.get(0)! && all.get(0)! > all.get(5)!);
  assert.equal(all.has(2), false);
});

test('a date no calendar has is no date, and a notice says why its words were searched as words', (t) => {
  const impossible = (query: string) => impossibleDates(words(query));
  assert.deepEqual(impossible('meetings on February 30'), ['February 30']);
  assert.deepEqual(impossible('notes from 2025-13-01 and 2026-02-30'), ['2025-13-01', '2026-02-30']);
  assert.deepEqual(impossible('31 April, the 31st of June, 29 Feb 2025'), ['31 April', '31st of June', '29 Feb 2025']);
  // Days that exist, and numbers that cannot be days, are no business of this.
  assert.deepEqual(impossible('February 29, 29 Feb 2024, May 31, 2026-05-31, top 40 June releases, June 2 people'), []);
  assert.deepEqual(spans('meetings on February 30'), []);
  const { db } = indexedVault(t, { 'Meetings/Standup.md': '# Standup\nMeetings in February, thirty minutes each.\n' });
  const response = VaultSearch.open(db, '/unused').search({ query: 'meetings on February 30', mode: 'keyword', today: '2026-12-02' });
  assert.equal(response.notices[0], '"February 30" is no calendar day, so no date was read and its words were searched as words');
  assert.equal(response.results[0]?.path, 'Meetings/Standup.md');
});
