import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../src/vault/index.js';
import { isLinkList } from '../../src/vault/markdown.js';

/** Block keys and ranges follow the Smart Connections grammar (smart-blocks markdown parser). */
test('block keys and 1-based inclusive ranges match the Smart Connections grammar', () => {
  const text = [
    '---', //               1
    'title: T', //          2
    '---', //               3
    'Preamble text.', //    4
    '', //                  5
    '# Alpha', //           6
    'a', //                 7
    '## Beta', //           8
    'b', //                 9
    '#### Deep', //         10
    'd', //                 11
    '## Beta', //           12
    '# Alpha', //           13
    '### Skip level', //    14
    '```', //               15
    '# fenced', //          16
    '```', //               17
    'end', //               18
  ].join('\n');
  const blocks = parseNote('n.md', text).blocks.map((block) => [block.key, block.start, block.end, block.bodyEnd, block.headingPath]);
  assert.deepEqual(blocks, [
    ['#---frontmatter---', 1, 3, 3, []],
    ['#', 4, 5, 5, []],
    ['#Alpha', 6, 12, 7, ['Alpha']],
    ['#Alpha#Beta', 8, 11, 9, ['Alpha', 'Beta']],
    ['#Alpha#Beta##Deep', 10, 11, 11, ['Alpha', 'Beta', 'Deep']],
    ['#Alpha#Beta#{2}', 12, 12, 12, ['Alpha', 'Beta']],
    ['#Alpha[2]', 13, 18, 13, ['Alpha']],
    ['#Alpha[2]##Skip level', 14, 18, 18, ['Alpha', 'Skip level']],
  ]);
});

test('a level-2 heading under nothing gets two hashes; headings keep #, / and emoji', () => {
  const keys = parseNote('n.md', '## Top #1 / two 🙂\ntext\n').blocks.map((block) => block.key);
  assert.deepEqual(keys, ['##Top #1 / two 🙂']);
});

test('a trailing newline makes a last empty line, as Smart Connections counts', () => {
  const note = parseNote('n.md', '# A\nx\n');
  assert.equal(note.lineCount, 3);
  assert.deepEqual(
    note.blocks.map((block) => [block.start, block.end]),
    [[1, 3]],
  );
});

test('#tag at a line start is a tag, not a heading', () => {
  const note = parseNote('n.md', '#project\ntext\n');
  assert.deepEqual(
    note.blocks.map((block) => block.key),
    ['#'],
  );
  assert.deepEqual(note.tags, ['project']);
});

test('a block whose lines are at least 30 % links alone is a list of links; prose with links, items that go on and code are not', () => {
  const text = [
    '# Publish', // 1
    'Publish your notes as a website.',
    '## Guides', // 3
    '- [[Custom domains]]',
    '\t- Set up Publish with your own domain.',
    '1. [Analytics](Analytics.md)',
    '\t- Track the visits to your site.',
    '## Prose', // 8
    'See [[Custom domains]] for your own domain, and [[Analytics]] for visits.',
    '- [[Sync]] keeps your notes on every device.',
    '- [[Publish]] puts them on the web.',
    '## Code', // 12
    '```',
    '- [[Not a link list]]',
    '- [[Only code]]',
    '```',
    'Text after the code.',
  ].join('\n');
  const blocks = parseNote('Hub.md', text).blocks;
  assert.deepEqual(
    blocks.map((block) => [block.key, block.linkList]),
    [
      ['#Publish', false],
      ['#Publish#Guides', true],
      ['#Publish#Prose', false],
      ['#Publish#Code', false],
    ],
  );
  assert.equal(isLinkList(['- [[A]]', 'one', 'two', 'three'], 1, 4), false, '1 of 4 is under 30 %');
  assert.equal(isLinkList(['- [[A]]', '* [[B|b]]', 'one', 'two', 'three'], 1, 5), true, '2 of 5');
  assert.equal(isLinkList(['', '  '], 1, 2), false, 'nothing but blank lines');
});
