/**
 * Approvals made in Obsidian: proposal lines in Claude/Librarian.md are tasks; a tick approves,
 * `[-]` rejects, and the next run decides them through the CLI's own code path and marks each
 * line with its outcome. Pure parsing first, then end to end through the real CLI.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { filingSubject, markDecidedElsewhere, markOutcomes, mergeSubject, proposalLine, readTicks, tickProblem, type ListedProposal } from '../../src/librarian/approvals.js';
import { runCli } from '../helpers/cli.js';
import { LIBRARIAN_VAULT, LIBRARIAN_WORDS } from '../helpers/librarian.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { makeVault } from '../helpers/vault.js';

test('ticks: [x] approves, [-] rejects, unticked and already decided lines are not ticks; names with brackets and dashes survive', () => {
  const weird: ListedProposal = { kind: 'filing', id: 7, subject: filingSubject("Claude/Inbox/Jollof (Mum's) — v2.md", 'Personal') };
  const merge: ListedProposal = { kind: 'merge', id: 3, subject: mergeSubject('cse foundations', 'cse foundation') };
  const text = [
    '# Librarian',
    proposalLine(weird, 'share 0.70; same name; or `organize_vault` apply [7]').replace('[ ]', '[x]'),
    proposalLine(merge, 'topic; similar names; a human decides').replace('[ ]', '[-]'),
    proposalLine({ kind: 'filing', id: 8, subject: filingSubject('a.md', 'b') }, 'share 0.5; x'),
    '- [x] filing #9: [[a]] → `b/` (x) — **applied** 2026-12-01 10:00 UTC',
    '  * [X] merge #4: "a" → "b"\r',
  ].join('\n');
  const ticks = readTicks(text);
  assert.deepEqual(
    ticks.map(({ kind, id, decision, line }) => ({ kind, id, decision, line })),
    [
      { kind: 'filing', id: 7, decision: 'approve', line: 1 },
      { kind: 'merge', id: 3, decision: 'reject', line: 2 },
      { kind: 'merge', id: 4, decision: 'approve', line: 5 },
    ],
  );
  const status = () => 'applied';
  assert.equal(tickProblem(ticks[0]!, [weird, merge], status), null, 'the line names the proposal as it is');
  assert.equal(tickProblem(ticks[1]!, [weird, merge], status), null);
  assert.match(tickProblem(ticks[0]!, [{ ...weird, subject: filingSubject("Claude/Inbox/Jollof (Mum's) — v2.md", 'Recipes') }], status)!, /changed since this line was written \(now .*Recipes/);
  assert.equal(tickProblem(ticks[2]!, [weird], status), 'the proposal is applied, no longer pending');
  assert.equal(
    tickProblem(ticks[2]!, [weird], () => null),
    'no merge proposal #4',
  );

  const marked = markOutcomes(
    text + '\nafter',
    [
      { tick: ticks[0]!, outcome: 'applied' },
      { tick: ticks[2]!, outcome: 'not applied: x' },
    ],
    '2026-12-01 21:00 UTC',
  );
  const lines = marked.split('\n');
  assert.equal(lines[1], `${text.split('\n')[1]} — **applied** 2026-12-01 21:00 UTC`);
  assert.equal(lines[5], '  * [X] merge #4: "a" → "b" — **not applied: x** 2026-12-01 21:00 UTC\r', 'a CRLF line keeps its ending');
  assert.deepEqual(
    readTicks(marked).map((tick) => tick.id),
    [3],
    'marked lines are decided once',
  );
  // Lines that moved since they were read are found by their text.
  const moved = markOutcomes(`inserted\n${text}`, [{ tick: ticks[1]!, outcome: 'rejected' }], 'then');
  assert.match(moved.split('\n')[3]!, /merge #3: .* — \*\*rejected\*\* then$/);
  assert.equal(markOutcomes('gone', [{ tick: ticks[1]!, outcome: 'rejected' }], 'then'), 'gone');
});

function setup(t: TestContext) {
  const vault = makeVault(t, LIBRARIAN_VAULT);
  const modelDir = join(vault.home, '..', 'models');
  writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'), { words: LIBRARIAN_WORDS });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir, ENGRAM_EXTRACTOR: 'structural' };
  const report = join(vault.root, 'Claude/Librarian.md');
  const status = (id: number) => {
    const db = new Database(join(vault.home, readdirSync(vault.home)[0]!, 'engram.db'), { readonly: true });
    try {
      return db.prepare('SELECT status FROM organize_proposals WHERE id = ?').pluck().get(id);
    } finally {
      db.close();
    }
  };
  return { vault, env, report, status };
}

async function sweepWithProposal(t: TestContext) {
  const s = setup(t);
  const run = await runCli(['librarian', '--json'], s.env);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const id = JSON.parse(run.stdout).proposals.organize[0].id as number;
  const text = readFileSync(s.report, 'utf8');
  assert.match(text, new RegExp(`^- \\[ \\] filing #${id}: \\[\\[Claude/Inbox/Rota\\]\\] → \``, 'm'), 'the proposal is a task line');
  return { ...s, id, text };
}

test('a ticked filing is applied by `engram librarian --apply-ticked`, its line marked; a stale or changed line is reported, not applied', async (t) => {
  const { vault, env, report, status, id } = await sweepWithProposal(t);
  // The organizer proposed filing next to a note of the same name, which no move may overwrite:
  // retarget the proposal (as a later sweep could) and list it again.
  const db = new Database(join(vault.home, readdirSync(vault.home)[0]!, 'engram.db'));
  db.prepare("UPDATE organize_proposals SET target = 'Projects/Archive' WHERE id = ?").run(id);
  db.close();
  assert.equal((await runCli(['librarian', '--phases', 'report'], env)).code, 0);
  const listed = readFileSync(report, 'utf8');
  const fresh = `- [ ] filing #${id}: [[Claude/Inbox/Rota]] → \`Projects/Archive/\``;
  const old = `- [ ] filing #${id}: [[Claude/Inbox/Rota]] → \`Projects/Zoo/\``;
  assert.ok(listed.includes(fresh) && listed.includes(old), 'both sections list it');
  const tick = (line: string) => line.replace('- [ ]', '- [x]');
  writeFileSync(report, listed.replace(fresh, tick(fresh)).replace(old, tick(old)) + `- [x] filing #999: [[Nowhere]] → \`Else/\`\n`);

  const run = await runCli(['librarian', '--apply-ticked', '--json'], env);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const phases = JSON.parse(run.stdout).phases as { name: string; counts: Record<string, number> }[];
  assert.deepEqual(
    phases.map((phase) => phase.name),
    ['approvals'],
  );
  const after = readFileSync(report, 'utf8');
  assert.deepEqual(phases[0]!.counts, { ticked: 3, applied: 1, rejected: 0, refused: 2 }, after);
  assert.ok(existsSync(join(vault.root, 'Projects/Archive/Rota.md')), 'the note was filed');
  assert.equal(existsSync(join(vault.root, 'Claude/Inbox/Rota.md')), false);
  assert.equal(status(id), 'applied');
  assert.match(after, new RegExp(`^- \\[x\\] filing #${id}: .*Archive.* — \\*\\*applied: moved to Projects/Archive/Rota\\.md \\(\`engram undo move:\\d+\` reverts it\\)\\*\\* \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`, 'm'));
  assert.match(after, new RegExp(`^- \\[x\\] filing #${id}: .*Zoo.* — \\*\\*not applied: (the proposal changed since this line was written|decided by another line)`, 'm'));
  assert.match(after, /^- \[x\] filing #999: .* — \*\*not applied: no filing proposal #999\*\*/m);

  const again = await runCli(['librarian', '--apply-ticked', '--json'], env);
  assert.equal(JSON.parse(again.stdout).phases[0].counts.ticked, 0, 'decided lines are not decided again');
  assert.equal(readFileSync(report, 'utf8'), after);
});

test('[-] rejects a filing: nothing moves, the proposal is rejected; --apply-ticked with --phases is a usage error', async (t) => {
  const { vault, env, report, status, id, text } = await sweepWithProposal(t);
  writeFileSync(report, text.replace(`- [ ] filing #${id}:`, `- [-] filing #${id}:`));
  const run = await runCli(['librarian', '--json'], env);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const approvals = JSON.parse(run.stdout).phases.find((phase: { name: string }) => phase.name === 'approvals');
  assert.equal(approvals.counts.rejected, 1, 'a whole sweep decides ticks first');
  assert.equal(status(id), 'rejected');
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Rota.md')));
  assert.match(readFileSync(report, 'utf8'), new RegExp(`^- \\[-\\] filing #${id}: .* — \\*\\*rejected\\*\\*`, 'm'));
  const both = await runCli(['librarian', '--apply-ticked', '--phases', 'index'], env);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--apply-ticked is the approvals phase alone/);
});

test('a ticked merge is applied exactly as `engram graph consolidate --apply` would', async (t) => {
  const vault = makeVault(t, {
    'People/Ana Silva.md': '---\ntype: person\n---\n# Ana Silva\nEngineer.\n',
    'Meetings/Sync.md': '---\nattendees: ["[[Ana Silva]]"]\n---\n# Sync\nWith [[Ana Silva]].\n',
    'Meetings/Retro.md': '---\nattendees: [Anna Silva]\n---\n# Retro\nA retro.\n',
  });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: join(vault.home, '..', 'no-models'), ENGRAM_EXTRACTOR: 'structural', ENGRAM_OFFLINE: '1' };
  const sweep = await runCli(['librarian', '--json'], env);
  const merge = JSON.parse(sweep.stdout).proposals.merges[0];
  assert.deepEqual([merge.loser, merge.winner], ['Anna Silva', 'Ana Silva'], sweep.stderr);
  const report = join(vault.root, 'Claude/Librarian.md');
  const line = `- [ ] merge #${merge.id}: "Anna Silva" → "Ana Silva"`;
  const text = readFileSync(report, 'utf8');
  assert.ok(text.includes(line), text);
  writeFileSync(report, text.replace(line, line.replace('[ ]', '[x]')));
  const run = await runCli(['librarian', '--apply-ticked', '--json'], env);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  assert.equal(JSON.parse(run.stdout).phases[0].counts.applied, 1);
  assert.match(readFileSync(report, 'utf8'), new RegExp(`^- \\[x\\] merge #${merge.id}: .* — \\*\\*applied \\(\`engram undo merge:${merge.id}\` reverts it\\)\\*\\*`, 'm'));
  const stats = await runCli(['graph', 'consolidate', '--json'], env);
  assert.deepEqual(JSON.parse(stats.stdout).pending, [], 'nothing left to decide');
  assert.match(readFileSync(join(vault.root, 'Claude/Graph/People/Anna Silva.md'), 'utf8'), /Ana Silva/, 'the loser is a stub pointing at the winner');
});

test('a decision made elsewhere (the local page) marks every undecided line of that proposal, and only those', () => {
  const text = [
    '- [ ] filing #3: [[Inbox/A]] → `Projects/`\r',
    '- [x] filing #3: [[Inbox/A]] → `Projects/` (again)',
    '- [ ] filing #4: [[Inbox/B]] → `Areas/`',
    '- [ ] merge #3: "a" → "b"',
    '- [x] filing #3: [[Inbox/A]] → `Projects/` — **applied** 2026-11-30 08:00 UTC',
  ].join('\n');
  const marked = markDecidedElsewhere(text, { kind: 'filing', id: 3, decision: 'reject', outcome: 'rejected', where: 'on the local page' }, '2026-12-01 09:00 UTC').split('\n');
  assert.equal(marked[0], '- [-] filing #3: [[Inbox/A]] → `Projects/` — **rejected** 2026-12-01 09:00 UTC (on the local page)\r');
  assert.equal(marked[1], '- [-] filing #3: [[Inbox/A]] → `Projects/` (again) — **rejected** 2026-12-01 09:00 UTC (on the local page)');
  assert.deepEqual(marked.slice(2), text.split('\n').slice(2), 'other proposals, the other kind and decided lines are left as they are');
  assert.deepEqual(readTicks(marked.join('\n')), []);
});
