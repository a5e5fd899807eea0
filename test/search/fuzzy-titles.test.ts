import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenizer, NameIndex, VaultSearch } from '../../src/search/index.js';
import { FuzzyNames, fuzzyMerge, fuzzyQueryWords } from '../../src/search/fuzzy-titles.js';
import { boundedDistance } from '../../src/search/edit-distance.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

const FILES = {
  'Plugins/Canvas.md': '---\naliases: [JSON Canvas]\n---\nCanvas is a plugin for visual note-taking on an infinite board.\n',
  'Plugins/Graph view.md': 'The graph shows how your notes link.\n',
  'Bases/Views.md': '# Views\nA base has views: table, cards, list. Switch views from the menu. Each view filters.\n',
  'Obsidian Sync/Introduction to Obsidian Sync.md': 'Sync keeps your vault the same on every device. Sync is end-to-end encrypted.\n',
  'Obsidian Sync/Set up Obsidian Sync.md': 'To set up sync, log in and create a remote vault.\n',
  'Teams/Syncing for teams.md': 'Teams sync shared vaults; sync, sync, sync across many devices and sync again.\n',
  'Linking/Embed files.md': 'You can embed a canvas, an image or a PDF in a note.\n',
  'Daily/Canvs.md': 'A note named like the typo itself.\n',
};

function engine(t: Parameters<typeof makeVault>[0], files: Record<string, string> = FILES) {
  const { db, root } = indexState(t, makeVault(t, files));
  return VaultSearch.open(db, root);
}

const withoutTypoNote = Object.fromEntries(Object.entries(FILES).filter(([path]) => path !== 'Daily/Canvs.md'));

test('a misspelt name finds its note first: one edit away by the spelling correction, further by the fuzzy lane, which says so', (t) => {
  const search = engine(t, withoutTypoNote);
  // One edit from an indexed word: the keyword lane's spelling correction reads it, and the
  // fuzzy lane leaves the word alone.
  const canvas = search.search({ query: 'Canvs' });
  assert.equal(canvas.results[0]?.path, 'Plugins/Canvas.md');
  assert.ok(canvas.results[0]!.lanes.keyword);
  assert.equal(canvas.results[0]!.lanes.fuzzy, undefined);
  assert.match(canvas.notices.join('\n'), /no note contains "Canvs"; searched the nearest indexed word \("canva"\)/);
  assert.match(canvas.results[0]!.excerpt, /Canvas is a plugin/, 'the excerpt is read for the corrected word');
  // The start of a name, three edits from any word: the fuzzy lane.
  const partial = search.search({ query: 'Obsid sync' });
  assert.deepEqual(
    partial.results
      .slice(0, 2)
      .map((hit) => hit.path)
      .sort(),
    ['Obsidian Sync/Introduction to Obsidian Sync.md', 'Obsidian Sync/Set up Obsidian Sync.md'],
  );
  assert.deepEqual(partial.results[0]!.lanes.fuzzy?.read_as, [{ token: 'obsid', as: 'obsidian' }]);
  assert.match(partial.notices.join('\n'), /no note contains "Obsid".*fuzzy/);

  const sync = search
    .search({ query: 'obsidan sync' })
    .results.slice(0, 2)
    .map((hit) => hit.path);
  assert.deepEqual(sync.sort(), ['Obsidian Sync/Introduction to Obsidian Sync.md', 'Obsidian Sync/Set up Obsidian Sync.md']);

  const graph = search.search({ query: 'grpah view' }).results;
  assert.equal(graph[0]!.path, 'Plugins/Graph view.md', 'a swapped pair of letters is one edit');
  assert.ok(
    graph.some((hit) => hit.path === 'Bases/Views.md' && hit.lanes.keyword && !hit.lanes.fuzzy),
    'notes holding the other words still follow',
  );
  assert.equal(search.search({ query: 'Canv' }).results[0]?.path, 'Plugins/Canvas.md', 'the start of a name');
});

test('a fuzzy hit never outranks an exact match, and queries whose words all exist are untouched', (t) => {
  const search = engine(t);
  // `Canvs` is written in a note's name: that note is an exact match.
  const typo = search.search({ query: 'Canvs' });
  assert.equal(typo.results[0]!.path, 'Daily/Canvs.md');
  assert.equal(typo.results[0]!.lanes.fuzzy, undefined);
  for (const query of ['canvas', 'obsidian sync', 'graph view', 'views']) {
    const response = search.search({ query });
    assert.ok(
      response.results.every((hit) => hit.lanes.fuzzy === undefined),
      `no fuzzy lane for "${query}"`,
    );
    assert.ok(!response.notices.some((notice) => /fuzzy/.test(notice)));
  }
});

test('fuzzy hits stay inside the filters; digits are never corrected', (t) => {
  const search = engine(t, withoutTypoNote);
  assert.deepEqual(search.search({ query: 'Canvs', filters: { folders: ['Bases'] } }).results, []);
  const dated = engine(t, { 'Daily/2026-03-10.md': 'Standup.\n' });
  assert.deepEqual(
    dated.search({ query: '2025-03-10' }).results.filter((hit) => hit.lanes.fuzzy),
    [],
  );
});

test('FuzzyNames scores a name by how much of query and name the readings cover', () => {
  const tokenize = createTokenizer();
  const names = new NameIndex(tokenize);
  names.add(0, 'Graph view');
  names.add(1, 'Graph');
  names.add(2, 'Introduction to graph theory and its many views');
  const fuzzy = new FuzzyNames(names);
  // Query words as the search makes them (`fuzzyQueryWords`): `grpah` is in no note.
  const words = (query: string) => query.split(' ').map((word) => ({ tokens: tokenize(word), known: word !== 'grpah' && word !== 'zzzz' }));
  const both = fuzzy.match(words('grpah view'), () => true);
  assert.deepEqual(
    both.map((hit) => [hit.doc, hit.score]),
    [[0, 0.9]],
    'covers both words (0.8 for one edit in five letters, 1 for view); Graph alone (0.4) and the long name (0.36) score under half of it',
  );
  const one = fuzzy.match(words('grpah'), () => true);
  assert.deepEqual(
    one.map((hit) => [hit.doc, hit.score]),
    [
      [1, 0.8],
      [0, 0.4],
    ],
  );
  assert.deepEqual(one[0]!.readAs, [{ token: 'grpah', as: 'graph' }]);
  assert.deepEqual(
    fuzzy.match(words('zzzz'), () => true),
    [],
  );
  assert.deepEqual(
    fuzzy.match(words('grpah'), (doc) => doc === 2),
    [],
    'a long name sharing one word scores under the floor',
  );
});

test('boundedDistance counts a transposition as one edit and stops past the bound', () => {
  assert.equal(boundedDistance('grpah', 'graph', 2), 1);
  assert.equal(boundedDistance('obsidan', 'obsidian', 1), 1);
  assert.equal(boundedDistance('canvas', 'canvas', 1), 0);
  assert.equal(boundedDistance('abcdef', 'uvwxyz', 1), 2);
  assert.equal(boundedDistance('a'.repeat(100), `${'a'.repeat(99)}b`, 1), 1, 'longer than the reused rows');
});

test('fuzzyMerge: exact matches, then fuzzy hits, then the rest, each note once', () => {
  const hit = (path: string, lanes: Record<string, unknown>) => ({ path, lanes });
  const merged = fuzzyMerge([hit('a', { keyword: 1 }), hit('b', { substring: 1 }), hit('c', { keyword: 2 })], [hit('c', { keyword: 2, fuzzy: 1 }), hit('d', { fuzzy: 2 })], 3);
  assert.deepEqual(
    merged.map((result) => result.path),
    ['b', 'c', 'd'],
  );
});

test('fuzzyQueryWords: a word is unknown only when none of its own tokens (one per language) is known', () => {
  const tokenize = createTokenizer();
  // `rank` also comes from `rankings`: attributing each token to its first word left `rankings` unknown.
  const words = fuzzyQueryWords('rank the rankings canvs', tokenize, ['rank', 'canv'], ['rank']);
  assert.deepEqual(words, [
    { word: 'rank', tokens: ['rank'], known: true },
    { word: 'rankings', tokens: ['rank'], known: true },
    { word: 'canvs', tokens: ['canv'], known: false },
  ]);
});

test('the start of a name ("Harb") is a name being typed: listed by its note, not corrected to another word; a stem the name word extends is still corrected to it', (t) => {
  const search = engine(t, {
    'Projects/Harbor tasks.md': '# Harbor tasks\nRotate the keys.\n',
    'Notes/Disks.md': 'The hard disk is full; a hard reset did not help.\n',
    'Notes/History of note-taking.md': 'Commonplace books came first.\n',
    'Notes/Billing overview.md': 'Billing runs monthly; the billing sync is on Tuesdays.\n',
    // A Portuguese note makes the names' words Portuguese too, where `billing` stays whole.
    'Notas/Faturação.md': '---\nlang: pt\n---\n# Faturação\nA reunião sobre a faturação foi ontem, com as contas do mês.\n',
    'Notes/Other.md': 'Nothing about it.\n',
  });
  const typed = search.search({ query: 'Harb', mode: 'keyword', explain: true });
  assert.deepEqual(typed.analysis?.corrected, [], 'harb is no misspelt hard');
  assert.equal(typed.results[0]?.path, 'Projects/Harbor tasks.md', typed.notices.join(' | '));
  const stem = search.search({ query: 'historically', mode: 'keyword', explain: true });
  assert.deepEqual(
    stem.analysis?.corrected.map(({ to }) => to),
    ['histori'],
  );
  // Read as the written word it begins ("billing"), though its stem (`bill`) is shorter.
  assert.deepEqual(
    search.search({ query: 'billin decisions', mode: 'keyword', explain: true }).analysis?.corrected.map(({ spelled }) => spelled),
    ['billing'],
  );
});
