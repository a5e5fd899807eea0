import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../bench/generate-vault.js';
import { createTokenizer, notePositions, passageEvidence, passageScorer, scoreNotes, unionTokenizer, VaultSearch, type NotePositions, type Tokenizer } from '../../src/search/index.js';
import { idMask } from '../../src/search/positions.js';
import { NoteTexts } from '../../src/search/note-texts.js';
import { parseNote } from '../../src/vault/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

const english = createTokenizer();
const union = unionTokenizer([createTokenizer({ language: 'en' }), createTokenizer({ language: 'pt' })]);

/**
 * Words that take every path of the probe scan: plain words and their stems, Porter2's irregular
 * stems whose probe is not in the word (`dying` → `die`, `skies` → `sky`) alone in a chunk, next
 * to another probe, or next to a non-ASCII character; compounds and camelCase, accents (folded
 * and Portuguese stems), CJK bigrams, punctuation around words, code, a possessive.
 */
const WORDS = [
  'atlas',
  'Atlas',
  'atlases',
  'dying',
  'Dying,',
  'die',
  'diet',
  'skies',
  'sky',
  'lying',
  '(tying)',
  'sky/dying',
  'cat',
  'catalog',
  'dying—cat',
  '“skies”',
  'dying/diet',
  'getUserName',
  'user',
  'INC-212',
  'inc',
  '知识图谱',
  '图谱',
  'the',
  'review',
  'reviewing',
  'café',
  'Café',
  'ações',
  'informação',
  'informações',
  'estudos',
  'estudar',
  'naïve',
  '42',
  '`const`',
  'x',
  "Maya's",
  "don't",
  'e-mail',
  'v1.2',
  '😀atlas',
];

function randomNote(random: () => number): string {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const words = () => Array.from({ length: Math.floor(random() * 9) }, pick).join(random() < 0.8 ? ' ' : '\t');
  const lines: string[] = [];
  if (random() < 0.3) lines.push('---', `title: ${words()}`, `tags: [${pick()}]`, `summary: ${words()}`, '---');
  for (let n = 0, count = 1 + Math.floor(random() * 30); n < count; n++) {
    const kind = random();
    if (kind < 0.05) lines.push('```ts', `const ${pick()} = "${words()}";`, '```');
    else lines.push(kind < 0.2 ? `${'#'.repeat(1 + Math.floor(random() * 3))} ${words()}` : kind < 0.35 ? `- [ ] ${words()}` : kind < 0.4 ? '' : kind < 0.45 ? `> ${words()}` : words());
  }
  return lines.join(random() < 0.9 ? '\n' : '\r\n');
}

/** The scorer's view of a passage: everything but the block, which is named by its key. */
function shown(passage: ReturnType<ReturnType<typeof passageScorer>>): unknown {
  return { ...passage, block: passage.block?.key ?? null };
}

for (const [name, tokenize] of [
  ['English', english],
  ['English and Portuguese', union],
] as [string, Tokenizer][]) {
  test(`property (${name}): passages and excerpts from term positions are those the text scan finds`, () => {
    const random = seededRandom(name.length);
    let matched = 0;
    for (let n = 0; n < 600; n++) {
      const text = randomNote(random);
      const { blocks } = parseNote('note.md', text);
      const context = random() < 0.5 ? `${Array.from({ length: 2 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}\nnote` : undefined;
      const queryTerms = tokenize(Array.from({ length: 1 + Math.floor(random() * 4) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' '));
      const weightOf = (term: string) => 1 + (term.length % 5) / 3;
      const scorer = passageScorer(queryTerms, weightOf, tokenize, { wordOf: (term) => term.length % 2 });
      const scanned = scorer(text, blocks, context);
      const positions = notePositions(text, tokenize, context);
      const fromPositions = scorer(text, blocks, context, positions);
      assert.deepEqual(shown(fromPositions), shown(scanned), `${JSON.stringify(text)} for ${JSON.stringify(queryTerms)}`);
      assert.deepEqual(passageEvidence(text, fromPositions, blocks), passageEvidence(text, scanned, blocks));
      if (scanned.line !== -1) matched++;
    }
    assert.ok(matched > 300, `${matched} notes had a matching line`);
  });
}

test('an irregular stem counts where the probe scan tokenizes its chunk: beside another query probe or a non-ASCII character, not alone', () => {
  const score = (text: string, query: string, positions?: NotePositions) => passageScorer(english(query), () => 1, english)(text, parseNote('n.md', text).blocks, undefined, positions).score;
  for (const [text, query, found] of [
    ['he was dying', 'die', false], // `die` is not in `dying`: the scan never tokenizes it
    ['he was dying/diet', 'die', true], // `diet` shows the probe
    ['dying/catalog', 'die cat', true], // another term's probe
    ['dying—then', 'die', true], // the em dash is non-ASCII
    ['clear skies', 'sky', false],
    ['“skies”', 'sky', true],
  ] as [string, string, boolean][]) {
    const positions = notePositions(text, english);
    assert.equal(score(text, query, positions) > 0, found, `${text} / ${query}`);
    assert.equal(score(text, query, positions), score(text, query));
  }
});

test('idMask lets every id of its set through, and keeps out ids whose bit no member shares', () => {
  const random = seededRandom(32);
  for (let round = 0; round < 200; round++) {
    const ids = Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * 100_000));
    const mask = idMask(ids);
    for (const id of ids) assert.equal((mask >>> (id & 31)) & 1, 1, `${id} in ${ids}`);
    for (let id = 0; id < 2000; id++) if (!ids.some((member) => member % 32 === id % 32)) assert.equal((mask >>> (id & 31)) & 1, 0, `${id} not in ${ids}`);
  }
  assert.equal(idMask([]), 0);
});

test('scoreNotes gives each note what the scorer gives it, in order, with positions or without', () => {
  const random = seededRandom(18);
  const texts = Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? '' : Array.from({ length: 1 + Math.floor(random() * 12) }, () => (random() < 0.2 ? '## atlas plan' : 'the atlas budget plans were reviewed')).join('\n')));
  const notes = texts.map((text, i) => ({ text, blocks: parseNote('n.md', text).blocks, context: i % 3 ? 'Atlas' : '', positions: i % 2 ? notePositions(text, english, i % 3 ? 'Atlas' : '') : undefined }));
  const scorer = passageScorer(english('atlas budget review'), () => 1, english);
  const one = notes.map((note) => scorer(note.text, note.blocks, note.context, note.positions));
  assert.deepEqual(scoreNotes(scorer, notes), one);
  assert.ok(one.filter((score) => score.score > 0).length > 20);
  assert.deepEqual(scoreNotes(scorer, []), []);
});

test('positions of another text or another tokenizer are not read: the text is scanned', () => {
  const text = '# Plan\nThe atlas rollout starts on Monday.';
  const other = '# Plan\nNothing here.';
  const { blocks } = parseNote('n.md', text);
  const scorer = passageScorer(english('atlas rollout'), () => 1, english);
  const scanned = scorer(text, blocks);
  assert.ok(scanned.score > 0);
  assert.deepEqual(scorer(text, blocks, undefined, notePositions(other, english)), scanned, 'another text');
  assert.deepEqual(scorer(text, blocks, undefined, notePositions(text, createTokenizer())), scanned, 'another tokenizer');
  // Read with another context than the one it was derived with: the context is tokenized.
  const named = scorer(text, blocks, 'Atlas');
  assert.ok(named.score > scanned.score);
  assert.deepEqual(scorer(text, blocks, 'Atlas', notePositions(text, english, 'Other')), named);
});

test('NoteTexts gives a note no positions the first time it is scored, derives them the second and keeps them while the file is unchanged', (t) => {
  const vault = makeVault(t, { 'Plan.md': '# Plan\nThe atlas rollout.\n' });
  const abs = join(vault.root, 'Plan.md');
  const texts = new NoteTexts();
  let derived = 0;
  const derive = (text: string) => (derived++, notePositions(text, english));
  const read = () => {
    const result = texts.read(abs);
    assert.ok(result.ok);
    return result.text;
  };
  const text = read();
  assert.equal(texts.positionsOf(abs, text, derive), undefined, 'first scoring: the scan');
  const positions = texts.positionsOf(abs, read(), derive);
  assert.ok(positions !== undefined && positions.text === text);
  assert.equal(texts.positionsOf(abs, read(), derive), positions, 'kept');
  assert.equal(derived, 1);
  assert.equal(texts.positionsOf(abs, 'another text', derive), undefined, 'not the kept text');
  const other = join(vault.root, 'Other.md');
  writeFileSync(other, 'Other atlas.\n');
  const otherText = () => {
    const result = texts.read(other);
    assert.ok(result.ok);
    return result.text;
  };
  texts.positionsOf(other, otherText(), derive);
  assert.equal(
    texts.positionsOf(other, otherText(), () => undefined),
    undefined,
    'a search that may derive no more scans',
  );
  assert.ok(texts.positionsOf(other, otherText(), derive) !== undefined, 'derived by the next search');
  assert.equal(derived, 2);
  writeFileSync(abs, `${readFileSync(abs, 'utf8')}More atlas.\n`);
  const changed = read();
  assert.ok(changed.endsWith('More atlas.\n'));
  assert.equal(texts.positionsOf(abs, changed, derive), undefined, 'a changed file is a new note: scanned first');
  assert.notEqual(texts.positionsOf(abs, changed, derive), positions);
  assert.equal(derived, 3);
});

test('a search engine answers a query alike the first time (scan), the second (positions derived) and after (positions kept)', (t) => {
  const vault = makeVault(t, {
    'Atlas plan.md': '---\ntags: [atlas]\nsummary: the dying atlas rollout\n---\n# Atlas plan\nThe atlas rollout starts Monday.\n\n## Risks\nSkies are clear; dying services get the atlas review.\n',
    'Cozinha.md': '# Receitas\nInformações sobre a cozinha e as ações do atlas.\n',
    '知识图谱.md': '# 知识图谱\n知识图谱的 atlas 项目。\n',
    'Code.md': '# Code\n```ts\nconst atlasReview = getUserName();\n```\nThe getUserName call (INC-212) reviews the atlas.\n',
  });
  const { db, root } = indexState(t, vault);
  for (const query of ['atlas review', 'sky', 'skies atlas', 'informação atlas', '知识图谱', 'getUserName INC-212', 'atlas']) {
    // An engine of its own: its first search of a note scans.
    const engine = VaultSearch.open(db, root);
    const answers = [1, 2, 3].map(() => JSON.stringify(engine.search({ query, mode: 'keyword', explain: true }).results));
    assert.ok(answers[0]!.length > 2, `${query} finds notes`);
    assert.equal(answers[1], answers[0], `${query}: second search`);
    assert.equal(answers[2], answers[0], `${query}: third search`);
  }
});
