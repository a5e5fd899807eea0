/**
 * Writes outside Claude/: preview shows a diff and returns a token without touching the vault;
 * apply writes exactly the previewed bytes, once, before the token expires, and only if the
 * human has not edited the note in between.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hashContent } from '../../src/vault/index.js';
import { agent, lineDiff, WRITE_DEFAULTS } from '../../src/writes/index.js';
import { auditLines, journalRows, refused, snapshot, START, writerVault } from './fixture.js';

const ATLAS = '# Atlas\n\nOwner: Ada\nStatus: draft\n';

test('preview returns a diff, a token and an expiry, and writes nothing', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': ATLAS, 'Home.md': '# Home\n' });
  const before = snapshot(fx.root);
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => current!.replace('Status: draft', 'Status: shipped') });
  assert.equal(preview.path, 'Projects/Atlas.md');
  assert.match(preview.token, /^[0-9a-f]{32}$/);
  assert.equal(preview.expires, new Date(START + WRITE_DEFAULTS.previewMs).toISOString());
  assert.equal(preview.diff, '@@ line 4 @@\n- Status: draft\n+ Status: shipped');
  assert.deepEqual(snapshot(fx.root), before, 'no file, no Audit.md, no folder');
  assert.deepEqual(journalRows(fx.db), []);
  assert.equal(existsSync(join(fx.vault.home, 'write.lock')), false);

  // A new note: the diff is all additions; two previews get two tokens.
  const fresh = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Sub/New.md', create: true, next: () => '# New\nbody\n' });
  assert.match(fresh.diff, /^@@ line 1 @@\n\+ # New\n\+ body/);
  assert.notEqual(fresh.token, preview.token);
  assert.deepEqual(snapshot(fx.root), before);
  refused(() => fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', create: true, next: () => 'x\n' }), /exists already/);
});

test('apply writes exactly the previewed bytes (next is not called again), journaled and audited', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': Buffer.from(`\uFEFF${ATLAS.replace(/\n/g, '\r\n')}`, 'utf8') });
  const original = fx.read('Projects/Atlas.md');
  let calls = 0;
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => `${current}Reviewed (${++calls})\n` });
  const stored = fx.db.prepare('SELECT after_bytes FROM previews WHERE token = ?').pluck().get(preview.token) as Buffer;
  fx.clock.now = START + 60_000;
  const receipt = fx.writer.apply(preview.token);
  assert.equal(calls, 1, 'apply does not render again');
  const written = fx.read('Projects/Atlas.md');
  assert.deepEqual(written, stored);
  assert.deepEqual(written, Buffer.from(`\uFEFF${ATLAS.replace(/\n/g, '\r\n')}Reviewed (1)\r\n`, 'utf8'));
  assert.deepEqual(receipt, { journalId: 1, path: 'Projects/Atlas.md', created: false, beforeHash: hashContent(original), afterHash: hashContent(written), touched: ['Projects/Atlas.md', 'Claude/Audit.md'] });
  const [row] = journalRows(fx.db);
  assert.ok(row && row.before_bytes !== null && original.equals(row.before_bytes));
  assert.equal(row.tool, 'write_note');
  assert.match(auditLines(fx.root)[0]!, /#1 write_note · Projects\/Atlas\.md/);
  assert.equal(fx.db.prepare('SELECT used_ms FROM previews WHERE token = ?').pluck().get(preview.token), START + 60_000);

  // ... and the applied write can be undone like any other.
  fx.writer.undo(receipt.journalId);
  assert.deepEqual(fx.read('Projects/Atlas.md'), original);
});

test('apply of a previewed new note creates it (folders included)', (t) => {
  const fx = writerVault(t, { 'Home.md': '# Home\n' });
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Areas/Health/Sleep.md', create: true, next: () => '# Sleep\n' });
  const receipt = fx.writer.apply(preview.token);
  assert.equal(fx.text('Areas/Health/Sleep.md'), '# Sleep\n');
  assert.equal(receipt.created, true);
  fx.writer.undo(receipt.journalId);
  assert.equal(existsSync(join(fx.root, 'Areas/Health/Sleep.md')), false);
});

test('a used token is refused; so is an unknown one', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': ATLAS });
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => `${current}once\n` });
  fx.writer.apply(preview.token);
  const before = snapshot(fx.root);
  refused(() => fx.writer.apply(preview.token), /used already.*preview again/);
  // Even when the file is put back as it was at preview time.
  fx.vault.write('Projects/Atlas.md', ATLAS);
  const restored = snapshot(fx.root);
  refused(() => fx.writer.apply(preview.token), /used already/);
  assert.deepEqual(snapshot(fx.root), restored);
  assert.notDeepEqual(restored, before);
  refused(() => fx.writer.apply('0'.repeat(32)), /unknown preview token/);
  refused(() => fx.writer.apply(''), /unknown preview token/);
  assert.equal(journalRows(fx.db).length, 1);
});

test('an expired token is refused; one just inside the window applies', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': ATLAS, 'Projects/Other.md': 'other\n' });
  const late = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => `${current}late\n` });
  const timely = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Other.md', next: (current) => `${current}timely\n` });
  fx.clock.now = START + WRITE_DEFAULTS.previewMs + 1;
  const before = snapshot(fx.root);
  refused(() => fx.writer.apply(late.token), /expired.*preview the write again/);
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(journalRows(fx.db), []);
  // Moving the clock back shows the refused token was not consumed by the refusal.
  fx.clock.now = START + WRITE_DEFAULTS.previewMs;
  fx.writer.apply(timely.token);
  assert.equal(fx.text('Projects/Other.md'), 'other\ntimely\n');
  fx.writer.apply(late.token);
  assert.equal(fx.text('Projects/Atlas.md'), `${ATLAS}late\n`);
});

test("a human edit between preview and apply refuses the apply and keeps the human's bytes", (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': ATLAS });
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => `${current}agent line\n` });
  const human = `${ATLAS}human line, typed in Obsidian\n`;
  fx.vault.write('Projects/Atlas.md', human);
  const before = snapshot(fx.root);
  refused(() => fx.writer.apply(preview.token), /Projects\/Atlas\.md changed since the preview.*preview again/);
  assert.equal(fx.text('Projects/Atlas.md'), human);
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(journalRows(fx.db), []);

  // The human deleting the note, or creating one the preview meant to create, refuses too.
  const second = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => `${current}again\n` });
  fx.vault.remove('Projects/Atlas.md');
  refused(() => fx.writer.apply(second.token), /changed since the preview/);
  assert.equal(existsSync(join(fx.root, 'Projects/Atlas.md')), false);
  const create = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Fresh.md', create: true, next: () => 'agent\n' });
  fx.vault.write('Projects/Fresh.md', 'human got there first\n');
  refused(() => fx.writer.apply(create.token), /changed since the preview/);
  assert.equal(fx.text('Projects/Fresh.md'), 'human got there first\n');
  // A refused apply does not burn the token's check: it stays unused and still refuses.
  refused(() => fx.writer.apply(create.token), /changed since the preview/);
});

test('a token is tied to its database, not its writer: another session can apply it once', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': ATLAS });
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: (current) => `${current}x\n` });
  const other = fx.another('other-session');
  other.apply(preview.token);
  refused(() => fx.writer.apply(preview.token), /used already/);
  assert.equal(journalRows(fx.db)[0]!.run_id, 'other-session');
});

test('lineDiff: shared edges elided, removed then added lines', () => {
  assert.equal(lineDiff('a\nb\nc\n', 'a\nB\nc\n'), '@@ line 2 @@\n- b\n+ B');
  assert.equal(lineDiff('a\n', 'a\nb\n'), '@@ line 2 @@\n+ b');
  assert.equal(lineDiff('a\nb\n', 'a\n'), '@@ line 2 @@\n- b');
});

// Cosmetic: the preview diff of a CRLF note shows a stray "\r" at the end of each line.
test('the preview diff of a CRLF note has no carriage returns', (t) => {
  const fx = writerVault(t, { 'Projects/Win.md': 'a\r\nb\r\n' });
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Win.md', next: (current) => `${current}c\n` });
  assert.doesNotMatch(preview.diff, /\r/);
});
