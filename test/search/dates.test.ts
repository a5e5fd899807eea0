import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayNumber, dayOfName, dayOfValue, NoteDates, queryDateRanges } from '../../src/search/dates.js';
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

test('no date without a year, no impossible day, and a month word alone is a word', () => {
  assert.deepEqual(spans('what did Melanie paint in May?'), []);
  assert.deepEqual(spans('2026-02-30 and 2026-13'), []);
  assert.deepEqual(spans('a test set 2026'), [], 'abbreviations are English only: Portuguese `set` is an English word');
  assert.deepEqual(spans('May I embed a file?'), []);
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
  assert.deepEqual([...dates.boosts(words('May 2026')).keys()], [0, 1], "the file name's date comes first");
});

test('NoteDates: notes dated in a named span get its idf, a day more than a month', () => {
  const dates = new NoteDates(['Daily/2026-05-01.md', 'Daily/2026-05-02.md', 'Daily/2026-06-01.md', 'Plans.md']);
  const oneDay = dates.boosts(words('what happened on 2026-05-01'));
  assert.deepEqual([...oneDay.keys()], [0]);
  const month = dates.boosts(words('May 2026'));
  assert.deepEqual([...month.keys()], [0, 1]);
  assert.ok(oneDay.get(0)!.score > month.get(0)!.score, 'a day is rarer than its month');
  assert.equal(oneDay.get(0)!.score, Math.log(1 + (4 - 1 + 0.5) / 1.5));
  assert.deepEqual(dates.boosts(words('what happened on 2027-01-01')).size, 0);
  // A long pasted query repeating a date gives what the date once gives.
  assert.deepEqual(dates.boosts(words('notes from May 2026, '.repeat(500))), month);
  assert.deepEqual(new NoteDates(['Plans.md']).boosts(words('2026-05-01')).size, 0);
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
