import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { convertLocomo, evidenceSessions, loadGolden, parseLocomoDate } from '../../src/eval/index.js';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

/** Two tiny conversations in LoCoMo's shape (fields, date strings and evidence ids as the data set writes them). */
const LOCOMO = [
  {
    sample_id: 'conv-1',
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Ana', dia_id: 'D1:1', text: 'I adopted a greyhound called Pixel yesterday!' },
        { speaker: 'Ben', dia_id: 'D1:2', text: 'Congrats! My pottery class starts next week.', img_url: ['x'], blip_caption: 'a photo of a clay bowl' },
      ],
      session_2_date_time: '10:05 am on 25 June, 2023',
      session_2: [
        { speaker: 'Ana', dia_id: 'D2:1', text: 'Pixel and I ran a charity race in the park.' },
        { speaker: 'Ben', dia_id: 'D2:2', text: 'I glazed my first bowl in the kiln.' },
      ],
    },
    qa: [
      { question: 'What kind of dog did Ana adopt?', answer: 'a greyhound', evidence: ['D1:1'], category: 4 },
      { question: 'When did Ana run the charity race?', answer: 'June 2023', evidence: ['D2:1'], category: 2 },
      { question: 'What does Ben make in his class?', answer: 'bowls', evidence: ['D1:2; D2:2'], category: 1 },
      { question: 'What did Ben adopt?', evidence: ['D1:1'], category: 5, adversarial_answer: 'a greyhound' },
      { question: 'What did Ana say in session 9?', answer: 'x', evidence: ['D9:1'], category: 4 },
    ],
  },
  {
    sample_id: 'conv-2',
    conversation: {
      speaker_a: 'Caro',
      speaker_b: 'Dev',
      session_1_date_time: 'sometime in spring',
      session_1: [{ speaker: 'Dev', dia_id: 'D1:1', text: 'I moved to Lisbon for a greyhound rescue job.' }],
    },
    qa: [{ question: 'Where did Dev move?', answer: 'Lisbon', evidence: ['D1:1'], category: 4 }],
  },
];

test('LoCoMo dates and evidence ids parse, including packed and odd ones', () => {
  assert.equal(parseLocomoDate('1:56 pm on 8 May, 2023'), '2023-05-08T13:56:00');
  assert.equal(parseLocomoDate('12:09 am on 13 September, 2023'), '2023-09-13T00:09:00');
  assert.equal(parseLocomoDate('12:30 pm on 1 January, 2024'), '2024-01-01T12:30:00');
  assert.equal(parseLocomoDate('sometime in spring'), null);
  assert.deepEqual(evidenceSessions(['D1:3', 'D10:2; D4:4', 'D1:9', 'junk', 7]), [1, 4, 10]);
  assert.deepEqual(evidenceSessions(undefined), []);
});

test('a LoCoMo log becomes one log_session-shaped note per session and scoped questions with evidence sessions', () => {
  const converted = convertLocomo(LOCOMO, 'fixture.json');
  assert.deepEqual(
    converted.notes.map((note) => note.path),
    ['conv-1/Sessions/2023-05-08 Ana and Ben — session 1.md', 'conv-1/Sessions/2023-06-25 Ana and Ben — session 2.md', 'conv-2/Sessions/Caro and Dev — session 1.md'],
  );
  assert.equal(
    converted.notes[0]!.text,
    [
      '---',
      'created: 2023-05-08T13:56:00',
      'agent: locomo',
      'tags: [session]',
      '---',
      '# Ana and Ben — session 1',
      '',
      '1:56 pm on 8 May, 2023',
      '',
      '**Ana:** I adopted a greyhound called Pixel yesterday!',
      '',
      '**Ben:** Congrats! My pottery class starts next week. *(shares a photo: a photo of a clay bowl)*',
      '',
    ].join('\n'),
  );
  assert.deepEqual(
    converted.queries.map((q) => [q.id, q.category, q.folder, q.expect.length, q.today]),
    [
      // Asked the day after the conversation's last session ("last year" is the year before it); undated sessions give no day.
      ['conv-1-q1', 'single-hop', 'conv-1', 1, '2023-06-26'],
      ['conv-1-q2', 'temporal', 'conv-1', 1, '2023-06-26'],
      ['conv-1-q3', 'multi-hop', 'conv-1', 2, '2023-06-26'],
      ['conv-2-q1', 'single-hop', 'conv-2', 1, undefined],
    ],
  );
  assert.equal(converted.skipped, 2, 'the adversarial question and the one whose evidence names no session');
  assert.throws(() => convertLocomo({ not: 'a list' }, 'x.json'), /x\.json is not a LoCoMo file/);
  assert.throws(() => convertLocomo([{ qa: [] }], 'x.json'), /item 1 is not a LoCoMo conversation/);
});

test('engram eval --locomo writes the session notes into --vault and scores them, FTS5 beside; never into a foreign folder', async (t) => {
  const vault = makeVault(t, { 'Mine.md': '# Mine\nMy own note.\n' });
  const data = join(vault.root, '..', 'locomo');
  mkdirSync(data);
  writeFileSync(join(data, 'dev.json'), JSON.stringify(LOCOMO));
  const out = join(vault.root, '..', 'locomo-vault');
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const result = await runCli(['eval', '--locomo', data, '--vault', out, '--baseline', 'fts5', '--mode', 'keyword', '--json', '--no-history'], env);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /3 session notes and 4 questions \(2 left out\) written/);
  const report = JSON.parse(result.stdout);
  assert.equal(report.overall.queries, 4);
  assert.equal(report.baseline.overall.queries, 4);
  // The folder scope keeps conv-2's greyhound note out of conv-1's question, for both engines.
  for (const side of [report, report.baseline]) {
    const dog = side.results.find((r: { id: string }) => r.id === 'conv-1-q1');
    assert.equal(dog.rank, 1);
    assert.ok(dog.top.every((path: string) => path.startsWith('conv-1/')));
  }
  const golden = loadGolden(join(out, '.locomo', 'golden.json'));
  assert.equal(golden.length, 4);

  // Converting again replaces the earlier conversion; a folder with other files is refused.
  const again = await runCli(['eval', '--locomo', join(data, 'dev.json'), '--vault', out, '--mode', 'keyword', '--no-history'], env);
  assert.equal(again.code, 0, again.stderr);
  const refused = await runCli(['eval', '--locomo', data, '--vault', vault.root, '--no-history'], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /is not empty and is not an earlier LoCoMo conversion/);
  const noVault = await runCli(['eval', '--locomo', data], env);
  assert.equal(noVault.code, 2);
  assert.match(noVault.stderr, /--locomo needs --vault OUT/);
  assert.equal(existsSync(join(vault.root, 'conv-1')), false, "nothing was written into the user's vault");
  const missing = await runCli(['eval', '--locomo', join(data, 'nope.json'), '--vault', out], env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no LoCoMo data at/);
  assert.ok(readFileSync(join(out, 'conv-1', 'Sessions', '2023-05-08 Ana and Ben — session 1.md'), 'utf8').includes('greyhound'));
});
