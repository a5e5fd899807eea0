import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuseWordings, planWordings, searchVault, VaultSearch, WORDING_FUSION, type SearchResponse } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

const NO_MODEL = async () => ({ reason: 'no model in this test' });

const FILES = {
  'Sync/Version history.md': '# Version history\nRestore an earlier version of a note from the sync history.\n',
  'Sync/Deleted files.md': '# Deleted files\nSync keeps deleted files for a year; restore them from settings.\n',
  'Other/Cooking.md': '# Cooking\nSmoked paprika and rice.\n',
};

function openEngine(t: Parameters<typeof makeVault>[0]) {
  const { db, root } = indexState(t, makeVault(t, FILES));
  return VaultSearch.open(db, root);
}

test('alternatives are fused with the query; each hit says which wordings found it', async (t) => {
  const engine = openEngine(t);
  const alone = await searchVault(engine, { query: 'version history' }, NO_MODEL);
  assert.deepEqual(
    alone.results.map((hit) => hit.path),
    ['Sync/Version history.md'],
  );
  assert.equal(alone.results[0]!.lanes.wordings, undefined, 'one wording: no wordings lane');

  const fused = await searchVault(engine, { query: 'version history', alternatives: ['deleted files', 'paprika'] }, NO_MODEL);
  assert.deepEqual(fused.results.map((hit) => hit.path).sort(), ['Other/Cooking.md', 'Sync/Deleted files.md', 'Sync/Version history.md']);
  const byPath = new Map(fused.results.map((hit) => [hit.path, hit.lanes.wordings!.map((w) => w.wording)]));
  assert.deepEqual(byPath.get('Sync/Deleted files.md'), [1]);
  assert.deepEqual(byPath.get('Other/Cooking.md'), [2]);
  assert.match(fused.mode_reason, /3 wordings fused by reciprocal rank/);
  assert.ok(
    fused.results.every((hit) => hit.excerpt !== ''),
    'each hit keeps the evidence of the wording that found it',
  );
  const explained = await searchVault(engine, { query: 'how do I restore a version?', alternatives: ['deleted files'], explain: true }, NO_MODEL);
  assert.deepEqual(explained.analysis?.ignored, ['how', 'do', 'i'], '--explain still shows how the query was read');
});

test('empty, repeated and too many alternatives: ignored with a notice, or a clear error', async (t) => {
  const engine = openEngine(t);
  const response = await searchVault(engine, { query: 'restore', alternatives: ['   ', 'RESTORE', 'restore  ', 'deleted'] }, NO_MODEL);
  assert.equal(response.notices.filter((notice) => /empty alternative/.test(notice)).length, 1);
  assert.equal(response.notices.filter((notice) => /repeats another wording/.test(notice)).length, 2);
  assert.match(response.mode_reason, /2 wordings fused/);
  await assert.rejects(searchVault(engine, { query: 'x', alternatives: ['a', 'b', 'c', 'd', 'e'] }, NO_MODEL), /at most 4 alternatives, not 5/);
  const long = await searchVault(engine, { query: 'restore', alternatives: ['deleted '.repeat(1500)] }, NO_MODEL);
  assert.ok(long.results.length >= 2, 'a 10,000-character alternative is cut, not fatal');
  assert.ok(long.notices.some((notice) => /cut to its first/.test(notice)));
});

test('semantic mode without vectors is refused by the pipeline, with the next step', async (t) => {
  const engine = openEngine(t);
  await assert.rejects(searchVault(engine, { query: 'restore', mode: 'semantic' }, NO_MODEL), /semantic search is not possible: .*use mode "hybrid" or "keyword"/);
});

test('fuseWordings: a note found by several wordings beats one found by one; named notes stay first', () => {
  const hit = (path: string, named = false) => ({
    path,
    title: path,
    score: 1,
    excerpt: path,
    section: '',
    lines: null,
    tags: [],
    modified: '',
    lanes: named ? { name: { match: 'title' as const } } : {},
  });
  const response = (paths: string[], named: string[] = []): SearchResponse => ({
    query: 'q',
    mode: 'keyword',
    mode_reason: 'keyword mode was asked for',
    results: paths.map((path) => hit(path, named.includes(path))),
    total_matches: paths.length,
    notices: [],
  });
  const fused = fuseWordings([response(['a', 'b', 'c']), response(['c', 'd']), response(['c', 'e'])], 10);
  assert.equal(fused.results[0]!.path, 'c');
  assert.deepEqual(fused.results[0]!.lanes.wordings, [
    { wording: 0, rank: 3 },
    { wording: 1, rank: 1 },
    { wording: 2, rank: 1 },
  ]);
  const named = fuseWordings([response(['a', 'b', 'c'], ['b']), response(['c']), response(['c'])], 2);
  assert.deepEqual(
    named.results.map((r) => r.path),
    ['b', 'c'],
  );
  assert.deepEqual(planWordings('q', []), { wordings: ['q'], notices: [] });
  // A wording's first hit outweighs a note two wordings put sixth (k = 2: 1/3 > 2/8); at the
  // lanes' k = 60 the lukewarm consensus won (2/66 > 1/61), and rephrasings made answers worse.
  const filler = (prefix: string) => ['1', '2', '3', '4', '5'].map((n) => prefix + n);
  const sure = fuseWordings([response([...filler('x'), 'b']), response(['a', ...filler('y')]), response([...filler('z'), 'b'])], 20);
  assert.equal(WORDING_FUSION.k, 2);
  assert.ok(sure.results.findIndex((r) => r.path === 'a') < sure.results.findIndex((r) => r.path === 'b'), sure.results.map((r) => r.path).join(' '));
  assert.match(sure.mode_reason, /3 wordings fused by reciprocal rank \(k = 2\)/);
});
