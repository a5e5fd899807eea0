import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli, spawnCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Atlas.md': '---\ntags: [project/atlas]\n---\n# Atlas\nSearch migration to Tantivy.\n',
  'Notes/Other.md': '# Other\nTantivy is mentioned here too, Tantivy Tantivy.\n',
};

test('engram search prints JSON in the documented shape (real process, indexes first)', (t) => {
  const vault = makeVault(t, VAULT);
  const result = spawnCli(['search', 'tantivy migration', '--json', '--limit', '5'], { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root });
  assert.equal(result.code, 0, result.stderr);
  const response = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(response).sort(), ['mode', 'mode_reason', 'notices', 'query', 'results', 'total_matches']);
  const hit = response.results[0];
  assert.deepEqual(Object.keys(hit).sort(), ['excerpt', 'lanes', 'lines', 'modified', 'path', 'score', 'section', 'tags', 'title']);
  assert.equal(hit.path, 'Atlas.md');
  assert.deepEqual(hit.lines, [4, 6]);
  assert.equal(hit.lanes.keyword.rank, 1);
});

test('engram search: filters, explain, text output, and usage errors', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const folder = await runCli(['search', 'tantivy', '--folder', 'notes', '--json'], env);
  assert.deepEqual(
    JSON.parse(folder.stdout).results.map((r: { path: string }) => r.path),
    ['Notes/Other.md'],
  );
  const tag = await runCli(['search', 'tantivy', '--tag', 'project', '--json'], env);
  const tagged = JSON.parse(tag.stdout);
  assert.deepEqual(
    tagged.results.map((r: { path: string }) => r.path),
    ['Atlas.md'],
  );
  assert.ok(tagged.scoped_out, 'the better-scoring untagged note is reported');
  const text = await runCli(['search', 'tantivy', '--explain'], env);
  assert.match(text.stdout, /^1\. Notes\/Other\.md/m);
  assert.match(text.stdout, /tantivi: tf \d/);
  assert.match(text.stdout, /^query terms: tantivi \(tantivy\)$/m, 'a stem shown with the word it came from');
  assert.match(text.stdout, /mode: keyword/);
  for (const [argv, message] of [
    [['search'], /no query given/],
    [['search', 'x', '--limit', '0'], /--limit must be a whole number from 1 to 100, not "0"/],
    [['search', 'x', '--limit', '1000000'], /--limit must be a whole number from 1 to 100/],
    [['search', 'x', '--mode', 'fuzzy'], /--mode must be hybrid, keyword or semantic/],
    [['search', 'x', '--modified-after', 'yesterday'], /--modified-after must be a date/],
    [['search', 'x', '--today', '2026-02-30'], /--today must be a calendar day like 2026-03-14, not "2026-02-30"/],
    [['search', 'x', '--today', 'yesterday'], /--today must be a calendar day/],
    [['search', 'x', 'y'], /unexpected argument "y"/],
  ] as [string[], RegExp][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, argv.join(' '));
    assert.match(result.stderr, message);
  }
  // A relative date, read against --today: the note mentioning that day, with the notice.
  const relative = await runCli(['search', 'tantivy last week', '--today', '2026-12-02', '--json'], env);
  assert.equal(relative.code, 0, relative.stderr);
  assert.deepEqual(JSON.parse(relative.stdout).notices, [
    'read "last week" as 2026-11-23 to 2026-11-29; no note is dated then or mentions a day of it, so its words were searched as words',
    'no note contains "last", "week", so the search went on without them; the vault may use other words (try alternatives)',
  ]);
  const semantic = await runCli(['search', 'x', '--mode', 'semantic'], env);
  assert.equal(semantic.code, 1);
  assert.match(semantic.stderr, /semantic search is not possible: no note has a TaylorAI\/bge-micro-v2 vector yet/);
});

test('engram search --also fuses other wordings and says which found each note', async (t) => {
  const vault = makeVault(t, { ...VAULT, 'Cooking.md': '# Cooking\nSmoked paprika.\n' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const result = await runCli(['search', 'tantivy', '--also', 'paprika', '--json'], env);
  assert.equal(result.code, 0, result.stderr);
  const hits = JSON.parse(result.stdout).results as { path: string; lanes: { wordings: { wording: number }[] } }[];
  assert.deepEqual(
    hits.find((hit) => hit.path === 'Cooking.md')?.lanes.wordings.map((w) => w.wording),
    [1],
  );
  const text = await runCli(['search', 'tantivy', '--also', 'paprika'], env);
  assert.match(text.stdout, /Cooking\.md .*found by --also 1/);
  const tooMany = await runCli(['search', 'x', '--also', 'a', '--also', 'b', '--also', 'c', '--also', 'd', '--also', 'e'], env);
  assert.equal(tooMany.code, 1);
  assert.match(tooMany.stderr, /at most 4 alternatives/);
});
