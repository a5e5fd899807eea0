/** The organize tools through the real SDK client: list, accept and reject filing proposals; undo a move and a sweep. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { acquireLock } from '../../src/index/index.js';
import { newRunId, recordProposals, runSweep, sweepOptions } from '../../src/librarian/index.js';
import { LIBRARIAN_VAULT } from '../helpers/librarian.js';
import { connectFixture } from '../helpers/mcp.js';

test('organize_vault lists, applies and rejects proposals; undo_move puts everything back; undo_run reverts a sweep', async (t) => {
  const { vault, engine, call } = await connectFixture(t, LIBRARIAN_VAULT);
  const hashOf = (path: string) => engine.db.prepare('SELECT hash FROM notes WHERE path = ?').pluck().get(path) as string;
  const proposed = recordProposals(
    engine.db,
    [
      { kind: 'propose', path: 'Claude/Inbox/Walrus Plan.md', hash: hashOf('Claude/Inbox/Walrus Plan.md'), target: 'Projects/Zoo', share: 0.62, reason: 'low confidence', neighbours: [] },
      { kind: 'propose', path: 'Claude/Inbox/Rota.md', hash: hashOf('Claude/Inbox/Rota.md'), target: 'Garden', share: 0.51, reason: 'low confidence', neighbours: [] },
    ],
    'test-run',
    new Date().toISOString(),
  );
  assert.equal(proposed.length, 2);
  const [walrus, rota] = proposed.map((p) => p.id);

  const listed = await call('organize_vault');
  assert.deepEqual(
    (listed.structuredContent!.pending as { id: number }[]).map((p) => p.id),
    [walrus, rota],
  );
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')), 'listing moves nothing');

  const found = async () => ((await call('search_brain', { query: 'walrus plan' })).structuredContent!.results as { path: string }[]).map((hit) => hit.path);
  assert.ok((await found()).includes('Claude/Inbox/Walrus Plan.md'), 'search is loaded before the move');
  const home = readFileSync(join(vault.root, 'Home.md'));
  // While a sweep (or an index run) holds the state's lock, a move waits: the tool says so.
  const sweep = acquireLock(vault.home, 'index', { purpose: 'a Librarian sweep' });
  const busy = await call('organize_vault', { apply: [walrus] });
  sweep.release();
  assert.equal(busy.isError, true);
  assert.match(busy.content[0]!.text!, /a Librarian sweep is already running/);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')));
  const applied = await call('organize_vault', { apply: [walrus], reject: [rota] });
  assert.equal(applied.isError, undefined, applied.content[0]?.text);
  const move = (applied.structuredContent!.applied as { to: string; move_id: number; relinked: string[] }[])[0]!;
  assert.equal(move.to, 'Projects/Zoo/Walrus Plan.md');
  assert.deepEqual(move.relinked.sort(), ['Claude/Sessions/2026-11-01 Zoo.md', 'Home.md']);
  assert.deepEqual(applied.structuredContent!.pending, []);
  assert.match(readFileSync(join(vault.root, 'Home.md'), 'utf8'), /\[\[Projects\/Zoo\/Walrus Plan\|plan\]\]/);
  const afterMove = await found();
  assert.ok(afterMove.includes('Projects/Zoo/Walrus Plan.md') && !afterMove.includes('Claude/Inbox/Walrus Plan.md'), `search sees the move: ${afterMove}`);
  const backlinks = await call('get_backlinks', { path: 'Projects/Zoo/Walrus Plan.md' });
  assert.equal((backlinks.structuredContent!.backlinks as unknown[]).length, 7, 'every link finds the note at its new place');

  const again = await call('organize_vault', { apply: [walrus] });
  assert.equal(again.isError, true);
  assert.match(again.content[0]!.text!, /is applied; only pending proposals can be decided/);
  assert.equal((await call('organize_vault', { apply: [9999] })).isError, true);

  const undone = await call('undo_move', { move_id: move.move_id });
  assert.equal(undone.isError, undefined, undone.content[0]?.text);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')));
  assert.ok(!existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')));
  assert.deepEqual(readFileSync(join(vault.root, 'Home.md')), home, 'links restored byte for byte');
  const afterUndo = await found();
  assert.ok(afterUndo.includes('Claude/Inbox/Walrus Plan.md') && !afterUndo.includes('Projects/Zoo/Walrus Plan.md'), `search sees the undo: ${afterUndo}`);
  assert.equal((await call('undo_move', { move_id: move.move_id })).isError, true, 'a move is undone once');

  // A sweep (report only, in-process as the daemon runs it), then undo_run through the tool.
  const runId = newRunId('sweep');
  await runSweep(
    sweepOptions(
      { ...engine.settings, agentRoot: 'Claude', extractor: 'none', extractModel: 'x', organizeRoot: false, sweepMaxNotes: undefined, sweepMaxCostUsd: undefined },
      { vault: vault.root, stateDir: vault.home, db: engine.db },
      { runId, kind: 'sweep', dryRun: false, log: { err: () => {} }, phases: ['health', 'report'] },
    ),
  );
  engine.changed();
  const status = await call('librarian_status');
  assert.equal(status.structuredContent!.last_run, runId);
  assert.ok(existsSync(join(vault.root, 'Claude/Librarian.md')));
  const run = await call('undo_run', { run_id: runId });
  assert.equal(run.isError, undefined, run.content[0]?.text);
  assert.equal(run.structuredContent!.writes, 1);
  assert.ok(!existsSync(join(vault.root, 'Claude/Librarian.md')), 'the report the sweep created is gone again');
  const unknown = await call('undo_run', { run_id: 'sweep-nope' });
  assert.equal(unknown.isError, true);
  assert.match(unknown.content[0]!.text!, /no run sweep-nope/);
});
