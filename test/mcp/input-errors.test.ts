/**
 * What an agent gets when its arguments are wrong, through the real SDK client in memory: a
 * schema failure or an unknown field is an `[INVALID_INPUT]` result naming the field and what
 * it takes (never the SDK's uncoded validation dump, never a silently dropped filter); dates and
 * conditions that can match nothing are refused; a note named as Obsidian names it (a wikilink,
 * a bare name) is found; a refusal says what is really wrong and what to do.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ERROR_META_KEY } from '../../src/mcp/results.js';
import { connectFixture, MCP_VAULT, type McpFixture } from '../helpers/mcp.js';

const VAULT = {
  ...MCP_VAULT,
  'Projects/Atlas/Plan.md': '# Plan\nCut over to Tantivy in May.\n- [ ] Book the load test 📅 2026-04-28\n',
  'Projects/Billing/Plan.md': '# Plan\nTantivy is not in billing.\n',
};

type Reply = Awaited<ReturnType<McpFixture['call']>> & { _meta?: Record<string, unknown> };

/** The refusal's text, after checking it is an error carrying `code` in its text and in `_meta`. */
function refusal(reply: Reply, code: string): string {
  const text = reply.content[0]?.text ?? '';
  assert.equal(reply.isError, true, text);
  assert.equal(reply._meta?.[ERROR_META_KEY], code, text);
  assert.ok(text.startsWith(`[${code}] `), text);
  return text;
}

test('a value the schema refuses is [INVALID_INPUT], naming the field and what it takes', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['search_brain', { query: 'tantivy', limit: 0 }, /^\[INVALID_INPUT\] search_brain: limit must be at least 1, not 0/],
    ['search_brain', { query: 'tantivy', limit: 2.5 }, /limit must be a whole number, not 2\.5/],
    ['search_brain', { query: 'tantivy', alternatives: [1, null] }, /alternatives\[0\] must be a string, not 1; alternatives\[1\] must be a string, not null/],
    ['search_brain', { query: 'tantivy', mode: 'fuzzy' }, /mode must be one of "hybrid", "keyword", "semantic", not "fuzzy"/],
    ['search_brain', { query: 'tantivy', folder: 5 }, /folder must be a string or a list, not 5/],
    ['search_brain', {}, /query is required/],
    ['context_bundle', { max_tokens: 199 }, /max_tokens must be at least 200, not 199 \(max_tokens: budget/],
    ['read_note', { path: 'Glossary.md', lines: [3] }, /lines must hold at least 2 items, not 1 \(\[3\]\) \(lines: \[first, last\]/],
    ['query_notes', { where: [{ field: 'type', op: 'like' }] }, /where\[0\]\.op must be one of "eq", "contains", "in"/],
  ];
  for (const [tool, args, expected] of cases) {
    const text = refusal(await call(tool, args), 'INVALID_INPUT');
    assert.match(text, expected, `${tool} ${JSON.stringify(args)}`);
    assert.doesNotMatch(text, /MCP error|Input validation error/, 'not the SDK dump');
    assert.match(text, /correct the arguments and call again/, 'says what to do');
  }
  // Numeric strings still pass (generic clients send them).
  assert.notEqual((await call('search_brain', { query: 'tantivy', limit: '2' })).isError, true);
  // A tool that does not exist is named, with the nearest one.
  assert.match(refusal(await call('serch_brain', { query: 'x' }), 'NOT_FOUND'), /no tool "serch_brain" \(did you mean "search_brain"\?\)/);
});

test('an unknown field is refused with the nearest real one, for every tool; tools/list says so', async (t) => {
  const { call, client } = await connectFixture(t, VAULT);
  assert.match(refusal(await call('search_brain', { query: 'tantivy', folders: ['Projects'] }), 'INVALID_INPUT'), /unknown field "folders" \(did you mean "folder"\?\)/);
  assert.match(refusal(await call('context_bundle', { query: 'tantivy', maxTokens: 500 }), 'INVALID_INPUT'), /unknown field "maxTokens" \(did you mean "max_tokens"\?\)/);
  // Nothing near: the fields there are.
  assert.match(refusal(await call('context_bundle', { query: 'tantivy', folder: 'Projects' }), 'INVALID_INPUT'), /unknown field "folder" \(the fields are query, path, max_tokens, alternatives\)/);
  assert.match(refusal(await call('onboard', { verbose: true }), 'INVALID_INPUT'), /unknown field "verbose" \(this tool takes no parameters\)/);
  // Inside a condition too.
  assert.match(refusal(await call('query_notes', { where: [{ field: 'type', op: 'eq', values: 'project' }] }), 'INVALID_INPUT'), /unknown field "values" in where\[0\] \(did you mean "value"\?\)/);
  const { tools } = await client.listTools();
  for (const tool of tools) assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, tool.name);
});

test('list_tasks and query_notes refuse dates the calendar lacks, and words that are no date', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  assert.match(refusal(await call('list_tasks', { due_before: '2026-13-45' }), 'INVALID_INPUT'), /due_before must be a real date like 2026-05-01, not "2026-13-45"/);
  assert.match(refusal(await call('list_tasks', { due_after: '2026-04-31' }), 'INVALID_INPUT'), /due_after must be a real date/);
  const due = (await call('list_tasks', { due_after: '2026-04-21', due_before: '2026-04-30' })).structuredContent as { tasks: { text: string }[] };
  assert.deepEqual(
    due.tasks.map((task) => task.text),
    ['Book the load test'],
  );
  assert.match(refusal(await call('query_notes', { where: [{ field: 'due', op: 'gte', value: '2026-02-30' }] }), 'INVALID_INPUT'), /"2026-02-30" is not a real date/);
  assert.match(refusal(await call('query_notes', { where: [{ field: 'due', op: 'gte', value: 'last week' }] }), 'INVALID_INPUT'), /comparisons take a number or a date like 2026-05-01, not "last week"/);
  const dated = (await call('query_notes', { where: [{ field: 'due', op: 'gte', value: '2026-04-30' }] })).structuredContent as { notes: { path: string }[] };
  assert.deepEqual(
    dated.notes.map((note) => note.path),
    ['Projects/Atlas.md'],
  );
});

test('query_notes: `in` takes one value as a list of one; a condition that can match nothing is refused', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const one = (await call('query_notes', { where: [{ field: 'type', op: 'in', value: 'project' }] })).structuredContent as { notes: { path: string }[] };
  assert.deepEqual(
    one.notes.map((note) => note.path),
    ['Projects/Atlas.md'],
  );
  assert.match(refusal(await call('query_notes', { where: [{ field: 'type', op: 'eq' }] }), 'INVALID_INPUT'), /where\[0\] \(type eq\): eq needs a value/);
  assert.match(refusal(await call('query_notes', { where: [{ field: 'type', op: 'in' }] }), 'INVALID_INPUT'), /in needs a value .*a list/);
  assert.match(refusal(await call('query_notes', { where: [{ field: 'type', op: 'eq', value: ['project', 'person'] }] }), 'INVALID_INPUT'), /one value, not a list; .*use op "in"/);
  assert.match(refusal(await call('query_notes', { where: [{ field: 'type', op: 'exists', value: false }] }), 'INVALID_INPUT'), /exists takes no value/);
});

test('consolidate_graph: an unknown proposal is NOT_FOUND, never the command line USAGE code', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  assert.match(refusal(await call('consolidate_graph', { apply: [99] }), 'NOT_FOUND'), /no proposal #99/);
  assert.match(refusal(await call('consolidate_graph', { undo: [99] }), 'NOT_FOUND'), /no proposal #99/);
});

test('read_note finds a note named as Obsidian names it, and says what to pass when it cannot', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const read = async (path: string) => ((await call('read_note', { path })).structuredContent as { path?: string } | undefined)?.path;
  assert.equal(await read('Projects/Atlas.md '), 'Projects/Atlas.md', 'white space around the path is trimmed');
  assert.equal(await read('Lena'), 'People/Lena.md', 'a bare name one note has');
  assert.equal(await read('Lena.md'), 'People/Lena.md');
  assert.equal(await read('[[Lena]]'), 'People/Lena.md', 'a wikilink');
  assert.equal(await read('[[Lena|our vendor]]'), 'People/Lena.md', 'a wikilink with an alias');
  assert.equal(await read('Atlas/Plan'), 'Projects/Atlas/Plan.md', 'the end of a path');
  for (const path of ['Projects/Atlas.md#Tasks', '[[Atlas#Tasks]]']) {
    assert.match(refusal(await call('read_note', { path }), 'INVALID_INPUT'), /points at a heading or block inside a note; pass the note's path alone, "Projects\/Atlas\.md"/, path);
  }
  assert.match(refusal(await call('read_note', { path: 'Plan' }), 'INVALID_INPUT'), /"Plan" is the name of several notes \("Projects\/Atlas\/Plan\.md", "Projects\/Billing\/Plan\.md"\); pass the vault-relative path/);
  const missing = refusal(await call('read_note', { path: 'Nowhere' }), 'INVALID_INPUT');
  assert.match(missing, /"Nowhere" is not a note path, and no indexed note is named "Nowhere"; pass the note's path relative to the vault/);
  assert.doesNotMatch(missing, /only \.md files are served/);
  // The other readings go through the whole gate: trimming never opens a way out.
  assert.match(refusal(await call('read_note', { path: ' ../outside.md' }), 'INVALID_INPUT'), /"\.\." segment/);
  assert.match(refusal(await call('read_note', { path: '[[.obsidian/plugins/fake-sync/data.json]]' }), 'INVALID_INPUT'), /starts with "\."/);
});

test('upsert_concept: a name holding a path is refused for that, not for its leading dot', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const text = refusal(await call('upsert_concept', { name: '../../Projects/Atlas/Overview', body: 'x' }), 'INVALID_INPUT');
  assert.match(text, /a note's name cannot hold a path \(\/, \\ or \.\.\): give the name alone, such as "Overview"/);
  assert.doesNotMatch(text, /starts with a dot/);
});

test('undo_write on a note deleted since says so, and what undo can and cannot do', async (t) => {
  const { call, vault } = await connectFixture(t, VAULT);
  const created = (await call('write_note', { path: 'Claude/Draft.md', content: '# Draft\n' })).structuredContent as { journal_id: number };
  const appended = (await call('append_note', { path: 'Claude/Draft.md', content: 'More.' })).structuredContent as { journal_id: number };
  rmSync(join(vault.root, 'Claude/Draft.md'));
  const text = refusal(await call('undo_write', { id: appended.journal_id }), 'CONFLICT');
  assert.match(text, /Claude\/Draft\.md has been deleted \(or moved\) since write #\d+; undo_write only reverts a write in a note that still holds what the write left, so it cannot bring the note back/);
  assert.match(text, /the human can restore the note/);
  assert.doesNotMatch(text, /edit the note by hand/);
  assert.match(refusal(await call('undo_write', { id: created.journal_id }), 'CONFLICT'), /which write #\d+ created, has been deleted since; .*nothing to undo/);
});

test('a folder filter written with backslashes matches the folder it names', async (t) => {
  const { call } = await connectFixture(t, VAULT);
  const hits = (await call('search_brain', { query: 'tantivy', folder: 'Projects\\Atlas' })).structuredContent as { results: { path: string }[] };
  assert.deepEqual(
    hits.results.map((hit) => hit.path),
    ['Projects/Atlas/Plan.md'],
  );
  const outside = (await call('search_brain', { query: 'tantivy', exclude_folders: ['Projects\\Atlas'] })).structuredContent as { results: { path: string }[] };
  assert.ok(!outside.results.some((hit) => hit.path.startsWith('Projects/Atlas/')), JSON.stringify(outside.results));
  const recent = (await call('list_recent', { folder: 'Projects\\Billing' })).structuredContent as { notes: { path: string }[] };
  assert.deepEqual(
    recent.notes.map((note) => note.path),
    ['Projects/Billing/Plan.md'],
  );
  const tasks = (await call('list_tasks', { folder: 'Projects\\Atlas' })).structuredContent as { tasks: { path: string }[] };
  assert.deepEqual(
    tasks.tasks.map((task) => task.path),
    ['Projects/Atlas/Plan.md'],
  );
});

test('write_note refuses a new folder whose name ends in a space or a dot, and writes nothing', async (t) => {
  const { call, vault } = await connectFixture(t, VAULT);
  for (const [path, fixed] of [
    ['Claude/spaces /x.md', 'Claude/spaces/x.md'],
    ['Claude/v1./x.md', 'Claude/v1/x.md'],
  ] as const) {
    const text = refusal(await call('write_note', { path, content: 'x' }), 'INVALID_INPUT');
    assert.match(text, /the folder name ".*" ends with a (space|dot), which Windows cannot hold/, path);
    assert.ok(text.includes(`"${fixed}"`), text);
    assert.equal(existsSync(join(vault.root, path.split('/').slice(0, 2).join('/'))), false, `${path}: no folder made`);
  }
});
