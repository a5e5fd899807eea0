/** update_note, move_note and list_notes through the real SDK client, bad input included. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/mcp/index.js';
import { updateText } from '../../src/mcp/tools/sections.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

const PLAN = '\uFEFF---\r\ntitle: Plan\r\n---\r\n# Plan\r\n\r\n## Goals\r\n- ship\r\n- rest\r\n\r\n### Detail\r\nkeep\r\n\r\n## Risks\r\n- late\r\n';

test('update_note replace_section on a human note: preview, apply changes exactly that section (CRLF, BOM kept), undo restores it', async (t) => {
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, 'Projects/Plan.md': PLAN });
  const before = readFileSync(join(vault.root, 'Projects/Plan.md'));
  const preview = await call('update_note', { path: 'Projects/Plan.md', mode: 'replace_section', heading: 'Goals', content: '- one goal' });
  assert.equal(preview.isError, undefined, preview.content[0]!.text);
  const token = preview.structuredContent!.token as string;
  assert.ok(token, 'a preview with a token');
  assert.match(preview.structuredContent!.preview as string, /- - ship[\s\S]*\+ - one goal/);
  assert.deepEqual(readFileSync(join(vault.root, 'Projects/Plan.md')), before, 'nothing written by the preview');
  const applied = await call('update_note', { token });
  assert.equal(applied.isError, undefined, applied.content[0]!.text);
  const after = readFileSync(join(vault.root, 'Projects/Plan.md'), 'utf8');
  assert.equal(after, '\uFEFF---\r\ntitle: Plan\r\n---\r\n# Plan\r\n\r\n## Goals\r\n- one goal\r\n\r\n## Risks\r\n- late\r\n', 'the section (with its subsection) replaced, the rest byte-identical');
  const undoPreview = await call('undo_write', { id: applied.structuredContent!.journal_id as number });
  const undone = await call('undo_write', { id: applied.structuredContent!.journal_id as number, token: undoPreview.structuredContent!.token as string });
  assert.equal(undone.isError, undefined, undone.content[0]!.text);
  assert.deepEqual(readFileSync(join(vault.root, 'Projects/Plan.md')), before, 'undo restores every byte');
});

test('update_note modes in the agent folder, heading paths, and every bad input refused with its code', async (t) => {
  const note = '---\nx: 1\n---\n# A\n## Notes\none\n```\n## Fenced\n```\n# B\n## Notes\ntwo\n';
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, 'Claude/Work.md': note });
  const read = () => readFileSync(join(vault.root, 'Claude/Work.md'), 'utf8');
  const refused = async (args: Record<string, unknown>, code: string, pattern: RegExp) => {
    const result = await call('update_note', args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.ok(result.content[0]!.text!.startsWith(`[${code}]`), `${JSON.stringify(args)}: ${result.content[0]!.text}`);
    assert.match(result.content[0]!.text!, pattern);
  };
  await refused({ path: 'Claude/Work.md', mode: 'replace_section', heading: 'Notes', content: 'x' }, 'INVALID_INPUT', /names 2 headings.*A > Notes/);
  await refused({ path: 'Claude/Work.md', mode: 'replace_section', heading: 'Missing', content: 'x' }, 'INVALID_INPUT', /no heading "Missing".*A > Notes/);
  await refused({ path: 'Claude/Work.md', mode: 'insert_under_heading', heading: 'Fenced', content: 'x' }, 'INVALID_INPUT', /inside a code block/);
  await refused({ path: 'Claude/Work.md', mode: 'replace_section', content: 'x' }, 'INVALID_INPUT', /needs the heading/);
  await refused({ path: 'Claude/Work.md', mode: 'append' }, 'INVALID_INPUT', /give the content/);
  await refused({ path: 'Claude/Work.md', mode: 'append', content: '' }, 'INVALID_INPUT', /needs some content/);
  await refused({ path: 'Claude/Nope.md', mode: 'append', content: 'x' }, 'NOT_FOUND', /does not exist/);
  await refused({ path: '../outside.md', mode: 'append', content: 'x' }, 'INVALID_INPUT', /./);
  await refused({ token: 'feedface', content: 'x' }, 'PREVIEW_EXPIRED', /unknown preview token/);
  assert.equal(read(), note, 'nothing written by any refusal');

  assert.equal((await call('update_note', { path: 'Claude/Work.md', mode: 'replace_section', heading: 'B > Notes', content: 'TWO' })).isError, undefined);
  assert.match(read(), /# B\n## Notes\nTWO\n$/);
  await call('update_note', { path: 'Claude/Work.md', mode: 'insert_under_heading', heading: 'A>Notes', content: 'zero' });
  assert.match(read(), /# A\n## Notes\nzero\n\none\n```\n## Fenced\n```\n# B/);
  await call('update_note', { path: 'Claude/Work.md', mode: 'prepend', content: 'top' });
  assert.match(read(), /^---\nx: 1\n---\ntop\n# A/);
  await call('update_note', { path: 'Claude/Work.md', mode: 'append', content: 'bottom' });
  assert.match(read(), /TWO\nbottom\n$/);
});

test('updateText: an empty replace_section empties the section; the last section keeps the final newline', () => {
  assert.equal(updateText('# A\nold\n\n# B\nx\n', 'replace_section', '', 'A'), '# A\n\n# B\nx\n');
  assert.equal(updateText('# A\n\nold\nolder\n', 'replace_section', 'new', 'A'), '# A\n\nnew\n');
  assert.equal(updateText('# A\n## B\nb\n## C\nc\n', 'replace_section', 'bb', 'B'), '# A\n## B\nbb\n\n## C\nc\n');
  assert.equal(updateText('# Tasks\n- a\n- b\n', 'insert_under_heading', '- first', 'Tasks'), '# Tasks\n- first\n- a\n- b\n', 'a list item joins the list');
});

/** Ten inbound links in every form, from notes of the human's and of the agent's. */
const LINKED: Record<string, string> = {
  'Projects/Walrus Plan.md': '# Walrus Plan\n\n## Goals\nfeed [[Keepers]] and see [k](Keepers.md)\n',
  'Projects/Keepers.md': '# Keepers\n',
  'Home.md': [
    '---',
    'related: "[[Projects/Walrus Plan]]"',
    '---',
    'bare [[Walrus Plan]] alias [[walrus plan|the plan]]',
    'qualified [[Projects/Walrus Plan]] heading [[Projects/Walrus Plan#Goals|goals]]',
    'embed ![[Projects/Walrus Plan#^abc]] md [p](Projects/Walrus%20Plan.md) md2 [q](<Projects/Walrus Plan.md>)',
    '',
  ].join('\r\n'),
  'Claude/Sessions/2026-11-01 Zoo.md': '# Zoo\n\nsee [[Walrus Plan]] and [up](../../Projects/Walrus%20Plan.md#Goals)\n',
};

function snapshot(root: string, dir = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, dir))) {
    const rel = dir ? `${dir}/${name}` : name;
    if (name === '.obsidian' || rel === 'Claude/Audit.md') continue;
    if (statSync(join(root, rel)).isDirectory()) Object.assign(out, snapshot(root, rel));
    else out[rel] = readFileSync(join(root, rel)).toString('base64');
  }
  return out;
}

test('move_note of a note with ten inbound links of every form: preview, apply, every link follows; undo_move restores every byte', async (t) => {
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, ...LINKED });
  const before = snapshot(vault.root);
  const preview = await call('move_note', { from: 'Projects/Walrus Plan.md', to: 'Archive/Zoo/' });
  assert.equal(preview.isError, undefined, preview.content[0]!.text);
  const token = preview.structuredContent!.token as string;
  assert.match(preview.structuredContent!.preview as string, /^move Projects\/Walrus Plan\.md → Archive\/Zoo\/Walrus Plan\.md/);
  assert.deepEqual(snapshot(vault.root), before, 'a preview changes nothing');
  const applied = await call('move_note', { token });
  assert.equal(applied.isError, undefined, applied.content[0]!.text);
  assert.equal(applied.structuredContent!.to, 'Archive/Zoo/Walrus Plan.md');
  assert.deepEqual((applied.structuredContent!.relinked as string[]).sort(), ['Claude/Sessions/2026-11-01 Zoo.md', 'Home.md']);
  const home = readFileSync(join(vault.root, 'Home.md'), 'utf8');
  assert.ok(!/Projects\/Walrus/.test(home), home);
  assert.match(home, /\r\n/, 'CRLF kept');
  const backlinks = await call('get_backlinks', { path: 'Archive/Zoo/Walrus Plan.md' });
  assert.equal((backlinks.structuredContent!.backlinks as unknown[]).length, 10, 'all ten links find the note at its new place');
  assert.equal((await call('move_note', { token })).isError, true, 'a token applies once');

  const undone = await call('undo_move', { move_id: applied.structuredContent!.move_id as number });
  assert.equal(undone.isError, undefined, undone.content[0]!.text);
  assert.deepEqual(snapshot(vault.root), before, 'every file byte-identical to before');
});

test('move_note refuses bad moves with their codes, and a note changed since the preview; nothing moves', async (t) => {
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, ...LINKED, 'Claude/Drafts/Idea.md': '# Idea\n' });
  const before = snapshot(vault.root);
  const refused = async (args: Record<string, unknown>, code: string, pattern: RegExp) => {
    const result = await call('move_note', args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.ok(result.content[0]!.text!.startsWith(`[${code}]`), `${JSON.stringify(args)}: ${result.content[0]!.text}`);
    assert.match(result.content[0]!.text!, pattern);
  };
  await refused({ from: 'Claude/Drafts/Idea.md', to: 'Projects/Keepers.md' }, 'CONFLICT', /exists already/);
  await refused({ from: 'Claude/Drafts/Idea.md', to: '.obsidian/Idea.md' }, 'INVALID_INPUT', /./);
  await refused({ from: 'Claude/Drafts/Idea.md', to: 'Claude/Drafts/' }, 'INVALID_INPUT', /already there/);
  await refused({ from: 'Claude/Drafts/Nope.md', to: 'Claude/x.md' }, 'NOT_FOUND', /./);
  await refused({ from: '../x.md', to: 'Claude/x.md' }, 'INVALID_INPUT', /./);
  await refused({ from: 'Claude/Drafts/Idea.md', to: 'Claude/Idea.txt' }, 'INVALID_INPUT', /end in \.md/);
  await refused({ from: 'Claude/Drafts/Idea.md', to: 'Claude/Graph/Idea.md' }, 'WRITE_REFUSED', /Graph/);
  await refused({ from: 'Claude/Drafts/Idea.md' }, 'INVALID_INPUT', /give from and to/);
  await refused({ token: 'nope' }, 'PREVIEW_EXPIRED', /unknown preview token/);
  assert.deepEqual(snapshot(vault.root), before, 'nothing moved');

  // Another process writes the note between preview and apply: the move is refused, nothing lost.
  const preview = await call('move_note', { from: 'Projects/Walrus Plan.md', to: 'Archive/Walrus Plan.md' });
  writeFileSync(join(vault.root, 'Projects/Walrus Plan.md'), '# Walrus Plan\n\nedited meanwhile\n');
  await refused({ token: preview.structuredContent!.token }, 'CONFLICT', /changed since/);
  assert.equal(readFileSync(join(vault.root, 'Projects/Walrus Plan.md'), 'utf8'), '# Walrus Plan\n\nedited meanwhile\n');
  assert.ok(!existsSync(join(vault.root, 'Archive/Walrus Plan.md')));
  // A write token is not a move token, and the other way round.
  const write = await call('update_note', { path: 'Home.md', content: 'x' });
  await refused({ token: write.structuredContent!.token }, 'INVALID_INPUT', /update_note/);
  const move = await call('move_note', { from: 'Projects/Keepers.md', to: 'Archive/Keepers.md' });
  const wrong = await call('update_note', { token: move.structuredContent!.token });
  assert.ok(wrong.content[0]!.text!.startsWith('[INVALID_INPUT]'), wrong.content[0]!.text);

  // Inside the agent folder with no human note linking: free, at once.
  const free = await call('move_note', { from: 'Claude/Drafts/Idea.md', to: 'Claude/Ideas/Idea.md' });
  assert.equal(free.structuredContent!.applied, true, free.content[0]!.text);
  assert.ok(existsSync(join(vault.root, 'Claude/Ideas/Idea.md')));
});

test('list_notes pages with a cursor through every note once, filters as search does, and reports blocks, vectors and extraction', async (t) => {
  const { call, engine } = await connectFixture(t, MCP_VAULT);
  const all = (engine.db.prepare('SELECT path FROM notes').pluck().all() as string[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await call('list_notes', { limit: 2, ...(cursor ? { cursor } : {}) });
    assert.equal(result.isError, undefined, result.content[0]!.text);
    const notes = result.structuredContent!.notes as { path: string; size: number; blocks: number; vectors: { fresh: number; stale: number }; extracted: boolean }[];
    seen.push(...notes.map((note) => note.path));
    for (const note of notes) assert.ok(note.size > 0 && note.blocks >= 1 && note.vectors.fresh === 0 && note.extracted === false, JSON.stringify(note));
    cursor = (result.structuredContent!.next_cursor as string | null) ?? undefined;
    if (!cursor) break;
  }
  assert.deepEqual(seen, all, 'every note once, in path order');
  const inProjects = await call('list_notes', { folder: 'Projects' });
  assert.ok((inProjects.structuredContent!.notes as { path: string }[]).every((note) => note.path.startsWith('Projects/')));
  assert.ok((inProjects.structuredContent!.total as number) > 0);
  for (const [args, pattern] of [
    [{ cursor: 'not a cursor!' }, /not a cursor/],
    [{ cursor: 'Zm9v' }, /not a cursor/],
    [{ modified_after: 'yesterday' }, /not a date/],
  ] as const) {
    const result = await call('list_notes', args);
    assert.ok(result.isError && result.content[0]!.text!.startsWith('[INVALID_INPUT]'), JSON.stringify(args));
    assert.match(result.content[0]!.text!, pattern);
  }
});

test('move_note asks a client that can ask its human; a yes moves it, a no moves nothing', async (t) => {
  for (const approve of [false, true]) {
    const { engine, vault } = await connectFixture(t, { ...MCP_VAULT, ...LINKED });
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
    const result = (await client.callTool({ name: 'move_note', arguments: { from: 'Projects/Walrus Plan.md', to: 'Archive/Walrus Plan.md' } })) as { isError?: boolean; content: { text: string }[] };
    assert.match(asked, /move Projects\/Walrus Plan\.md → Archive\/Walrus Plan\.md/);
    assert.equal(existsSync(join(vault.root, 'Archive/Walrus Plan.md')), approve, result.content[0]!.text);
    assert.equal(result.isError, approve ? undefined : true);
    await client.close();
    await server.close();
  }
});

test('list_notes: vectors turn stale and extraction lapses when the note changes', async (t) => {
  const { call, engine, vault } = await connectFixture(t, MCP_VAULT);
  const path = 'Projects/Atlas.md';
  // Vectors as the embedder stores them (note and one block), made from the note's current text.
  engine.db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) SELECT id, k.key, 'test-model', 'local', hash, zeroblob(16) FROM notes, (SELECT '' AS key UNION SELECT 'b1') k WHERE path = ?").run(path);
  for (let i = 0; i < 20; i++) if (((await call('index_brain', { max_notes: 50 })).structuredContent as { remaining: number }).remaining === 0) break;
  const entry = async () => ((await call('list_notes', { folder: 'Projects' })).structuredContent!.notes as { path: string; vectors: { fresh: number; stale: number }; extracted: boolean }[]).find((note) => note.path === path)!;
  assert.deepEqual(await entry(), { ...(await entry()), vectors: { fresh: 2, stale: 0 }, extracted: true });
  writeFileSync(join(vault.root, path), `${readFileSync(join(vault.root, path), 'utf8')}\nAn added line.\n`);
  await engine.refresh([path]);
  const after = await entry();
  assert.deepEqual([after.vectors, after.extracted], [{ fresh: 0, stale: 2 }, false]);
});
