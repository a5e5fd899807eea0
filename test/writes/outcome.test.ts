/**
 * The writer's typed answers: `verdict` (would this write need a preview?), `submit` (written |
 * preview | refused with its code), and the codes its refusals throw with — each actor kind.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agent, GRAPH, LIBRARIAN, OWNER, WRITE_DEFAULTS } from '../../src/writes/index.js';
import { journalRows, refused, snapshot, START, writerVault } from './fixture.js';

const append = (line: string) => (current: string | null) => `${current ?? ''}${line}\n`;

test('verdict: the quarantine after the path gate, per actor, without writing anything', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': '# Atlas\n', 'Claude/Plan.md': 'v1\n' });
  const before = snapshot(fx.root);
  assert.deepEqual(fx.writer.verdict({ by: agent('write_note'), path: 'Claude/Plan.md' }), { kind: 'free' });
  assert.equal(fx.writer.verdict({ by: agent('write_note'), path: './Projects/Atlas.md' }).kind, 'confirm');
  assert.equal(fx.writer.verdict({ by: agent('graph'), path: 'Claude/Graph/People/Ada.md' }).kind, 'refused', 'a tool named graph is still an agent');
  assert.deepEqual(fx.writer.verdict({ by: GRAPH, path: 'Claude/Graph/People/Ada.md' }), { kind: 'free' });
  assert.deepEqual(fx.writer.verdict({ by: LIBRARIAN, path: 'Claude/Librarian.md' }), { kind: 'free' });
  assert.deepEqual(fx.writer.verdict({ by: OWNER, path: 'Projects/Atlas.md' }), { kind: 'free' });
  refused(() => fx.writer.verdict({ by: agent('write_note'), path: '../outside/x.md' }), /./, 'outside the vault', 'INVALID_INPUT');
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(journalRows(fx.db), []);
});

test('submit: written in the agent folder, a preview outside it, refused with its code for protected files', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': '# Atlas\n' });
  const written = fx.writer.submit({ by: agent('capture'), path: 'Claude/Inbox.md', next: append('- idea') });
  assert.equal(written.kind, 'written');
  assert.equal(fx.text('Claude/Inbox.md'), '- idea\n');

  const previewed = fx.writer.submit({ by: agent('append_note'), path: 'Projects/Atlas.md', next: append('more') });
  assert.equal(previewed.kind, 'preview');
  if (previewed.kind === 'preview') {
    assert.match(previewed.reason, /Projects\/Atlas\.md is outside Claude\/.*confirmation/);
    assert.equal(fx.text('Projects/Atlas.md'), '# Atlas\n', 'a preview writes nothing');
    fx.writer.apply(previewed.preview.token);
    assert.equal(fx.text('Projects/Atlas.md'), '# Atlas\nmore\n');
  }

  const protectedFile = fx.writer.submit({ by: agent('write_note'), path: 'Claude/Audit.md', next: () => '' });
  assert.deepEqual(protectedFile, { kind: 'refused', code: 'WRITE_REFUSED', reason: "Claude/Audit.md is the write journal's trail; Engram keeps it itself" });
  assert.equal(journalRows(fx.db).length, 2, 'the refusal journaled nothing');
  // The journal records each actor as it always did.
  assert.deepEqual(
    journalRows(fx.db).map((row) => row.tool),
    ['capture', 'append_note'],
  );
});

test('the writer throws with meaningful codes, never USAGE', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': '# Atlas\n', 'Claude/Taken.md': 'x\n' });
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Projects/Atlas.md', next: append('x') }), /preview first/, 'outside', 'CONFIRMATION_REQUIRED');
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Librarian.md', next: append('x') }), /only the Librarian/, 'report', 'WRITE_REFUSED');
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Taken.md', create: true, next: () => 'y\n' }), /exists already/, 'create', 'CONFLICT');
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Big.md', next: () => 'x'.repeat(WRITE_DEFAULTS.maxBytes + 1) }), /split the content/, 'size', 'INVALID_INPUT');
  refused(() => fx.writer.apply('0'.repeat(32)), /unknown preview token/, 'unknown token', 'PREVIEW_EXPIRED');
  const late = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: append('late') });
  fx.clock.now = START + WRITE_DEFAULTS.previewMs + 1;
  refused(() => fx.writer.apply(late.token), /expired/, 'expired', 'PREVIEW_EXPIRED');
  fx.clock.now = START;
  const other = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: append('other') });
  refused(() => fx.writer.apply(other.token, { tool: 'append_note' }), /is for a write_note preview/, 'another tool', 'INVALID_INPUT');
  fx.vault.write('Projects/Atlas.md', '# Atlas\nedited by hand\n');
  refused(() => fx.writer.apply(other.token), /changed since the preview/, 'changed', 'CONFLICT');
  refused(() => fx.writer.undo(99), /no write #99/, 'no write', 'NOT_FOUND');
  const owned = fx.writer.write({ by: OWNER, path: 'CLAUDE.md', create: true, next: () => '# rules\n' });
  refused(() => fx.writer.undo(owned.journalId, { agent: true }), /only they can undo it/, 'owner', 'WRITE_REFUSED');
  assert.equal(fx.writer.undoVerdict(owned.journalId).kind, 'refused');
  const gone = fx.writer.undoVerdict(999);
  assert.ok(gone.kind === 'refused' && gone.code === 'NOT_FOUND');
});
