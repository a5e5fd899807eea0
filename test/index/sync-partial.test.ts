/**
 * Files a sync has not finished (iCloud placeholders, Syncthing and Resilio temporaries, partial
 * downloads, editors' temporary files) and notes a git merge left conflict markers in: recognised
 * by name or by their markers (outside code fences), listed by health with the note they stand
 * for, refused to agent writes, skipped by the graph, and never a link's target over the original.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runGraphIndex, structuralExtractor } from '../../src/graph/index.js';
import { runHealthChecks } from '../../src/librarian/index.js';
import { conflictOriginalOf, hasMergeConflictMarkers, partialOriginalOf } from '../../src/vault/index.js';
import { agent, OWNER } from '../../src/writes/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

const MERGED = ['# Plan', '<<<<<<< HEAD', 'Ship on Monday.', '=======', 'Ship on Friday.', '>>>>>>> phone', ''].join('\n');

test('partially synced and temporary files are recognised by each tool’s naming, with the note they stand for', () => {
  assert.deepEqual(partialOriginalOf('Notes/.Plan.md.icloud'), { original: 'Notes/Plan.md', kind: 'icloud placeholder' });
  assert.deepEqual(partialOriginalOf('Notes/.syncthing.Plan.md.tmp'), { original: 'Notes/Plan.md', kind: 'syncthing temporary' });
  assert.deepEqual(partialOriginalOf('~syncthing~Plan.md.tmp'), { original: 'Plan.md', kind: 'syncthing temporary' });
  assert.deepEqual(partialOriginalOf('Plan.md.!sync'), { original: 'Plan.md', kind: 'resilio partial' });
  assert.deepEqual(partialOriginalOf('Plan.md.part'), { original: 'Plan.md', kind: 'download partial' });
  assert.deepEqual(partialOriginalOf('Plan.md.crdownload'), { original: 'Plan.md', kind: 'download partial' });
  assert.deepEqual(partialOriginalOf('Plan.md.tmp'), { original: 'Plan.md', kind: 'temporary' });
  for (const plain of ['Plan.md', 'photo.jpg.tmp', '.obsidian.tmp', 'Plan.tmp.md', 'icloud.md']) assert.equal(partialOriginalOf(plain), null, plain);
  // An Office owner file ends in .md, so it would be indexed as a note: a conflict-copy kind of its own.
  assert.deepEqual(conflictOriginalOf('Notes/~$Plan.md'), { original: 'Notes/Plan.md', kind: 'temporary copy' });
});

test('git merge conflict markers count at line starts, in order, outside code fences', () => {
  assert.equal(hasMergeConflictMarkers(MERGED), true);
  assert.equal(hasMergeConflictMarkers(MERGED.replace(/\n/g, '\r\n')), true, 'CRLF');
  assert.equal(hasMergeConflictMarkers(['# Git', '```', '<<<<<<< HEAD', 'a', '=======', 'b', '>>>>>>> main', '```'].join('\n')), false, 'shown in a fence');
  assert.equal(hasMergeConflictMarkers(['# Git', '~~~~', '<<<<<<< HEAD', '```', '=======', '>>>>>>> main', '~~~~'].join('\n')), false, 'a ``` line inside a ~~~ fence does not close it');
  assert.equal(hasMergeConflictMarkers('Title\n=======\nA setext heading, not a merge.\n'), false);
  assert.equal(hasMergeConflictMarkers('quote: <<<<<<< HEAD inline\n=======\n>>>>>>> x\n'), false, 'only at a line start');
  assert.equal(hasMergeConflictMarkers('<<<<<<< HEAD\nonly the start\n'), false);
});

test('health lists partially synced files with their notes, and notes holding merge markers', (t) => {
  const { root, db } = indexedVault(t, {
    'Notes/Plan.md': '# Plan\nDone.\n',
    'Notes/.Budget.md.icloud': 'bplist00',
    'Notes/.syncthing.Plan.md.tmp': '# Pla',
    'Notes/Plan.md.part': '# P',
    'Claude/Sessions/Merged.md': MERGED,
    'Notes/About git.md': '# Git\n```\n<<<<<<< HEAD\n=======\n>>>>>>> x\n```\n',
    '.obsidian/workspace.json.tmp': '{}',
  });
  const checks = runHealthChecks(db, { root, agentRoot: 'Claude', model: 'm', modelMismatch: null, embedderUnavailable: null });
  const partial = checks.find((c) => c.name === 'partially synced files')!;
  assert.equal(partial.count, 3, partial.examples.join('\n'));
  assert.equal(partial.ok, false);
  const lines = partial.examples.join('\n');
  assert.match(lines, /Notes\/\.Budget\.md\.icloud is an iCloud placeholder: Notes\/Budget\.md is not downloaded on this device/);
  assert.match(lines, /Notes\/\.syncthing\.Plan\.md\.tmp is a syncthing temporary file of Notes\/Plan\.md/);
  assert.match(lines, /Notes\/Plan\.md\.part is a download partial file of Notes\/Plan\.md/);
  const merges = checks.find((c) => c.name === 'merge conflicts')!;
  assert.equal(merges.count, 1);
  assert.match(merges.examples[0]!, /^Claude\/Sessions\/Merged\.md holds unresolved git merge conflict markers/);
});

test('agents cannot write a note with merge markers or an editor’s temporary file; then the owner resolves it and agents write again', (t) => {
  const { root, writer } = indexedVault(t, { 'Claude/Sessions/Merged.md': MERGED, 'Claude/~$Draft.md': 'x', 'Claude/Draft.md': '# Draft\n' });
  const append = (current: string | null) => `${current ?? ''}\nmore\n`;
  assert.throws(() => writer.write({ by: agent('append_note'), path: 'Claude/Sessions/Merged.md', next: append }), /WRITE_REFUSED|unresolved git merge conflict markers.*resolve the conflict in the note first/);
  assert.throws(() => writer.write({ by: agent('write_note'), path: 'Claude/~$Draft.md', next: () => 'y' }), /Claude\/~\$Draft\.md is a temporary file beside Claude\/Draft\.md.*write to Claude\/Draft\.md/);
  assert.equal(readFileSync(join(root, 'Claude/Sessions/Merged.md'), 'utf8'), MERGED, 'nothing written');
  // The human resolves it by their own command (the owner), and agents may write again.
  const resolved = writer.write({ by: OWNER, path: 'Claude/Sessions/Merged.md', next: () => '# Plan\nShip on Friday.\n' });
  writer.write({ by: agent('append_note'), path: 'Claude/Sessions/Merged.md', next: append });
  assert.match(readFileSync(join(root, 'Claude/Sessions/Merged.md'), 'utf8'), /Friday\.\n\nmore/);
  assert.ok(resolved.journalId > 0);
});

test('the graph skips a note with merge markers and an editor’s temporary file; a related id they share resolves to the original', async (t) => {
  const id = '550e8400-e29b-41d4-a716-446655440000';
  const { root, db, writer } = indexedVault(t, {
    'Meetings/Sync.md': `---\nid: "${id}"\nattendees: [Ana Silva]\n---\n# Sync\nA meeting.\n`,
    'Meetings/~$Sync.md': `---\nid: "${id}"\nattendees: [Cy Temp]\n---\n# Sync\n`,
    'Meetings/Retro.md': '---\nattendees: [Bo Merge]\n---\n# Retro\n<<<<<<< HEAD\nWith Bo.\n=======\nWith Di.\n>>>>>>> phone\n',
    'Notes/Reader.md': `---\nrelated:\n  - "${id}"\n---\n# Reader\n`,
  });
  const report = await runGraphIndex({ root, db, extractor: structuralExtractor(db), writer, agentRoot: 'Claude' });
  const people = db.prepare("SELECT name FROM entities WHERE type = 'person' ORDER BY name").pluck().all();
  assert.deepEqual(people, ['Ana Silva'], 'neither the temporary file nor the conflicted note asserted anyone');
  assert.equal(db.prepare("SELECT x.status FROM extractions x JOIN notes n ON n.id = x.note_id WHERE n.path = 'Meetings/Retro.md'").pluck().get(), 'conflicted');
  assert.ok(report.processed >= 1);
  const target = db.prepare("SELECT l.resolved_path FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = 'Notes/Reader.md' AND l.kind = 'related'").pluck().get();
  assert.equal(target, 'Meetings/Sync.md');
});
