import assert from 'node:assert/strict';
import { test } from 'node:test';
import { correctQuery, nearestWritten, oneEditSpellings, SpellingIndex, WrittenWords, type WrittenNear } from '../../src/search/spelling.js';
import { boundedDistance } from '../../src/search/edit-distance.js';

test('edit distance: insertions, deletions, substitutions and neighbour swaps cost one; past the limit it stops', () => {
  assert.equal(boundedDistance('festiv', 'festiv', 2), 0);
  assert.equal(boundedDistance('fesetiv', 'festiv', 2), 1);
  assert.equal(boundedDistance('grpah', 'graph', 2), 1);
  assert.equal(boundedDistance('canv', 'canva', 2), 1);
  assert.equal(boundedDistance('kitten', 'sitting', 3), 3);
  assert.equal(boundedDistance('kitten', 'sitting', 1), 2, 'limit + 1 once the limit is passed');
  assert.equal(boundedDistance('ab', 'abcdef', 2), 3, 'lengths too far apart');
});

function index(frequencies: Record<string, number>, documentCount = 100): SpellingIndex {
  return new SpellingIndex(Object.keys(frequencies), (term) => frequencies[term] ?? 0, documentCount);
}

test('a misspelt term becomes the nearest indexed term, the commonest of the nearest', () => {
  const spelling = index({ festiv: 5, graph: 20, grape: 3, canva: 8, can: 90, log: 30, lose: 7, bookmark: 4 });
  assert.deepEqual(spelling.correct('fesetiv'), { from: 'fesetiv', to: 'festiv', edits: 1 });
  assert.equal(spelling.correct('grpah')?.to, 'graph', 'a swap is one edit');
  assert.equal(spelling.correct('canv')?.to, 'canva', 'a term in most notes is never a correction');
  assert.equal(spelling.correct('loge')?.to, 'log', 'equally near: the commoner (and a stem one letter shorter)');
  assert.equal(spelling.correct('bokmakr')?.to, undefined, 'two edits away from a seven-letter term: too far');
  assert.equal(spelling.correct('bookmakrs')?.to, 'bookmark', 'two edits allowed from eight letters');
  assert.equal(index({ canva: 2, cave: 9, cant: 9 }).correct('canv')?.to, 'canva', 'a word cut short: the term it begins wins over commoner ones');
});

test('short terms, numbers and far terms are never corrected', () => {
  const spelling = index({ graph: 20, 2026: 9, ab12: 3 });
  assert.equal(spelling.correct('grp'), null, 'three letters');
  assert.equal(spelling.correct('2027'), null, 'a number');
  assert.equal(spelling.correct('ab13'), null, 'not letters');
  assert.equal(spelling.correct('zzzzzz'), null, 'nothing near');
  assert.equal(index({}).correct('graph'), null, 'an empty vault');
  // The first letter may change: an English query in a Portuguese vault (`phrenology` → `frenolog`).
  assert.equal(index({ frenolog: 2 }).correct('phrenolog')?.to, 'frenolog');
});

test('a query corrects only words none of whose terms the vault knows, and never stop or function words', () => {
  const spelling = index({ festiv: 5, pride: 3, what: 40, whet: 4, sync: 9, obsidian: 30 });
  const known = new Set(['pride', 'sync', 'obsidian']);
  const vault = { isKnown: (term: string) => known.has(term), isStopWord: (word: string) => word === 'that' };
  const query = (words: string[], content: string[]) => ({ words, content, wordOf: new Map(content.map((term) => [term, words.findIndex((word) => word.toLowerCase().startsWith(term.slice(0, 3)))])) });
  assert.deepEqual(correctQuery(query(['pride', 'fesetival'], ['pride', 'fesetiv']), vault, spelling), [{ word: 'fesetival', from: 'fesetiv', to: 'festiv', edits: 1 }]);
  assert.deepEqual(correctQuery(query(['Obsidian', 'Sync'], ['obsidian', 'sync']), vault, spelling), [], 'all known: nothing to do');
  assert.deepEqual(correctQuery(query(['that'], ['that']), vault, spelling), [], 'a stop word of some language');
  assert.deepEqual(correctQuery(query(['where'], ['wher']), vault, spelling), [], 'a function word of some language');
  // A word whose known token an earlier word yields first ("queries query": `queri` is both's
  // English stem, `query` the second's other spelling) is known too.
  const twice = {
    words: ['queries', 'query'],
    content: ['queri', 'query'],
    wordOf: new Map([
      ['queri', 0],
      ['query', 1],
    ]),
    termWords: new Map([
      ['queri', [0, 1]],
      ['query', [1]],
    ]),
  };
  const queri = index({ queri: 20, quer: 30 });
  const knowsQueri = { isKnown: (term: string) => term === 'queri', isStopWord: () => false };
  assert.deepEqual(correctQuery(twice, knowsQueri, queri), []);
  assert.equal(correctQuery({ ...twice, termWords: undefined }, knowsQueri, queri).length, 1, 'read by its first word only, the second was "misspelt"');
  // A word written twice is one correction.
  const harbor = index({ harbor: 9 });
  const twiceMisspelt = { words: ['harbr', 'harbr'], content: ['harbr'], wordOf: new Map([['harbr', 0]]), termWords: new Map([['harbr', [0, 1]]]) };
  assert.equal(correctQuery(twiceMisspelt, { isKnown: (term: string) => term === 'harbor', isStopWord: () => false }, harbor).length, 1);
  // A function word of another language than the vault's is a word like any: English "war" (German `war`).
  const war = index({ war: 6 });
  const english = { isKnown: (term: string) => term === 'war', isStopWord: () => false, isFunctionWord: (word: string) => ['your', 'the'].includes(word) };
  assert.deepEqual(
    correctQuery(query(['warr'], ['warr']), english, war).map(({ to }) => to),
    ['war'],
  );
  // Nor is a word corrected to a function word some language indexes: "four" is no misspelt "your"; the next nearest word is taken.
  const pronouns = index({ your: 50, tour: 2 });
  const knowsAll = { isKnown: (term: string) => term !== 'four', isStopWord: () => false };
  assert.deepEqual(
    correctQuery(query(['four'], ['four']), knowsAll, pronouns).map(({ to }) => to),
    ['tour'],
  );
});

test("a correction must share a note with the query's other words: the nearest that does, else none", () => {
  // `china` is commoner than `chain`, and as near to `chian`; only `chain` is in a note beside `bike`.
  const spelling = index({ china: 9, chain: 3, bike: 5, stat: 6, star: 4 });
  const notes = [
    ['china', 'trip'],
    ['bike', 'chain'],
    ['stat', 'report'],
  ];
  const vault = {
    isKnown: (term: string) => notes.some((note) => note.includes(term)),
    isStopWord: () => false,
    contextOf: (others: readonly string[]) => (candidate: string) => notes.some((note) => note.includes(candidate) && others.some((other) => note.includes(other))),
  };
  const query = (words: string[]) => ({ words, content: words, wordOf: new Map(words.map((word, i) => [word, i])) });
  assert.deepEqual(correctQuery(query(['bike', 'chian']), vault, spelling), [{ word: 'chian', from: 'chian', to: 'chain', edits: 1 }]);
  assert.deepEqual(correctQuery(query(['bike', 'starr']), vault, spelling), [], 'no near term shares a note with `bike`: the word is left out, not guessed');
  assert.equal(correctQuery(query(['chian']), vault, spelling)[0]?.to, 'china', 'nothing else to go by: the commoner');
  assert.equal(correctQuery(query(['bike', 'chian']), { ...vault, contextOf: undefined }, spelling)[0]?.to, 'china', 'without a context check, as before');
});

test("a contraction's stub and a word some language reads as a stop word are no misspellings", () => {
  const spelling = index({ area: 29, hand: 22, what: 40, wont: 3 });
  const vault = { isKnown: () => false, isStopWord: (word: string) => word === 'that' };
  const query = (word: string, term: string) => ({ words: [word], content: [term], wordOf: new Map([[term, 0]]) });
  // Each is one edit from an indexed term, and was searched as it: `aren't` as `area`.
  assert.equal(spelling.correct('aren')?.to, 'area');
  assert.deepEqual(correctQuery(query("aren't", 'aren'), vault, spelling), []);
  assert.deepEqual(correctQuery(query('hadn\u2019t', 'hadn'), vault, spelling), [], 'a typographic apostrophe');
  // `that's` is the term `that` to a language that does not stop it (Portuguese), and English stops `that`.
  assert.deepEqual(correctQuery(query("that's", 'that'), vault, spelling), []);
  // Without the apostrophe it is a word like any other.
  assert.deepEqual(correctQuery(query('aren', 'aren'), vault, spelling), [{ word: 'aren', from: 'aren', to: 'area', edits: 1 }]);
});

test('the spellings one edit from a word: a letter out, two swapped, one changed or put in', () => {
  const near = oneEditSpellings('chnage');
  for (const spelling of ['change', 'chage', 'chnagee', 'chnago', 'xchnage']) assert.ok(near.has(spelling), spelling);
  assert.ok(!near.has('chnage'), 'not the word itself');
  assert.ok(!near.has('chang'), 'two edits');
  // 6 out, 5 swapped, 33 × 7 put in, 33 × 6 changed (a–z and the Latin letters folding keeps: ß, ø, æ …), less the repeats.
  assert.ok(near.size > 380 && near.size < 6 + 5 + 33 * 13, String(near.size));
  assert.ok(oneEditSpellings('вчера').has('вечра'), 'Cyrillic letters for a Cyrillic word');
  assert.ok(oneEditSpellings('ação').has('açoã'), "another script's word: its own letters");
  assert.ok(oneEditSpellings('straßenbaun').has('straßenbahn'), 'a Latin word with a letter beyond a–z still gets the alphabet');
  assert.ok(oneEditSpellings('καλημρα').has('καλημερα'), 'Greek letters for a Greek word');
  assert.ok(oneEditSpellings('київ').has('киів'), 'Ukrainian і among the Cyrillic letters');
});

/** A vault whose notes are `texts`, each word indexed as the term `stems` gives it (or itself). */
function writtenVault(texts: readonly string[], stems: Record<string, string>, frequencies: Record<string, number>, documentCount = 100): WrittenNear {
  const words = new WrittenWords();
  words.update(
    texts.map((_, i) => ({ path: `${i}.md`, stamp: '1' })),
    (path) => texts[parseInt(path, 10)] ?? null,
  );
  return {
    spellingOf: (folded) => words.spellingOf(folded),
    termsOf: (spelling) => [stems[spelling] ?? spelling],
    frequencyOf: (term) => frequencies[term] ?? 0,
    maxFrequency: documentCount / 2,
  };
}

test('a slip the stemmer reads is searched as the word one edit away that some note writes', () => {
  const stems = { change: 'chang', changes: 'chang', attachments: 'attach', core: 'core', chance: 'chanc', válidas: 'valid' };
  const texts = ['Change where new file-attachments are saved.', 'CHANGES and chance', 'The core.', 'Datas válidas']; // `pagings` → `page`: written by none
  const vault = writtenVault(texts, { ...stems, pagings: 'page' }, { chang: 12, attach: 5, page: 40, core: 9, chanc: 3, valid: 2 });
  assert.deepEqual(nearestWritten('chnage', vault), { from: 'chnage', to: 'chang', edits: 1, spelled: 'change' });
  assert.equal(nearestWritten('Attachmnets', vault)?.spelled, 'attachments', "a swap, in any case, found in a compound's part");
  assert.deepEqual(nearestWritten('vlaidas', vault), { from: 'vlaidas', to: 'valid', edits: 1, spelled: 'válidas' }, "typed without the accent: the note's own spelling is stemmed");
  assert.equal(nearestWritten('chanqe', vault)?.to, 'chang', 'two words one edit away: the commoner term');
  assert.equal(nearestWritten('chanqe', vault, (term) => term !== 'chang')?.to, 'chanc', 'the query context turns the commoner down');
  // `paginas` is one letter from `pagings`, which a stemmer makes `page`, but no note writes it.
  assert.equal(nearestWritten('paginas', vault), null);
  assert.equal(nearestWritten('cofre', vault), null, 'five letters: `core` is one out, and left alone');
  assert.equal(nearestWritten('chnage', writtenVault(texts, stems, { chang: 60 })), null, 'a term in most notes ranks nothing');
  assert.equal(nearestWritten('chn4ge', vault), null, 'not letters');
  assert.equal(nearestWritten('a'.repeat(10_000), vault), null, 'no slip: too long to be one word');
  assert.equal(nearestWritten('変更する場所を', writtenVault(['変更する場所'], {}, { 変更する場所: 1 })), null, 'no alphabet: a run of Japanese text');
});

test('a query reads a word as a written word one edit away only when no term is near', () => {
  const vault = {
    isKnown: (term: string) => term === 'folder',
    isStopWord: () => false,
    written: (word: string) => nearestWritten(word, writtenVault(['change'], { change: 'chang' }, { chang: 3 })),
  };
  const query = {
    words: ['chnage', 'folder'],
    content: ['chnage', 'folder'],
    wordOf: new Map([
      ['chnage', 0],
      ['folder', 1],
    ]),
  };
  assert.deepEqual(correctQuery(query, vault, index({ folder: 4 })), [{ word: 'chnage', from: 'chnage', to: 'chang', edits: 1, spelled: 'change' }]);
  assert.deepEqual(correctQuery(query, vault, index({ folder: 4, chang: 3, chnag: 1 })), [{ word: 'chnage', from: 'chnage', to: 'chnag', edits: 1 }], 'a near term first');
});

test("the written-word list counts the notes writing each word: a changed, gone or unreadable note's words go with it", () => {
  const words = new WrittenWords();
  const texts = new Map([
    ['a.md', 'Attachments live here. Customise them.'],
    ['b.md', 'Customise the hotkeys.'],
  ]);
  const textOf = (path: string) => texts.get(path) ?? null;
  words.update(
    [
      { path: 'a.md', stamp: '1' },
      { path: 'b.md', stamp: '1' },
    ],
    textOf,
  );
  assert.deepEqual([words.spellingOf('attachments'), words.spellingOf('customise'), words.notesRead], ['attachments', 'customise', 2]);
  texts.delete('b.md');
  words.update(
    [
      { path: 'a.md', stamp: '1' },
      { path: 'b.md', stamp: '2' },
    ],
    textOf,
  );
  assert.equal(words.spellingOf('customise'), 'customise', 'a.md still writes it');
  assert.equal(words.notesRead, 3, 'only the changed note is read');
  words.update([{ path: 'b.md', stamp: '2' }], textOf);
  assert.deepEqual([words.spellingOf('attachments'), words.spellingOf('customise')], [undefined, undefined], 'a.md is gone, b.md could not be read');
  texts.set('b.md', 'Customise again.');
  words.update([{ path: 'b.md', stamp: '2' }], textOf);
  assert.equal(words.spellingOf('customise'), 'customise', 'a note that could not be read is tried again, though its stamp is the same');
  assert.equal(words.notesRead, 5);
});

test('a word no note wrote any more takes the next spelling written; words no note writes are dropped once they pile up', () => {
  const words = new WrittenWords();
  const texts = new Map([['a.md', 'My résumé template.']]);
  const textOf = (path: string) => texts.get(path) ?? null;
  words.update([{ path: 'a.md', stamp: '1' }], textOf);
  assert.equal(words.spellingOf('resume'), 'résumé');
  texts.set('b.md', 'A resume outline.');
  words.update([{ path: 'b.md', stamp: '1' }], textOf);
  assert.equal(words.spellingOf('resume'), 'resume', "as a fresh read of b.md alone would spell it, not a.md's old form");

  // One note saved 400 times, 20 new words each time (an autosave while typing).
  const letters = (n: number) => 'qqq' + n.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 26)));
  for (let save = 0; save < 400; save++) {
    texts.set('draft.md', Array.from({ length: 20 }, (_, i) => letters(save * 20 + i)).join(' '));
    words.update(
      [
        { path: 'b.md', stamp: '1' },
        { path: 'draft.md', stamp: String(save) },
      ],
      textOf,
    );
  }
  assert.ok(words.held < 4096 + 100, `${words.held} words held`);
  assert.equal(words.spellingOf(letters(399 * 20 + 5)), letters(399 * 20 + 5), 'the last save is there');
  assert.equal(words.spellingOf(letters(5)), undefined, 'the first is not');
  assert.equal(words.spellingOf('resume'), 'resume', 'nor is any other note touched');
  assert.equal(words.spellingOf('outline'), 'outline');
});

test('a decomposed word (NFD, as macOS may paste it) is written as its composed form', () => {
  const words = new WrittenWords();
  words.update([{ path: 'a.md', stamp: '1' }], () => 'As regras válidas do curso.'.normalize('NFD'));
  assert.equal(words.spellingOf('validas'), 'válidas');
});
