import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../bench/generate-vault.js';
import { createTokenizer, findEvidence, notePositions, PASSAGE_DEFAULTS, passageEvidence, passageScorer, scorePassages, unionTokenizer, type EvidenceBlock } from '../../src/search/index.js';
import { parseNote } from '../../src/vault/index.js';

const tokenize = createTokenizer();
const WORDS = ['atlas', 'Atlas', 'atlases', 'budget', 'café', 'Café', 'getUserName', 'user', 'INC-212', '知识图谱', 'the', 'review', 'reviewing', 'plan', 'x', '42', 'naïve', 'über'];

function randomNote(random: () => number): string {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const lines: string[] = [];
  for (let n = 0, count = 1 + Math.floor(random() * 25); n < count; n++) {
    const kind = random();
    const words = Array.from({ length: Math.floor(random() * 8) }, pick).join(random() < 0.8 ? ' ' : '\t');
    lines.push(kind < 0.15 ? `${'#'.repeat(1 + Math.floor(random() * 3))} ${words}` : kind < 0.3 ? `- [ ] ${words}` : kind < 0.35 ? '' : words);
  }
  return lines.join(random() < 0.9 ? '\n' : '\r\n');
}

/**
 * The obvious passage score: tokenize every whitespace-delimited chunk of every line (a token's
 * place is its chunk's start), then score each section as `scorePassages` documents it — BM25
 * over the section's counts plus, per pair of distinct terms, the smaller weight over the squared
 * distance in words of their closest occurrences — and take the best line by weight × distinct terms.
 */
function bruteForce(text: string, blocks: readonly EvidenceBlock[], queryTerms: string[], weightOf: (term: string) => number): { line: number; block: string } | null {
  const lines = text.split('\n');
  const terms = [...new Set(queryTerms)];
  const { k1, b, sectionChars, proximity: proximityWeight, charsPerWord } = PASSAGE_DEFAULTS;
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  let best: { block: EvidenceBlock; score: number; line: number } | null = null;
  for (const block of blocks) {
    const last = Math.min(block.bodyEnd, lines.length);
    const occurrences: { line: number; term: number; offset: number }[] = [];
    for (let n = block.start; n <= last; n++) {
      for (const chunk of lines[n - 1]!.matchAll(/[^ \t\r\f\v]+/g)) {
        for (const token of tokenize(chunk[0])) {
          const term = terms.indexOf(token);
          if (term !== -1) occurrences.push({ line: n, term, offset: starts[n - 1]! + chunk.index! });
        }
      }
    }
    if (occurrences.length === 0) continue;
    const chars = (n: number) => (n < lines.length ? starts[n]! : text.length);
    const span = chars(last) - starts[block.start - 1]!;
    const norm = 1 - b + (b * (block.key === '#---frontmatter---' ? Math.max(span, sectionChars) : span)) / sectionChars;
    let score = 0;
    terms.forEach((term, t) => {
      const tf = occurrences.filter((o) => o.term === t).length;
      if (tf > 0) score += (weightOf(term) * tf * (k1 + 1)) / (tf + k1 * norm);
    });
    for (let t = 0; t < terms.length; t++) {
      for (let u = t + 1; u < terms.length; u++) {
        let near = 0;
        for (const x of occurrences)
          for (const y of occurrences) {
            if (x.term === t && y.term === u) {
              const words = Math.max(1, Math.round(Math.abs(x.offset - y.offset) / charsPerWord));
              near = Math.max(near, 1 / (words * words));
            }
          }
        score += proximityWeight * Math.min(weightOf(terms[t]!), weightOf(terms[u]!)) * near;
      }
    }
    let bestLine = -1;
    let bestLineWeight = 0;
    for (let n = block.start; n <= last; n++) {
      const here = occurrences.filter((o) => o.line === n);
      const weight = here.reduce((sum, o) => sum + weightOf(terms[o.term]!), 0) * new Set(here.map((o) => o.term)).size;
      const isHeading = block.level > 0 && n === block.start;
      if (weight > bestLineWeight || (weight > 0 && weight === bestLineWeight && bestLine === block.start && !isHeading)) {
        bestLineWeight = weight;
        bestLine = n;
      }
    }
    if (best === null || score > best.score) best = { block, score, line: bestLine };
  }
  return best && best.score > 0 ? { line: best.line, block: best.block.key } : null;
}

test('property: evidence finds the passage and line that tokenizing every chunk finds', () => {
  const random = seededRandom(29);
  let matched = 0;
  for (let n = 0; n < 400; n++) {
    const text = randomNote(random);
    const note = parseNote('note.md', text);
    const queryTerms = tokenize(Array.from({ length: 1 + Math.floor(random() * 3) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' '));
    const weightOf = (term: string) => 1 + (term.length % 4); // integers: sums are exact in any order
    const expected = bruteForce(text, note.blocks, queryTerms, weightOf);
    const evidence = findEvidence(text, note.blocks, queryTerms, weightOf, tokenize);
    if (expected === null) continue;
    matched++;
    const block = note.blocks.find((candidate) => candidate.key === expected.block)!;
    assert.deepEqual(evidence.lines, [block.start, Math.min(block.bodyEnd, text.split('\n').length)], text);
    assert.equal(evidence.section, block.headingPath.join(' > '));
    // A heading that alone matched is in `section`; the excerpt is then the section's first line of text.
    const lines = text.split('\n');
    const headingOnly = block.level > 0 && expected.line === block.start;
    const textLine = headingOnly ? lines.findIndex((line, i) => i + 1 > block.start && i + 1 <= block.bodyEnd && line.replace(/^[\s>#*+\-\d.)[\]x]*/, '').trim() !== '' && line.trim() !== '---') + 1 : 0;
    const quoted = lines[(textLine > 0 ? textLine : expected.line) - 1]!;
    assert.ok(quoted.includes(evidence.excerpt.replace(/…$/, '')), `${JSON.stringify(evidence.excerpt)} is from line ${expected.line}: ${JSON.stringify(quoted)}`);
  }
  assert.ok(matched > 200, `${matched} notes had a match`);
});

test('excerpts are cut at 240 characters, counted as code points', () => {
  const query = tokenize('atlas');
  const long = `atlas ${'word '.repeat(100)}`;
  const cut = findEvidence(long, parseNote('n.md', long).blocks, query, () => 1, tokenize).excerpt;
  assert.equal(Array.from(cut).length, 240);
  assert.ok(cut.endsWith('…'));
  const emoji = `atlas ${'😀'.repeat(200)}`; // 206 code points in 406 code units: not cut
  assert.equal(findEvidence(emoji, parseNote('n.md', emoji).blocks, query, () => 1, tokenize).excerpt, emoji);
  const longEmoji = `atlas ${'😀'.repeat(300)}`;
  const cutEmoji = findEvidence(longEmoji, parseNote('n.md', longEmoji).blocks, query, () => 1, tokenize).excerpt;
  assert.equal(Array.from(cutEmoji).length, 240);
  assert.ok(!cutEmoji.includes('\uFFFD') && /😀…$/u.test(cutEmoji), 'no pair is split');
});

test("an excerpt drops list, quote and heading markers and a line's carriage return", () => {
  const query = tokenize('atlas');
  const markers = /^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[.\]\s+)?|\d+[.)]\s+)?/;
  for (const prefix of ['', '  ', '> ', '>> # ', '## ', '#', '- ', '-', '* [ ] ', '+ [x] ', '12. ', '3) ', '3)', '\u00a0- ', '\t> ', '\u2003## ', 'x ']) {
    for (const suffix of ['', '\r', ' \r', '  ', '\r\r']) {
      const line = `${prefix}atlas plan${suffix}`;
      const expected = line.replace(/\r$/, '').replace(markers, '').trim();
      assert.equal(findEvidence(line, parseNote('n.md', line).blocks, query, () => 1, tokenize).excerpt, expected, JSON.stringify(line));
    }
  }
});

test('an excerpt is cut by code points wherever a surrogate pair falls', () => {
  const query = tokenize('atlas');
  for (let at = 230; at <= 250; at++) {
    for (const after of [0, 1, 300]) {
      const line = `atlas ${'a'.repeat(at - 6)}😀${'b'.repeat(after)}`;
      const points = Array.from(line);
      const expected = points.length <= 240 ? line : `${points.slice(0, 239).join('')}…`;
      assert.equal(findEvidence(line, parseNote('n.md', line).blocks, query, () => 1, tokenize).excerpt, expected, `the pair at ${at}, ${after} after it`);
    }
  }
});

test('a search made while evidence is being found (by the tokenizer) leaves the outer one whole', () => {
  const text = 'héllo atlas\nsecond atlas atlas\ncafé atlas';
  const blocks = parseNote('n.md', text).blocks;
  const expected = findEvidence(text, blocks, tokenize('atlas hello'), () => 1, tokenize);
  for (const inner of [['atlas'], ['atlas', 'hello'], ['zebra']]) {
    const search = () => findEvidence('other atlas text', parseNote('o.md', 'other atlas text').blocks, inner, () => 1, tokenize);
    const reentrant = Object.assign((words: string, out?: string[]) => (search(), tokenize(words, out)), {
      expand: (word: string) => (search(), tokenize.expand(word)),
      tokensOf: tokenize.tokensOf,
      isStopWord: tokenize.isStopWord,
    });
    assert.deepEqual(
      findEvidence(text, blocks, tokenize('atlas hello'), () => 1, reentrant),
      expected,
      inner.join(' '),
    );
  }
  assert.equal(expected.excerpt, 'héllo atlas', 'the line with both query terms');
});

test('passages: the note name is every passage\'s context; parts of one query word are never "near" each other', () => {
  const text = '# Friday\nNothing about dates here.\n## Later\nAnother section.\n';
  const blocks = parseNote('n.md', text).blocks;
  const terms = tokenize('2026-05-01');
  const bare = scorePassages(text, blocks, terms, () => 1, tokenize);
  assert.equal(bare.score, 0);
  const named = scorePassages(text, blocks, terms, () => 1, tokenize, { context: 'Friday\n2026-05-01' });
  assert.ok(named.score > 0, 'the name counts for the passage');
  assert.equal(named.block?.headingPath.join(' > '), 'Friday');
  const dated = 'The cutover moved to 2026-05-01 after the review.';
  const dateBlocks = parseNote('d.md', dated).blocks;
  const one = scorePassages(dated, dateBlocks, terms, () => 1, tokenize, { wordOf: () => 0 });
  assert.equal(one.proximity, 0, 'the parts of 2026-05-01 come from one query word');
  const ungrouped = scorePassages(dated, dateBlocks, terms, () => 1, tokenize);
  assert.ok(ungrouped.proximity > 0);
});

test('passages: frontmatter prose is a passage, read at least a typical section long', () => {
  // A Notion-style note keeps its text in properties: the passage is found there.
  const notion = '---\ncategory: execution\ndescription: States are transitory and never permanent structures of meaning.\n---\n';
  const terms = tokenize('permanent structures of meaning');
  const inProperties = scorePassages(notion, parseNote('n.md', notion).blocks, terms, () => 1, tokenize);
  assert.ok(inProperties.score > 0 && inProperties.block?.key === '#---frontmatter---');
  assert.match(findEvidence(notion, parseNote('n.md', notion).blocks, terms, () => 1, tokenize).excerpt, /never permanent structures/);
  // Short metadata lines are not a focused passage: the same words in a body line of the same
  // length score higher than as `type: meeting` properties.
  const meta = '---\ntype: meeting\nwith: Priya\n---\nNotes.\n';
  const body = '---\nid: 1\n---\nmeeting with Priya\n';
  const query = tokenize('meeting Priya');
  const asMeta = scorePassages(meta, parseNote('m.md', meta).blocks, query, () => 1, tokenize);
  const asBody = scorePassages(body, parseNote('b.md', body).blocks, query, () => 1, tokenize);
  assert.ok(asBody.score > asMeta.score, `${asBody.score} > ${asMeta.score}`);
});

test('passages: a long section is read as windows of windowChars, so nearby terms beat scattered ones', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const gap = Math.ceil(PASSAGE_DEFAULTS.windowChars / 7) + 5; // wider than a window
  const near = `${filler(200)} alpha beta ${filler(200)}`;
  const apart = `${filler(200)} alpha ${filler(gap)} beta ${filler(200)}`;
  const terms = tokenize('alpha beta');
  const score = (text: string) => scorePassages(text, parseNote('w.md', text).blocks, terms, () => 1, tokenize, { options: { ...PASSAGE_DEFAULTS, proximity: 0 } }).score;
  assert.ok(score(near) > score(apart), `${score(near)} > ${score(apart)}`);
  // Within one window both count: the same pair a little apart scores as the adjacent pair.
  const close = `${filler(200)} alpha ${filler(5)} beta ${filler(200)}`;
  assert.equal(score(close), score(near));
});

test("passages: a long section's proximity is its best window's, not a pair's anywhere in the section", () => {
  const filler = 'and then some unrelated words about other things '.repeat(10);
  const text = `# Log\nalpha beta\n${filler}\ngamma alpha gamma alpha gamma\n${filler}\n`;
  const blocks = parseNote('n.md', text).blocks;
  assert.ok(text.length > PASSAGE_DEFAULTS.sectionChars && filler.length > PASSAGE_DEFAULTS.windowChars);
  const passage = scorePassages(text, blocks, tokenize('alpha beta gamma'), () => 1, tokenize);
  assert.equal(passage.line, 4, 'the window with the most query-term weight');
  // Only alpha and gamma are in that window, side by side: `alpha beta` far above lends nothing.
  assert.equal(passage.proximity, 1);
});

test('passages: a word read two ways at one place (two languages, a compound and its parts) is one match, in the text and in the name', () => {
  // In a vault of English and Portuguese, `Casa` is `casa` and `cas`: two query terms of one word.
  const union = unionTokenizer([createTokenizer({ language: 'en' }), createTokenizer({ language: 'pt' })]);
  const text = 'Booked the guesthouse in June: Casa do Beco, up the hill.\n';
  const blocks = parseNote('n.md', text).blocks;
  const wordOf = (term: string) => (['casa', 'cas'].includes(term) ? 0 : ['beco', 'bec'].includes(term) ? 1 : 2);
  const both = scorePassages(text, blocks, union('Casa Beco guesthouse'), () => 1, union, { wordOf });
  const one = scorePassages(text, blocks, tokenize('Casa Beco guesthouse'), () => 1, tokenize, { wordOf });
  assert.equal(both.score, one.score, 'each word weighs once, as the index counts it');
  assert.equal(both.proximity, one.proximity, 'and its nearness to the others once');
  // The heavier reading is the one kept.
  const heavier = scorePassages(text, blocks, ['casa', 'cas'], (term) => (term === 'cas' ? 3 : 1), union, { wordOf });
  assert.equal(heavier.score, scorePassages(text, blocks, ['cas'], () => 3, union, { wordOf }).score);
  // The name is read the same way, with term positions or without.
  const named = passageScorer(union('Casa Beco'), () => 1, union, { wordOf });
  const other = 'Nothing here.\n';
  const otherBlocks = parseNote('o.md', other).blocks;
  const context = 'Casa do Beco\nCasa do Beco';
  const scanned = named(other, otherBlocks, context);
  assert.equal(scanned.score, passageScorer(tokenize('Casa Beco'), () => 1, tokenize, { wordOf })(other, otherBlocks, context).score);
  assert.equal(named(other, otherBlocks, context, notePositions(other, union, context)).score, scanned.score);
  // Without several readings of a word, a word written twice in one chunk still counts twice.
  const twice = scorePassages('plan-plan\n', parseNote('p.md', 'plan-plan\n').blocks, ['plan'], () => 1, tokenize);
  const once = scorePassages('plan\n', parseNote('p.md', 'plan\n').blocks, ['plan'], () => 1, tokenize);
  assert.ok(twice.score > once.score);
});

test('passages: a list of links is read as pointers to other notes, at half its score; a section of prose with links is prose', () => {
  const hub = '# Publish\n\nPublish your notes as a website.\n\n## Guides\n\n- [[Custom domains]]\n\t- Set up Publish with your own domain.\n- [[Analytics]]\n\t- Track the visits to your site.\n1. [Permalinks](Permalinks.md)\n';
  const prose = '# Publish\n\n## Domains\n\nSee [[Custom domains]] to set up Publish with your own domain, and [[Analytics]] for visits.\n';
  const terms = ['publish', 'own', 'domain'];
  const unDamped = { options: { ...PASSAGE_DEFAULTS, linkList: 1 } };
  for (const [text, share] of [
    [hub, 0.5],
    [prose, 1],
  ] as const) {
    const blocks = parseNote('Hub.md', text).blocks;
    const scored = scorePassages(text, blocks, terms, () => 1, tokenize);
    const whole = scorePassages(text, blocks, terms, () => 1, tokenize, unDamped);
    assert.equal(scored.block?.key, whole.block?.key);
    assert.ok(Math.abs(scored.score - share * whole.score) < 1e-9, `${scored.score} is ${share} of ${whole.score}`);
    // Read from the note's term positions, the same.
    const fromPositions = passageScorer(terms, () => 1, tokenize)(text, blocks, undefined, notePositions(text, tokenize, ''));
    assert.equal(fromPositions.score, scored.score);
  }
  // Halved, the list can lose to another section of its note, which is then the passage.
  const both = `${hub}\n## Domains\n\nYour own domain.\n`;
  const blocks = parseNote('Hub.md', both).blocks;
  assert.equal(scorePassages(both, blocks, terms, () => 1, tokenize, unDamped).block?.key, '#Publish#Guides');
  assert.equal(scorePassages(both, blocks, terms, () => 1, tokenize).block?.key, '#Publish#Domains');
});

test("a note's aliases are names, not passage text; a heading that alone matched is quoted by its section's first line", () => {
  const text = [
    '---',
    'type: person',
    'aliases:',
    '  - Inês',
    '  - Ines Carvalho',
    'role: Privacy Engineer',
    'location: Lisbon',
    '---',
    '',
    '# Inês Carvalho',
    '',
    'Privacy engineer, joined Lumen from a health-tech company in Porto.',
    '',
    '## Mentoring',
    '',
    'Monthly sessions, in Portuguese.',
    '',
  ].join('\n');
  const note = parseNote('People/Inês Carvalho.md', text);
  const evidence = findEvidence(text, note.blocks, tokenize('ines'), () => 1, tokenize);
  assert.equal(evidence.section, 'Inês Carvalho');
  assert.equal(evidence.excerpt, 'Privacy engineer, joined Lumen from a health-tech company in Porto.');
  // The frontmatter's other keys are still text.
  assert.equal(findEvidence(text, note.blocks, tokenize('lisbon'), () => 1, tokenize).excerpt, 'location: Lisbon');
  assert.equal(findEvidence(text, note.blocks, tokenize('mentoring'), () => 1, tokenize).excerpt, 'Monthly sessions, in Portuguese.');
  // `aliases: [a, b]` on one line is dropped the same way.
  const inline = text.replace('aliases:\n  - Inês\n  - Ines Carvalho', 'aliases: [Inês, Ines Carvalho]');
  assert.equal(findEvidence(inline, parseNote('p.md', inline).blocks, tokenize('ines'), () => 1, tokenize).section, 'Inês Carvalho');
});

test('a note matched by its name alone is quoted from its opening, not from the line that repeats the name most', () => {
  const text = ['# Inês Carvalho', '', 'Privacy engineer in Lisbon.', '', '## Working with Inês', '', '- Inês prefers a short Loom.', '- Example: [[1-1 Inês]], with Inês.', ''].join('\n');
  const blocks = parseNote('People/Inês Carvalho.md', text).blocks;
  const quote = (query: string, name?: string) => {
    const passage = passageScorer(tokenize(query), () => 1, tokenize)(text, blocks, name);
    return { ...passageEvidence(text, passage, blocks), named: passage.named, score: passage.score };
  };
  const named = quote('ines', 'Inês Carvalho');
  assert.equal(named.named, true);
  assert.deepEqual([named.section, named.excerpt, named.lines], ['Inês Carvalho', 'Privacy engineer in Lisbon.', [1, 4]]);
  // The score is the one the best section earned, not the opening's: the quote changes, the ranking does not.
  const section = passageScorer(tokenize('ines'), () => 1, tokenize)(text, blocks, 'Inês Carvalho');
  assert.equal(section.block?.key, '#Inês Carvalho#Working with Inês');
  const openingOnly = text.slice(0, text.indexOf('## Working'));
  const openingScore = passageScorer(tokenize('ines'), () => 1, tokenize)(openingOnly, parseNote('People/Inês Carvalho.md', openingOnly).blocks, 'Inês Carvalho').score;
  assert.ok(named.score > openingScore, `${named.score} > ${openingScore}`);
  // A word the name lacks picks the section that holds it; so does a note the name does not cover.
  assert.equal(quote('ines loom', 'Inês Carvalho').excerpt, 'Inês prefers a short Loom.');
  assert.equal(quote('ines', 'Harbor overview').named, false);
  assert.equal(quote('ines', 'Harbor overview').section, 'Inês Carvalho > Working with Inês');
  // A title heading with no text of its own: the first section that has some.
  const bare = ['# Inês', '', '## Role', '', 'Privacy engineer.', ''].join('\n');
  const bareBlocks = parseNote('Inês.md', bare).blocks;
  const evidence = passageEvidence(bare, passageScorer(tokenize('ines'), () => 1, tokenize)(bare, bareBlocks, 'Inês'), bareBlocks);
  assert.deepEqual([evidence.section, evidence.excerpt], ['Inês > Role', 'Privacy engineer.']);
});
