import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../src/vault/index.js';

test('title comes from frontmatter, then the first H1, then the file name', () => {
  assert.equal(parseNote('a/Note.md', '---\ntitle: From FM\n---\n# Heading\n').title, 'From FM');
  assert.equal(parseNote('a/Note.md', 'intro\n\n# First H1\n# Second\n').title, 'First H1');
  assert.equal(parseNote('a/Note.md', '## only h2\n').title, 'Note');
});

test('frontmatter fields: aliases, type/kind, tags as list or string, dates stay strings', () => {
  const note = parseNote('n.md', ['---', 'aliases: [One, Two]', 'kind: meeting', 'tags: project/atlas, Status/Active', 'created: 2026-03-14', '---', 'Body with #Inline/Nested/ tag and #123 (not a tag) and a#b (not a tag).'].join('\n'));
  assert.deepEqual(note.aliases, ['One', 'Two']);
  assert.equal(note.type, 'meeting');
  assert.deepEqual(note.tags, ['inline/nested', 'project/atlas', 'status/active']);
  assert.equal(note.frontmatter?.created, '2026-03-14');
  assert.deepEqual(note.warnings, []);
});

test('alias given as a comma string is split', () => {
  assert.deepEqual(parseNote('n.md', '---\naliases: Maya, M. Okafor\n---\n').aliases, ['Maya', 'M. Okafor']);
});

test('malformed frontmatter is a warning and the note is still parsed', () => {
  const note = parseNote('Bad.md', '---\ntitle: [unclosed\ntags: x\n---\n# Real Title\nSee [[Other]] #kept\n');
  assert.equal(note.frontmatter, null);
  assert.equal(note.title, 'Real Title');
  assert.equal(note.warnings.length, 1);
  assert.match(note.warnings[0]!, /malformed frontmatter/);
  assert.deepEqual(
    note.links.map((link) => link.target),
    ['Other'],
  );
  assert.deepEqual(note.tags, ['kept']);
});

test('frontmatter without a closing fence is body text', () => {
  const note = parseNote('n.md', '---\ntitle: x\n# H\n');
  assert.equal(note.frontmatter, null);
  assert.equal(note.title, 'H');
  assert.deepEqual(note.warnings, []);
});

test('code fences and inline code hide headings, links, tags and tasks', () => {
  const note = parseNote('n.md', ['# Real', '```md', '# not a heading', '[[Not A Link]] #nottag', '- [ ] not a task', '```', '> ```css', '> a { color: #ff0000; }', '> ```', 'Use `[[Also Not]]` and `#nope` but [[Yes]] #yes'].join('\n'));
  assert.deepEqual(
    note.blocks.map((block) => block.key),
    ['#Real'],
  );
  assert.deepEqual(
    note.links.map((link) => link.target),
    ['Yes'],
  );
  assert.deepEqual(note.tags, ['yes']);
  assert.deepEqual(note.tasks, []);
});

test('a code span running over a line end hides tags and links, as Obsidian reads it; a new block or blank line ends it', () => {
  const note = parseNote(
    'n.md',
    [
      'Write `#tag` or a span over two lines: `example',
      '#camelCase [[Not A Link]]` — then #real and [[Real]].',
      '',
      'A lone ` backtick, then a new paragraph:',
      '',
      '#after stays a tag.',
      '- item with an open `backtick',
      '- #listtag in the next item',
    ].join('\n'),
  );
  assert.deepEqual(note.tags, ['after', 'listtag', 'real']);
  assert.deepEqual(
    note.links.map((link) => [link.target, link.line]),
    [['Real', 2]],
  );
});

test('a heading link [[#Section]] is a self-link, not a tag', () => {
  const note = parseNote('n.md', 'see [[#Section|here]]\n');
  assert.deepEqual(note.tags, []);
  assert.deepEqual(note.links, [{ kind: 'wikilink', target: '', subpath: 'Section', display: 'here', line: 1 }]);
});

test('every link form: wikilink, alias, heading, block, embed, markdown, escaped pipe, frontmatter', () => {
  const note = parseNote(
    'dir/n.md',
    [
      '---',
      'related: "[[Front Link]]"',
      '---',
      '[[Plain]] [[Folder/Path Note|shown]] [[Note#Heading]] [[Note#^abc123]] ![[diagram.svg]]',
      '[md](../Concepts/BM25.md) [spaced](Some%20Note.md#Part) [ext](https://example.com/x.md) ![img](<pic one.png>)',
      '| [[Table\\|alias]] |',
    ].join('\n'),
  );
  const simple = note.links.map((link) => [link.kind, link.target, link.subpath, link.display, link.line]);
  assert.deepEqual(simple, [
    ['related', 'Front Link', null, null, 0],
    ['wikilink', 'Plain', null, null, 4],
    ['wikilink', 'Folder/Path Note', null, 'shown', 4],
    ['wikilink', 'Note', 'Heading', null, 4],
    ['wikilink', 'Note', '^abc123', null, 4],
    ['embed', 'diagram.svg', null, null, 4],
    ['markdown', '../Concepts/BM25.md', null, 'md', 5],
    ['markdown', 'Some Note.md', 'Part', 'spaced', 5],
    ['embed', 'pic one.png', null, 'img', 5],
    ['wikilink', 'Table', null, 'alias', 6],
  ]);
});

test('tasks in Obsidian Tasks format', () => {
  const note = parseNote('n.md', ['- [ ] Draft plan ⏫ 📅 2026-04-01', '  * [x] Ship v1 ✅ 2026-03-20', '1. [/] Half done 🔁 every week ⏳ 2026-03-02', '> - [-] Dropped ❌ 2026-03-05 🔽', '- [] not a task'].join('\n'));
  assert.equal(note.tasks.length, 4);
  const [a, b, c, d] = note.tasks;
  assert.deepEqual([a!.status, a!.text, a!.priority, a!.due, a!.line], [' ', 'Draft plan', 'high', '2026-04-01', 1]);
  assert.deepEqual([b!.status, b!.text, b!.done], ['x', 'Ship v1', '2026-03-20']);
  assert.deepEqual([c!.status, c!.text, c!.recurrence, c!.scheduled], ['/', 'Half done', 'every week', '2026-03-02']);
  assert.deepEqual([d!.status, d!.cancelled, d!.priority], ['-', '2026-03-05', 'low']);
});

test('word count skips frontmatter and counts CJK characters one by one', () => {
  assert.equal(parseNote('n.md', '---\ntitle: a b c\n---\nOne two, three-four.\n').wordCount, 3);
  assert.equal(parseNote('n.md', '知識 graph').wordCount, 3);
});

test('CRLF notes parse like LF notes', () => {
  const lf = parseNote('n.md', '---\ntitle: T\n---\n# H\ntext [[L]] #t\n- [ ] do 📅 2026-01-01\n');
  const crlf = parseNote('n.md', '---\r\ntitle: T\r\n---\r\n# H\r\ntext [[L]] #t\r\n- [ ] do 📅 2026-01-01\r\n');
  assert.equal(crlf.title, lf.title);
  assert.deepEqual(crlf.blocks, lf.blocks);
  assert.deepEqual(crlf.links, lf.links);
  assert.deepEqual(crlf.tags, lf.tags);
  assert.deepEqual(crlf.tasks, lf.tasks);
});

test('any text parses: empty, only frontmatter, binary-ish garbage', () => {
  for (const text of ['', '---\n---\n', '\u0000\u0001[[', '#', '```', '- [ ]', '---\n: : :\n---']) {
    const note = parseNote('x.md', text);
    assert.equal(typeof note.title, 'string');
  }
});

test('a YAML alias bomb in frontmatter is a warning: the note parses without its fields', () => {
  const bomb = [
    '---',
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'tags: [kept-out]',
    '---',
    '# Bomb',
    'body text #inline',
  ].join('\n');
  const note = parseNote('Claude/Bomb.md', bomb);
  assert.equal(note.frontmatter, null);
  assert.deepEqual(note.tags, ['inline']);
  assert.match(note.warnings.join('\n'), /frontmatter could not be read safely/);
});
