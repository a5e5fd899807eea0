import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { runIndex } from '../../src/index/index.js';
import { lexicalExtension, loadLanguages, VaultSearch } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

/** A vault in English and Portuguese: each note's words also occur, inflected, in the other's language. */
const FILES: Record<string, string> = {
  'Estudos de linguística.md':
    '# Estudos de linguística\nAs línguas românicas foram estudadas por gerações de filólogos. ' + 'Não é fácil comparar as gramáticas, porque cada língua tem as suas próprias regras e as informações são muitas.\n',
  'Cozinha.md': '---\nlang: pt\n---\n# Cozinha\nReceitas de bacalhau e das sobremesas que a avó cozinhava aos domingos.\n',
  'Language studies.md': '# Language studies\nThe Romance languages were studied by generations of philologists. ' + 'It is not easy to compare the grammars, because each language has its own rules.\n',
  'Kitchen.md': '# Kitchen\nRecipes for the cod dishes and the desserts that grandmother cooked on Sundays.\n',
  'Mixed.md': '# Mixed\nAtlas项目 книги 東京都庁 and a note in three scripts.\n',
};

function indexed(t: TestContext, files: Record<string, string> = FILES) {
  const vault = makeVault(t, files);
  return { vault, ...indexState(t, vault) };
}

const paths = (engine: VaultSearch, query: string): string[] => engine.search({ query, mode: 'keyword' }).results.map((hit) => hit.path);

test('a vault in two languages: a query in either finds the notes in it, inflected forms included', (t) => {
  const { db } = indexed(t);
  const languages = db.prepare('SELECT n.path, l.language FROM note_languages l JOIN notes n ON n.id = l.note_id ORDER BY n.path').all();
  assert.deepEqual(languages, [
    { path: 'Cozinha.md', language: 'pt' },
    { path: 'Estudos de linguística.md', language: 'pt' },
    { path: 'Kitchen.md', language: 'en' },
    { path: 'Language studies.md', language: 'en' },
    { path: 'Mixed.md', language: 'en' },
  ]);
  assert.deepEqual(loadLanguages(db), ['en', 'pt']);
  const engine = VaultSearch.open(db, '/unused');
  // Portuguese Snowball meets `estudei`/`estudadas`, `gramática`/`gramáticas`, `cozinhar`/`cozinhava`: Porter2 did not.
  assert.equal(paths(engine, 'estudei gramática')[0], 'Estudos de linguística.md');
  assert.equal(paths(engine, 'cozinhar sobremesa')[0], 'Cozinha.md');
  assert.equal(paths(engine, 'como comparar gramáticas?')[0], 'Estudos de linguística.md');
  assert.equal(paths(engine, 'studying grammar')[0], 'Language studies.md');
  assert.equal(paths(engine, 'cooking desserts')[0], 'Kitchen.md');
  // A word Portuguese stops (`para`) is still English (`for`'s neighbour here is `recipes`).
  assert.equal(paths(engine, 'recipes for cod')[0], 'Kitchen.md');
  assert.deepEqual(paths(engine, '项目'), ['Mixed.md']);
  assert.deepEqual(paths(engine, 'книги'), ['Mixed.md'], 'Cyrillic in an English note is still found by its exact word');
});

test('bad queries on a two-language vault: 10,000 characters, mixed scripts, only stop words', (t) => {
  const { db } = indexed(t);
  const engine = VaultSearch.open(db, '/unused');
  const long = engine.search({ query: 'estudos de linguística Atlas项目 книги '.repeat(300).slice(0, 10_000), mode: 'keyword' });
  assert.ok(long.results.length > 0);
  assert.ok(engine.search({ query: 'Häuser ação 東京 книга', mode: 'keyword' }).results.length > 0);
  assert.deepEqual(engine.search({ query: 'não para com', mode: 'keyword' }).results, [], 'stop words of both languages match no note');
});

test('an index built before languages were told apart is re-derived on the next index', (t) => {
  const { vault, db, index } = indexed(t);
  // The state an older engram left: every note read as English, no language table, and the
  // extension version it wrote (the tokenizer signature before languages).
  runIndex(db, { root: vault.root, extensions: [lexicalExtension({ language: 'en' })] });
  db.exec('DROP TABLE note_languages');
  const oldSignature = JSON.stringify({ v: 2, stem: true, compounds: true, stop: [...englishStopWords()].sort() });
  db.prepare("UPDATE meta SET value = ? WHERE key = 'extension:search'").run(`1:title,aliases,headings,tags,body:${oldSignature}`);
  const before = VaultSearch.open(db, '/unused');
  assert.deepEqual(loadLanguages(db), ['en'], 'no language table: everything is English, as it was indexed');
  assert.ok(!paths(before, 'estudei').includes('Estudos de linguística.md'), 'English stems kept `estudei` apart from `estudadas`');

  const run = index();
  assert.equal(run.full, true, 'the changed extension version re-derives every note');
  assert.deepEqual(loadLanguages(db), ['en', 'pt']);
  const after = VaultSearch.open(db, '/unused');
  assert.equal(paths(after, 'estudei')[0], 'Estudos de linguística.md');
});

function englishStopWords(): string[] {
  return ['a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with'];
}

test("a word's spellings in the vault's languages share its document frequency: a note read in the other language is not made rare by it", (t) => {
  const pt = (body: string) => `---\nlang: pt\n---\n${body}\n`;
  const { db } = indexed(t, {
    'Teoria.md': pt('# Teoria\nAs estruturas do sistema são permanentes: nenhuma estrutura muda depois de criada.'),
    'Aula 1.md': pt('# Aula 1\nA estrutura da aula e os exercícios da semana.'),
    'Aula 2.md': pt('# Aula 2\nUma estrutura nova para o caderno de exercícios.'),
    'Aula 3.md': pt('# Aula 3\nRevisão da estrutura dos capítulos e leituras.'),
    // English prose quoting the Portuguese word once: stemmed as English, `estrutura` stays whole.
    'Reading list.md': '# Reading list\nThe permanent collection, the estrutura chapter and the notes on the system for the class.\n',
    'Kitchen.md': FILES['Kitchen.md']!,
  });
  const engine = VaultSearch.open(db, '/unused');
  const response = engine.search({ query: 'as estruturas do sistema são permanentes?', mode: 'keyword', explain: true });
  assert.equal(response.results[0]!.path, 'Teoria.md');
  const reading = response.results.find((hit) => hit.path === 'Reading list.md')!;
  const estrutura = reading.explain!.find((part) => part.term === 'estrutura')!;
  assert.equal(estrutura.df, 5, "the English spelling ranks with the word's document frequency, both spellings' notes");
});

test("a word one of the vault's languages stops counts as in every note of that language: English `and` is not rare for being indexed only by Portuguese notes", (t) => {
  const pt = (body: string) => `---\nlang: pt\n---\n${body}\n`;
  const { db } = indexed(t, {
    // A Portuguese note quoting an English title: Portuguese indexes `and`, English stops it.
    'Roteiro.md': pt('# Roteiro\nA viagem de junho, ver [[Lisbon and Paris trip]], com a lista de restaurantes e o mapa.'),
    'Jantar.md': pt('# Jantar\nO jantar de domingo com a família e os amigos da escola.'),
    'Sourdough.md': '# Sourdough\nFlour, water and salt: the salt goes in after the autolyse.\n',
    'Jollof.md': '# Jollof rice\nTomatoes, onions and a scotch bonnet pepper, blended smooth.\n',
    'Bike.md': '# Bike\nChain, tyres and brakes: check them before every ride.\n',
  });
  const engine = VaultSearch.open(db, '/unused');
  const response = engine.search({ query: 'salt and pepper', mode: 'keyword', explain: true });
  const top = response.results.slice(0, 2).map((hit) => hit.path);
  assert.deepEqual(top.toSorted(), ['Jollof.md', 'Sourdough.md'], response.results.map((hit) => hit.path).join(', '));
  const and = response.results.find((hit) => hit.path === 'Roteiro.md')?.explain?.find((part) => part.term === 'and');
  assert.equal(and?.df, 1 + 3, 'its one Portuguese note, and the three English notes that write it unindexed');
  // A query of only English stop words finds no Portuguese note by chance, and says why.
  const stops = engine.search({ query: 'the of and', mode: 'keyword' });
  assert.deepEqual(stops.results, []);
  assert.ok(
    stops.notices.some((notice) => notice.startsWith('the query has only stop words')),
    stops.notices.join(' | '),
  );
  assert.deepEqual(
    engine.search({ query: '"and"', mode: 'keyword' }).results.map((hit) => hit.path),
    ['Roteiro.md'],
    'quoted, the word is searched as written',
  );
});

test("only the query's own language pools its stop words: German stops `war`, which an English query means", (t) => {
  const de = (body: string) => `---\nlang: de\n---\n${body}\n`;
  const { db } = indexed(t, {
    'Nuremberg.md': '# Nuremberg\nThe war crimes trial opened in November 1945.\n',
    'City.md': '# City\nCrimes of the city: petty theft and fraud at the docks.\n',
    'Tag.md': de('# Tag\nEs war ein schöner Tag, und wir waren am See.'),
    'Reise.md': de('# Reise\nDie Reise war lang, aber sie war schön.'),
    'Haus.md': de('# Haus\nDas Haus war alt und das Dach war undicht.'),
  });
  const engine = VaultSearch.open(db, '/unused');
  const response = engine.search({ query: 'the war crimes', mode: 'keyword', explain: true });
  assert.equal(response.results[0]!.path, 'Nuremberg.md', response.results.map((hit) => hit.path).join(', '));
  assert.equal(response.results[0]!.explain!.find((part) => part.term === 'war')?.df, 1, 'not pooled with the German notes');
});

test('in an English vault a German function word opens no question: "war crimes" searches `war`', (t) => {
  const { db } = indexed(t, {
    'Nuremberg.md': '# Nuremberg\nThe war crimes trial opened in November 1945.\n',
    'City.md': '# City\nCrimes of the city: petty theft and fraud at the docks.\n',
    'Docks.md': '# Docks\nThe docks were busy in November.\n',
  });
  assert.deepEqual(loadLanguages(db), ['en']);
  const engine = VaultSearch.open(db, '/unused');
  const response = engine.search({ query: 'war crimes', mode: 'keyword', explain: true });
  assert.equal(response.results[0]!.path, 'Nuremberg.md', response.results.map((hit) => hit.path).join(', '));
  assert.ok(
    response.results[0]!.explain!.some((part) => part.term === 'war'),
    'war is ranked',
  );
});

test('a query left with only its own stop words searches none: Portuguese `not` (of `notas`) is no match for English "not a secret"', (t) => {
  const { db } = indexed(t, { ...FILES, 'Aulas.md': '---\nlang: pt\n---\n# Aulas\nAs notas da aula de hoje, e as notas de ontem.\n' });
  const engine = VaultSearch.open(db, '/unused');
  assert.deepEqual(paths(engine, 'notas'), ['Aulas.md'], 'the Portuguese spelling is indexed');
  for (const query of ['not a secret', 'not-a-secret']) {
    const response = engine.search({ query, mode: 'keyword' });
    assert.deepEqual(
      response.results.map((hit) => hit.path),
      [],
      query,
    );
    assert.match(response.notices.join('\n'), /no note contains "(secret|not-a-secret)"/, query);
  }
  // A word of content beside them is searched as before.
  assert.equal(paths(engine, 'not easy to compare')[0], 'Language studies.md');
});
