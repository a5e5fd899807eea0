/**
 * `engram eval`'s --min-* floors: every kind of run checks each floor its report measures and
 * exits 1 below it, as a golden run does; a floor the run does not measure is bad usage (exit 2),
 * one line naming the floors that run has — never a floor passed over without a word.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

/** Five known items; the title "Billing" (Invoices.md) is found second, after the note whose file name it is. */
const KNOWN_ITEMS = {
  'Atlas.md': '---\naliases: [Project Atlas]\n---\n# Atlas\nTantivy.\n',
  'Invoices.md': '---\ntitle: Billing\n---\nInvoices.\n',
  'Billing.md': '# Payments\nBilling billing billing billing.\n',
  'Ledger.md': '# Ledger\nAccounts.\n',
};

test('eval --known-items checks the search floors against its own scores and exits 1 below one', async (t) => {
  const vault = makeVault(t, KNOWN_ITEMS);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const json = await runCli(['eval', '--known-items', '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.titles, { queries: 4, first: 3 });
  assert.deepEqual(report.aliases, { queries: 1, first: 1 });
  assert.deepEqual(report.misses, [{ kind: 'title', query: 'Billing', want: 'Invoices.md', got: 'Billing.md', rank: 2 }]);
  assert.deepEqual(report.overall, { queries: 5, success1: 0.8, success5: 1, success10: 1, recall5: 1, recall10: 1, mrr: 0.9, ndcg10: report.overall.ndcg10 });
  assert.ok(report.overall.ndcg10 > 0.9 && report.overall.ndcg10 < 1, String(report.overall.ndcg10));
  assert.deepEqual(Object.keys(report.categories), ['alias', 'title']);

  const below = await runCli(['eval', '--known-items', '--min-mrr', '0.95', '--min-success5', '1'], env);
  assert.equal(below.code, 1, below.stderr);
  assert.equal(below.stderr, 'engram: below the floor: overall mrr 0.9 < 0.95\n');
  assert.match(below.stdout, /^titles first: 3\/4; aliases first: 1\/1$/m);
  assert.match(below.stdout, /^ {2}title "Billing" → Billing\.md \(want Invoices\.md, rank 2\)$/m);

  const held = await runCli(['eval', '--known-items', '--min-mrr', '0.9', '--min-success5', '1', '--min-success10', '1', '--min-recall10', '1', '--min-ndcg10', '0.9'], env);
  assert.equal(held.code, 0, held.stderr);
  assert.equal(held.stderr, '');
});

function beirFolder(root: string): string {
  const dir = join(root, 'beir');
  mkdirSync(join(dir, 'qrels'), { recursive: true });
  const rows = (items: object[]) => items.map((item) => JSON.stringify(item)).join('\n');
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    rows([
      { _id: 'd1', title: 'Insulin and beta cells', text: 'Beta cells secrete insulin.' },
      { _id: 'd2', title: 'Vitamin D', text: 'Vitamin D and bone cells.' },
    ]),
  );
  writeFileSync(join(dir, 'queries.jsonl'), rows([{ _id: 'q1', text: 'beta cells insulin' }]));
  // q1 is judged relevant to d2 only, which ranks second: nDCG@10 and MRR@10 are below 1.
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td2\t1\n');
  return dir;
}

test('eval --beir checks --min-mrr (MRR@10) as well as --min-ndcg10', async (t) => {
  const vault = makeVault(t);
  const beir = beirFolder(vault.root);
  const env = { ENGRAM_HOME: vault.home };
  const json = await runCli(['eval', '--beir', beir, '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  const { mrr10, ndcg10 } = JSON.parse(json.stdout) as { mrr10: number; ndcg10: number };
  assert.equal(mrr10, 0.5, json.stdout);
  assert.ok(ndcg10 > 0 && ndcg10 < 1, json.stdout);

  const mrr = await runCli(['eval', '--beir', beir, '--min-mrr', '1'], env);
  assert.equal(mrr.code, 1, mrr.stderr);
  assert.equal(mrr.stderr, `engram: below the floor: overall mrr ${mrr10} < 1\n`);
  const ndcg = await runCli(['eval', '--beir', beir, '--min-ndcg10', '1', '--min-mrr', '0'], env);
  assert.equal(ndcg.code, 1, ndcg.stderr);
  assert.equal(ndcg.stderr, `engram: below the floor: overall ndcg10 ${ndcg10} < 1\n`);
  assert.equal((await runCli(['eval', '--beir', beir, '--min-ndcg10', '0', '--min-mrr', String(mrr10)], env)).code, 0);
});

test('a floor the run does not measure is refused (exit 2) in one line naming the floors it has', async (t) => {
  const vault = makeVault(t, KNOWN_ITEMS);
  const beir = beirFolder(join(vault.root, '..'));
  const golden = join(vault.root, '..', 'golden.yaml');
  writeFileSync(golden, '- id: atlas\n  query: atlas\n  expect: [Atlas.md]\n');
  const gold = join(vault.root, '..', 'graph-gold.yaml');
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const search = '--min-success5, --min-success10, --min-recall10, --min-mrr and --min-ndcg10';
  const cases: [string[], string][] = [
    [['--beir', beir, '--min-recall10', '0.5'], '--min-recall10 does not apply to --beir, which measures nDCG@10, recall@100 and MRR@10: its floors are --min-ndcg10 and --min-mrr'],
    [['--beir', beir, '--min-success5', '0.5'], '--min-success5 does not apply to --beir, which measures nDCG@10, recall@100 and MRR@10: its floors are --min-ndcg10 and --min-mrr'],
    [['--beir', beir, '--min-entity-f1', '0.5'], '--min-entity-f1 does not apply to --beir, which measures nDCG@10, recall@100 and MRR@10: its floors are --min-ndcg10 and --min-mrr'],
    // Refused before the gold file is read: it does not exist.
    [['--graph', gold, '--min-mrr', '0.5'], '--min-mrr does not apply to --graph, which measures extraction: its floors are --min-entity-f1 and --min-relation-f1'],
    [['--golden', golden, '--min-relation-f1', '0.5'], `--min-relation-f1 does not apply to --golden, which measures search: its floors are ${search}`],
    [['--known-items', '--min-entity-f1', '0.5'], `--min-entity-f1 does not apply to --known-items, which measures search: its floors are ${search}`],
  ];
  for (const [argv, message] of cases) {
    const result = await runCli(['eval', ...argv], env);
    assert.equal(result.code, 2, `${argv.join(' ')}: ${result.stderr}`);
    assert.equal(result.stderr, `engram: ${message}\n`, argv.join(' '));
    assert.equal(result.stdout, '', 'refused before anything runs');
  }
  // With --json the refusal is the one JSON document.
  const json = await runCli(['eval', '--beir', beir, '--min-recall10', '0.5', '--json'], env);
  assert.deepEqual(JSON.parse(json.stdout), { error: cases[0]![1], exit_code: 2 });
});
