/** Frontmatter identity and related: entries, read from parsed frontmatter: both forms, and every bad shape. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNote } from '../../src/vault/index.js';

const relations = (text: string) => {
  const note = parseNote('n.md', text);
  return { links: note.links.filter((link) => link.kind === 'related').map((link) => [link.target, link.id, link.type ?? null]), warnings: note.warnings, id: note.id };
};

test('related: simple form (wikilinks, paths, ids) and rich form (id/uuid/link, type/rel, note) become typed relation links', () => {
  const read = relations(
    [
      '---',
      'id: "550E8400-E29B-41D4-A716-446655440000"',
      'related:',
      '  - "[[Atlas|the project]]"',
      '  - Projects/Beacon.md',
      '  - 6ba7b810-9dad-11d1-80b4-00c04fd430c8',
      '  - id: "f47ac10b-58cc-4372-a567-0e02b2c3d479"',
      '    rel: supports',
      '    auto: true',
      '  - link: "[[Carta]]"',
      '    type: references',
      '    note: the source',
      '  - uuid: legacy-1',
      'see: "[[Elsewhere]]"',
      '---',
      'body',
    ].join('\n'),
  );
  assert.equal(read.id, '550e8400-e29b-41d4-a716-446655440000', 'ids are compared case-insensitively');
  assert.deepEqual(read.links, [
    ['Atlas', null, null],
    ['Projects/Beacon.md', 'projects/beacon.md', null],
    ['6ba7b810-9dad-11d1-80b4-00c04fd430c8', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', null],
    ['f47ac10b-58cc-4372-a567-0e02b2c3d479', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', 'supports'],
    ['Carta', null, 'references'],
    ['legacy-1', 'legacy-1', null],
  ]);
  assert.deepEqual(read.warnings, []);
  // Other fields' wikilinks stay frontmatter links.
  assert.deepEqual(
    parseNote('n.md', '---\nrelated: ["[[A]]"]\nsee: "[[B]]"\n---\n').links.map((link) => [link.kind, link.target]),
    [
      ['related', 'A'],
      ['frontmatter', 'B'],
    ],
  );
});

test('bad related: and id values are warnings naming the fix; nothing throws and the rest of the note is read', () => {
  const cases: [string, RegExp, number][] = [
    ['related: just-one-id', /related: is a single text, not a list; it is read as one entry/, 1],
    ['related: 42', /related: is a single number/, 1],
    ['related:\n  nested:\n    deep: 1', /related: is a map, not a list.*\n?.*|entry 1 has neither id nor link/, 0],
    ['related:\n  - "[[A]]"\n  -\n  - null\n  - [x, y]\n  - {type: supports}', /related: entry 2 is empty; it is skipped/, 1],
    ['related: true', /related: is a true\/false value; it is ignored/, 0],
    ['id: 12345', /id is a number \(12345\); it is read as the text "12345"/, 0],
    ['id: ""', /id is empty; the note has no stable identity/, 0],
    ['id: [a, b]', /id is a list, not text/, 0],
  ];
  for (const [yaml, warning, count] of cases) {
    const note = parseNote('n.md', `---\n${yaml}\ntags: [kept]\n---\n# Title\n[[Body Link]]\n`);
    assert.ok(
      note.warnings.some((w) => warning.test(w)),
      `${yaml} → ${JSON.stringify(note.warnings)}`,
    );
    assert.equal(note.links.filter((link) => link.kind === 'related').length, count, yaml);
    assert.deepEqual(note.tags, ['kept'], 'the other fields are still read');
    assert.ok(note.links.some((link) => link.target === 'Body Link'));
  }
  const list = parseNote('n.md', '---\nrelated:\n  - "[[A]]"\n  -\n  - null\n  - [x, y]\n  - {type: supports}\n---\n');
  assert.equal(list.warnings.length, 4, JSON.stringify(list.warnings));
  assert.equal(parseNote('n.md', '---\nid: 12345\n---\n').id, '12345');
  assert.equal(parseNote('n.md', '---\nid: ""\n---\n').id, null);
  // Malformed frontmatter: a warning, no relations, the body still read.
  const broken = parseNote('n.md', '---\nrelated: [unclosed\nid: x\n---\n[[Body]]\n');
  assert.match(broken.warnings[0]!, /malformed frontmatter/);
  assert.deepEqual(
    broken.links.map((link) => link.target),
    ['Body'],
  );
});
