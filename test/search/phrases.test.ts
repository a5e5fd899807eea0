import assert from 'node:assert/strict';
import { test } from 'node:test';
import { holdsPhrase, parseQuerySyntax, phraseWords, wordMatcher } from '../../src/search/phrases.js';
import { createTokenizer, searchVault, VaultSearch } from '../../src/search/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

test('the syntax read out of a query: quoted phrases kept as words, -words and -"phrases" removed', () => {
  assert.deepEqual(parseQuerySyntax('"Casa do Beco" per night'), { text: 'Casa do Beco per night', phrases: ['Casa do Beco'], quoted: [{ from: 0, to: 12 }], excluded: [], scopes: [] });
  assert.deepEqual(parseQuerySyntax('lisbon -paris'), { text: 'lisbon', phrases: [], quoted: [], excluded: ['paris'], scopes: [] });
  assert.deepEqual(parseQuerySyntax('trip -"Casa do Beco" -paris,'), { text: 'trip', phrases: [], quoted: [], excluded: ['Casa do Beco', 'paris,'], scopes: [] });
  assert.deepEqual(parseQuerySyntax('“smart quotes” and „German quotes“ and «deux mots»').phrases, ['smart quotes', 'German quotes', 'deux mots']);
});

test('what is not syntax stays text: hyphens inside words, numbers, flags, lone quotes, one quoted word', () => {
  for (const query of ['e-mail setup', 'below -5 degrees', 'the --verbose flag', 'a - b', 'say "hello', 'it’s 5"']) {
    const syntax = parseQuerySyntax(query);
    assert.deepEqual([syntax.phrases, syntax.excluded], [[], []], query);
  }
  assert.deepEqual(parseQuerySyntax('the "Eternal Sunshine of the Spotless Mind?').phrases, [], 'an unclosed quote is text');
  assert.deepEqual(parseQuerySyntax('"sourdough" starter'), { text: 'sourdough starter', phrases: [], quoted: [{ from: 0, to: 9 }], excluded: [], scopes: [] }, 'one quoted word is just the word (and quoted)');
  assert.deepEqual(parseQuerySyntax('-'.repeat(10_000)).excluded, []);
});

test('quoted spans are where the quoted words stand in the text, white space collapsed; excluded and operator quotes are no spans', () => {
  const quotedIn = (query: string) => {
    const { text, quoted } = parseQuerySyntax(query);
    return quoted.map(({ from, to }) => text.slice(from, to).trim());
  };
  assert.deepEqual(quotedIn('still open window "open"'), ['open']);
  assert.deepEqual(parseQuerySyntax('still open window "open"').quoted, [{ from: 18, to: 22 }], 'the quoted "open", not the first');
  assert.deepEqual(quotedIn('  a   "b   c"   d "e" '), ['b c', 'e']);
  assert.deepEqual(quotedIn('“last week” and «deux mots»'), ['last week', 'deux mots']);
  assert.deepEqual(quotedIn('-"last week" path:"Daily notes" deploy'), []);
  assert.deepEqual(quotedIn('"" and " " and "x'), [], 'empty quotes and an unclosed one');
  const many = parseQuerySyntax('"a" '.repeat(2_000));
  assert.equal(many.quoted.length, 2_000);
  assert.ok(many.quoted.every(({ from, to }, i) => many.text.slice(from, to) === 'a' && from === 2 * i));
});

test('a phrase is held when its words stand side by side, in order, in any case, accents and endings', () => {
  const tokenize = createTokenizer();
  const holds = (text: string, phrase: string) => holdsPhrase(text, phraseWords(phrase), wordMatcher(phraseWords(phrase), tokenize));
  assert.equal(holds('Book a room at **Casa do Beco**, in Alfama.', 'casa do beco'), true);
  assert.equal(holds('Search operators\nlet you narrow', 'search operator'), true, 'another ending, a line break between');
  assert.equal(holds('Café  Central', 'cafe central'), true);
  assert.equal(holds('self-hosted sync', 'self hosted'), true);
  assert.equal(holds('the beco of casa', 'casa do beco'), false);
  assert.equal(holds('beco do casa', 'casa do beco'), false, 'order matters');
  assert.equal(holds('casa and do and beco', 'casa do beco'), false, 'side by side');
  assert.equal(holds('我喜欢学习中文', '学习 中文'), true, 'Chinese is looked for as written');
});

const FILES = {
  'Trips/Lisbon.md': '# Lisbon\nWe stayed at Casa do Beco, a guesthouse in Alfama.\n',
  'Trips/Lisbon and Paris.md': '# Lisbon and Paris\nThe night train from Lisbon to Paris. A casa, a beco: Alfama words.\n',
  'Trips/Porto.md': '# Porto\nCasa do Beco has a sister house in Porto, a guesthouse too.\n',
  'Food/Paris bistro.md': '# Bistro\nDinner in paris at a bistro.\n',
};

test('notes holding a quoted phrase rank first; explain says so; a phrase no note holds is said', async (t) => {
  const { db, root } = indexedVault(t, FILES);
  const engine = VaultSearch.open(db, root);
  const plain = engine.search({ query: 'casa beco alfama', mode: 'keyword' });
  assert.equal(plain.results[0]!.path, 'Trips/Lisbon and Paris.md', 'unquoted, the words alone decide');
  const quoted = engine.search({ query: '"casa do beco" alfama', mode: 'keyword', explain: true });
  assert.deepEqual(
    quoted.results
      .map((hit) => hit.path)
      .slice(0, 2)
      .sort(),
    ['Trips/Lisbon.md', 'Trips/Porto.md'],
  );
  assert.equal(quoted.results[2]!.path, 'Trips/Lisbon and Paris.md', 'a note with the words but not the phrase is still found, after');
  assert.deepEqual(
    quoted.results[0]!.boosts?.filter((boost) => boost.kind === 'phrase').map((boost) => boost.terms),
    [['casa do beco']],
  );
  const missing = engine.search({ query: '"beco casa" alfama', mode: 'keyword' });
  assert.ok(missing.notices.includes('no note holds the phrase "beco casa"; ranked by its words'));
  assert.equal(missing.results.length, 3);
});

test('a -word leaves out every note holding it, in every lane; a query of only -words says what to add', async (t) => {
  const { db, root } = indexedVault(t, FILES);
  const engine = VaultSearch.open(db, root);
  const response = engine.search({ query: 'lisbon -paris', mode: 'keyword' });
  assert.deepEqual(
    response.results.map((hit) => hit.path),
    ['Trips/Lisbon.md'],
  );
  assert.ok(response.notices.includes('left out 2 notes holding "paris"'));
  assert.equal(response.scoped_out, undefined, 'what the query left out is not a better match hidden by a filter');
  const phrase = engine.search({ query: 'guesthouse -"casa do beco"', mode: 'keyword' });
  assert.deepEqual(phrase.results, []);
  const substring = engine.search({ query: 'alfam -paris', mode: 'keyword' });
  assert.ok(
    substring.results.every((hit) => hit.path !== 'Trips/Lisbon and Paris.md'),
    'the substring and fuzzy lanes leave it out too',
  );
  const only = engine.search({ query: '-paris', mode: 'keyword' });
  assert.deepEqual(only.results, []);
  assert.ok(only.notices.includes('the query only leaves words out; add the words to search for'));
  // The query's exclusions hold for its rephrasings.
  const fused = await searchVault(engine, { query: 'lisbon -paris', alternatives: ['night train', 'bistro dinner'], mode: 'keyword' }, async () => ({ reason: 'no model' }));
  assert.deepEqual(
    fused.results.map((hit) => hit.path),
    ['Trips/Lisbon.md'],
  );
});

test('operators read out of a query: tag:, path:, file:, quoted values, a - before one', () => {
  assert.deepEqual(parseQuerySyntax('tag:#travel path:"Daily notes" -file:draft lisbon'), {
    text: 'lisbon',
    phrases: [],
    quoted: [],
    excluded: [],
    scopes: [
      { key: 'tag', value: '#travel', negated: false },
      { key: 'path', value: 'Daily notes', negated: false },
      { key: 'file', value: 'draft', negated: true },
    ],
  });
  assert.deepEqual(parseQuerySyntax('cannot open file: permission denied'), { text: 'cannot open file: permission denied', phrases: [], quoted: [], excluded: [], scopes: [] }, 'before a space, an operator without a value is prose');
  // At the end, or with empty quotes, it is an operator left unfinished: out of the text, named for a notice.
  assert.deepEqual(parseQuerySyntax('note: tag: and a file:'), { text: 'note: tag: and a', phrases: [], quoted: [], excluded: [], scopes: [], empty: ['file:'] });
  assert.deepEqual(parseQuerySyntax('harbor tag:""').empty, ['tag:""']);
  assert.deepEqual(parseQuerySyntax('lisbon tag: ').empty, ['tag:'], 'only white space after it');
  assert.deepEqual(parseQuerySyntax('the hashtag:x thing').scopes, [], 'only at the start of a word');
  // A quote the value opens and never closes is no part of it.
  assert.deepEqual(parseQuerySyntax('harbor path:"Projects').scopes, [{ key: 'path', value: 'Projects', negated: false }]);
});

const TAGGED = {
  'Trips/Lisbon.md': '---\ntags: [travel/portugal]\n---\n# Lisbon\nTrams and tiles in Lisbon.\n',
  'Trips/Lisbon draft.md': '---\ntags: [travel]\n---\n# Lisbon draft\nLisbon notes to tidy.\n',
  'Daily/2026-06-12.md': '# Friday\nLanded in Lisbon.\n',
  'Work/Lisbon office.md': '# Lisbon office\nThe Lisbon office opens in June.\n',
};

test('tag:, path: and file: narrow the search like filters; -tag: leaves notes out; operators alone list their notes', async (t) => {
  const { db, root } = indexedVault(t, TAGGED);
  // Stop words beside an operator add nothing: its notes are listed, as for the operator alone.
  const stops = VaultSearch.open(db, root).search({ query: 'the tag:travel', mode: 'keyword' });
  assert.deepEqual(stops.results.map((hit) => hit.path).toSorted(), ['Trips/Lisbon draft.md', 'Trips/Lisbon.md']);
  assert.deepEqual(stops.notices, ['the query has only operators and no words to rank by: the notes they let through, newest first']);
  const unfinished = VaultSearch.open(db, root).search({ query: 'lisbon tag:', mode: 'keyword' });
  assert.ok(
    unfinished.notices.some((notice) => notice.startsWith('"tag:" has no value, so it was left out')),
    unfinished.notices.join(' | '),
  );
  assert.equal(unfinished.results.length, 4, 'the word "tag" is not searched');
  assert.deepEqual(
    VaultSearch.open(db, root)
      .search({ query: 'lisbon path:"Trips', mode: 'keyword' })
      .results.map((hit) => hit.path)
      .toSorted(),
    ['Trips/Lisbon draft.md', 'Trips/Lisbon.md'],
  );
  const engine = VaultSearch.open(db, root);
  const paths = (query: string) =>
    engine
      .search({ query, mode: 'keyword' })
      .results.map((hit) => hit.path)
      .sort();
  assert.deepEqual(paths('lisbon tag:travel'), ['Trips/Lisbon draft.md', 'Trips/Lisbon.md'], '`travel` also matches `travel/portugal`');
  assert.deepEqual(paths('lisbon tag:travel -file:draft'), ['Trips/Lisbon.md']);
  assert.deepEqual(paths('lisbon path:daily'), ['Daily/2026-06-12.md']);
  assert.deepEqual(paths('lisbon -tag:travel'), ['Daily/2026-06-12.md', 'Work/Lisbon office.md']);
  const scoped = engine.search({ query: 'lisbon tag:nosuch', mode: 'keyword' });
  assert.ok(scoped.notices.includes('no note passes the filters (tag:nosuch); check the folder, tag or type names'));
  const listed = engine.search({ query: 'tag:travel', mode: 'keyword' });
  assert.deepEqual(listed.results.map((hit) => hit.path).sort(), ['Trips/Lisbon draft.md', 'Trips/Lisbon.md']);
  assert.equal(listed.results[0]!.lanes.scope?.rank, 1);
  const fused = await searchVault(engine, { query: 'lisbon tag:travel', alternatives: ['trams tiles office'], mode: 'keyword' }, async () => ({ reason: 'no model' }));
  assert.ok(
    fused.results.every((hit) => hit.path.startsWith('Trips/')),
    'rephrasings keep the operators',
  );
});

test('hostile syntax: thousands of lone quotes, dashes and operators read as text, in one pass', () => {
  assert.deepEqual(parseQuerySyntax('“'.repeat(10_000)), { text: '“'.repeat(10_000), phrases: [], quoted: [], excluded: [], scopes: [] });
  assert.deepEqual(parseQuerySyntax('-“ '.repeat(3_000)).excluded, []);
  assert.deepEqual(parseQuerySyntax('tag:'.repeat(2_500)).scopes, [{ key: 'tag', value: 'tag:'.repeat(2_499), negated: false }]);
  assert.deepEqual(parseQuerySyntax('"a b" '.repeat(1_000)).phrases, ['a b'], 'a phrase repeated is one phrase');
});

const ASKING = {
  'Daily/2026-11-25.md': '# Wednesday\nShipped the deploy, then a walk.\n',
  'Notes/Retro.md': '# Retro\nWhat went wrong last week: the deploy, a decent one otherwise.\n',
  'Notes/Releases.md': '# Releases\nThe latest release is 2.0, the one before was 1.9.\n',
  'Daily/2026-11-30.md': '# Monday\nA release checklist draft.\n',
  'Projects/Plan.md': '# Plan\n- [ ] write the release docs\n- [ ] a window blind\n',
  'Notes/Kitchen.md': '# Kitchen\nThe window is still open in the kitchen.\n',
  'Notes/Kettle.md': '# Kettle\nBoil the water first.\n',
};

test('a quoted word is searched as written: never read as a date, as asking for the newest or for what is open, never corrected', async (t) => {
  const { db, root } = indexedVault(t, ASKING);
  const engine = VaultSearch.open(db, root);
  const today = '2026-12-01';
  const said = (query: string) => engine.search({ query, mode: 'keyword', today, explain: true });
  const read = (notices: readonly string[], what: RegExp) => notices.some((notice) => what.test(notice));

  const asDays = said('deploy last week');
  assert.ok(read(asDays.notices, /read "last week" as 2026-11-23 to 2026-11-29/), 'unquoted: the days of last week');
  assert.equal(asDays.results[0]!.path, 'Daily/2026-11-25.md');
  const asWords = said('deploy "last week"');
  assert.ok(!read(asWords.notices, /read "last week"/), asWords.notices.join('; '));
  assert.equal(asWords.results[0]!.path, 'Notes/Retro.md', 'the note that says it');
  assert.deepEqual(asWords.analysis?.terms, ['deploy', 'last', 'week']);

  assert.ok(read(said('latest release').notices, /asking for the newest/));
  // Asking only that: the dated notes, the newest first.
  const onlyNewest = said('the latest?');
  assert.ok(read(onlyNewest.notices, /asking for the newest, and nothing else/), onlyNewest.notices.join('; '));
  assert.deepEqual(
    onlyNewest.results.map((hit) => hit.path),
    ['Daily/2026-11-30.md', 'Daily/2026-11-25.md'],
  );
  // So is "recently" alone, with only a question's own words about it; beside a subject it is the asker's memory of when, a word of the note.
  const recently = said('what did I write recently?');
  assert.ok(read(recently.notices, /read "recently" as asking for the newest, and nothing else/), recently.notices.join('; '));
  assert.deepEqual(
    said('most recent entries').results.map((hit) => hit.path),
    ['Daily/2026-11-30.md', 'Daily/2026-11-25.md'],
  );
  const deployed = said('deploy recently');
  assert.ok(!read(deployed.notices, /newest/), deployed.notices.join('; '));
  assert.deepEqual(deployed.analysis?.corrected, [], '"recently" is in no note, and searched as written: not the nearest word ("decent")');
  assert.ok(read(said('recent release notes').notices, /read "recent" as asking for the newest/), 'the adjective asks wherever it stands');
  const latest = said('"latest" release');
  assert.ok(!read(latest.notices, /newest/), latest.notices.join('; '));
  assert.equal(latest.results[0]!.path, 'Notes/Releases.md');

  assert.ok(read(said('still open window').notices, /still open/));
  const open = said('"still open" window');
  assert.ok(!read(open.notices, /unfinished tasks/), open.notices.join('; '));
  assert.equal(open.results[0]!.path, 'Notes/Kitchen.md');

  const typo = said('dploy walk');
  assert.ok(read(typo.notices, /searched the nearest indexed word \("deploy"\)/), typo.notices.join('; '));
  const quotedTypo = said('"dploy" walk');
  assert.ok(read(quotedTypo.notices, /no note contains "dploy", so the search went on without it/), quotedTypo.notices.join('; '));
  // Its unquoted copy is the same token, taken as written too, in either order.
  for (const query of ['dploy "dploy" walk', '"dploy" dploy walk']) assert.ok(!said(query).analysis?.terms.includes('deploy'), query);

  assert.deepEqual(said('"what" went wrong').analysis?.terms, ['what', 'went', 'wrong'], 'a quoted question word is a word too');
  assert.deepEqual(said('what went wrong').analysis?.terms, ['went', 'wrong']);

  // The quoted copy of a word is the one taken as written; the unquoted reading still stands.
  const both = said('still open window "open"');
  assert.ok(read(both.notices, /still open/), both.notices.join('; '));
  assert.deepEqual(both.analysis?.terms, ['open', 'window'], 'the reading takes "still open"; the quoted "open" is still searched');
  const dated = said('deploy last week "week"');
  assert.ok(read(dated.notices, /read "last week" as 2026-11-23 to 2026-11-29/), dated.notices.join('; '));
  assert.deepEqual(dated.analysis?.terms, ['deploy', 'week'], 'the quoted "week" is still searched');
  // A word a reading takes leaves its token to another copy of it, wherever that stands.
  for (const query of ['week deploy last week', 'last week deploy week']) assert.deepEqual(said(query).analysis?.terms.toSorted(), ['deploy', 'week'], query);
  // No reading reaches across a quoted word: "still open" is none here, "open items" still is.
  assert.ok(read(said('open items release').notices, /"open items"/));
  const across = said('"still" open items release');
  assert.ok(read(across.notices, /"open items"/), across.notices.join('; '));
  // A quoted word in no note is not read as a note's name either.
  assert.ok(
    said('ketle').results.some((hit) => hit.path === 'Notes/Kettle.md'),
    'unquoted: the fuzzy lane lists the name it comes close to',
  );
  const quotedName = said('"ketle"');
  assert.deepEqual(quotedName.results, []);
  assert.ok(read(quotedName.notices, /no note contains "ketle"/), quotedName.notices.join('; '));

  // list_tasks reads a query as search does: quoted words kept, -words leave out.
  const matcherOf = (query: string) => {
    const matcher = engine.wordsMatcher(query);
    assert.ok('matches' in matcher, query);
    return matcher.matches;
  };
  const who = matcherOf('"who" keys');
  assert.deepEqual([who('the keys'), who('who has the keys')], [false, true]);
  const release = matcherOf('release -docs');
  assert.deepEqual([release('write the release docs'), release('a release checklist')], [false, true]);
  const phrase = matcherOf('release -"release docs"');
  assert.deepEqual([phrase('write the release docs'), phrase('docs for the release')], [false, true], 'an excluded phrase is its words side by side');
  assert.deepEqual(engine.wordsMatcher('path:Projects keys'), { refused: 'tag:, path: and file: narrow a search of notes, not a task query; give the folder argument instead' });
  assert.deepEqual(engine.wordsMatcher('-docs'), { refused: 'the query only leaves words out; add the words the tasks are about' });
  assert.match((engine.wordsMatcher('the of and') as { refused: string }).refused, /no searchable words/);
  // A joined word is held by all its parts or whole, never by one part.
  const joined = matcherOf('release-docs');
  assert.deepEqual([joined('write the release docs'), joined('see release-docs'), joined('a release checklist'), joined('the docs folder')], [true, true, false, false]);
  const camel = matcherOf('getUserName');
  assert.deepEqual([camel('call get user name'), camel('rename the field name')], [true, false]);
  // Asking what is open or the newest asks for the tasks: those words need not be in them.
  for (const query of ['still open release', 'open tasks on release', 'latest release']) assert.ok(matcherOf(query)('write the release docs'), query);
  assert.ok(matcherOf("what's still open")('a window blind'), 'only asking: every task');
});
