import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notePrivacy } from '../../src/graph/privacy.js';
import { PRIVATE_SPELLINGS } from '../helpers/private-notes.js';

/** Near misses: not private, and must still be sent. */
const PUBLIC: Record<string, string> = {
  plain: '# Plan\nShip the search migration.\n',
  'other-tags': '---\ntags: [work, privacy-policy, private-equity]\n---\nA.\n',
  'private-false': '---\nprivate: false\n---\nA.\n',
  'word-in-prose': '# Notes\nWe discussed private equity and the privacy policy.\n',
  'heading-link-like-url': '# Links\nhttps://example.com/page#private and [[Note#Private]]\n',
  'private-in-title': '---\ntitle: Private equity basics\n---\nA.\n',
  'tag-prefix-only': '# Tags\n#privateer is a pirate tag.\n',
};

test('every spelling of "private" marks the note private', () => {
  for (const [name, text] of Object.entries(PRIVATE_SPELLINGS)) {
    const verdict = notePrivacy(text);
    assert.equal(verdict.private, true, `${name} was read as public`);
  }
});

test('near misses are not private', () => {
  for (const [name, text] of Object.entries(PUBLIC)) assert.deepEqual(notePrivacy(text), { private: false }, name);
});

test('a note whose frontmatter cannot be read is private until it can, and says why', () => {
  const verdict = notePrivacy(PRIVATE_SPELLINGS['unparseable-anything']!);
  assert.ok(verdict.private && verdict.reason === 'unreadable-frontmatter', JSON.stringify(verdict));
  assert.match(verdict.private ? verdict.detail : '', /fix the YAML/);
  assert.ok(notePrivacy(PRIVATE_SPELLINGS['alias-bomb']!).private, 'an alias bomb is unreadable, not fatal');
});

test("the index's own tags and configured private tags count too", () => {
  assert.ok(notePrivacy('# A\n', { tags: ['private/health'] }).private);
  assert.ok(notePrivacy('# A\n#secret-stuff\n', { privateTags: ['secret-stuff'] }).private);
  assert.deepEqual(notePrivacy('# A\n', { tags: ['work'] }), { private: false });
});

test('privacy never throws, whatever the text', () => {
  const pieces = ['---', '\n', 'tags:', ' [', ']', '&a', '*a', '"', '#', 'private', ':', '- ', '\t', '{', '}', '...', '\r', '\uFEFF', 'x'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 500; i++) {
    const text = Array.from({ length: Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    const verdict = notePrivacy(text);
    assert.equal(typeof verdict.private, 'boolean');
  }
});
