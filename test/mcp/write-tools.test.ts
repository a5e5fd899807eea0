import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/mcp/index.js';
import { insertText } from '../../src/mcp/tools/index.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

type Result = Awaited<ReturnType<Awaited<ReturnType<typeof connectFixture>>['call']>>;
const paths = (result: Result) => (result.structuredContent as { results: { path: string }[] }).results.map((hit) => hit.path);
const today = () => new Date().toISOString().slice(0, 10);

test('log_session, capture, upsert_concept, add_task: written, journaled, and searchable at once', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const session = await call('log_session', { title: 'Zeppelin planning', body: 'Decided the zeppelin route. Next: permits.', project: 'Atlas', tags: ['travel'] });
  assert.equal(session.isError, undefined, session.content[0]!.text);
  const sessionPath = (session.structuredContent as { path: string }).path;
  assert.equal(sessionPath, `Claude/Sessions/${today()} Zeppelin planning.md`);
  const text = readFileSync(join(vault.root, sessionPath), 'utf8');
  assert.match(text, /^---\ncreated: \d{4}-\d{2}-\d{2}T[^\n]+\nagent: claude\nproject: Atlas\ntags: \[session, travel\]\n---\n# Zeppelin planning\n/);
  assert.match(readFileSync(join(vault.root, 'Claude/Index.md'), 'utf8'), new RegExp(`- ${today()} \\[\\[Claude/Sessions/${today()} Zeppelin planning\\|Zeppelin planning\\]\\] \\(Atlas\\)`));
  assert.ok(paths(await call('search_brain', { query: 'zeppelin route' })).includes(sessionPath), 'searchable right after');
  const again = (await call('log_session', { title: 'Zeppelin planning', body: 'second' })).structuredContent as { path: string };
  assert.equal(again.path, `Claude/Sessions/${today()} Zeppelin planning 2.md`, 'a collision gets a suffix');

  const capture = await call('capture', { text: 'quokkas are marsupials' });
  const inbox = `Claude/Inbox/${today()}.md`;
  assert.equal((capture.structuredContent as { path: string }).path, inbox);
  assert.match(readFileSync(join(vault.root, inbox), 'utf8'), /- \d{2}:\d{2} quokkas are marsupials\n$/);
  assert.ok(paths(await call('search_brain', { query: 'quokkas' })).includes(inbox));

  const created = (await call('upsert_concept', { name: 'Reciprocal rank fusion', body: 'Fuses ranked lists by 1/(k+rank).' })).structuredContent as { path: string; created: boolean };
  assert.deepEqual([created.path, created.created], ['Claude/Concepts/Reciprocal rank fusion.md', true]);
  const updated = (await call('upsert_concept', { name: 'reciprocal RANK fusion', body: 'k = 60 by default.' })).structuredContent as { path: string; created: boolean };
  assert.deepEqual([updated.path, updated.created], ['Claude/Concepts/Reciprocal rank fusion.md', false], 'case-insensitive match');
  assert.match(readFileSync(join(vault.root, updated.path), 'utf8'), new RegExp(`## Update ${today()}\\n\\nk = 60 by default\\.\\n$`));
  const similar = (await call('upsert_concept', { name: 'Tantivy', body: 'A search library.' })).structuredContent as { similar: { path: string }[] };
  assert.ok(
    similar.similar.some((note) => note.path === 'Projects/Atlas.md'),
    'near notes are reported',
  );

  const task = (await call('add_task', { text: 'File the zeppelin permit', due: '2026-06-01', priority: 'high' })).structuredContent as { line: string };
  assert.equal(task.line, '- [ ] File the zeppelin permit ⏫ 📅 2026-06-01');
  const tasks = (await call('list_tasks', {})).structuredContent as { tasks: { text: string; due: string }[] };
  assert.ok(tasks.tasks.some((item) => item.text === 'File the zeppelin permit' && item.due === '2026-06-01'));
  for (const due of ['2026-02-30', 'tomorrow', '2026-6-1']) assert.equal((await call('add_task', { text: 'x', due })).isError, true, due);

  const audit = readFileSync(join(vault.root, 'Claude/Audit.md'), 'utf8');
  assert.match(
    audit.split('\n').find((line) => line.startsWith('- '))!,
    /#\d+ add_task · Claude\/Tasks\.md/,
  );
});

test('append_note inside Claude/ is free; under a heading the section decides where it lands', async (t) => {
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, 'Claude/Plan.md': '# Plan\n## Goals\n- one\n\n## Risks\n- late\n' });
  const result = await call('append_note', { path: 'Claude/Plan.md', content: '- two', position: 'under_heading', heading: 'Goals' });
  assert.equal(result.isError, undefined, result.content[0]!.text);
  assert.equal(readFileSync(join(vault.root, 'Claude/Plan.md'), 'utf8'), '# Plan\n## Goals\n- one\n- two\n\n## Risks\n- late\n');
  const missing = await call('append_note', { path: 'Claude/Plan.md', content: 'x', position: 'under_heading', heading: 'Nope' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0]!.text!, /no heading "Nope"/);
});

test('outside Claude/: preview, then apply with the token; undo restores the bytes; protected files refused', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const before = readFileSync(join(vault.root, 'People/Lena.md'));
  const preview = await call('append_note', { path: 'People/Lena.md', content: 'Met her on 2026-04-02.' });
  const p = preview.structuredContent as { applied: boolean; token: string; preview: string };
  assert.equal(p.applied, false);
  assert.match(p.preview, /\+ Met her on 2026-04-02\./);
  assert.deepEqual(readFileSync(join(vault.root, 'People/Lena.md')), before, 'nothing written by the preview');
  const applied = await call('append_note', { token: p.token });
  const receipt = applied.structuredContent as { journal_id: number; applied: boolean };
  assert.equal(receipt.applied, true);
  assert.match(readFileSync(join(vault.root, 'People/Lena.md'), 'utf8'), /Met her on 2026-04-02\.\n$/);
  assert.ok(paths(await call('search_brain', { query: 'Lena 2026-04-02' })).includes('People/Lena.md'));
  assert.equal((await call('append_note', { token: p.token })).isError, true, 'a token works once');
  // Undoing it changes the human's note again: previewed, then applied with the token.
  const undoPreview = await call('undo_write', { id: receipt.journal_id });
  const u = undoPreview.structuredContent as { applied: boolean; token: string; preview: string };
  assert.equal(u.applied, false, undoPreview.content[0]!.text);
  assert.match(u.preview, /- Met her on 2026-04-02\./);
  assert.match(readFileSync(join(vault.root, 'People/Lena.md'), 'utf8'), /Met her on 2026-04-02/, 'nothing undone by the preview');
  const undo = await call('undo_write', { id: receipt.journal_id, token: u.token });
  assert.equal(undo.isError, undefined, undo.content[0]!.text);
  assert.deepEqual(readFileSync(join(vault.root, 'People/Lena.md')), before, 'undo restores the previous bytes');
  const again = await call('undo_write', { id: receipt.journal_id });
  assert.equal(again.isError, true, 'undo once');
  assert.match(again.content[0]!.text!, /undone already/);

  // A human edit between preview and apply is never overwritten.
  const second = (await call('write_note', { path: 'Projects/Decisions.md', content: 'replaced', overwrite: true })).structuredContent as { token: string };
  vault.write('Projects/Decisions.md', '# Decisions\nThe human wrote this a second ago.\n');
  const stale = await call('write_note', { token: second.token });
  assert.equal(stale.isError, true);
  assert.match(stale.content[0]!.text!, /changed since the preview/);
  assert.equal(readFileSync(join(vault.root, 'Projects/Decisions.md'), 'utf8'), '# Decisions\nThe human wrote this a second ago.\n');

  // The constitution is the human's: a change to it is only a preview until applied.
  const rules = (await call('append_note', { path: 'Claude/README.md', content: 'Agents cite sources.' })).structuredContent as { applied: boolean; token: string };
  assert.equal(rules.applied, false);
  assert.doesNotMatch(readFileSync(join(vault.root, 'Claude/README.md'), 'utf8'), /cite sources/);
  assert.equal(((await call('append_note', { token: rules.token })).structuredContent as { applied: boolean }).applied, true);
  assert.match(readFileSync(join(vault.root, 'Claude/README.md'), 'utf8'), /Agents cite sources\.\n$/);

  for (const [path, pattern] of [
    ['Claude/Librarian.md', /caretaker/],
    ['Claude/Graph/People/Lena.md', /graph tools/],
    ['.obsidian/app.md', /"\."/],
    ['../escape.md', /\.\./],
    ['Claude/notes.txt', /note|\.md/],
  ] as const) {
    const refused = await call('write_note', { path, content: 'x', overwrite: true });
    assert.equal(refused.isError, true, path);
    assert.match(refused.content[0]!.text!, pattern, path);
  }
  assert.equal(existsSync(join(vault.root, '..', 'escape.md')), false);
  const exists = await call('write_note', { path: 'Claude/Inbox/New.md', content: 'a' });
  assert.equal(exists.isError, undefined);
  const noOverwrite = await call('write_note', { path: 'Claude/Inbox/New.md', content: 'b' });
  assert.equal(noOverwrite.isError, true, 'overwrite only when asked');
  assert.match(noOverwrite.content[0]!.text!, /exists already/);
});

test('a client that supports elicitation is asked, and the human decides', async (t) => {
  const { engine, vault } = await connectFixture(t, MCP_VAULT);
  for (const approve of [true, false]) {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const server = createServer(engine);
    await server.connect(serverTransport);
    const client = new Client({ name: 'human', version: '0' }, { capabilities: { elicitation: {} } });
    let asked = '';
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked = request.params.message;
      return { action: 'accept', content: { approve } };
    });
    await client.connect(clientTransport);
    const result = (await client.callTool({ name: 'append_note', arguments: { path: 'Projects/Atlas.md', content: `approved=${approve}` } })) as Result;
    assert.match(asked, /wants to change Projects\/Atlas\.md/);
    const text = readFileSync(join(vault.root, 'Projects/Atlas.md'), 'utf8');
    assert.equal(text.includes(`approved=${approve}`), approve);
    assert.equal(result.isError, approve ? undefined : true);
    await client.close();
    await server.close();
  }
});

test('insertText: end, start after frontmatter, under a heading of any level, fences ignored', () => {
  assert.equal(insertText('a\n', 'b', 'end'), 'a\nb\n');
  assert.equal(insertText('a', 'b', 'end'), 'a\nb\n');
  assert.equal(insertText('---\nx: 1\n---\nbody\n', 'top', 'start'), '---\nx: 1\n---\ntop\nbody\n');
  const note = '# T\n## A\ntext\n### A.1\ndeep\n```\n## not a heading\n```\n## B\nb\n';
  assert.equal(insertText(note, 'new', 'under_heading', 'A'), '# T\n## A\ntext\n### A.1\ndeep\n```\n## not a heading\n```\nnew\n\n## B\nb\n');
  assert.equal(insertText(note, 'last', 'under_heading', '## B'), `${note}last\n`);
});

test('a blank title, capture, task or concept body is refused with INVALID_INPUT, and nothing is written', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const refusals: [string, Record<string, unknown>, RegExp][] = [
    ['log_session', { title: '', body: 'x' }, /the title is empty; give the session a title/],
    ['log_session', { title: ' ', body: 'x' }, /the title is empty/],
    ['log_session', { title: '\n\t', body: 'x' }, /the title is empty/],
    ['capture', { text: '   ' }, /the text is empty/],
    ['capture', { text: '\r\n' }, /the text is empty/],
    ['add_task', { text: '  ' }, /the task is empty/],
    ['upsert_concept', { name: 'Blank body', body: ' \n ' }, /the body is empty/],
  ];
  for (const [tool, args, message] of refusals) {
    const result = await call(tool, args);
    assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
    assert.match(result.content[0]!.text!, /^\[INVALID_INPUT\] /);
    assert.match(result.content[0]!.text!, message);
  }
  for (const path of [`Claude/Sessions/${today()}.md`, `Claude/Inbox/${today()}.md`, 'Claude/Tasks.md', 'Claude/Concepts/Blank body.md', 'Claude/Index.md']) assert.ok(!existsSync(join(vault.root, path)), `${path} not written`);
});

test('log_session tags: a leading # dropped, empty and repeated tags left out; one that cannot be a tag is refused, naming it', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const session = await call('log_session', { title: 'Tagged', body: 'x', tags: ['#hash', '', 'Hash', 'area/health', 'session', '##twice'] });
  assert.equal(session.isError, undefined, session.content[0]!.text);
  assert.match(readFileSync(join(vault.root, `Claude/Sessions/${today()} Tagged.md`), 'utf8'), /\ntags: \[session, hash, "area\/health", twice\]\n/);
  for (const [tag, problem] of [
    ['with space', 'contains a space'],
    ['../x', 'contains "."'],
    ['a//b', 'has an empty part between slashes'],
    ['/x', 'has an empty part between slashes'],
    ['1984', 'is only digits, which Obsidian does not read as a tag'],
  ]) {
    const result = await call('log_session', { title: 'Refused', body: 'x', tags: ['fine', tag] });
    assert.equal(result.isError, true, tag);
    assert.ok(result.content[0]!.text!.startsWith(`[INVALID_INPUT] tag "${tag}" ${problem}; a tag is letters, digits, _ and -`), result.content[0]!.text);
  }
  assert.ok(!existsSync(join(vault.root, `Claude/Sessions/${today()} Refused.md`)));
});

test('upsert_concept names the similar notes in its text, not only in structuredContent', async (t) => {
  const { call } = await connectFixture(t, { ...MCP_VAULT, 'Concepts/Precision and recall.md': '# Precision and recall\nPrecision is the share of hits that are relevant; recall the share of relevant notes found.\n' });
  const result = await call('upsert_concept', { name: 'Precision and recall', body: 'P and R again.' });
  assert.equal(result.isError, undefined, result.content[0]!.text);
  const similar = (result.structuredContent!.similar as { path: string }[]).map((note) => note.path);
  assert.equal(similar[0], 'Concepts/Precision and recall.md');
  assert.match(result.content[0]!.text!, /^created Claude\/Concepts\/Precision and recall\.md \(write #\d+; undo_write can revert it\); similar notes: Concepts\/Precision and recall\.md/);
  for (const path of similar.slice(0, 3)) assert.ok(result.content[0]!.text!.includes(path), path);
});
