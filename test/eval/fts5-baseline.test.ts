import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Fts5Baseline, fts5Query } from '../../src/eval/index.js';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Atlas.md': '# Atlas\nSearch migration to Tantivy, cut over in May.\n',
  'Billing.md': '# Billing\nIdempotency keys for charges (INC-212).\n',
  'Sessions/Review.md': '# Review\nTantivy review session.\n',
  'Zephyr.md': 'Notes about the weather.\n',
  'Other.md': 'A zephyr, a zephyr: the weather again.\n',
};

const empty = { title: '', aliases: '', headings: '', tags: '', body: '' };

test('fts5Query quotes each word and ORs them, so query syntax in user text cannot break FTS5', () => {
  assert.equal(fts5Query('How do I embed a file?'), '"how" OR "do" OR "i" OR "embed" OR "a" OR "file"');
  assert.equal(fts5Query('INC-212: "NEAR" AND col:x*'), '"inc" OR "212" OR "near" OR "and" OR "col" OR "x"');
  assert.equal(fts5Query('云河数据 São'), '"云河数据" OR "são"');
  assert.equal(fts5Query(' ?! '), null);
});

test('the FTS5 baseline stems with porter, ranks by bm25() with the field weights, and filters before the limit', () => {
  const documents = [
    { id: 'a', fields: { ...empty, title: 'Zephyr', body: 'notes about the weather' } },
    { id: 'b', fields: { ...empty, title: 'Other', body: 'a zephyr, a zephyr: the weather again' } },
    { id: 'c', fields: { ...empty, title: 'Running', body: 'runs and runners' } },
  ];
  const titled = new Fts5Baseline(documents, { title: 3, aliases: 3, headings: 1.5, tags: 2, body: 1 });
  assert.deepEqual(titled.search('zephyr', 10), ['a', 'b']);
  assert.deepEqual(titled.search('running', 10), ['c'], 'porter: running and runs share a stem');
  assert.deepEqual(
    titled.search('zephyr weather', 1, (id) => id !== 'a'),
    ['b'],
  );
  assert.deepEqual(titled.search('?', 10), []);
  titled.close();
  const untitled = new Fts5Baseline(documents, { title: 0, aliases: 3, headings: 1.5, tags: 2, body: 1 });
  assert.deepEqual(untitled.search('zephyr', 10), ['b', 'a'], 'a title weight of 0 leaves the title match worthless');
  untitled.close();
});

test('engram eval --baseline fts5 runs both engines on the same vault and queries, per category, text and JSON', async (t) => {
  const vault = makeVault(t, VAULT);
  const golden = join(vault.root, '..', 'golden.yaml');
  writeFileSync(
    golden,
    [
      '- id: kw-tantivy',
      '  query: "how did the Tantivy migration go?"',
      '  expect: [Atlas.md]',
      '  category: question',
      '- id: kw-inc',
      '  query: "INC-212"',
      '  expect: [Billing.md]',
      '  category: keyword',
      '- id: folder-review',
      '  query: tantivy',
      '  folder: Sessions',
      '  expect: [Sessions/Review.md]',
      '  category: folder',
      '- id: miss',
      '  query: zeppelin',
      '  expect: [Atlas.md]',
      '  category: keyword',
    ].join('\n'),
  );
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const json = await runCli(['eval', '--golden', golden, '--baseline', 'fts5', '--mode', 'keyword', '--json', '--no-history'], env);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.equal(report.baseline.engine, 'fts5');
  assert.equal(report.baseline.overall.queries, 4);
  // FTS5: the folder filter holds (Review is the only note in Sessions), INC-212 finds Billing,
  // the question finds Atlas first (it has "migration" too), zeppelin finds nothing.
  assert.deepEqual(
    report.baseline.results.map((r: { id: string; rank: number | null }) => [r.id, r.rank]),
    [
      ['kw-tantivy', 1],
      ['kw-inc', 1],
      ['folder-review', 1],
      ['miss', null],
    ],
  );
  assert.equal(report.baseline.overall.success1, 0.75);
  assert.equal(report.baseline.categories.keyword.mrr, 0.5);
  assert.equal(report.overall.queries, 4, "Engram's own report is still there");

  const text = await runCli(['eval', '--golden', golden, '--baseline', 'fts5', '--mode', 'keyword', '--no-history'], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /engram .* fts5 .* engram − fts5/);
  assert.match(text.stdout, /\nquestion +1 +1\.000 +1\.000 +1\.000 +1\.000 +1\.000 +1\.000 +1\.000 +1\.000 +\+0\.000 +\+0\.000\n/);
  assert.match(text.stdout, /\noverall +4 /);

  const bad = await runCli(['eval', '--golden', golden, '--baseline', 'lucene'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--baseline must be fts5, not "lucene"/);
  const knownItems = await runCli(['eval', '--known-items', '--baseline', 'fts5'], env);
  assert.equal(knownItems.code, 2);
  assert.match(knownItems.stderr, /--baseline works with --golden, --locomo or --beir/);
});

test('engram eval --beir --baseline fts5 scores FTS5 on the same BEIR data', async (t) => {
  const vault = makeVault(t);
  const dir = join(vault.root, 'beir');
  mkdirSync(join(dir, 'qrels'), { recursive: true });
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    [
      { _id: 'd1', title: 'Insulin and beta cells', text: 'Beta cells secrete insulin.' },
      { _id: 'd2', title: 'Vitamin D', text: 'Vitamin D and bone density.' },
      { _id: 'd3', title: 'Cell biology', text: 'Cells divide.' },
    ]
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    [
      { _id: 'q1', text: 'insulin secretion' },
      { _id: 'q2', text: 'bones' },
    ]
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\n');
  const result = await runCli(['eval', '--beir', dir, '--baseline', 'fts5', '--json'], { ENGRAM_HOME: vault.home });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.baseline.engine, 'fts5');
  assert.equal(report.baseline.queries, 2);
  // q1 finds d1 first; q2 ("bones" → "bone") finds only d2, which is not relevant.
  assert.equal(report.baseline.mrr10, 0.5);
  assert.equal(report.baseline.recall100, 0.5);
});
