import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockBreadcrumbs, blockEmbedInput, INPUT_DEFAULTS, queryInput, sourceEmbedInput, trimToTokenBudget } from '../../src/embed/index.js';

test('source input: path crumbs, ":\\n", content', () => {
  assert.equal(sourceEmbedInput('Projects/Atlas/Plan.md', 'Ship it.'), 'Projects > Atlas > Plan:\nShip it.');
  assert.equal(sourceEmbedInput('Plan.md', '# Plan\nbody'), 'Plan:\n# Plan\nbody');
  assert.equal(sourceEmbedInput('Plan.md', ''), '', 'no content: the plugin embeds nothing');
});

test('source input: only the first ".md" anywhere in the path is removed', () => {
  assert.equal(sourceEmbedInput('Notes.md/Plan.md', 'x'), 'Notes > Plan.md:\nx');
  assert.equal(sourceEmbedInput('a.mdx/b.md', 'x'), 'ax > b.md:\nx');
  assert.equal(sourceEmbedInput('Readme', 'x'), 'Readme:\nx');
});

test('source input: the whole input is cut to 1,894 UTF-16 units (path included)', () => {
  assert.equal(INPUT_DEFAULTS.maxInputChars, Math.floor(512 * 3.7));
  const input = sourceEmbedInput('Folder/Long.md', 'y'.repeat(5000));
  assert.equal(input.length, 1894);
  assert.ok(input.startsWith('Folder > Long:\nyyy'));
  assert.equal(sourceEmbedInput('L.md', 'z'.repeat(1891)).length, 1894, 'exactly at the cap: kept whole');
  assert.equal(sourceEmbedInput('L.md', 'z'.repeat(1890)).length, 1893);
  assert.equal(sourceEmbedInput('L.md', 'abcdef', 6), 'L:\nabc', 'the cap is an option');
  // UTF-16 units, not code points: an emoji counts 2 and may be split at the cut, as in the plugin.
  const emoji = sourceEmbedInput('E.md', '🙂'.repeat(2000));
  assert.equal(emoji.length, 1894);
  assert.equal(emoji.charCodeAt(1893), '🙂'.charCodeAt(0), 'cut after a high surrogate');
});

test('block breadcrumbs: heading path from the key, the "{n}" tail dropped', () => {
  assert.equal(blockBreadcrumbs('Folder/Note.md', '#A#B#{1}'), 'Folder > Note > A > B');
  assert.equal(blockBreadcrumbs('Learning stage1.md', '#Syllabus#Phase 1#{1}'), 'Learning stage1 > Syllabus > Phase 1');
  assert.equal(blockBreadcrumbs('Note.md', '#A#B'), 'Note > A', 'a heading block: its own heading is in its text');
  assert.equal(blockBreadcrumbs('Note.md', '#A#{2}'), 'Note > A');
  assert.equal(blockBreadcrumbs('Note.md', '#A[2]'), 'Note');
  assert.equal(blockBreadcrumbs('Note.md', '#'), 'Note', 'text before the first heading');
  assert.equal(blockBreadcrumbs('Note.md', '#{1}'), 'Note');
  assert.equal(blockBreadcrumbs('Note.md', '#---frontmatter---'), 'Note');
});

test("block breadcrumbs: the plugin's quirks, kept on purpose", () => {
  assert.equal(blockBreadcrumbs('Note.md', '#Inputs/Outputs#{1}'), 'Note > Inputs > Outputs', 'a "/" in a heading splits it');
  assert.equal(blockBreadcrumbs('Note.md', '##Level two#{1}'), 'Note >  > Level two', 'a skipped level leaves an empty crumb');
  assert.equal(blockBreadcrumbs('C# notes.md', '#Intro#{1}'), 'C >  notes > Intro', 'a "#" in the path splits it');
  assert.equal(blockBreadcrumbs('Dir/Note.md', '#About .md files#{1}'), 'Dir > Note > About .md files', 'first ".md" only');
  assert.equal(blockBreadcrumbs('x.md.d/Note.md', '#H#{1}'), 'x.d > Note.md > H');
});

test('block input: breadcrumbs, a newline, the block text, no character cap', () => {
  assert.equal(blockEmbedInput('Folder/Note.md', '#A#B#{1}', 'line one\nline two'), 'Folder > Note > A > B\nline one\nline two');
  const long = 'w'.repeat(5000);
  assert.equal(blockEmbedInput('N.md', '#H#{1}', long), `N > H\n${long}`);
});

/** One token per whitespace-separated word, plus [CLS] and [SEP], like a word-level tokenizer. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length + 2;

test('token budget: text that fits is returned unchanged', () => {
  assert.equal(trimToTokenBudget('a b c', countWords, 5), 'a b c', 'exactly at the budget');
  assert.equal(trimToTokenBudget('', countWords, 5), '');
});

test('token budget: hand-computed cut at floor(len · max/tokens · 0.9), back to the last space, recounted', () => {
  const text = Array.from({ length: 10 }, (_, i) => `w${i}xx`).join(' '); // 10 words of 4 chars: 49 chars, 12 tokens
  // floor(49 · 8/12 · 0.9) = 29 → "w0xx w1xx w2xx w3xx w4xx w5xx" (29 chars, last space at 24) → "w0xx … w4xx": 7 tokens ≤ 8.
  assert.equal(trimToTokenBudget(text, countWords, 8), 'w0xx w1xx w2xx w3xx w4xx');
  // A second round when the first cut is not enough: a counter that charges 2 tokens per word.
  const heavy = (t: string) => 2 * t.split(' ').filter(Boolean).length + 2;
  // 22 tokens, max 8: floor(49 · 8/22 · 0.9) = 16 → "w0xx w1xx w2xx w" → "w0xx w1xx w2xx" (8 tokens).
  assert.equal(trimToTokenBudget(text, heavy, 8), 'w0xx w1xx w2xx');
});

test('token budget: text without spaces is cut by length alone; an impossible budget ends empty', () => {
  const perChar = (t: string) => t.length + 2;
  const cut = trimToTokenBudget('x'.repeat(100), perChar, 50);
  assert.ok(cut.length + 2 <= 50 && /^x+$/.test(cut));
  assert.equal(
    trimToTokenBudget('some words here', () => 99, 10),
    '',
    'a counter that never fits stops at the empty string',
  );
});

test('token budget, property: the result is a prefix within budget, cut at a space when one exists', () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = ['a', 'graph', 'note', 'vault', 'embedding', 'x', 'atlas', 'retrieval'];
  for (let round = 0; round < 300; round++) {
    const text = Array.from({ length: 1 + Math.floor(random() * 80) }, () => words[Math.floor(random() * words.length)]).join(' ');
    const max = 3 + Math.floor(random() * 40);
    const out = trimToTokenBudget(text, countWords, max);
    assert.ok(text.startsWith(out), 'a prefix');
    if (countWords(text) <= max) assert.equal(out, text);
    else {
      assert.ok(countWords(out) <= max, `within budget (${countWords(out)} > ${max})`);
      assert.ok(out === '' || text[out.length] === ' ' || !text.slice(0, out.length).includes(' '), 'ends at a word boundary');
    }
  }
});

test('a query gets its model\'s query prefix (E5: "query: "); notes and other models stay as written', () => {
  assert.equal(queryInput('Xenova/multilingual-e5-small', 'onde fica Kraków?'), 'query: onde fica Kraków?');
  assert.equal(queryInput('TaylorAI/bge-micro-v2', 'where is Kraków?'), 'where is Kraków?');
  assert.equal(queryInput('someone/unknown-model', 'x'), 'x');
});
