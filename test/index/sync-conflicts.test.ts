/**
 * Sync conflict copies: recognised by the names sync tools give them (and a numbered copy only
 * when it carries its original's id), listed by health with their originals, and never the note
 * an id resolves to while the original exists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runGraphIndex, structuralExtractor } from '../../src/graph/index.js';
import { runHealthChecks } from '../../src/librarian/index.js';
import { conflictOriginalOf, findSyncConflicts } from '../../src/vault/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

test('conflict copies are recognised by the names Syncthing, Dropbox, Obsidian-style and numbered copies get', () => {
  assert.deepEqual(conflictOriginalOf('A/Plan.sync-conflict-20261201-153012-ABCDEFG.md'), { original: 'A/Plan.md', kind: 'syncthing' });
  assert.deepEqual(conflictOriginalOf('Plan.sync-conflict-20261201-153012.md'), { original: 'Plan.md', kind: 'syncthing' });
  assert.deepEqual(conflictOriginalOf('A/Plan (conflict 2026-12-01).md'), { original: 'A/Plan.md', kind: 'conflicted copy' });
  assert.deepEqual(conflictOriginalOf("Plan (Ana's conflicted copy 2026-12-01).md"), { original: 'Plan.md', kind: 'conflicted copy' });
  assert.deepEqual(conflictOriginalOf('Plan (Conflicted copy 202612011530).md'), { original: 'Plan.md', kind: 'conflicted copy' });
  assert.deepEqual(conflictOriginalOf('Plan 2.md'), { original: 'Plan.md', kind: 'numbered copy' });
  for (const plain of ['Plan.md', 'Conflict resolution.md', 'Plan (draft).md', 'Notes/2026-12-01.md', 'Plan v2.md']) assert.equal(conflictOriginalOf(plain), null, plain);

  const ids: Record<string, string | null> = { 'Plan.md': 'x1', 'Plan 2.md': 'x1', 'Chapter.md': null, 'Chapter 2.md': null, 'Plan (conflict 2026-12-01).md': 'x1', 'Gone (conflict 2026-12-01).md': null };
  assert.deepEqual(
    findSyncConflicts(Object.keys(ids), (path) => ids[path] ?? null).map((c) => `${c.path} → ${c.original}`),
    ['Plan 2.md → Plan.md', 'Plan (conflict 2026-12-01).md → Plan.md'],
    'a numbered note of its own (no shared id) and a copy whose original is gone are not listed',
  );
});

test('health lists conflict copies with their originals; an id both carry resolves to the original', (t) => {
  const id = '550e8400-e29b-41d4-a716-446655440000';
  const { vault, db } = indexedVault(t, {
    'Research/Attention.md': `---\nid: "${id}"\n---\n# Attention\nThe original.\n`,
    'Research/Attention (conflict 2026-12-01).md': `---\nid: "${id}"\n---\n# Attention\nEdited on the phone.\n`,
    'Research/Attention.sync-conflict-20261201-153012-ABCDEFG.md': `---\nid: "${id}"\n---\n# Attention\nEdited on the laptop.\n`,
    'Notes/Reader.md': `---\nrelated:\n  - "${id}"\n---\n# Reader\nSee the attention note.\n`,
    'Chapter.md': '# Chapter\n',
    'Chapter 2.md': '# Chapter 2\nA chapter of its own.\n',
  });
  const target = db.prepare("SELECT l.resolved_path FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = 'Notes/Reader.md' AND l.kind = 'related'").pluck().get();
  assert.equal(target, 'Research/Attention.md', 'the original, not a copy (three notes share the id)');
  const check = runHealthChecks(db, { root: vault.root, agentRoot: 'Claude', model: 'm', modelMismatch: null, embedderUnavailable: null }).find((c) => c.name === 'sync conflicts')!;
  assert.equal(check.count, 2);
  assert.equal(check.ok, false);
  assert.match(check.examples.join('\n'), /Research\/Attention \(conflict 2026-12-01\)\.md is a conflicted copy of Research\/Attention\.md/);
  assert.match(check.examples.join('\n'), /sync-conflict-20261201-153012-ABCDEFG\.md is a Syncthing conflict copy of Research\/Attention\.md/);
});

test('the graph never extracts a conflict copy: its entities stay those of the original', async (t) => {
  const { root, db, writer } = indexedVault(t, {
    'Meetings/Sync.md': '---\nattendees: [Ana Silva]\n---\n# Sync\nA meeting.\n',
    'Meetings/Sync (conflict 2026-12-01).md': '---\nattendees: [Ana Silva, Bo Phone]\n---\n# Sync\nThe phone edit.\n',
    'Meetings/Sync.sync-conflict-20261201-153012-ABCDEFG.md': '---\nattendees: [Cy Laptop]\n---\n# Sync\nThe laptop edit.\n',
  });
  const report = await runGraphIndex({ root, db, extractor: structuralExtractor(db), writer, agentRoot: 'Claude' });
  assert.equal(report.processed, 1, 'only the original');
  const people = db.prepare("SELECT name FROM entities WHERE type = 'person' ORDER BY name").pluck().all();
  assert.deepEqual(people, ['Ana Silva']);
});
