/** Projects and issues through the real SDK client: records in frontmatter, transitions, archiving, human edits, bad input. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { acquireLock } from '../../src/index/index.js';
import { archiveIsDue } from '../../src/mcp/tools/work-archive.js';
import { setFields } from '../../src/librarian/index.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

type Call = Awaited<ReturnType<typeof connectFixture>>['call'];
const today = () => new Date().toISOString().slice(0, 10);

async function refused(call: Call, tool: string, args: Record<string, unknown>, code: string, pattern: RegExp): Promise<void> {
  const result = await call(tool, args);
  assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)} should fail`);
  assert.ok(result.content[0]!.text!.startsWith(`[${code}]`), `${tool} ${JSON.stringify(args)}: ${result.content[0]!.text}`);
  assert.match(result.content[0]!.text!, pattern);
}

test('create_project and issues: frontmatter records, ids per project, comments, a human edit wins, list filters', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const project = await call('create_project', { name: 'Atlas', goal: 'Move search to Tantivy.', links: ['[[Projects/Atlas]]'], archive_after_days: 3 });
  assert.equal(project.isError, undefined, project.content[0]!.text);
  const readme = readFileSync(join(vault.root, 'Claude/Projects/Atlas/README.md'), 'utf8');
  assert.match(readme, /^---\ntype: project\nname: Atlas\nstatus: active\ncreated: \d{4}-\d{2}-\d{2}\narchive_after_days: 3\nnext_issue: 1\n---\n# Atlas\n/);
  assert.match(readme, /```dataview\nTABLE issue, status, priority, assignee, labels FROM "Claude\/Projects\/Atlas" WHERE type = "issue" SORT issue ASC/);
  const filed = [];
  for (const title of ['Index the wiki', 'Fix ranking', 'Write docs']) {
    const result = await call('create_issue', { project: 'atlas', title, labels: title === 'Fix ranking' ? ['bug'] : [], assignee: 'claude' });
    assert.equal(result.isError, undefined, result.content[0]!.text);
    filed.push(result.structuredContent as { id: number; path: string });
  }
  assert.deepEqual(
    filed.map((issue) => issue.id),
    [1, 2, 3],
  );
  assert.equal(filed[1]!.path, 'Claude/Projects/Atlas/Issues/2 Fix ranking.md');
  const issueText = readFileSync(join(vault.root, filed[1]!.path), 'utf8');
  assert.equal(issueText, `---\ntype: issue\nissue: 2\nproject: Atlas\nstatus: open\npriority: medium\nassignee: claude\nlabels: [bug]\ncreated: ${today()}\nupdated: ${today()}\n---\n# Fix ranking\n\n## Comments\n`);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Atlas/README.md'), 'utf8'), /next_issue: 4/);

  const doing = await call('update_issue', { id: 2, status: 'doing', comment: 'started on\nthe ranking', author: 'ada' });
  assert.equal(doing.isError, undefined, doing.content[0]!.text);
  assert.match(readFileSync(join(vault.root, filed[1]!.path), 'utf8'), new RegExp(`status: doing\\n[\\s\\S]*## Comments\\n- ${today()} ada: started on the ranking\\n$`));
  // A human edits the issue in Obsidian (a field of their own, another priority): the next update keeps it all.
  writeFileSync(join(vault.root, filed[1]!.path), readFileSync(join(vault.root, filed[1]!.path), 'utf8').replace('priority: medium', 'priority: high\nestimate: 3d'));
  await call('update_issue', { id: 2, comment: 'second thought' });
  const edited = readFileSync(join(vault.root, filed[1]!.path), 'utf8');
  assert.match(edited, /priority: high\nestimate: 3d\n/);
  assert.match(edited, /ada: started on the ranking\n- \d{4}-\d{2}-\d{2} claude: second thought\n$/);
  const high = await call('list_issues', { project: 'Atlas', status: ['doing'] });
  assert.deepEqual(
    (high.structuredContent!.issues as { id: number; priority: string }[]).map((i) => [i.id, i.priority]),
    [[2, 'high']],
    'the list reads the file as the human left it',
  );
  assert.deepEqual(
    ((await call('list_issues', { label: 'bug' })).structuredContent!.issues as { id: number }[]).map((i) => i.id),
    [2],
  );
  assert.deepEqual(
    ((await call('list_issues', { text: 'wiki' })).structuredContent!.issues as { id: number }[]).map((i) => i.id),
    [1],
  );
  const first = await call('list_issues', { limit: 2 });
  const second = await call('list_issues', { limit: 2, cursor: first.structuredContent!.next_cursor as string });
  assert.deepEqual(
    [...(first.structuredContent!.issues as { id: number }[]), ...(second.structuredContent!.issues as { id: number }[])].map((i) => i.id),
    [1, 2, 3],
  );

  // Closed with a 3-day delay: not archived yet; the issue records when it closed.
  const closed = await call('update_issue', { id: 3, status: 'done' });
  assert.deepEqual(closed.structuredContent!.archived, []);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/3 Write docs.md'), 'utf8'), new RegExp(`closed: ${today()}`));
  assert.equal(archiveIsDue(today(), 3, today()), false);
  assert.equal(archiveIsDue('2026-01-01', 3, '2026-01-04'), true);
  assert.equal(archiveIsDue(null, 3, '2026-01-04'), false);
  const recall = await call('recall_bundle', { mode: 'resume', project: 'Atlas' });
  const open = (recall.structuredContent!.sections as Record<string, { items: { id: number }[] }>).open_issues!.items.map((i) => i.id);
  assert.deepEqual(open, [1, 2], 'recall_bundle lists the open issues of the project');
});

test('issue tools refuse bad input with their codes, and write nothing', async (t) => {
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, 'Claude/Projects/Dup/README.md': '---\ntype: project\n---\n# Dup\n', 'Projects/Dup/README.md': '---\ntype: project\n---\n# Dup\n' });
  await call('create_project', { name: 'Atlas' });
  await call('create_project', { name: 'Zoo' });
  await call('create_issue', { project: 'Atlas', title: 'One' });
  await call('create_issue', { project: 'Zoo', title: 'One too' });
  const before = readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/1 One.md'), 'utf8');
  for (const name of ['../x', 'a/b', 'a\\b', 'Issues', 'Archive', 'CON', '.hidden', 'x'.repeat(61), '']) {
    await refused(call, 'create_project', { name }, 'INVALID_INPUT', /./);
  }
  await refused(call, 'create_project', { name: 'atlas' }, 'CONFLICT', /exists already/);
  await refused(call, 'create_issue', { project: 'Nope', title: 'x' }, 'NOT_FOUND', /no project "Nope".*Atlas/);
  await refused(call, 'create_issue', { project: 'Dup', title: 'x' }, 'INVALID_INPUT', /names 2 projects/);
  await refused(call, 'create_issue', { project: 'Atlas', title: 'a/b?' }, 'INVALID_INPUT', /cannot hold/);
  await refused(call, 'create_issue', { project: 'Atlas' }, 'INVALID_INPUT', /give the project and a title/);
  await refused(call, 'update_issue', { id: 1, status: 'done' }, 'INVALID_INPUT', /issue 1 is ambiguous.*give the project/);
  await refused(call, 'update_issue', { id: 9, project: 'Atlas', status: 'done' }, 'NOT_FOUND', /no issue 9 in Atlas/);
  await refused(call, 'update_issue', { project: 'Atlas', status: 'done' }, 'INVALID_INPUT', /give the issue's id/);
  await refused(call, 'update_issue', { id: 1, project: 'Atlas' }, 'INVALID_INPUT', /nothing to change/);
  const bad = await call('update_issue', { id: 1, project: 'Atlas', status: 'closed' });
  assert.equal(bad.isError, true, 'a status that does not exist is refused by the schema');
  await call('update_issue', { id: 1, project: 'Zoo', status: 'wontfix' });
  await refused(call, 'update_issue', { id: 1, project: 'Zoo', status: 'doing' }, 'INVALID_INPUT', /cannot go from wontfix to doing; from wontfix it goes to open/);
  await refused(call, 'list_issues', { cursor: 'zzz' }, 'INVALID_INPUT', /not a cursor/);
  assert.equal(readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/1 One.md'), 'utf8'), before, 'nothing written by a refusal');
  assert.ok(existsSync(join(vault.root, 'Claude/Projects/Zoo/Archive/1 One too.md')), 'wontfix archives at once (archive_after_days 0)');
});

test('two updates of one issue at once: both land, each journaled', async (t) => {
  const { call, vault, engine } = await connectFixture(t, MCP_VAULT);
  await call('create_project', { name: 'Atlas', archive_after_days: 30 });
  await call('create_issue', { project: 'Atlas', title: 'Shared' });
  const [a, b] = await Promise.all([call('update_issue', { id: 1, comment: 'from a', author: 'a' }), call('update_issue', { id: 1, status: 'doing', comment: 'from b', author: 'b' })]);
  assert.equal(a.isError, undefined, a.content[0]!.text);
  assert.equal(b.isError, undefined, b.content[0]!.text);
  const text = readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/1 Shared.md'), 'utf8');
  assert.match(text, /a: from a/);
  assert.match(text, /b: from b/);
  assert.match(text, /status: doing/);
  const journaled = engine.db.prepare("SELECT count(*) FROM journal WHERE tool = 'update_issue'").pluck().get();
  assert.equal(journaled, 2);
});

test('setFields replaces a block list and removes a field, leaving other lines byte for byte', () => {
  const text = '---\ntype: issue\nlabels:\n  - a\n  - b\nclosed: 2026-01-01\nmine: keep  \n---\nbody\n';
  assert.equal(setFields(text, { labels: '[c]', closed: null, status: 'open' }), '---\ntype: issue\nlabels: [c]\nmine: keep  \nstatus: open\n---\nbody\n');
});

test("a project in the human's Projects/ folder: created and filed through preview → apply", async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const preview = await call('create_project', { name: 'Garden', root: 'Projects', goal: 'Grow tomatoes.' });
  assert.equal(preview.isError, undefined, preview.content[0]!.text);
  assert.equal(preview.structuredContent!.applied, false);
  assert.ok(!existsSync(join(vault.root, 'Projects/Garden/README.md')), 'nothing written before the human agrees');
  assert.equal((await call('create_project', { token: preview.structuredContent!.token })).isError, undefined);
  assert.match(readFileSync(join(vault.root, 'Projects/Garden/README.md'), 'utf8'), /^---\ntype: project\nname: Garden\n/);
  const issue = await call('create_issue', { project: 'Garden', title: 'Buy seeds' });
  assert.equal(issue.structuredContent!.applied, false, 'an issue in a human project is previewed');
  await refused(call, 'create_issue', { token: preview.structuredContent!.token }, 'PREVIEW_EXPIRED', /used already/);
  const filed = await call('create_issue', { token: issue.structuredContent!.token });
  assert.equal(filed.isError, undefined, filed.content[0]!.text);
  assert.ok(existsSync(join(vault.root, 'Projects/Garden/Issues/1 Buy seeds.md')));
  const update = await call('update_issue', { project: 'Garden', id: 1, status: 'done' });
  assert.equal(update.structuredContent!.applied, false, 'an update there is previewed too');
  const applied = await call('update_issue', { token: update.structuredContent!.token });
  assert.equal(applied.isError, undefined, applied.content[0]!.text);
  assert.match(readFileSync(join(vault.root, 'Projects/Garden/Issues/1 Buy seeds.md'), 'utf8'), /status: done/);
  assert.ok(existsSync(join(vault.root, 'Projects/Garden/Issues/1 Buy seeds.md')), "no archive move among the human's notes without move_note's preview");
});

test('delayed archive: an issue a human closed by hand long enough ago is archived by the next issue write; a duplicated id is refused', async (t) => {
  const { call, vault, engine } = await connectFixture(t, MCP_VAULT);
  await call('create_project', { name: 'Atlas', archive_after_days: 3 });
  await call('create_issue', { project: 'Atlas', title: 'Old one' });
  await call('create_issue', { project: 'Atlas', title: 'New one' });
  const old = 'Claude/Projects/Atlas/Issues/1 Old one.md';
  // Closed by hand in Obsidian, weeks ago.
  writeFileSync(join(vault.root, old), readFileSync(join(vault.root, old), 'utf8').replace('status: open', 'status: done\nclosed: 2026-01-02'));
  await engine.refresh([old]);
  const result = await call('update_issue', { project: 'Atlas', id: 2, comment: 'still going' });
  assert.deepEqual(
    (result.structuredContent!.archived as { from: string; to: string }[]).map((a) => [a.from, a.to]),
    [[old, 'Claude/Projects/Atlas/Archive/1 Old one.md']],
  );
  // A human copies issue 2 (same id): which one is meant cannot be known.
  const copy = 'Claude/Projects/Atlas/Issues/2 New one copy.md';
  writeFileSync(join(vault.root, copy), readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/2 New one.md'), 'utf8'));
  await engine.refresh([copy]);
  await refused(call, 'update_issue', { project: 'Atlas', id: 2, status: 'doing' }, 'INVALID_INPUT', /ambiguous.*two notes carry that id/);
});

test('closing an issue while a sweep holds the index lock: the update is done, the archive waits for the next issue write', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  await call('create_project', { name: 'Atlas' });
  await call('create_issue', { project: 'Atlas', title: 'Busy' });
  const sweep = acquireLock(vault.home, 'index', { purpose: 'a Librarian sweep' });
  const closed = await call('update_issue', { project: 'Atlas', id: 1, status: 'done' });
  sweep.release();
  assert.equal(closed.isError, undefined, closed.content[0]!.text);
  assert.deepEqual(closed.structuredContent!.archived, []);
  assert.match(closed.structuredContent!.archive_deferred as string, /waits for the next issue write.*Librarian sweep/);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/1 Busy.md'), 'utf8'), /status: done/);
  await call('create_issue', { project: 'Atlas', title: 'Next' });
  assert.ok(existsSync(join(vault.root, 'Claude/Projects/Atlas/Archive/1 Busy.md')), 'archived by the next issue write');
});

test('closing an issue answers with its status and archived path; reopening moves it back to Issues/, and undo_move reverts each move', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  await call('create_project', { name: 'Alpha' });
  await call('create_issue', { project: 'Alpha', title: 'First' });
  await call('create_issue', { project: 'Alpha', title: 'Third one' });
  const [open, archive] = ['Claude/Projects/Alpha/Issues/2 Third one.md', 'Claude/Projects/Alpha/Archive/2 Third one.md'];
  for (const status of ['done', 'wontfix'] as const) {
    const closed = await call('update_issue', { id: 2, project: 'Alpha', status });
    assert.equal(closed.isError, undefined, closed.content[0]!.text);
    assert.match(closed.content[0]!.text!, new RegExp(`^updated issue 2 \\(${status}; write #\\d+\\); archived to ${archive} \\(undo_move \\d+\\)$`));
    assert.equal(closed.structuredContent!.status, status);
    assert.equal(closed.structuredContent!.path, archive, 'the path is where the issue is now');
    const reopened = await call('update_issue', { id: 2, project: 'Alpha', status: 'open' });
    assert.equal(reopened.isError, undefined, reopened.content[0]!.text);
    assert.match(reopened.content[0]!.text!, new RegExp(`^updated issue 2 \\(open; write #\\d+\\); reopened, so moved back to ${open} \\(undo_move \\d+\\)$`));
    assert.equal(reopened.structuredContent!.path, open);
    assert.deepEqual(
      (reopened.structuredContent!.unarchived as { from: string; to: string }[]).map((move) => [move.from, move.to]),
      [[archive, open]],
    );
    assert.ok(existsSync(join(vault.root, open)) && !existsSync(join(vault.root, archive)));
    assert.match(readFileSync(join(vault.root, open), 'utf8'), /status: open\n/);
  }
  const listed = await call('list_issues', { project: 'Alpha' });
  assert.doesNotMatch(listed.content[0]!.text!, /\(archived\)/, 'an open issue is not listed as archived');
  // The move back is journaled like the archive move: undo_move puts it in Archive/ again.
  const closed = await call('update_issue', { id: 2, project: 'Alpha', status: 'done' });
  const reopened = await call('update_issue', { id: 2, project: 'Alpha', status: 'open' });
  const back = (reopened.structuredContent!.unarchived as { move_id: number }[])[0]!.move_id;
  assert.equal((await call('undo_move', { move_id: back })).isError, undefined);
  assert.ok(existsSync(join(vault.root, archive)) && !existsSync(join(vault.root, open)));
  assert.equal((closed.structuredContent!.archived as { move_id: number }[])[0]!.move_id, back - 1);
});

test("issue notes carry their number as issue:, so two projects' issue 1 raise no identity warning; notes with id: still read", async (t) => {
  const old = '---\ntype: issue\nid: 1\nproject: Old\nstatus: open\npriority: medium\nlabels: []\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n# Written before\n\n## Comments\n';
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, 'Claude/Projects/Old/README.md': '---\ntype: project\nname: Old\nnext_issue: 2\n---\n# Old\n', 'Claude/Projects/Old/Issues/1 Written before.md': old });
  await call('create_project', { name: 'Alpha' });
  await call('create_project', { name: 'Beta' });
  for (const project of ['Alpha', 'Beta']) assert.equal((await call('create_issue', { project, title: 'First' })).structuredContent!.id, 1);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Alpha/Issues/1 First.md'), 'utf8'), /^---\ntype: issue\nissue: 1\n/);
  const warnings = (await call('index_status')).structuredContent!.warnings as string[];
  assert.deepEqual(
    warnings.filter((warning) => /Claude\/Projects\/(Alpha|Beta)/.test(warning)),
    [],
    'no "id is a number" and no "id is shared" warning for the new issues',
  );
  // The note written before keeps its id: and is found, listed and updated by it.
  assert.equal((await call('create_issue', { project: 'Old', title: 'Second' })).structuredContent!.id, 2);
  const listed = (await call('list_issues', { project: 'Old' })).structuredContent!.issues as { id: number; title: string }[];
  assert.deepEqual(
    listed.map((issue) => [issue.id, issue.title]),
    [
      [1, 'Written before'],
      [2, 'Second'],
    ],
  );
  const doing = await call('update_issue', { project: 'Old', id: 1, status: 'doing' });
  assert.equal(doing.isError, undefined, doing.content[0]!.text);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Old/Issues/1 Written before.md'), 'utf8'), /^---\ntype: issue\nid: 1\nproject: Old\nstatus: doing\n/);
  const recall = await call('recall_bundle', { mode: 'resume', project: 'Old' });
  const open = (recall.structuredContent!.sections as Record<string, { items: { id: number }[] }>).open_issues!.items.map((i) => i.id);
  assert.deepEqual(open, [1, 2], 'recall_bundle reads both keys');
});

test('create_project refuses an absolute or ".." root as the path gate does; links and labels are cleaned, a label that cannot be a tag is refused', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  await refused(call, 'create_project', { name: 'Gamma', root: '/etc' }, 'INVALID_INPUT', /root "\/etc" cannot hold the project: The note path is absolute; pass the note's path relative to the vault/);
  await refused(call, 'create_project', { name: 'Gamma', root: 'Projects/../..' }, 'INVALID_INPUT', /contains a "\.\." segment/);
  await refused(call, 'create_project', { name: 'Gamma', root: 'C:/Users' }, 'INVALID_INPUT', /Windows drive letter/);
  assert.ok(!existsSync(join(vault.root, 'etc')), 'nothing previewed or written');
  await call('create_project', { name: 'Alpha', links: ['', ' [[Atlas]] ', '[[Atlas]]', '  ', 'https://example.com'] });
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Alpha/README.md'), 'utf8'), /## Links\n\n- \[\[Atlas\]\]\n- https:\/\/example\.com\n\n## Issues/);
  const filed = await call('create_issue', { project: 'Alpha', title: 'Labelled', labels: ['', '#bug', 'bug', 'Bug', 'area/search'] });
  assert.equal(filed.isError, undefined, filed.content[0]!.text);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Alpha/Issues/1 Labelled.md'), 'utf8'), /\nlabels: \[bug, area\/search\]\n/);
  await refused(call, 'create_issue', { project: 'Alpha', title: 'Bad label', labels: ['good first issue'] }, 'INVALID_INPUT', /^\[INVALID_INPUT\] label "good first issue" contains a space/);
  await refused(call, 'update_issue', { project: 'Alpha', id: 1, labels: ['../x'] }, 'INVALID_INPUT', /label "\.\.\/x" contains "\."/);
  await refused(call, 'update_issue', { project: 'Alpha', id: 1, labels: [`${'x'.repeat(50)} y`] }, 'INVALID_INPUT', new RegExp(`label "${'x'.repeat(40)}…" contains a space`));
  assert.ok(!existsSync(join(vault.root, 'Claude/Projects/Alpha/Issues/2 Bad label.md')));
  const relabelled = await call('update_issue', { project: 'Alpha', id: 1, labels: ['#ops', 'ops', ''] });
  assert.equal(relabelled.isError, undefined, relabelled.content[0]!.text);
  assert.match(readFileSync(join(vault.root, 'Claude/Projects/Alpha/Issues/1 Labelled.md'), 'utf8'), /\nlabels: \[ops\]\n/);
});

test('recall_bundle for a project no note names says so and lists the projects, as the issue tools do', async (t) => {
  const { call } = await connectFixture(t, MCP_VAULT);
  await call('create_project', { name: 'Alpha' });
  await refused(call, 'recall_bundle', { mode: 'resume', project: 'NoSuchProject' }, 'NOT_FOUND', /^\[NOT_FOUND\] no project "NoSuchProject": no note names it .*; the projects are: Alpha$/);
  await refused(call, 'recall_bundle', { mode: 'digest', project: 'NoSuchProject' }, 'NOT_FOUND', /the projects are: Alpha/);
  const known = await call('recall_bundle', { mode: 'resume', project: 'atlas', since: '2000-01-01' });
  assert.equal(known.isError, undefined, 'a project named only in tags and frontmatter is still recalled');
});

test("a reopened issue a note of the human's links to stays in Archive/, and the answer says how to move it back", async (t) => {
  const { call, vault, engine } = await connectFixture(t, MCP_VAULT);
  await call('create_project', { name: 'Eps' });
  await call('create_issue', { project: 'Eps', title: 'Linked' });
  await call('update_issue', { project: 'Eps', id: 1, status: 'done' });
  const archive = 'Claude/Projects/Eps/Archive/1 Linked.md';
  writeFileSync(join(vault.root, 'Projects/Eps link.md'), '# Eps link\nSee [[Claude/Projects/Eps/Archive/1 Linked]].\n');
  await engine.refresh(['Projects/Eps link.md']);
  const reopened = await call('update_issue', { project: 'Eps', id: 1, status: 'open' });
  assert.equal(reopened.isError, undefined, reopened.content[0]!.text);
  assert.deepEqual(reopened.structuredContent!.unarchived, []);
  assert.equal(reopened.structuredContent!.path, archive);
  assert.match(
    reopened.content[0]!.text!,
    /it stays in Claude\/Projects\/Eps\/Archive\/ because moving it back would change a note of the human's: move_note \{from: "Claude\/Projects\/Eps\/Archive\/1 Linked\.md", to: "Claude\/Projects\/Eps\/Issues\/"\}/,
  );
  assert.ok(existsSync(join(vault.root, archive)));
});
