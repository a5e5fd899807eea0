import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeQuery, createTokenizer, NameIndex, unionTokenizer, VaultSearch } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

const tokenize = createTokenizer();

test('a question loses its question and function words; content words stay', () => {
  const how = analyzeQuery('how do I embed a file', tokenize);
  assert.deepEqual(how.content, ['emb', 'file']);
  assert.deepEqual(how.ignored, ['how', 'do', 'i']);
  assert.equal(how.language, 'en');
  assert.deepEqual(analyzeQuery('What is a vault?', tokenize).content, ['vault']);
  assert.deepEqual(analyzeQuery('como instalar um plugin', tokenize).content, ['instalar', 'plugin']);
  assert.equal(analyzeQuery('como instalar um plugin', tokenize).language, 'pt');
  // Spanish `a` and `la` against Portuguese `a`: a tie had gone to Portuguese, which kept `la`.
  assert.equal(analyzeQuery('¿Cómo veo qué notas enlazan a la nota que tengo abierta?', tokenize).language, 'es');
});

test("an agent's long query is read sentence by sentence: the situation keeps its words, the ask loses its framing", () => {
  const long = analyzeQuery('The user is preparing a talk on Atlas. They want the cutover dates. Find my notes about the migration runbook; what did Priya decide?', tokenize);
  // "They want …" frames what they want, as "I want …" does.
  assert.deepEqual(long.content, tokenize('The user is preparing a talk on Atlas. cutover dates. migration runbook; Priya decide'));
  assert.equal(long.language, 'en');
  // One sentence: as before, a question loses its function words wherever they stand.
  assert.deepEqual(analyzeQuery('how do I embed a file in a note?', tokenize).content, tokenize('embed file note'));
  // A word's own dots do not end a sentence.
  assert.deepEqual(analyzeQuery('how do I install node.js', tokenize).content, tokenize('install node.js'));
});

test("in a vault of two languages a question drops its own language's stop words, which the other reads as terms", () => {
  const both = unionTokenizer([createTokenizer({ language: 'en' }), createTokenizer({ language: 'pt' })]);
  // Portuguese keeps `and` and `not` (`not` is its stem of `nota`): an English question must not search them.
  assert.ok(both('and not').length > 0);
  assert.deepEqual(analyzeQuery('who is our contact at Tessellate and how does she like to be reached?', both).content, both('contact Tessellate like reached'));
  assert.deepEqual(analyzeQuery('why is sync not working?', both).content, both('sync working'));
  // A statement keeps every word, as ever.
  assert.deepEqual(analyzeQuery('salt and pepper', both).content, both('salt and pepper'));
});

test('a query of only function words keeps them; statements and claims keep theirs', () => {
  assert.deepEqual(analyzeQuery('what is it', tokenize).content, ['what']);
  assert.deepEqual(analyzeQuery('how', tokenize).content, ['how']);
  assert.deepEqual(analyzeQuery('vitamin D does not prevent falls', tokenize).content, tokenize('vitamin D does not prevent falls'));
  // Only the detected language's list applies: Spanish `son` and `era` are English content.
  assert.deepEqual(analyzeQuery('who was the son of the era?', tokenize).content, ['son', 'era']);
  assert.deepEqual(analyzeQuery('', tokenize), { all: [], content: [], ignored: [], language: null, wordOf: new Map(), words: [], quoted: new Set(), quotedTerms: new Set(), termWords: new Map() });
});

test('a request loses its framing: the verb, its pronouns, and "my notes about", "everything on"', () => {
  const content = (query: string, tokens = tokenize) => analyzeQuery(query, tokens).content;
  assert.deepEqual(content('tell me about the Atlas project'), tokenize('Atlas project'));
  assert.deepEqual(content('show me my notes about sourdough'), tokenize('sourdough'));
  assert.deepEqual(content('find everything on Lisbon'), tokenize('Lisbon'));
  assert.deepEqual(content('summarize what I know about Tantivy'), tokenize('Tantivy'));
  assert.deepEqual(content('can you tell me about the Atlas migration?'), tokenize('Atlas migration'));
  assert.deepEqual(content('give me info on the staff engineer book'), tokenize('staff engineer book'));
  assert.equal(analyzeQuery('list my notes on Priya', tokenize).language, 'en');
  assert.deepEqual(content("I'm looking for my notes on knee rehab"), tokenize('knee rehab'));
  assert.deepEqual(content('where did I write about the Harbor project'), tokenize('Harbor project'));
  assert.deepEqual(content('how to write design docs'), tokenize('write design docs'), 'a verb before content is content');
  // Without a verb: a vault noun before a function word or a word of relation frames the ask.
  assert.deepEqual(content('notes related to the Lantern project'), tokenize('Lantern project'));
  assert.deepEqual(content('anything on crypto-shredding?'), tokenize('crypto-shredding'));
  assert.deepEqual(content('info about bike maintenance'), tokenize('bike maintenance'));
  const pt = unionTokenizer([createTokenizer({ language: 'pt' }), createTokenizer({ language: 'en' })]);
  assert.deepEqual(content('me fale sobre o projeto Harbor', pt), pt('projeto Harbor'));
  assert.deepEqual(content('mostre minhas notas sobre a viagem', pt), pt('viagem'));
});

test('what only looks like a request keeps every word: a first word that is content, a verb after the subject', () => {
  for (const query of [
    'list comprehension',
    'search operators to find notes by path or tag',
    'show hidden files',
    'find duplicates',
    'help center',
    'notes plugin settings',
    'related notes',
    'list of books to read',
    'help of the community',
  ]) {
    assert.deepEqual(analyzeQuery(query, tokenize).content, tokenize(query), query);
  }
  assert.ok(analyzeQuery('what does Jon tell Gina he will do?', tokenize).content.includes(tokenize('tell')[0]!));
  assert.deepEqual(analyzeQuery('tell me', tokenize).content, tokenize('tell me'), 'nothing else: kept');
  // The asker's own action is what a how-question asks about; asking the assistant is framing.
  assert.deepEqual(analyzeQuery('how do I pull a chunk of a note out?', tokenize).content, tokenize('pull chunk note out'));
  assert.deepEqual(analyzeQuery('how do I find my notes on sourdough?', tokenize).content, tokenize('sourdough'));
  // The object after a possessive is the thing acted on too, unless it is a word for notes.
  assert.deepEqual(analyzeQuery('how do I get my money back?', tokenize).content, tokenize('get money back'));
  assert.deepEqual(analyzeQuery('can we get the refund form?', tokenize).content, tokenize('get refund form'));
  assert.deepEqual(analyzeQuery('how do I find my old notes on sourdough?', tokenize).content, tokenize('old notes sourdough'), 'a word for notes a little further on: `find` frames');
  assert.deepEqual(analyzeQuery('how can I find my meeting notes about Harbor?', tokenize).content, tokenize('meeting notes harbor'));
  assert.deepEqual(analyzeQuery('how can we show hidden files?', tokenize).content, tokenize('show hidden files'));
  assert.deepEqual(analyzeQuery('can you show me the Atlas notes?', tokenize).content, tokenize('Atlas notes'));
  assert.deepEqual(analyzeQuery('I want my notes on sourdough', tokenize).content, tokenize('sourdough'));
});

test("a question's recently, lately, currently place it in the asker's time: left out, as question words are; a statement keeps them", () => {
  assert.deepEqual(analyzeQuery('What did Melanie paint recently?', tokenize).content, tokenize('Melanie paint'));
  assert.deepEqual(analyzeQuery('what am I currently reading', tokenize).content, tokenize('reading'));
  assert.deepEqual(analyzeQuery('o que li ultimamente?', tokenize).content, tokenize('li'));
  assert.deepEqual(analyzeQuery('recently deleted files', tokenize).content, tokenize('recently deleted files'), 'not a question: every word stays');
});

test("a question's hedges (likely, probably, maybe …) are the asker's guess, not the answer's words: left out; a statement keeps them", () => {
  assert.deepEqual(analyzeQuery('Would Caroline likely have Dr. Seuss books on her bookshelf?', tokenize).content, tokenize('Caroline Dr. Seuss books bookshelf'));
  assert.deepEqual(analyzeQuery('what would she probably study', tokenize).content, tokenize('study'));
  assert.deepEqual(analyzeQuery('qual ela provavelmente escolheria?', tokenize).content, tokenize('escolheria'));
  assert.deepEqual(analyzeQuery('likely causes of sync conflicts', tokenize).content, tokenize('likely causes of sync conflicts'), 'not a question: every word stays');
});

test('one function word of a language no note is in makes no question: German `war` or `die` opens an English query in an English vault', () => {
  const english = { languages: ['en'] };
  assert.deepEqual(analyzeQuery('war crimes', tokenize, english).content, tokenize('war crimes'));
  assert.deepEqual(analyzeQuery('die casting defects', tokenize, english).content, tokenize('die casting defects'));
  assert.equal(analyzeQuery('war crimes', tokenize, english).language, null);
  // Read with every language (no vault known), or in a vault with German notes, it is German.
  assert.deepEqual(analyzeQuery('war crimes', tokenize).content, tokenize('crimes'));
  assert.equal(analyzeQuery('war crimes', tokenize, { languages: ['en', 'de'] }).language, 'de');
  // Another language's question is read from two of its words: a Portuguese speaker asking of English notes.
  assert.equal(analyzeQuery('quais são as pendências?', tokenize, english).language, 'pt');
  // English questions are read in any vault: agents ask in English.
  assert.deepEqual(analyzeQuery('what is a vault', tokenize, { languages: ['pt'] }).content, tokenize('vault'));
  assert.deepEqual(analyzeQuery('wie funktioniert die Synchronisierung', tokenize, { languages: ['de'] }).content, tokenize('funktioniert Synchronisierung'));
});

test("a statement or an imperative loses only the asker's pronouns (my, we, your …); its other words stay, and I, me, us, mine too (a numeral, a country, a noun)", () => {
  assert.deepEqual(analyzeQuery('Stop my Archive folder from syncing to my phone', tokenize).content, tokenize('Stop Archive folder from syncing to phone'));
  assert.deepEqual(analyzeQuery('vitamin D does not prevent falls', tokenize).content, tokenize('vitamin D does not prevent falls'));
  assert.deepEqual(analyzeQuery('trip to the US with our team', tokenize).content, tokenize('trip to the US with team'));
  assert.deepEqual(analyzeQuery('my notes', tokenize).content, tokenize('notes'));
  assert.deepEqual(analyzeQuery('my', tokenize).content, tokenize('my'), 'nothing else: the pronoun is searched');
  for (const kept of ['gold mine', 'Moving To The US', 'World War I timeline', 'send me the notes']) assert.deepEqual(analyzeQuery(kept, tokenize).content, tokenize(kept), kept);
});

test('quantifiers (both, each, every, either, neither) are function words of a question', () => {
  assert.deepEqual(analyzeQuery('how do I create a note for each day', tokenize).content, tokenize('create note day'));
  assert.deepEqual(analyzeQuery('How do Jon and Gina both like to destress?', tokenize).content, tokenize('Jon and Gina like destress'));
  assert.deepEqual(analyzeQuery('each day a note', tokenize).content, tokenize('each day a note'), 'a statement keeps them');
});

test('how many, how much, how often, how far, what happens: part of the question, elsewhere content', () => {
  assert.deepEqual(analyzeQuery('what happens to my synced notes if my subscription runs out?', tokenize).content, tokenize('synced notes subscription runs out'));
  assert.deepEqual(analyzeQuery('what happened to John’s job in August 2023?', tokenize).content, tokenize('John’s job August 2023'));
  assert.deepEqual(analyzeQuery('bad things happen on deploy days', tokenize).content, tokenize('bad things happen on deploy days'));
  const many = analyzeQuery('How many children does Melanie have?', tokenize);
  assert.deepEqual(many.content, tokenize('children Melanie'));
  assert.ok(many.ignored.includes(tokenize('many')[0]!));
  assert.deepEqual(analyzeQuery('how often should I water the ficus', tokenize).content, tokenize('water ficus'));
  // Not after `how`: a word like any other.
  assert.deepEqual(analyzeQuery('what is the many-worlds interpretation?', tokenize).content, tokenize('many-worlds interpretation'));
  assert.deepEqual(analyzeQuery('much ado about nothing', tokenize).content, tokenize('much ado about nothing'));
  // `how long` stays: conversation logs answer it with the word itself ("for a long time").
  assert.ok(analyzeQuery('how long has Caroline painted?', tokenize).content.includes(tokenize('long')[0]!));
  // A query of nothing else keeps it.
  assert.deepEqual(analyzeQuery('how many', tokenize).content, tokenize('how many'));
});

test("according to, based on: where a question's answer comes from is not what it is about; the source stays", () => {
  assert.deepEqual(analyzeQuery('What do sunflowers represent according to Caroline?', tokenize).content, tokenize('sunflowers represent Caroline'));
  assert.deepEqual(analyzeQuery("Based on Tim's collections, what shop would he enjoy in New York?", tokenize).content, tokenize("Tim's collections shop enjoy New York"));
  assert.deepEqual(analyzeQuery('which deploys are based on the old runbook?', tokenize).content, tokenize('deploys old runbook'));
  // Not before its preposition, and not in a statement: a word like any other.
  assert.deepEqual(analyzeQuery('where is the team based?', tokenize).content, tokenize('team based'));
  assert.deepEqual(analyzeQuery('plant based recipes', tokenize).content, tokenize('plant based recipes'));
  assert.deepEqual(analyzeQuery('pricing based on usage', tokenize).content, tokenize('pricing based on usage'));
  // With no source after it, the phrase is what is asked; written as a name, it is a name.
  assert.deepEqual(analyzeQuery('who is the character based on?', tokenize).content, tokenize('character based'));
  assert.deepEqual(analyzeQuery('what did the According To Jim episode say?', tokenize).content, tokenize('According Jim episode say'));
});

test('a function word written as a name (a month, a person) is content; title case and `I` are not names', () => {
  // The modal `may` is a question word; the month is what the question is about.
  assert.deepEqual(analyzeQuery('What movie did Joanna watch on 1 May, 2022?', tokenize).content, tokenize('movie Joanna watch 1 May 2022'));
  assert.deepEqual(analyzeQuery('Who did Maria have dinner with on May 3?', tokenize).content, tokenize('Maria dinner May 3'));
  // First word, title case, `I`: capitals that say nothing.
  assert.deepEqual(analyzeQuery('May I embed a file?', tokenize).content, tokenize('embed file'));
  assert.deepEqual(analyzeQuery('How Do I Embed A File', tokenize).content, tokenize('embed file'));
  assert.deepEqual(analyzeQuery('what did I do with the car?', tokenize).content, tokenize('car'));
  // Contractions are function words with either apostrophe; `I’m` is no name.
  assert.deepEqual(analyzeQuery('what did I’m told it’s about?', tokenize).content, tokenize('told'));
  assert.deepEqual(analyzeQuery("where's the config that's broken?", tokenize).content, tokenize('config broken'));
  // German capitalizes its polite pronoun: grammar, not a name.
  assert.deepEqual(analyzeQuery('Wie kann ich Sie erreichen?', tokenize).content, tokenize('erreichen'));
});

test('NameIndex: an initial is matched but not needed to cover a name', () => {
  const names = new NameIndex(tokenize);
  names.add(0, 'Tomasz W');
  names.add(1, 'J. R. R. Tolkien');
  names.add(2, 'C');
  const shared = (query: string) => names.shared(analyzeQuery(query, tokenize).content, () => 1).map((hit) => [hit.doc, hit.terms.join(' '), +hit.score.toFixed(3)]);
  assert.deepEqual(shared('where is Tomasz based?'), [[0, 'tomasz', 1]], 'covered, as `Tomasz` is what the alias says');
  assert.deepEqual(shared('tomasz w'), [[0, 'tomasz w', 2]], 'the initial still adds its weight');
  assert.deepEqual(shared('books by Tolkien'), [[1, 'tolkien', 1]]);
  assert.deepEqual(shared('c'), [[2, 'c', 1]], 'a name of one letter is its own word, not an initial');
  assert.deepEqual(shared('w'), [], 'an initial alone covers nothing');
});

test("NameIndex: a covered name earns its words' full weight, a partly shared name its share", () => {
  const names = new NameIndex(tokenize);
  names.add(0, 'Embed files');
  names.add(1, 'Embed web pages');
  names.add(2, 'How Obsidian stores data');
  names.add(2, 'Data');
  const shared = (query: string) => names.shared(analyzeQuery(query, tokenize).content, () => 1).map((hit) => [hit.doc, hit.terms.join(' '), +hit.score.toFixed(3)]);
  assert.deepEqual(shared('how do I embed a file'), [
    [0, 'emb file', 2],
    [1, 'emb', 0.333],
  ]);
  assert.deepEqual(shared('where does obsidian store my data'), [[2, 'obsidian store data', 3]], 'the best name of a note');
  assert.deepEqual(shared('data'), [[2, 'data', 1]], 'the covered one-word name beats the longer name sharing it');
  assert.deepEqual(shared('embed'), [
    [0, 'emb', 0.5],
    [1, 'emb', 0.333],
  ]);
  assert.deepEqual(shared('sync'), []);
  // Rare words weigh more: half of a name of rare words can beat all of a name of common ones.
  const idf = (term: string) => (term === 'emb' ? 4 : 1);
  assert.deepEqual(
    names.shared(['emb'], idf).map((hit) => +hit.score.toFixed(3)),
    [2, 1.333],
  );
});

test("NameIndex: a name's word spelled two ways by the vault's languages counts once; pictographs are decoration", () => {
  const union = unionTokenizer([createTokenizer({ language: 'en' }), createTokenizer({ language: 'pt' })]);
  const names = new NameIndex(union);
  names.add(0, '🕰️ Ocasionalismo de Malebranche');
  const shared = (query: string) => names.shared(analyzeQuery(query, union).content, () => 1).map((hit) => [hit.doc, +hit.score.toFixed(3)]);
  // Two words, one shared: half the name (not a quarter: `ocasionalismo`/`ocasional` and the clock are not words of their own).
  assert.deepEqual(shared('Malebranche'), [[0, 0.5]]);
  // Both of the word's spellings shared: the word once, at the heavier weight; `de` (stopped by
  // Portuguese) is not needed to cover the name, and adds its weight when shared, as an initial.
  assert.deepEqual(shared('ocasionalismo Malebranche'), [[0, 2]]);
  assert.deepEqual(shared('ocasionalismo de Malebranche'), [[0, 3]]);
});

test('a question finds the note named for it above notes that repeat its function words', (t) => {
  const vault = makeVault(t, {
    'Embed files.md': '# Embed files\nYou can embed a file in a note with an exclamation mark before a link.\n',
    'Sync FAQ.md': `# Sync FAQ\n${'How do I sync? How do I pay? I do not know how. '.repeat(20)}A file is a file.\n`,
    'Refunds.md': `# Refunds\n${'How do I get a refund? I do. '.repeat(10)}\n`,
    'Devices.md': '# Devices\niOS, iPadOS and macOS apps: I install them from the store.\n',
  });
  const { db, root } = indexState(t, vault);
  const engine = VaultSearch.open(db, root);
  const response = engine.search({ query: 'how do I embed a file', explain: true });
  assert.equal(response.results[0]!.path, 'Embed files.md');
  assert.deepEqual(response.analysis, { terms: ['emb', 'file'], ignored: ['how', 'do', 'i'], language: 'en', corrected: [], written: { emb: 'embed' } });
  assert.deepEqual(
    response.results[0]!.boosts?.filter((boost) => boost.kind === 'name').map((boost) => boost.terms.join(' ')),
    ['emb file'],
  );
  assert.ok(!response.results.some((hit) => hit.path === 'Refunds.md'), 'function words alone match nothing');
  assert.deepEqual(
    engine.search({ query: 'ios' }).results.map((hit) => hit.path),
    ['Devices.md'],
  );
});

test('a query that is a note path (as copied from a result or a link) puts that note first', (t) => {
  const vault = makeVault(t, {
    'Projects/Atlas/Overview.md': '# Atlas — Search Index Migration\nMove search off the old cluster.\n',
    'Projects/Lantern/Lantern overview.md': '# Lantern overview\nProjects overview: Lantern, Atlas, Atlas again, projects and more projects.\n',
    'Projects/Atlas/Migration plan.md': '# Atlas migration plan\nThe plan, step by step.\n',
  });
  const { db, root } = indexState(t, vault);
  const engine = VaultSearch.open(db, root);
  for (const query of ['Projects/Atlas/Overview.md', 'projects/atlas/overview', '[[Projects/Atlas/Overview|the overview]]', 'Atlas/Overview#Goals']) {
    const first = engine.search({ query, mode: 'keyword' }).results[0]!;
    assert.deepEqual([first.path, first.lanes.name], ['Projects/Atlas/Overview.md', { match: 'path' }], query);
  }
  assert.equal(engine.search({ query: 'CI/CD overview', mode: 'keyword' }).results[0]!.lanes.name, undefined, 'a slash that names no path is text');
});
