import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';
import { recordExtractionPause } from '../../src/graph/index.js';

test('the server tells agents to onboard first; onboard returns rules, tools and status', async (t) => {
  const { client, call } = await connectFixture(t, MCP_VAULT);
  assert.match(client.getInstructions() ?? '', /Call `onboard` first/);
  const result = await call('onboard');
  assert.equal(result.isError, undefined);
  const s = result.structuredContent!;
  assert.match(s.constitution as string, /Agents write under Claude\/ only/);
  assert.ok((s.routing as string[]).length >= 3);
  assert.ok('search_brain' in (s.tools as object));
  assert.equal((s.status as { notes: number }).notes, 7);
  assert.ok(JSON.stringify(s).length < 6000, 'a few KB at most');
});

test('index_status and librarian_status', async (t) => {
  const { call } = await connectFixture(t, MCP_VAULT);
  const status = (await call('index_status')).structuredContent!;
  assert.equal(status.notes, 7);
  assert.ok((status.vectors as { model: string }).model);
  const librarian = await call('librarian_status');
  assert.match(librarian.structuredContent!.status as string, /^no sweep yet/);
  assert.equal(librarian.structuredContent!.sweep, null);
});

test('an extraction paused by its environment shows in librarian_status and onboard until a run extracts again', async (t) => {
  const { call, engine } = await connectFixture(t, MCP_VAULT);
  recordExtractionPause(engine.db, { backend: 'claude-cli', model: 'haiku', reason: 'the claude CLI is not logged in; run claude /login', message: 'claude-cli extraction of "a.md" failed', at: '2026-12-01T20:10:00.000Z' });
  const line = 'extraction paused since 2026-12-01 20:10 UTC — the claude CLI is not logged in; run claude /login';
  assert.equal((await call('librarian_status')).structuredContent!.status, `no sweep yet: the Librarian has not run on this vault (engram librarian, or engram daemon on a schedule); ${line}`);
  const onboard = (await call('onboard')).structuredContent!.status as { librarian: string };
  assert.match(onboard.librarian, /; extraction paused since 2026-12-01 20:10 UTC — the claude CLI is not logged in; run claude \/login$/);
  // The structural extractor runs here: another backend that extracts lifts the pause.
  const indexed = await call('index_brain', { max_notes: 50 });
  assert.ok(!indexed.isError);
  assert.doesNotMatch(String((await call('librarian_status')).structuredContent!.status), /paused/);
});

test('search_brain: hits with evidence, filters, scoped_out, include_text, mode says why', async (t) => {
  const { call } = await connectFixture(t, MCP_VAULT);
  const result = await call('search_brain', { query: 'tantivy cutover', limit: 5 });
  const s = result.structuredContent! as { mode: string; mode_reason: string; results: { path: string; lines: number[]; excerpt: string; lanes: object }[] };
  assert.equal(s.mode, 'keyword');
  assert.match(s.mode_reason, /keyword only/);
  assert.equal(s.results[0]!.path, 'Claude/Sessions/2026-03-12 Review.md');
  assert.ok(s.results[0]!.excerpt.includes('Tantivy'));
  assert.equal(s.results[0]!.lines.length, 2);
  assert.match(result.content[0]!.text!, /1\. Claude\/Sessions\/2026-03-12 Review\.md \(lines/);
  const filtered = (await call('search_brain', { query: 'tantivy cutover', folder: 'Projects' })).structuredContent! as { results: { path: string }[]; scoped_out?: { best: { path: string } } };
  assert.ok(filtered.results.every((hit) => hit.path.startsWith('Projects/')));
  assert.equal(filtered.scoped_out?.best.path, 'Claude/Sessions/2026-03-12 Review.md');
  const tagged = (await call('search_brain', { query: 'tantivy', tags: ['project'], include_text: true })).structuredContent! as { results: { path: string; text: string }[] };
  assert.deepEqual(
    tagged.results.map((hit) => hit.path),
    ['Projects/Atlas.md'],
  );
  assert.match(tagged.results[0]!.text, /Move search to Tantivy/);
  const semantic = await call('search_brain', { query: 'tantivy', mode: 'semantic' });
  assert.equal(semantic.isError, true);
  assert.match(semantic.content[0]!.text!, /semantic search is not possible: no note has a .* vector yet.*use mode "hybrid" or "keyword"/);
  const rephrased = (await call('search_brain', { query: 'tantivy cutover', alternatives: ['pgvector pricing'] })).structuredContent! as { results: { path: string; lanes: { wordings?: { wording: number }[] } }[] };
  assert.ok(
    rephrased.results.some((hit) => hit.lanes.wordings?.[0]?.wording === 1),
    'a note only the alternative found is fused in and says so',
  );
  const excluding = (await call('search_brain', { query: 'tantivy -cutover' })).structuredContent! as { results: { path: string }[]; notices: string[] };
  assert.ok(
    excluding.results.every((hit) => hit.path !== 'Claude/Sessions/2026-03-12 Review.md'),
    'a -word leaves out the notes holding it',
  );
  assert.ok(excluding.notices.some((notice) => /^left out \d+ notes? holding "cutover"$/.test(notice)));
  const tooMany = await call('search_brain', { query: 'x', alternatives: ['a', 'b', 'c', 'd', 'e'] });
  assert.equal(tooMany.isError, true);
  const bad = await call('search_brain', { query: '', limit: 500 });
  assert.equal(bad.isError, true);
  const blank = await call('search_brain', { query: '   ' });
  assert.equal(blank.isError, true);
  assert.match(JSON.stringify(blank.content), /the query is blank/);
});

test('context_bundle sizes to the budget; recall_bundle has sections with status', async (t) => {
  const { call } = await connectFixture(t, MCP_VAULT);
  const bundle = (await call('context_bundle', { query: 'tantivy', max_tokens: 200 })).structuredContent! as { hits: { text: string }[]; used_tokens: number; related: unknown[] };
  assert.ok(bundle.used_tokens <= 200);
  assert.ok(bundle.hits.length >= 1);
  // The whole bundle as the agent reads it — hits, related notes, entities, its own fields — fits the budget (4 characters a token).
  for (const [args, tokens] of [
    [{ query: 'tantivy' }, 200],
    [{ query: 'atlas' }, 200],
    [{ path: 'Projects/Atlas.md' }, 200],
    [{ query: 'atlas' }, 1000],
  ] as const) {
    const whole = await call('context_bundle', { ...args, max_tokens: tokens });
    const text = (whole.content as { text: string }[])[0]!.text;
    assert.ok(text.length <= tokens * 4, `${JSON.stringify(args)} at ${tokens} tokens: ${text.length} characters`);
    assert.equal((whole.structuredContent as { used_tokens: number }).used_tokens, Math.ceil(text.length / 4));
  }
  const around = (await call('context_bundle', { path: 'Projects/Atlas.md', max_tokens: 400 })).structuredContent! as { hits: { path: string }[]; related: { path: string; why: string }[] };
  assert.equal(around.hits[0]!.path, 'Projects/Atlas.md');
  const inHits = new Set(around.hits.map((hit) => hit.path));
  assert.ok(around.related.every((note) => !inHits.has(note.path) && /^(linked from|links to) /.test(note.why)));
  assert.deepEqual(
    around.related.find((note) => note.path === 'Glossary.md'),
    { path: 'Glossary.md', title: 'Glossary', why: 'linked from Projects/Atlas.md' },
  );
  const neither = await call('context_bundle', {});
  assert.equal(neither.isError, true);
  assert.equal((await call('context_bundle', { query: ' \n ' })).isError, true, 'a blank query is no question');
  const recall = (await call('recall_bundle', { mode: 'digest', since: '2000-01-01' })).structuredContent! as { sections: Record<string, { status: string; items: { path?: string; text?: string }[] }> };
  assert.equal(recall.sections.sessions!.status, 'ok');
  assert.equal(recall.sections.captures!.items[0]!.path, 'Claude/Inbox/2026-03-15.md');
  assert.equal(recall.sections.open_tasks!.items[0]!.text, 'Load test');
  const resume = (await call('recall_bundle', { mode: 'resume', project: 'atlas', since: '2000-01-01' })).structuredContent! as { sections: Record<string, { items: { path?: string }[] }> };
  assert.ok(resume.sections.changed_notes!.items.some((note) => note.path === 'Projects/Atlas.md'));
  assert.equal((await call('recall_bundle', { mode: 'resume' })).isError, true);
});

test('context_bundle quotes a long section around its best passage, so the answer and the next hits fit', async (t) => {
  // A conversation log: one section of 120 turns, the answer in the middle of it.
  const turns = Array.from({ length: 120 }, (_, i) => `**${i % 2 ? 'Ana' : 'Rui'}:** Turn ${i + 1}, about the weather and the week ahead.`);
  turns[70] = '**Ana:** We finally adopted a greyhound from the shelter in Braga!';
  const log = ['---', 'tags: [session]', '---', '# Ana and Rui — session 3', '', turns.join('\n\n'), ''].join('\n');
  const { call } = await connectFixture(t, { ...MCP_VAULT, 'Sessions/Ana and Rui — session 3.md': log, 'Pets.md': '# Pets\n\nA greyhound needs a daily run.\n' });
  const found = (await call('search_brain', { query: 'greyhound shelter', limit: 2 })).structuredContent! as { results: { path: string; lines: [number, number]; passage_lines?: [number, number] }[] };
  const session = found.results.find((hit) => hit.path.startsWith('Sessions/'))!;
  assert.deepEqual(session.lines, [4, 245]);
  assert.deepEqual(session.passage_lines, [146, 146]);
  assert.equal(found.results.find((hit) => hit.path === 'Pets.md')!.passage_lines, undefined, 'a short section is its own passage');
  const bundle = (await call('context_bundle', { query: 'greyhound shelter', max_tokens: 1000 })).structuredContent! as { hits: { path: string; lines: [number, number]; text: string }[]; used_tokens: number };
  const quoted = bundle.hits.find((hit) => hit.path.startsWith('Sessions/'))!;
  assert.match(quoted.text, /adopted a greyhound from the shelter in Braga/);
  assert.match(quoted.text, /^\[…\]\n[\s\S]*\n\[…\]$/);
  assert.ok(quoted.lines[0] > 4 && quoted.lines[0] < 146 && quoted.lines[1] > 146 && quoted.lines[1] < 244, `quoted ${quoted.lines}`);
  // √(500 · 4,000 characters) ≈ 1,414: the rest of the budget is left to the next hit.
  assert.ok(quoted.text.length <= 1414 + 12, `${quoted.text.length} characters`);
  assert.ok(bundle.hits.some((hit) => hit.path === 'Pets.md'));
  assert.ok(bundle.used_tokens <= 1000);
  // read_note reads just the passage the hit names.
  const read = (await call('read_note', { path: session.path, lines: session.passage_lines })).structuredContent! as { text: string };
  assert.equal(read.text, '**Ana:** We finally adopted a greyhound from the shelter in Braga!');
  // Named by the query, the session has no passage: it is quoted from its start, to the same share.
  const named = (await call('context_bundle', { query: 'Ana and Rui session 3', max_tokens: 1000 })).structuredContent! as { hits: { path: string; lines: [number, number]; text: string }[] };
  const opening = named.hits.find((hit) => hit.path.startsWith('Sessions/'))!;
  assert.match(opening.text, /^# Ana and Rui — session 3\n\n\*\*Rui:\*\* Turn 1,[\s\S]*\n\[…\]$/);
  assert.ok(opening.lines[0] === 4 && opening.lines[1] < 146 && opening.text.length <= 1414 + 6, `quoted ${opening.lines}`);
  // Asked for by path, the note is quoted whole (to the budget).
  const around = (await call('context_bundle', { path: 'Sessions/Ana and Rui — session 3.md', max_tokens: 50_000 })).structuredContent! as { hits: { path: string; text: string }[] };
  assert.match(around.hits[0]!.text, /Turn 1, about[\s\S]*Turn 120, about/);
});

test('read_note reads notes, resolves variants, truncates, and refuses what is not a note', async (t) => {
  const { call, vault } = await connectFixture(t, MCP_VAULT);
  const note = (await call('read_note', { path: 'projects/atlas' })).structuredContent! as { path: string; text: string; truncated: boolean };
  assert.equal(note.path, 'Projects/Atlas.md');
  assert.equal(note.text, readFileSync(join(vault.root, 'Projects/Atlas.md'), 'utf8'));
  const cut = (await call('read_note', { path: 'Projects/Atlas.md', max_chars: 100 })).structuredContent! as { text: string; truncated: boolean };
  assert.equal(cut.truncated, true);
  assert.match(cut.text, /truncated at 100 of/);
  // Some lines only: a search hit's range, the last clamped to the note's end.
  const whole = readFileSync(join(vault.root, 'Projects/Atlas.md'), 'utf8').split('\n');
  const part = (await call('read_note', { path: 'Projects/Atlas.md', lines: [2, 3] })).structuredContent! as { text: string; lines: [number, number]; line_count: number };
  assert.deepEqual(part, { ...part, text: whole.slice(1, 3).join('\n'), lines: [2, 3], line_count: whole.length });
  const tail = (await call('read_note', { path: 'Projects/Atlas.md', lines: [whole.length, whole.length + 50] })).structuredContent! as { lines: [number, number] };
  assert.deepEqual(tail.lines, [whole.length, whole.length]);
  for (const lines of [
    [3, 2],
    [whole.length + 1, whole.length + 2],
    [0, 2],
  ]) {
    const refused = await call('read_note', { path: 'Projects/Atlas.md', lines });
    assert.equal(refused.isError, true, String(lines));
    assert.match(refused.content[0]!.text!, /lines|line/, String(lines));
  }
  for (const path of ['.obsidian/plugins/fake-sync/data.json', '../outside.md', '/etc/passwd', 'Projects/%2e%2e/%2e%2e/x.md', 'C:\\x.md', 'Nope.md']) {
    const refused = await call('read_note', { path });
    assert.equal(refused.isError, true, path);
    assert.doesNotMatch(refused.content[0]!.text!, /sk-fake/);
  }
});

test('query_notes, get_backlinks, list_recent, list_tasks', async (t) => {
  const { call } = await connectFixture(t, MCP_VAULT);
  const projects = (await call('query_notes', { where: [{ field: 'type', op: 'eq', value: 'project' }] })).structuredContent! as { notes: { path: string }[] };
  assert.deepEqual(
    projects.notes.map((n) => n.path),
    ['Projects/Atlas.md'],
  );
  const ranked = (await call('query_notes', { where: [{ field: 'priority', op: 'gte', value: 1 }], sort: 'priority', order: 'asc' })).structuredContent! as { notes: { path: string }[] };
  assert.deepEqual(
    ranked.notes.map((n) => n.path),
    ['Projects/Decisions.md', 'Projects/Atlas.md'],
  );
  const due = (await call('query_notes', { where: [{ field: 'due', op: 'lt', value: '2026-06-01' }] })).structuredContent! as { notes: { path: string }[] };
  assert.deepEqual(
    due.notes.map((n) => n.path),
    ['Projects/Atlas.md'],
  );
  const tagged = (await call('query_notes', { where: [{ field: 'tags', op: 'contains', value: 'atlas' }] })).structuredContent! as { total: number };
  assert.equal(tagged.total, 1);
  const inSet = (await call('query_notes', { where: [{ field: 'status', op: 'in', value: ['done', 'external'] }] })).structuredContent! as { total: number };
  assert.equal(inSet.total, 2);
  for (const field of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const inherited = (await call('query_notes', { where: [{ field, op: 'exists' }] })).structuredContent! as { total: number };
    assert.equal(inherited.total, 0, `${field} is not a frontmatter field`);
  }

  const backlinks = (await call('get_backlinks', { path: 'Projects/Atlas.md' })).structuredContent! as { backlinks: { path: string; kind: string }[] };
  assert.deepEqual(backlinks.backlinks.map((b) => `${b.path} ${b.kind}`).sort(), ['People/Lena.md markdown', 'Projects/Decisions.md embed', 'Projects/Decisions.md wikilink']);

  const recent = (await call('list_recent', { limit: 3, folder: 'Projects' })).structuredContent! as { notes: { path: string }[] };
  assert.ok(recent.notes.every((n) => n.path.startsWith('Projects/')));

  const open = (await call('list_tasks', {})).structuredContent! as { tasks: { text: string; due: string; path: string; line: number }[] };
  assert.deepEqual(
    open.tasks.map((task) => [task.text, task.due, task.path]),
    [['Load test', '2026-04-20', 'Projects/Atlas.md']],
  );
  const done = (await call('list_tasks', { status: 'done' })).structuredContent! as { tasks: { text: string }[] };
  assert.deepEqual(
    done.tasks.map((task) => task.text),
    ['Kickoff'],
  );
  assert.equal((await call('list_tasks', { due_before: 'tomorrow' })).isError, true);
});

test('list_tasks query: tasks whose line, or whose note, holds every word, read as search reads words', async (t) => {
  const { call } = await connectFixture(t, {
    'Projects/Harbor/Harbor tasks.md': '# Harbor tasks\n- [ ] Per-tenant KMS keys (Tomasz) 📅 2026-07-01\n- [ ] Certificate template\n- [x] Inventory of stores ✅ 2026-04-17\n',
    'Meetings/Design review.md': '# Design review\nAction items:\n- [ ] Send the Harbor certificate templates to legal\n- [ ] Book the next review\n',
    'Home/Groceries.md': '# Groceries\n- [ ] Milk\n',
  });
  const texts = async (args: Record<string, unknown>) => ((await call('list_tasks', args)).structuredContent! as { tasks: { text: string }[] }).tasks.map((task) => task.text).sort();
  assert.deepEqual(await texts({ query: 'Harbor' }), ['Certificate template', 'Per-tenant KMS keys (Tomasz)', 'Send the Harbor certificate templates to legal']);
  // Every word, stemmed: "templates" and "template" are one word; "legal" narrows to the review's line.
  assert.deepEqual(await texts({ query: 'harbor template' }), ['Certificate template', 'Send the Harbor certificate templates to legal']);
  assert.deepEqual(await texts({ query: 'what are the harbor templates for legal?' }), ['Send the Harbor certificate templates to legal']);
  assert.deepEqual(await texts({ query: 'harbor', status: 'done' }), ['Inventory of stores']);
  assert.deepEqual(await texts({ query: 'zzzqqq' }), []);
  const empty = await call('list_tasks', { query: 'the of and' });
  assert.equal(empty.isError, true);
  assert.match((empty.content as { text: string }[])[0]!.text, /no searchable words/);
});

test('an edited, added, renamed or deleted note is reflected in search (watcher)', async (t) => {
  const { call, vault, engine } = await connectFixture(t, MCP_VAULT, { watch: true });
  // An edit made before the watcher's initial scan ends is never reported (a fixed 300 ms wait
  // for it failed on a loaded machine).
  await engine.watching();
  // Found by the keyword lane, so by the index — the substring lane reads the files themselves
  // and would find an edit the index has not seen.
  const paths = async (query: string) =>
    ((await call('search_brain', { query })).structuredContent! as { results: { path: string; lanes: { keyword?: unknown } }[] }).results.filter((hit) => hit.lanes.keyword !== undefined).map((hit) => hit.path);
  const waitFor = eventually;
  assert.ok((await paths('Lena')).includes('People/Lena.md')); // her blocks are now remembered by the loaded engine
  vault.write('People/Lena.md', '# Lena\n\n## Contracts\nNow also owns the zeppelin contract.\n');
  await waitFor(async () => (await paths('zeppelin')).includes('People/Lena.md'), 'an edit');
  const hit = ((await call('search_brain', { query: 'zeppelin' })).structuredContent! as { results: { path: string; section: string; lines: number[] }[] }).results[0]!;
  assert.deepEqual([hit.path, hit.section, hit.lines], ['People/Lena.md', 'Lena > Contracts', [3, 5]], "the evidence is from the edited note's blocks");
  vault.write('New.md', '# New\nquokka facts\n');
  await waitFor(async () => (await paths('quokka')).includes('New.md'), 'an addition');
  const { renameSync } = await import('node:fs');
  renameSync(join(vault.root, 'New.md'), join(vault.root, 'Renamed.md'));
  await waitFor(async () => {
    const found = await paths('quokka');
    return found.includes('Renamed.md') && !found.includes('New.md');
  }, 'a rename');
  vault.remove('Renamed.md');
  await waitFor(async () => (await paths('quokka')).length === 0, 'a deletion');
});
