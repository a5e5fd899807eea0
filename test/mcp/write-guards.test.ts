/**
 * What an agent cannot do through the write tools, over the real MCP client: undo the
 * caretaker's writes, create notes under names other tools read differently, smuggle a line
 * break into one-line text, apply a token to another change than the one previewed — and what
 * the write layer itself must not leave behind (a tag in the audit trail's header, stale temp
 * files at start-up).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GRAPH, LIBRARIAN, VaultWriter } from '../../src/writes/index.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';
import { snapshot } from '../writes/fixture.js';

const text = (result: { content: { text?: string }[] }) => result.content[0]!.text ?? '';

test("undo_write refuses the Librarian's and the graph's writes (their run is undone whole); an agent's own write it reverts", async (t) => {
  const { call, vault, engine } = await connectFixture(t, MCP_VAULT);
  const sweep = new VaultWriter({ root: vault.root, db: engine.db, stateDir: vault.home, agentRoot: 'Claude', runId: 'sweep-20261201T0330-abc123' });
  const report = sweep.write({ by: LIBRARIAN, path: 'Claude/Librarian.md', next: () => '# Librarian\n\n## Sweep 1\n' });
  const entity = sweep.write({ by: GRAPH, path: 'Claude/Graph/People/Lena.md', next: () => '# Lena\n' });
  const entityUpdate = sweep.write({ by: GRAPH, path: 'Claude/Graph/People/Lena.md', next: (current) => `${current}- works at Tessellate\n` });
  const before = snapshot(vault.root);

  for (const id of [report.journalId, entity.journalId, entityUpdate.journalId]) {
    const undo = await call('undo_write', { id });
    assert.equal(undo.isError, true, `write #${id}: ${text(undo)}`);
    assert.match(text(undo), /not by an agent; an agent undoes only what an agent wrote/);
    assert.match(text(undo), /undo_run "sweep-20261201T0330-abc123"/);
  }
  assert.deepEqual(snapshot(vault.root), before, 'Librarian.md and Graph/ untouched');

  // An agent's undo of an undo the whole-run path journaled on a protected file is refused too.
  const restore = sweep.undo(entityUpdate.journalId);
  const undoOfUndo = await call('undo_write', { id: restore.journalId });
  assert.equal(undoOfUndo.isError, true);
  assert.match(text(undoOfUndo), /protected file: Claude\/Graph\//);

  const own = (await call('write_note', { path: 'Claude/Scratch.md', content: '# Scratch\n' })).structuredContent as { journal_id: number };
  const undone = await call('undo_write', { id: own.journal_id });
  assert.equal(undone.isError, undefined, text(undone));
  assert.equal(existsSync(join(vault.root, 'Claude/Scratch.md')), false);
});

test('write_note refuses names other tools read differently: device names, .MD, percent-escapes', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const before = snapshot(vault.root);
  const cases: [string, RegExp][] = [
    ['Claude/CON.md', /"CON" is a name Windows reserves/],
    ['Claude/aux.md', /"aux" is a name Windows reserves/],
    ['Claude/Lpt1.md', /reserves/],
    ['Claude/x.MD', /extension "\.MD"; write it as \.md \("x\.md"\)/],
    ['Claude/Graph%2fx.md', /percent-escape/],
    ['Claude/New%2FFolder/x.md', /percent-escape/],
    ['Claude/con/x.md', /"con" is a name Windows reserves/],
    ['Claude/Trailing./x.md', /ends with a dot/],
  ];
  for (const [path, pattern] of cases) {
    const result = await call('write_note', { path, content: '# x\n' });
    assert.equal(result.isError, true, `${path}: ${text(result)}`);
    assert.match(text(result), pattern, path);
  }
  // Outside Claude/ the preview refuses it already.
  const outside = await call('write_note', { path: 'Projects/NUL.md', content: '# x\n' });
  assert.equal(outside.isError, true, text(outside));
  assert.deepEqual(snapshot(vault.root), before, 'nothing created');
  // An existing note keeps its name: appending to it is not a creation.
  writeFileSync(join(vault.root, 'Claude', 'Old.MD'), '# old\n');
  const append = await call('append_note', { path: 'Claude/Old.MD', content: 'more' });
  assert.equal(append.isError, undefined, text(append));
});

test('capture and add_task turn every line break, a lone CR included, into a space', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  await call('capture', { text: 'first\r- [ ] fake task\r\n# fake heading\u2028more' });
  await call('add_task', { text: 'real\r# Heading\rand\n- [x] done' });
  const inbox = readdirSync(join(vault.root, 'Claude/Inbox')).filter((name) => name !== '2026-03-15.md');
  const captured = readFileSync(join(vault.root, 'Claude/Inbox', inbox[0]!), 'utf8');
  assert.doesNotMatch(captured, /[\r\u2028]/);
  assert.match(captured, /^- \d\d:\d\d first - \[ \] fake task # fake heading more$/m);
  const tasks = readFileSync(join(vault.root, 'Claude/Tasks.md'), 'utf8');
  assert.doesNotMatch(tasks, /\r/);
  assert.deepEqual(
    tasks.split('\n').filter((line) => line.startsWith('- ')),
    ['- [ ] real # Heading and - [x] done'],
  );
});

test('a token applied with another path or other content is refused, saying so; nothing is written', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const before = snapshot(vault.root);
  const preview = (await call('write_note', { path: 'Projects/Atlas.md', content: '# Atlas\nthe previewed text\n', overwrite: true })).structuredContent as { token: string };
  const otherPath = await call('write_note', { token: preview.token, path: 'Glossary.md', content: '# Atlas\nthe previewed text\n', overwrite: true });
  assert.equal(otherPath.isError, true);
  assert.match(text(otherPath), /previewed a change to Projects\/Atlas\.md, not to Glossary\.md; nothing was written/);
  const otherContent = await call('write_note', { token: preview.token, path: 'Projects/Atlas.md', content: '# Atlas\nsomething else\n', overwrite: true });
  assert.equal(otherContent.isError, true);
  assert.match(text(otherContent), /content given differs from what this token previewed/);
  const otherTool = await call('append_note', { token: preview.token });
  assert.equal(otherTool.isError, true);
  assert.match(text(otherTool), /token is for a write_note preview; apply it with write_note/);
  assert.deepEqual(snapshot(vault.root), before, 'nothing written');
  // The same path and content (or the token alone) apply it.
  const applied = await call('write_note', { token: preview.token, path: 'Projects/Atlas.md', content: '# Atlas\nthe previewed text\n' });
  assert.equal(applied.isError, undefined, text(applied));
  assert.equal(readFileSync(join(vault.root, 'Projects/Atlas.md'), 'utf8'), '# Atlas\nthe previewed text\n');
});

test("the audit trail's header makes no tag", async (t) => {
  const { call, engine } = await connectFixture(t, MCP_VAULT);
  await call('capture', { text: 'something' });
  const tags = engine.db.prepare("SELECT tag FROM tags JOIN notes ON notes.id = tags.note_id WHERE notes.path = 'Claude/Audit.md'").pluck().all();
  assert.deepEqual(tags, []);
  assert.ok(engine.db.prepare("SELECT 1 FROM notes WHERE path = 'Claude/Audit.md'").get(), 'the audit trail is indexed');
});

test('a server starting up removes the temporary files a killed write left in the folders it wrote', async (t) => {
  const files = { ...MCP_VAULT };
  const first = await connectFixture(t, files);
  await first.call('capture', { text: 'before the kill' });
  await first.call('write_note', { path: 'Claude/Deep/Note.md', content: '# x\n' });
  // What a kill -9 between the temporary file and its rename leaves (fresh: just now).
  const left = ['Claude/Inbox/.engram-write-0a1b2c3d4e5f', 'Claude/Deep/.engram-write-abcdefabcdef', 'Claude/.engram-write-123456123456'];
  for (const path of left) writeFileSync(join(first.vault.root, path), 'x'.repeat(900_000));
  mkdirSync(join(first.vault.root, 'Projects'), { recursive: true });
  writeFileSync(join(first.vault.root, 'Projects', '.engram-write-notours'), 'a folder never written: not looked at');
  first.engine.start(); // what a new server does on start-up
  for (const path of left) assert.equal(existsSync(join(first.vault.root, path)), false, `${path} removed`);
  assert.ok(existsSync(join(first.vault.root, 'Projects', '.engram-write-notours')));
});
