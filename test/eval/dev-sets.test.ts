/**
 * The committed dev sets: each golden file parses, is the size it claims, and the one with a
 * committed vault (Chinese/Japanese) holds a floor through the production search path. The
 * sets over outside corpora are checked for shape only (their vaults are not in the repo).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Fts5Baseline, loadGolden, runGolden, runGoldenFts5, vaultDocuments } from '../../src/eval/index.js';
import { VaultSearch } from '../../src/search/index.js';
import { REPO } from '../helpers/cli.js';
import { indexState } from '../helpers/indexed-vault.js';

test('the Chinese/Japanese dev set: every path is a note, and the keyword lane finds the answers', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'engram-cjk-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const root = join(REPO, 'evals', 'cjk-vault');
  const { db } = indexState(t, { root, home });
  const queries = loadGolden(join(REPO, 'evals', 'cjk.golden.yaml'));
  assert.ok(queries.length >= 12, `at least 12 queries (${queries.length})`);
  const known = new Set(db.prepare('SELECT path FROM notes').pluck().all() as string[]);
  assert.ok(known.size >= 15, `about 15 notes (${known.size})`);
  for (const query of queries) {
    for (const path of [...query.expect, ...query.accept]) assert.ok(known.has(path), `${query.id}: ${path} is a note of the vault`);
  }
  const engine = VaultSearch.open(db, root);
  const report = runGolden(queries, (query, depth) => engine.search({ query: query.query, limit: depth, mode: 'keyword' }).results.map((hit) => hit.path));
  assert.ok(report.overall.success5 >= 0.9, `success@5 ${report.overall.success5}`);
  for (const category of ['zh', 'ja']) assert.ok(report.categories[category]!.queries >= 6, `${category} has queries`);
  // FTS5's unicode61 keeps a run of CJK as one token, so it finds almost nothing here: the set
  // measures what word segmentation is worth.
  const baseline = new Fts5Baseline(vaultDocuments(root, engine.metas));
  t.after(() => baseline.close());
  assert.ok(runGoldenFts5(queries, baseline, engine.metas).overall.success5 < report.overall.success5);
});

test('the dev sets over outside corpora are well formed and as large as documented', () => {
  const help = loadGolden(join(REPO, 'evals', 'obsidian-help.golden.json'));
  assert.ok(help.length >= 40, `obsidian-help: ${help.length}`);
  const queries = new Set(help.map((query) => query.query));
  for (const query of ['how do I embed a file', 'what is a vault', 'how can I change the font size', 'how do I install a community plugin']) {
    assert.ok(queries.has(query), `obsidian-help has "${query}"`);
  }
  const pt = loadGolden(join(REPO, 'evals', 'yuri-estudos-pt.golden.json'));
  assert.ok(pt.length >= 20, `yuri-estudos-pt: ${pt.length}`);
  const sample = loadGolden(join(REPO, 'evals', 'golden.yaml'));
  assert.ok(sample.filter((query) => query.category === 'question').length >= 40);
});
