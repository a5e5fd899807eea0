/** addRelatedEntries: only the related: field changes, in the list's own form; what it cannot edit safely, it refuses. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addRelatedEntries, parseNote } from '../../src/vault/index.js';

const ATLAS = { link: '[[Atlas]]', id: 'aaaa-1111' };
const BEACON = { link: '[[Beacon]]', id: null };

function edited(text: string, entries = [ATLAS, BEACON]): string {
  const edit = addRelatedEntries(text, entries);
  assert.ok(edit.ok, edit.ok ? '' : edit.reason);
  return edit.text;
}

/** Every line outside the related: block is the same, in the same order. */
function outsideRelated(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (/^related\s*:/.test(line)) inside = true;
    else if (inside && !/^([ \t]|-([ \t]|$))/.test(line)) inside = false;
    if (!inside) out.push(line);
  }
  return out;
}

test('each form of related: gets the entries in its own form, and nothing else changes', () => {
  const cases: [string, string, string[]][] = [
    ['no frontmatter', '# Note\nbody\n', ['[[Atlas]]', '[[Beacon]]']],
    ['no related: field', '---\n# a comment\ntitle: "Note"   # kept\ntags: [x, y]\n---\nbody\n', ['[[Atlas]]', '[[Beacon]]']],
    ['block list of links', '---\nrelated:\n    - "[[Old]]"\nstatus: raw\n---\nbody', ['[[Old]]', '[[Atlas]]', '[[Beacon]]']],
    ['block list of ids (Smart Relations simple)', '---\nid: "x-1"\nrelated:\n  - "bbbb-2222"\nkind: knowledge\n---\n', ['bbbb-2222', 'aaaa-1111', '[[Beacon]]']],
    ['empty flow list', '---\nrelated: []\nsummary: "One line."\n---\n', ['[[Atlas]]', '[[Beacon]]']],
    ['flow list', '---\nrelated: ["[[Old]]", Other]\n---\n', ['[[Old]]', 'Other', '[[Atlas]]', '[[Beacon]]']],
    ['indentless block list', '---\nrelated:\n- "[[Old]]"\nafter: 1\n---\n', ['[[Old]]', '[[Atlas]]', '[[Beacon]]']],
  ];
  for (const [name, before, expected] of cases) {
    const after = edited(before);
    const note = parseNote('n.md', after);
    assert.deepEqual(note.warnings, [], name);
    assert.deepEqual((note.frontmatter!.related as unknown[]).map(String), expected, name);
    const parsedBefore = parseNote('n.md', before).frontmatter ?? {};
    const { related: _a, ...restBefore } = parsedBefore;
    const { related: _b, ...restAfter } = note.frontmatter!;
    assert.deepEqual(restAfter, restBefore, `${name}: the other fields are equal`);
    if (before.startsWith('---')) assert.deepEqual(outsideRelated(after), outsideRelated(before), `${name}: every other line is byte for byte the same`);
    else assert.ok(after.endsWith(before), `${name}: the body is kept`);
  }
});

test('a rich list gets rich items (id where the target has one, else link), marked auto', () => {
  const before = '---\nid: "x-1"\nrelated:\n  - id: "bbbb-2222"\n    rel: "supports"\n    auto: false\ntags: [t]\n---\nbody\n';
  const after = edited(before);
  assert.deepEqual(parseNote('n.md', after).frontmatter!.related, [
    { id: 'bbbb-2222', rel: 'supports', auto: false },
    { id: 'aaaa-1111', auto: true },
    { link: '[[Beacon]]', auto: true },
  ]);
  assert.deepEqual(outsideRelated(after), outsideRelated(before));
});

test('what cannot be edited safely is refused with the fix: not a list, malformed YAML, no closing fence', () => {
  for (const [text, reason] of [
    ['---\nrelated: "[[A]] [[B]]"\n---\n', /related: is not a list; make it one/],
    ['---\nrelated: {id: x}\n---\n', /related: is not a list/],
    ['---\nrelated: [unclosed\n---\n', /malformed frontmatter.*fix it before adding relations/],
    ['---\nrelated: []\nno closing fence\n', /no closing ---/],
    ['---\nrelated: [{id: x}]\n---\n', /written inline with items that are not text/],
  ] as const) {
    const edit = addRelatedEntries(text, [ATLAS]);
    assert.equal(edit.ok, false, text);
    assert.match(edit.ok ? '' : edit.reason, reason);
  }
  assert.deepEqual(addRelatedEntries('x', []), { ok: true, text: 'x' }, 'nothing to add: unchanged');
});
