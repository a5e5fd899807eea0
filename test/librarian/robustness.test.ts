/**
 * The organizer's moves under failure and second thoughts: a move a kill interrupted is rolled
 * back by the next sweep; a move is undone as a whole, never file by file; a move or proposal the
 * owner declined is not made again; a note edited after planning is not moved.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { vectorToBlob } from '../../src/index/index.js';
import { decideProposals, moveNote, planOrganize, recordProposals, runSweep } from '../../src/librarian/index.js';
import { sessionOver } from '../../src/session/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

const FILES: Record<string, string> = {
  'Zoo/A.md': '# A\nwalrus\n',
  'Zoo/B.md': '# B\nseal\n',
  'Zoo/C.md': '# C\nkeeper\n',
  'Garden/D.md': '# D\ntomato\n',
  'Claude/Inbox/Plan.md': '# Plan\nwalrus plan\n',
  'Home.md': 'see [[Claude/Inbox/Plan]] and [p](Claude/Inbox/Plan.md)\n',
  'Other.md': 'also [[Claude/Inbox/Plan|the plan]]\n',
};

function setup(t: TestContext) {
  const { vault, root, db, writer, index } = indexedVault(t, FILES);
  // Note vectors by hand: the Inbox note sits among the Zoo notes (a clear vote for Zoo).
  const direction: Record<string, number[]> = { 'Zoo/A.md': [1, 0.1], 'Zoo/B.md': [1, 0.15], 'Zoo/C.md': [1, 0.05], 'Garden/D.md': [0, 1], 'Claude/Inbox/Plan.md': [1, 0.1] };
  const insert = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) SELECT id, '', 'm', 'local', hash, ? FROM notes WHERE path = ?");
  for (const [path, vector] of Object.entries(direction)) insert.run(vectorToBlob(new Float32Array(vector)), path);
  const context = { root, db, writer, agentRoot: 'Claude', exclude: [] as string[] };
  const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : null);
  return { vault, db, writer, index, context, read };
}

test("a move a kill interrupted is rolled back by the next sweep's cleanup", async (t) => {
  const { vault, db, writer, context, read } = setup(t);
  const original = Object.fromEntries(Object.keys(FILES).map((path) => [path, read(path)]));
  const { moveId } = moveNote(context, 'Claude/Inbox/Plan.md', 'Zoo/Plan.md');
  // The state a kill leaves after the new file and Home.md were written, before Other.md and the
  // removal of the old file: the journal holds the whole move, the completion mark is missing.
  db.prepare('UPDATE moves SET completed_at = NULL WHERE id = ?').run(moveId);
  writeFileSync(join(vault.root, 'Other.md'), FILES['Other.md']!);
  writeFileSync(join(vault.root, 'Claude/Inbox/Plan.md'), FILES['Claude/Inbox/Plan.md']!);
  const report = await runSweep({
    session: sessionOver({ vault: vault.root, stateDir: vault.home, db }, { exclude: [], model: 'm', agentRoot: 'Claude' }),
    runId: 'sweep-cleanup',
    vectors: { model: 'm', modelDir: join(vault.home, 'none'), offline: true, exclude: [] },
    log: { err: () => {} },
    extractor: null,
    writer,
    dryRun: false,
    phases: ['cleanup'],
  });
  assert.equal(report.phases[0]!.counts.interrupted, 1, JSON.stringify(report.phases));
  for (const [path, text] of Object.entries(original)) assert.equal(read(path), text, path);
  assert.equal(read('Zoo/Plan.md'), null);
  assert.ok(db.prepare('SELECT undone_at FROM moves WHERE id = ?').pluck().get(moveId));
});

test('a move is undone as a whole: undo_write on one of its files is refused', (t) => {
  const { db, writer, context } = setup(t);
  const { moveId } = moveNote(context, 'Claude/Inbox/Plan.md', 'Zoo/Plan.md');
  const rows = db.prepare('SELECT id FROM journal WHERE move_id = ?').pluck().all(moveId) as number[];
  for (const id of rows) assert.throws(() => writer.undo(id), new RegExp(`part of move ${moveId}; undo the whole move`));
});

test('an undone move and a rejected proposal are not made again; a note edited since planning is not moved', (t) => {
  const { vault, db, writer, index, context } = setup(t);
  const plan = () => planOrganize(db, { agentRoot: 'Claude', model: 'm' }).filings.find((filing) => filing.path === 'Claude/Inbox/Plan.md')!;
  assert.equal(plan().kind, 'move');
  const { moveId } = moveNote(context, 'Claude/Inbox/Plan.md', 'Zoo/Plan.md');
  writer.undoMove(moveId);
  index();
  // The note is back with its vector (same content).
  db.prepare("INSERT OR REPLACE INTO vectors (note_id, block_key, model, source, content_hash, vector) SELECT id, '', 'm', 'local', hash, ? FROM notes WHERE path = 'Claude/Inbox/Plan.md'").run(vectorToBlob(new Float32Array([1, 0.1])));
  const after = plan();
  assert.equal(after.kind, 'skip');
  assert.match((after as { reason: string }).reason, /declined filing it into Zoo\//);

  const hash = db.prepare("SELECT hash FROM notes WHERE path = 'Claude/Inbox/Plan.md'").pluck().get() as string;
  const [proposal] = recordProposals(db, [{ kind: 'propose', path: 'Claude/Inbox/Plan.md', hash, target: 'Garden', share: 0.5, reason: 'low', neighbours: [] }], 'r', new Date().toISOString());
  decideProposals(context, { reject: [proposal!.id] }, new Date().toISOString());
  assert.equal(
    recordProposals(db, [{ kind: 'propose', path: 'Claude/Inbox/Plan.md', hash, target: 'Garden', share: 0.6, reason: 'low', neighbours: [] }], 'r2', new Date().toISOString()).length,
    0,
    'a rejected proposal is not proposed again',
  );

  // Planned against one text (the indexed hash), the note then edited: the move is refused.
  vault.write('Claude/Inbox/Plan.md', '# Plan\nwalrus plan, edited\n');
  assert.throws(() => moveNote(context, 'Claude/Inbox/Plan.md', 'Zoo/Plan.md', hash), /changed since the move was planned/);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Plan.md')));
});
