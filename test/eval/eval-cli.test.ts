import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { evaluateBeir, loadBeir } from '../../src/eval/index.js';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Atlas.md': '# Atlas\nSearch migration to Tantivy.\n',
  'Billing.md': '# Billing\nIdempotency keys for charges.\n',
  'Sessions/Review.md': '# Review\nTantivy review session.\n',
};

test('engram eval --golden reports metrics per category, keeps history, and enforces floors', async (t) => {
  const vault = makeVault(t, VAULT);
  const golden = join(vault.root, '..', 'golden.yaml');
  writeFileSync(
    golden,
    [
      '- id: kw-tantivy',
      '  query: tantivy migration',
      '  expect: [Atlas.md]',
      '  category: keyword',
      '- id: kw-idem',
      '  query: idempotency',
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
      '  category: paraphrase',
    ].join('\n'),
  );
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const result = await runCli(['eval', '--golden', golden, '--json'], env);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.overall.queries, 4);
  assert.equal(report.overall.success5, 0.75);
  assert.deepEqual(report.categories.keyword.mrr, 1);
  assert.equal(report.categories.paraphrase.success10, 0);
  assert.equal(report.results.find((r: { id: string }) => r.id === 'miss').rank, null);
  const stateDir = join(vault.home, readdirSync(vault.home)[0]!);
  assert.equal(readFileSync(join(stateDir, 'eval-history.jsonl'), 'utf8').trim().split('\n').length, 1);

  const floored = await runCli(['eval', '--golden', golden, '--min-success5', '0.9', '--no-history'], env);
  assert.equal(floored.code, 1);
  assert.match(floored.stderr, /below the floor: overall success5 0\.75 < 0\.9/);
  assert.match(floored.stdout, /not in the top 5:\n {2}miss \(paraphrase\): rank >20/);
});

test('a golden file with a path not in the vault, a duplicate id or no expect is refused', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const cases: [string, RegExp][] = [
    ['- id: a\n  query: x\n  expect: [Nope.md]\n', /names notes that are not in the vault \(a: Nope\.md\)/],
    ['- id: a\n  query: x\n  expect: [Atlas.md]\n- id: a\n  query: y\n  expect: [Atlas.md]\n', /duplicate id "a"/],
    ['- id: a\n  query: x\n  expect: []\n', /"a" has an empty expect list/],
    ['- id: a\n  query: x\n  expect: [../escape.md]\n', /must be a vault-relative path/],
    ['not: a list\n', /must be a list of queries/],
    ['- id: a\n  query: x last week\n  expect: [Atlas.md]\n  today: next Tuesday\n', /"a" today must be a calendar day like 2026-06-30/],
    ['- id: a\n  query: x\n  expect: [Atlas.md]\n  today: 2026-02-30\n', /"a" today must be a calendar day/],
    ['- id: a\n  query: x\n  expect: [Atlas.md]\n  also: atlas\n', /"a" also must be a list of strings/],
  ];
  for (const [content, message] of cases) {
    const file = join(vault.root, '..', 'bad.yaml');
    writeFileSync(file, content);
    const result = await runCli(['eval', '--golden', file], env);
    assert.equal(result.code, 1, content);
    assert.match(result.stderr, message);
  }
  const none = await runCli(['eval'], env);
  assert.equal(none.code, 2);
  const today = await runCli(['eval', '--golden', join(vault.root, '..', 'bad.yaml'), '--today', '30/06/2026'], env);
  assert.equal(today.code, 2);
  assert.match(today.stderr, /--today must be a calendar day like 2026-03-14, not "30\/06\/2026"/);
});

test('engram eval --also: rephrasings are searched with their query and fused, for Engram and for FTS5 alike', async (t) => {
  const vault = makeVault(t, VAULT);
  const golden = join(vault.root, '..', 'golden.yaml');
  writeFileSync(
    golden,
    [
      '- id: paraphrase',
      '  query: zeppelin',
      '  expect: [Billing.md]',
      '- id: inline',
      '  query: airship',
      '  also: [search migration]',
      '  expect: [Atlas.md]',
      '- id: plain',
      '  query: tantivy review',
      '  expect: [Sessions/Review.md]',
    ].join('\n'),
  );
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const rank = (report: { results: { id: string; rank: number | null }[] }, id: string) => report.results.find((result) => result.id === id)!.rank;

  const plain = JSON.parse((await runCli(['eval', '--golden', golden, '--baseline', 'fts5', '--json', '--no-history'], env)).stdout);
  assert.equal(rank(plain, 'paraphrase'), null, 'no note holds "zeppelin"');
  assert.equal(rank(plain, 'inline'), 1, "a golden entry's own also: is searched");
  assert.equal(rank(plain.baseline, 'inline'), 1, 'FTS5 is given the same rephrasing');

  const also = join(vault.root, '..', 'also.json');
  writeFileSync(also, JSON.stringify({ paraphrase: ['idempotency keys', 'charges'] }));
  const result = await runCli(['eval', '--golden', golden, '--also', also, '--baseline', 'fts5', '--json', '--no-history'], env);
  assert.equal(result.code, 0, result.stderr);
  const fused = JSON.parse(result.stdout);
  assert.equal(rank(fused, 'paraphrase'), 1);
  assert.equal(rank(fused.baseline, 'paraphrase'), 1);
  assert.equal(rank(fused, 'plain'), 1, 'a query the file does not name runs alone');

  const cases: [unknown, RegExp][] = [
    [{ nope: ['x'] }, /names queries the set does not have \(nope\)/],
    [{ paraphrase: 'idempotency' }, /"paraphrase" must be a list of strings/],
    [{ paraphrase: ['a', 'b', 'c', 'd', 'e'] }, /has 5 rephrasings; a search takes at most 4/],
    [['paraphrase'], /must be a JSON object mapping query ids/],
  ];
  for (const [content, message] of cases) {
    writeFileSync(also, JSON.stringify(content));
    const bad = await runCli(['eval', '--golden', golden, '--also', also, '--no-history'], env);
    assert.equal(bad.code, 1, JSON.stringify(content));
    assert.match(bad.stderr, message);
  }
  const missing = await runCli(['eval', '--golden', golden, '--also', join(vault.root, '..', 'absent.json'), '--no-history'], env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read the --also file/);
});

test('BEIR: a tiny dataset in BEIR format, scored by hand', (t) => {
  const vault = makeVault(t);
  const dir = join(vault.root, 'beir');
  mkdirSync(join(dir, 'qrels'), { recursive: true });
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    [
      { _id: 'd1', title: 'Insulin and beta cells', text: 'Beta cells secrete insulin.' },
      { _id: 'd2', title: 'Vitamin D', text: 'Vitamin D and bone density.' },
      { _id: 'd3', title: 'Cell biology', text: 'Cells divide. Insulin is unrelated here.' },
    ]
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    [
      { _id: 'q1', text: 'beta cells insulin' },
      { _id: 'q2', text: 'bone vitamin' },
      { _id: 'q3', text: 'unjudged' },
    ]
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n');
  const report = evaluateBeir(loadBeir(dir, 'test'));
  assert.equal(report.queries, 2, 'only judged queries count');
  assert.equal(report.ndcg10, 1);
  assert.equal(report.recall100, 1);
  assert.equal(report.mrr10, 1);
  assert.throws(() => loadBeir(dir, 'dev'), /not a BEIR folder: .*qrels\/dev\.tsv is missing/);
});

test('engram eval --known-items: every title and alias finds its note first', async (t) => {
  const vault = makeVault(t, {
    'Atlas.md': '---\naliases: [Project Atlas]\n---\n# Atlas\nTantivy.\n',
    'Billing.md': '---\naliases: [Ledger]\n---\nAtlas atlas atlas atlas billing.\n',
    'Twin A.md': '---\naliases: [Shared name]\n---\nA.\n',
    'Twin B.md': '---\naliases: [Shared name]\n---\nB.\n',
  });
  const result = await runCli(['eval', '--known-items', '--json'], { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(report.titles, { queries: 4, first: 4 });
  assert.deepEqual(report.aliases, { queries: 4, first: 4 }, 'a shared alias counts when either holder comes first');
  assert.deepEqual(report.misses, []);
});
