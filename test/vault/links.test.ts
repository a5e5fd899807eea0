import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LinkResolver, type LinkKind } from '../../src/vault/index.js';

const files = [
  'Home.md',
  'Projects/Atlas/Overview.md',
  'Projects/Billing/Overview.md',
  'Projects/Overview.md',
  'Concepts/BM25.md',
  'Concepts/Some Note.md',
  'Deep/a/b/Target.md',
  'Deep/Target.md',
  'attachments/architecture.svg',
  'Case/Note.md',
  'Case/note.md',
  'Café.md',
];
const resolver = new LinkResolver(files);
const resolve = (target: string, source: string, kind: LinkKind = 'wikilink') => resolver.resolve({ kind, target }, source)?.path ?? null;

test("a bare name prefers the linking note's folder, then the shortest path", () => {
  assert.equal(resolve('Overview', 'Projects/Atlas/Plan.md'), 'Projects/Atlas/Overview.md');
  assert.equal(resolve('Overview', 'Projects/Billing/x.md'), 'Projects/Billing/Overview.md');
  assert.equal(resolve('Overview', 'Home.md'), 'Projects/Overview.md');
  assert.equal(resolve('Target', 'Home.md'), 'Deep/Target.md');
});

test('matching is case-insensitive and .md is optional', () => {
  assert.equal(resolve('bm25', 'Home.md'), 'Concepts/BM25.md');
  assert.equal(resolve('BM25.md', 'Home.md'), 'Concepts/BM25.md');
  assert.equal(resolve('HOME', 'Concepts/BM25.md'), 'Home.md');
});

test('a path is tried from the root, then relative to the note, then as a suffix', () => {
  assert.equal(resolve('Projects/Atlas/Overview', 'Home.md'), 'Projects/Atlas/Overview.md');
  assert.equal(resolve('Atlas/Overview', 'Projects/x.md'), 'Projects/Atlas/Overview.md');
  assert.equal(resolve('b/Target', 'Home.md'), 'Deep/a/b/Target.md');
  assert.equal(resolve('../Concepts/BM25', 'Projects/x.md'), 'Concepts/BM25.md');
  assert.equal(resolve('Nope/Overview', 'Home.md'), null);
});

test('markdown links resolve relative to the note, then from the root', () => {
  assert.equal(resolve('../Concepts/BM25.md', 'Projects/x.md', 'markdown'), 'Concepts/BM25.md');
  assert.equal(resolve('Concepts/Some Note.md', 'Projects/Atlas/x.md', 'markdown'), 'Concepts/Some Note.md');
  assert.equal(resolve('Overview.md', 'Projects/Billing/x.md', 'markdown'), 'Projects/Billing/Overview.md');
  assert.equal(resolve('../../../../escape.md', 'Projects/x.md', 'markdown'), null);
});

test('attachments resolve as attachments; missing files stay unresolved', () => {
  assert.deepEqual(resolver.resolve({ kind: 'embed', target: 'architecture.svg' }, 'Home.md'), { path: 'attachments/architecture.svg', kind: 'attachment' });
  assert.equal(resolve('whiteboard.png', 'Home.md'), null);
  assert.equal(resolve('Missing Note', 'Home.md'), null);
});

test('notes that differ only by case: the spelling of the link wins', () => {
  assert.equal(resolve('Note', 'Home.md'), 'Case/Note.md');
  assert.equal(resolve('note', 'Home.md'), 'Case/note.md');
});

test('Unicode normalization: an NFD link finds an NFC file', () => {
  assert.equal(resolve('Cafe\u0301', 'Home.md'), 'Café.md');
});

test('a self-link resolves to the linking note', () => {
  assert.equal(resolve('', 'Concepts/BM25.md'), 'Concepts/BM25.md');
});
