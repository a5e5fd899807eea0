import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LinkResolver, linkWorlds, parseNote, rewriteLinksForMove } from '../../src/vault/index.js';

const files = ['Claude/Inbox/Walrus Plan.md', 'Projects/Atlas.md', 'Projects/Zoo/Keepers.md', 'Home.md', 'img/seal.png', 'Claude/Inbox/Other.md', 'Claude/Notes/Idea.md'];
const move = { from: 'Claude/Inbox/Walrus Plan.md', to: 'Projects/Zoo/Walrus Plan.md' };

test('every link form that would break is rewritten; links that still resolve are left as written', () => {
  const worlds = linkWorlds(files, move);
  const text = [
    '---',
    'related: "[[Claude/Inbox/Walrus Plan]]"',
    '---',
    'bare [[Walrus Plan]] and bare with alias [[walrus plan|the plan]]',
    'qualified [[Claude/Inbox/Walrus Plan]] with md [[Claude/Inbox/Walrus Plan.md#Goals|goals]]',
    'partial [[Inbox/Walrus Plan]] embed ![[Claude/Inbox/Walrus Plan#^abc]] case [[claude/inbox/WALRUS PLAN]]',
    'markdown from root [plan](Claude/Inbox/Walrus%20Plan.md) angled [p](<Claude/Inbox/Walrus Plan.md#Goals>)',
    'escaped in a table | [[Claude/Inbox/Walrus Plan\\|plan]] |',
    'untouched [[Atlas]] [x](https://example.com/Claude/Inbox/Walrus%20Plan.md) `[[Claude/Inbox/Walrus Plan]]`',
    '```',
    '[[Claude/Inbox/Walrus Plan]]',
    '```',
  ].join('\n');
  const { text: out, count } = rewriteLinksForMove(text, 'Home.md', move, worlds);
  assert.equal(
    out,
    [
      '---',
      'related: "[[Projects/Zoo/Walrus Plan]]"',
      '---',
      'bare [[Walrus Plan]] and bare with alias [[walrus plan|the plan]]',
      'qualified [[Projects/Zoo/Walrus Plan]] with md [[Projects/Zoo/Walrus Plan.md#Goals|goals]]',
      'partial [[Projects/Zoo/Walrus Plan]] embed ![[Projects/Zoo/Walrus Plan#^abc]] case [[Projects/Zoo/Walrus Plan]]',
      'markdown from root [plan](Projects/Zoo/Walrus%20Plan.md) angled [p](<Projects/Zoo/Walrus Plan.md#Goals>)',
      'escaped in a table | [[Projects/Zoo/Walrus Plan\\|plan]] |',
      'untouched [[Atlas]] [x](https://example.com/Claude/Inbox/Walrus%20Plan.md) `[[Claude/Inbox/Walrus Plan]]`',
      '```',
      '[[Claude/Inbox/Walrus Plan]]',
      '```',
    ].join('\n'),
  );
  assert.equal(count, 9);
  // Every link in the result resolves to the new place, as Obsidian would resolve it.
  const after = new LinkResolver(files.map((path) => (path === move.from ? move.to : path)));
  for (const link of parseNote('Home.md', out).links) {
    if (link.target === 'Atlas' || link.line >= 10) continue;
    assert.equal(after.resolve(link, 'Home.md')?.path, move.to, `${link.kind} ${link.target} on line ${link.line}`);
  }
});

test('relative markdown links stay relative, from the linking note and from inside the moved note', () => {
  const worlds = linkWorlds(files, move);
  const fromSibling = rewriteLinksForMove('[p](Walrus%20Plan.md) [q](./Walrus%20Plan.md)', 'Claude/Inbox/Other.md', move, worlds);
  // A bare file name still finds the note by name after the move (Obsidian's fallback), so it stays.
  assert.equal(fromSibling.text, '[p](Walrus%20Plan.md) [q](../../Projects/Zoo/Walrus%20Plan.md)');
  // The moved note's own links: a relative markdown link to a sibling must follow the new folder.
  const own = rewriteLinksForMove('see [i](../Notes/Idea.md), [o](Other.md), [[Other]], [k](../../Projects/Zoo/Keepers.md), [[Projects/Atlas]]', move.from, move, worlds);
  assert.equal(own.text, 'see [i](../../Claude/Notes/Idea.md), [o](Other.md), [[Other]], [k](../../Projects/Zoo/Keepers.md), [[Projects/Atlas]]');
  assert.equal(own.count, 1);
});

test('text without affected links comes back unchanged (same string, zero count)', () => {
  const worlds = linkWorlds(files, move);
  const text = 'no links here\r\n[[Atlas]] and [a](Projects/Atlas.md)\r\n';
  const result = rewriteLinksForMove(text, 'Home.md', move, worlds);
  assert.equal(result.count, 0);
  assert.equal(result.text, text);
});

test('file names with parentheses, and frontmatter links inside quoted YAML, survive a move', () => {
  const files = ['Claude/Inbox/Meeting (2024).md', "Bob's Notes/Other.md", 'Home.md'];
  const move = { from: 'Claude/Inbox/Meeting (2024).md', to: "Bob's Notes/Meeting (2024).md" };
  const worlds = linkWorlds(files, move);
  const text = ['---', "up: '[[Claude/Inbox/Meeting (2024)]]'", 'down: "[[Claude/Inbox/Meeting (2024)|the \\"meeting\\"]]"', '---', 'see [m](Claude/Inbox/Meeting%20(2024).md) and [[Claude/Inbox/Meeting (2024)]]'].join('\n');
  const out = rewriteLinksForMove(text, 'Home.md', move, worlds);
  assert.equal(out.count, 4);
  const note = parseNote('Home.md', out.text);
  assert.deepEqual(note.frontmatter, { up: "[[Bob's Notes/Meeting (2024)]]", down: '[[Bob\'s Notes/Meeting (2024)|the "meeting"]]' }, 'the YAML still parses to the new links');
  const after = new LinkResolver(files.map((path) => (path === move.from ? move.to : path)));
  for (const link of note.links) assert.equal(after.resolve(link, 'Home.md')?.path, move.to, `${link.kind} ${link.target}`);
});

test('a link inside a code span running over a line end is code, not rewritten (as the parser does not index it)', () => {
  const worlds = linkWorlds(files, move);
  const text = 'An example: `see\n[[Claude/Inbox/Walrus Plan]]` and a real [[Claude/Inbox/Walrus Plan]].\n';
  const { text: out, count } = rewriteLinksForMove(text, 'Home.md', move, worlds);
  assert.equal(out, 'An example: `see\n[[Claude/Inbox/Walrus Plan]]` and a real [[Projects/Zoo/Walrus Plan]].\n');
  assert.equal(count, 1);
  assert.deepEqual(
    parseNote('Home.md', text).links.map((link) => link.line),
    [2],
  );
});
