import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenizer, detectLanguage, normalizeLanguage, noteLanguage, unionTokenizer, type Language } from '../../src/search/index.js';

/** Per language: inflected forms that must meet one token, and stop words that must go. */
const CASES: { language: Language; forms: string[]; stops: string[] }[] = [
  { language: 'pt', forms: ['estudos', 'estudar', 'estudando', 'estudo'], stops: ['não', 'para', 'uma', 'com'] },
  { language: 'pt', forms: ['informação', 'informações'], stops: [] },
  { language: 'es', forms: ['bibliotecas', 'biblioteca'], stops: ['para', 'los', 'porque'] },
  { language: 'fr', forms: ['chevaux', 'cheval'], stops: ['les', 'avec', 'dans'] },
  { language: 'de', forms: ['Häuser', 'Haus', 'Hauses'], stops: ['und', 'nicht', 'über'] },
  { language: 'it', forms: ['libri', 'libro'], stops: ['della', 'perché', 'sono'] },
  { language: 'nl', forms: ['boeken', 'boek'], stops: ['het', 'niet', 'zijn'] },
  { language: 'ru', forms: ['книги', 'книга', 'книгу'], stops: ['и', 'не', 'что'] },
];

test('each language stems its inflected forms to one token and drops its stop words', () => {
  for (const { language, forms, stops } of CASES) {
    const tokenize = createTokenizer({ language });
    const tokens = new Set(forms.map((form) => tokenize(form).join(' ')));
    assert.equal(tokens.size, 1, `${language}: ${forms.join(', ')} → ${[...tokens].join(' | ')}`);
    assert.notEqual([...tokens][0], '', `${language}: ${forms[0]} is a word`);
    for (const stop of stops) assert.deepEqual(tokenize(stop), [], `${language}: ${stop} is a stop word`);
    // Stems are folded like every token: a query typed with or without capitals meets them.
    assert.deepEqual(tokenize(forms[0]!.toUpperCase()), tokenize(forms[0]!));
  }
});

test('English is tokenized exactly as before languages were told apart', () => {
  const text = 'The Runners were RUNNING to the café; getUserName, iOS, INC-212 and 知识图谱';
  assert.deepEqual(createTokenizer({ language: 'en' })(text), createTokenizer()(text));
  assert.deepEqual(createTokenizer()('The Runners were RUNNING to the café'), ['runner', 'were', 'run', 'cafe']);
  // English stop words stay Lucene's 33: `para` and `com` are words in English text.
  assert.deepEqual(createTokenizer()('para com'), ['para', 'com']);
});

test("a union tokenizer yields every language's tokens, deduplicated; a word one language stops still counts through the others", () => {
  const union = unionTokenizer([createTokenizer({ language: 'en' }), createTokenizer({ language: 'pt' })]);
  assert.deepEqual(union('estudos'), ['estudo', 'estud']);
  assert.deepEqual(union('files'), ['file', 'fil']);
  assert.deepEqual(union('para'), ['para'], 'a Portuguese stop word is still an English word');
  assert.deepEqual(union('the'), ['the'], 'an English stop word is still a Portuguese word');
  assert.deepEqual(union.expand('estudos'), ['estudo', 'estud']);
  const english = createTokenizer();
  assert.equal(unionTokenizer([english]), english, 'one language: the tokenizer itself');
});

test('CJK runs keep their bigrams and gain the longer words Intl.Segmenter finds', () => {
  const tokenize = createTokenizer();
  const tokens = tokenize('中华人民共和国');
  for (const bigram of ['中华', '华人', '人民', '民共', '共和', '和国']) assert.ok(tokens.includes(bigram), bigram);
  assert.ok(tokens.includes('共和国'), `a three-character word: ${tokens.join(' ')}`);
  assert.ok(tokenize('コンピューターを使う').includes('コンピューター'));
  assert.deepEqual(tokenize('知识图谱'), ['知识', '识图', '图谱'], 'two-character words are bigrams already');
  assert.deepEqual(createTokenizer({ language: 'pt' })('知识图谱'), ['知识', '识图', '图谱'], 'any language segments CJK the same way');
});

test('detection: a function-word profile tells the language of running text; too little text tells none', () => {
  assert.equal(detectLanguage('The study of information and the way it is stored in the brain of the people who use it'), 'en');
  assert.equal(detectLanguage('Os estudos de informação e as informações estudadas não são para você, porque o tempo é curto'), 'pt');
  assert.equal(detectLanguage('El estudio de la información y las bibliotecas que tenemos en la ciudad, porque es muy importante'), 'es');
  assert.equal(detectLanguage('Le cheval et les chevaux sont dans le champ avec nous, mais il ne pleut pas'), 'fr');
  assert.equal(detectLanguage('Die Häuser und das Haus sind nicht mit den Kindern über den Fluss gegangen, aber wir sind hier'), 'de');
  assert.equal(detectLanguage('I libri della biblioteca sono per gli studenti che non hanno il tempo di leggere'), 'it');
  assert.equal(detectLanguage('De boeken van de bibliotheek zijn voor de studenten die het niet hebben gelezen'), 'nl');
  assert.equal(detectLanguage('Книги и книга в библиотеке, что он не читал, потому что у него нет времени'), 'ru');
  assert.equal(detectLanguage('O contexto computacional onde uma execução ocorre, limitado ao ciclo de vida dessa execução.'), 'pt', 'a short definition: its letters tell');
  assert.equal(detectLanguage('Atlas roadmap'), null);
  assert.equal(detectLanguage(''), null);
  assert.equal(detectLanguage('São Paulo trip: the flights, the hotel and the plan for the week in Brazil'), 'en', 'a name with ã does not make a note Portuguese');
});

test("a note's frontmatter lang or language wins over its text; an unknown one falls back to detection", () => {
  const english = 'The study of information and the way it is stored in the brain of the people who use it';
  assert.equal(noteLanguage({ frontmatter: { lang: 'pt' } }, english), 'pt');
  assert.equal(noteLanguage({ frontmatter: { language: 'pt-BR' } }, english), 'pt');
  assert.equal(noteLanguage({ frontmatter: { Language: 'x', lang: 'Deutsch' } }, english), 'de');
  assert.equal(noteLanguage({ frontmatter: { lang: 'klingon' } }, english), 'en');
  assert.equal(noteLanguage({ frontmatter: { lang: 42 } }, 'Os estudos de informação não são para você, porque o tempo é curto'), 'pt');
  assert.equal(noteLanguage({ frontmatter: { lang: ['pt'] } }, english), 'en', 'a list is not a language name');
  assert.equal(noteLanguage({ frontmatter: null }, 'Atlas'), 'en', 'nothing to tell: English');
  assert.equal(normalizeLanguage('  PT_br '), 'pt');
  assert.equal(normalizeLanguage('русский'), 'ru');
  assert.equal(normalizeLanguage('zz'), null);
});

test('bad input never throws: mixed scripts, lone marks, 10,000 characters', () => {
  const tokenize = unionTokenizer(['en', 'pt', 'ru', 'de'].map((language) => createTokenizer({ language: language as Language })));
  const mixed = 'Atlas项目 книги-books Häuser_ação ÉCOLE ́ 𝒳𝒴 açãó '.repeat(400);
  assert.ok(tokenize(mixed).length > 0);
  assert.ok(detectLanguage(mixed) !== undefined);
  assert.deepEqual(tokenize('́'), []);
});
