/**
 * Ticks applied by the daemon's watcher: a human ticks proposal lines in `Claude/Librarian.md`
 * (in Obsidian, or on a phone and synced), and the running daemon decides them as soon as its
 * watcher has seen the change — not at the next scheduled job. A real daemon (watcher, lease,
 * jobs) on a real vault; the test edits the report as a human would and waits for the effect.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { SweepReport } from '../../src/librarian/index.js';
import { runCli } from '../helpers/cli.js';
import { startDevice, type Device } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { LIBRARIAN_VAULT } from '../helpers/librarian.js';
import { makeVault } from '../helpers/vault.js';

const PEOPLE = {
  'People/Ana Silva.md': '---\ntype: person\n---\n# Ana Silva\nEngineer.\n',
  'Meetings/Sync.md': '---\nattendees: ["[[Ana Silva]]"]\n---\n# Sync\nWith [[Ana Silva]].\n',
  'Meetings/Retro.md': '---\nattendees: [Anna Silva]\n---\n# Retro\nA retro.\n',
};

/** A daemon whose sweep left a filing proposal (retargeted to a free folder, as a later sweep could) and a merge proposal in the report. */
async function withProposals(t: TestContext) {
  const vault = makeVault(t, { ...LIBRARIAN_VAULT, ...PEOPLE });
  const laptop = await startDevice(t, vault, 'laptop');
  const sweep = (await laptop.daemon.run('sweep')) as SweepReport;
  const filing = sweep.proposals.organize.find((proposal) => proposal.path === 'Claude/Inbox/Rota.md');
  const merge = sweep.proposals.merges.find((proposal) => proposal.loser === 'Anna Silva');
  assert.ok(filing && merge, JSON.stringify(sweep.proposals));
  // The organizer proposed filing next to a note of the same name, which no move may overwrite.
  laptop.session.db.prepare("UPDATE organize_proposals SET target = 'Projects/Archive' WHERE id = ?").run(filing.id);
  assert.equal((await runCli(['librarian', '--phases', 'report'], laptop.env)).code, 0);
  await laptop.daemon.engine.watching();
  const report = join(vault.root, 'Claude/Librarian.md');
  const text = readFileSync(report, 'utf8');
  const filingLine = `- [ ] filing #${filing.id}: [[Claude/Inbox/Rota]] → \`Projects/Archive/\``;
  const mergeLine = `- [ ] merge #${merge.id}: "Anna Silva" → "Ana Silva"`;
  assert.ok(text.includes(filingLine) && text.includes(mergeLine), text);
  return { vault, laptop, report, text, filingLine, mergeLine, filing, merge };
}

function approvalsRan(device: Device): boolean {
  return device.daemon.status().last.approvals !== undefined && device.daemon.status().running === null;
}

test('ticking a merge and a filing in the report: the daemon applies both once its watcher sees the edit, journaled and undoable', async (t) => {
  const { vault, laptop, report, text, filingLine, mergeLine, filing, merge } = await withProposals(t);
  const tick = (line: string) => line.replace('- [ ]', '- [x]');
  writeFileSync(report, text.replace(filingLine, tick(filingLine)).replace(mergeLine, tick(mergeLine)));

  await eventually(() => approvalsRan(laptop) && /\*\*applied \(`engram undo merge:/.test(readFileSync(report, 'utf8')), 'the daemon applied the ticks');
  const after = readFileSync(report, 'utf8');
  assert.match(after, new RegExp(`^- \\[x\\] filing #${filing.id}: .* — \\*\\*applied: moved to Projects/Archive/Rota\\.md \\(\`engram undo move:(\\d+)\` reverts it\\)\\*\\*`, 'm'));
  assert.match(after, new RegExp(`^- \\[x\\] merge #${merge.id}: .* — \\*\\*applied \\(\`engram undo merge:${merge.id}\` reverts it\\)\\*\\*`, 'm'));
  assert.ok(existsSync(join(vault.root, 'Projects/Archive/Rota.md')) && !existsSync(join(vault.root, 'Claude/Inbox/Rota.md')), 'filed');
  assert.match(readFileSync(join(vault.root, 'Claude/Graph/People/Anna Silva.md'), 'utf8'), /Ana Silva/, 'merged');

  // Journaled under the approvals run, which the daemon's status names.
  const runId = laptop.daemon.status().last.approvals!.run_id;
  const journaled = laptop.session.db.prepare('SELECT DISTINCT path FROM journal WHERE run_id = ?').pluck().all(runId) as string[];
  assert.ok(journaled.includes('Projects/Archive/Rota.md') && journaled.includes('Claude/Librarian.md'), journaled.join(', '));
  assert.ok(
    journaled.some((path) => path.startsWith('Claude/Graph/')),
    'the merge rewrote entity notes under the run',
  );

  const moveId = /engram undo move:(\d+)/.exec(after)![1]!;
  const undoMove = await runCli(['undo', `move:${moveId}`], laptop.env);
  assert.equal(undoMove.code, 0, undoMove.stderr);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Rota.md')), 'the filing is undone');
  const undoMerge = await runCli(['undo', `merge:${merge.id}`], laptop.env);
  assert.equal(undoMerge.code, 0, undoMerge.stderr);
  // The job's own marking of the lines (and the undos' relinking) started no further job: marked lines are decided.
  await laptop.daemon.engine.settled();
  assert.equal(laptop.log.filter((line) => line.startsWith('engram daemon: approvals ')).length, 1, laptop.log.join('\n'));
});

test('[-] rejects, a ticked line whose proposal changed is reported and not applied, and a device without the lease leaves ticks alone', async (t) => {
  const { vault, laptop, report, text, filingLine, mergeLine, filing, merge } = await withProposals(t);
  const desk = await startDevice(t, vault, 'desk');
  await desk.daemon.engine.watching();
  // The merge line as a human edited it: it no longer names the pending proposal.
  const edited = mergeLine.replace('- [ ]', '- [x]').replace('"Ana Silva"', '"Ana Silvia"');
  writeFileSync(report, text.replace(filingLine, filingLine.replace('- [ ]', '- [-]')).replace(mergeLine, edited));

  await eventually(() => approvalsRan(laptop) && /\*\*rejected\*\*/.test(readFileSync(report, 'utf8')), 'the daemon decided the ticks');
  const after = readFileSync(report, 'utf8');
  assert.match(after, new RegExp(`^- \\[-\\] filing #${filing.id}: .* — \\*\\*rejected\\*\\*`, 'm'));
  assert.match(after, new RegExp(`^- \\[x\\] merge #${merge.id}: "Anna Silva" → "Ana Silvia".* — \\*\\*not applied: the proposal changed since this line was written`, 'm'));
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Rota.md')), 'a rejected filing moves nothing');
  const statusOf = (table: string, id: number) => laptop.session.db.prepare(`SELECT status FROM ${table} WHERE id = ?`).pluck().get(id);
  assert.equal(statusOf('organize_proposals', filing.id), 'rejected');
  assert.equal(statusOf('proposals', merge.id), 'pending', 'the changed line decided nothing');

  // The desk shares the vault; without the lease it applies no ticks (asked directly: whether its
  // watcher saw the ticks before the laptop marked them decided is a race the test does not run).
  assert.equal(await desk.daemon.run('approvals'), null);
  assert.match(desk.log.join('\n'), /approvals skipped: the caretaker lease is held by device "laptop"/);
  assert.equal(desk.daemon.status().last.approvals, undefined);
});
