import assert from 'node:assert/strict';
import { renameSync, symlinkSync, utimesSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStateDb, readStatus, runIndex, type IndexOptions } from '../../src/index/index.js';
import { readNoteFile } from '../../src/vault/index.js';
import { makeVault, type FixtureVault } from '../helpers/vault.js';
import { dumpState, withoutIds } from '../helpers/state.js';

function indexer(vault: FixtureVault) {
  mkdirSync(vault.home, { recursive: true });
  const { db } = openStateDb(vault.home);
  const run = (options: Partial<IndexOptions> = {}) => runIndex(db, { root: vault.root, ...options });
  const status = () => readStatus(db, { vault: vault.root, stateDir: vault.home });
  return { db, run, status };
}

test('first run indexes everything; a second run with nothing changed does nothing', (t) => {
  const vault = makeVault(t, {
    'Home.md': '# Home\nSee [[Projects/Atlas]] and [[Missing]] and ![[diagram.svg]] #start\n- [ ] water plants 📅 2026-04-01\n',
    'Projects/Atlas.md': '---\ntags: [project/atlas]\n---\n# Atlas\nBack to [[Home]].\n',
    'diagram.svg': '<svg/>',
    '.obsidian/app.json': '{}',
    '.trash/Old.md': '# old',
  });
  const { run, status, db } = indexer(vault);
  const first = run();
  assert.equal(first.added, 2);
  assert.equal(first.notes, 2);
  const doc = status();
  assert.deepEqual(doc.links, { total: 4, resolved: 3, unresolved: 1, to_attachments: 1 });
  assert.equal(doc.tags, 2);
  assert.deepEqual(doc.tasks, { total: 1, open: 1, done: 0 });
  assert.equal(doc.attachments, 1);
  assert.ok(doc.last_indexed_at);
  assert.deepEqual(doc.warnings, []);

  const before = dumpState(db);
  const second = run();
  assert.equal(second.added + second.modified + second.deleted + second.moved.length + second.touched, 0);
  assert.equal(second.unchanged, 2);
  assert.deepEqual(dumpState(db), before);
});

test('edit, add, delete; a rename is a move that keeps the note id', (t) => {
  const vault = makeVault(t, { 'a.md': '# A\nlinks [[b]]\n', 'b.md': '# B\n', 'c.md': 'to be deleted\n' });
  const { run, db } = indexer(vault);
  run();
  const idOf = (path: string) => db.prepare('SELECT id FROM notes WHERE path = ?').pluck().get(path);
  const bId = idOf('b.md');
  vault.write('a.md', '# A2\nlinks [[b]] and [[new]]\n');
  vault.remove('c.md');
  renameSync(join(vault.root, 'b.md'), join(vault.root, 'renamed.md'));
  vault.write('new.md', 'fresh\n');
  const report = run();
  assert.equal(report.modified, 1);
  assert.equal(report.added, 1);
  assert.equal(report.deleted, 1);
  assert.deepEqual(report.moved, [{ from: 'b.md', to: 'renamed.md' }]);
  assert.equal(idOf('renamed.md'), bId);
  // The link to the old name is now unresolved, the new note's link resolves.
  const links = db.prepare('SELECT target, resolved_path FROM links ORDER BY ord').all();
  assert.deepEqual(links, [
    { target: 'b', resolved_path: null },
    { target: 'new', resolved_path: 'new.md' },
  ]);
  assert.equal(db.prepare("SELECT title FROM notes WHERE path = 'a.md'").pluck().get(), 'A2');
});

test('a link is re-resolved when its target appears, moves closer, or disappears', (t) => {
  const vault = makeVault(t, { 'x/src.md': '[[Target]]\n', 'far/deeper/Target.md': 'far\n' });
  const { run, db } = indexer(vault);
  const resolved = () => db.prepare('SELECT resolved_path FROM links').pluck().get();
  run();
  assert.equal(resolved(), 'far/deeper/Target.md');
  vault.write('x/Target.md', 'near\n'); // same folder wins
  run();
  assert.equal(resolved(), 'x/Target.md');
  vault.remove('x/Target.md');
  vault.remove('far');
  run();
  assert.equal(resolved(), null);
});

test('touching a file without changing it only updates its stat', (t) => {
  const vault = makeVault(t, { 'a.md': '# A\n' });
  const { run } = indexer(vault);
  run();
  utimesSync(join(vault.root, 'a.md'), new Date(2030, 0, 1), new Date(2030, 0, 1));
  const report = run();
  assert.equal(report.touched, 1);
  assert.equal(report.modified, 0);
});

test('--full re-parses every note and changes nothing when nothing changed', (t) => {
  const vault = makeVault(t, { 'a.md': '# A\n[[b]]', 'b.md': 'b' });
  const { run, db } = indexer(vault);
  run();
  const before = withoutIds(dumpState(db));
  const report = run({ full: true });
  assert.equal(report.modified, 0, 'nothing changed, so nothing is reported modified');
  assert.equal(report.rebuilt, 2);
  assert.equal(report.full, true);
  assert.deepEqual(withoutIds(dumpState(db)), before);
  vault.write('b.md', 'b changed');
  const changed = run({ full: true });
  assert.deepEqual([changed.modified, changed.rebuilt], [1, 1]);
});

test('vaults with 0, 1 and 2 notes', (t) => {
  for (const count of [0, 1, 2]) {
    const files: Record<string, string> = {};
    for (let i = 0; i < count; i++) files[`n${i}.md`] = `# Note ${i}\n`;
    const vault = makeVault(t, files);
    const { run, status } = indexer(vault);
    assert.equal(run().notes, count);
    assert.equal(status().notes, count);
    assert.deepEqual(status().warnings, []);
  }
});

test('bad files are skipped with a reason and every other note is still indexed', (t) => {
  const outside = makeVault(t, { 'secret.md': 'outside the vault' });
  const vault = makeVault(t, {
    'good.md': '# Good\n',
    'big.md': 'a'.repeat(50 * 1024 * 1024),
    'binary.md': Buffer.from([0x23, 0x20, 0x00, 0xff, 0x10]),
    'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'malformed.md': '---\ntitle: [oops\n---\n# Still Here\n',
  });
  symlinkSync(join(outside.root, 'secret.md'), join(vault.root, 'leak.md'));
  symlinkSync(outside.root, join(vault.root, 'linked-folder'));
  symlinkSync(join(vault.root, 'loop-a.md'), join(vault.root, 'loop-b.md'));
  symlinkSync(join(vault.root, 'loop-b.md'), join(vault.root, 'loop-a.md'));
  const { run, status, db } = indexer(vault);
  const report = run();
  assert.equal(report.notes, 3, 'good, latin1 and malformed are indexed');
  const reasons = Object.fromEntries(status().skipped.map((entry) => [entry.path, entry.reason]));
  assert.match(reasons['big.md']!, /larger than the 10\.0 MB note limit/);
  assert.match(reasons['binary.md']!, /binary content/);
  assert.match(reasons['leak.md']!, /outside the vault \(not followed\)/);
  assert.match(reasons['linked-folder']!, /outside the vault \(not followed\)/);
  assert.match(reasons['loop-a.md']!, /symlink loop/);
  assert.match(reasons['loop-b.md']!, /symlink loop/);
  const warnings = status().warnings.join('\n');
  assert.match(warnings, /malformed\.md: malformed frontmatter/);
  assert.match(warnings, /latin1\.md: not valid UTF-8/);
  assert.equal(db.prepare("SELECT title FROM notes WHERE path = 'malformed.md'").pluck().get(), 'Still Here');
  assert.equal(db.prepare("SELECT count(*) FROM notes WHERE path LIKE '%secret%'").pluck().get(), 0);
});

test('a note deleted between listing and reading is reported, not fatal', (t) => {
  const vault = makeVault(t, { 'a.md': 'a', 'b.md': 'b', 'c.md': 'c' });
  const { run, status } = indexer(vault);
  const report = run({
    onProgress: (progress) => {
      if (progress.phase === 'read' && progress.done === 1) vault.remove('b.md');
    },
  });
  assert.equal(report.notes, 2);
  assert.deepEqual(status().skipped, [{ path: 'b.md', reason: 'deleted while indexing' }]);
  // The next run no longer sees it at all.
  run();
  assert.deepEqual(status().skipped, []);
});

test('a file that cannot be read gives a reason', (t) => {
  const vault = makeVault(t, { 'dir.md/inner.md': 'x' });
  const outcome = readNoteFile(join(vault.root, 'dir.md'));
  assert.equal(outcome.ok, false);
  assert.match(!outcome.ok ? outcome.reason : '', /cannot be read \(EISDIR\)/);
});

test('notes differing only by case are both indexed and flagged; Unicode twins are skipped', (t) => {
  const vault = makeVault(t, { 'Note.md': 'upper', 'note.md': 'lower', 'Caf\u00e9.md': 'nfc', 'Cafe\u0301.md': 'nfd' });
  const { run, status } = indexer(vault);
  assert.equal(run().notes, 3);
  const doc = status();
  assert.match(doc.warnings.join('\n'), /differ only by letter case \(Note\.md \| note\.md\)|differ only by letter case \(note\.md \| Note\.md\)/);
  assert.equal(doc.skipped.length, 1);
  assert.match(doc.skipped[0]!.reason, /after Unicode normalization/);
});

test('excluded folders are vault-relative paths, matched case-insensitively', (t) => {
  const vault = makeVault(t, { 'keep.md': 'k', 'Archive/old.md': 'o', 'Work/Old/x.md': 'x', 'a/Archive/deep.md': 'd' });
  const { run, db } = indexer(vault);
  run({ exclude: ['archive', 'work/old/'] });
  assert.deepEqual(db.prepare('SELECT path FROM notes ORDER BY path').pluck().all(), ['a/Archive/deep.md', 'keep.md']);
});

test('indexPaths updates only the given paths and ends where a full run would', async (t) => {
  const { indexPaths } = await import('../../src/index/index.js');
  const vault = makeVault(t, { 'a.md': '# A\n[[b]] [[c]]\n', 'b.md': 'b body', 'c.md': 'c body', 'img.png': 'png' });
  const targeted = indexer(vault);
  targeted.run();
  vault.write('a.md', '# A edited\n[[b]] [[c]] [[d]] ![[img.png]]\n');
  vault.remove('b.md');
  vault.write('sub/b2.md', 'b body'); // b.md moved
  vault.write('d.md', 'new d');
  vault.remove('img.png');
  vault.write('.obsidian/x.md', 'never');
  const report = indexPaths(targeted.db, ['a.md', 'b.md', 'sub/b2.md', 'd.md', 'img.png', '.obsidian/x.md', 'nope.md'], { root: vault.root });
  assert.deepEqual([report.modified, report.added, report.deleted, report.moved], [1, 1, 0, [{ from: 'b.md', to: 'sub/b2.md' }]]);

  const reference = makeVault(t);
  const full = indexer({ ...vault, home: reference.home });
  full.run();
  const strip = (dump: Record<string, unknown[]>) => ({ ...withoutIds(dump), skipped: [] });
  assert.deepEqual(strip(dumpState(targeted.db)), strip(dumpState(full.db)));
});

test('indexPaths refuses a path through a symlinked folder', async (t) => {
  const { indexPaths } = await import('../../src/index/index.js');
  const outside = makeVault(t, { 'secret.md': 'outside' });
  const vault = makeVault(t, { 'a.md': 'a' });
  symlinkSync(outside.root, join(vault.root, 'link'));
  const { db } = indexer(vault);
  const report = indexPaths(db, ['link/secret.md', '../outside.md'], { root: vault.root });
  assert.equal(report.notes, 0);
  assert.deepEqual(report.skipped, [{ path: 'link/secret.md', reason: 'inside a symlinked folder (not followed)' }]);
});

test('a state indexed before lists of links were read gets them on the next run: the parser version makes every note parsed again', (t) => {
  const vault = makeVault(t, { 'Hub.md': '# Hub\n## Guides\n- [[Sync]]\n- [[Publish]]\n', 'Sync.md': '# Sync\n' });
  const { run, db } = indexer(vault);
  run();
  const listed = () => db.prepare('SELECT key, link_list FROM blocks JOIN notes n ON n.id = blocks.note_id WHERE n.path = ? ORDER BY ord').raw().all('Hub.md');
  assert.deepEqual(listed(), [
    ['#Hub', 0],
    ['#Hub#Guides', 1],
  ]);
  // As an older Engram left it: the column at its default, the previous parser version recorded.
  db.exec("UPDATE blocks SET link_list = 0; UPDATE meta SET value = '4' WHERE key = 'parser_version'");
  const again = run();
  assert.equal(again.full, true);
  assert.deepEqual(listed(), [
    ['#Hub', 0],
    ['#Hub#Guides', 1],
  ]);
});
