/**
 * Projects and issues through spawned `engram serve` processes and the real MCP client: a
 * project, three issues, one closed and archived with its links intact, listed by status, the
 * archive undone byte for byte; and two servers updating one issue at once, nothing lost.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { makeVault } from '../helpers/vault.js';

type Reply = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };

async function serve(t: TestContext, vault: { root: string; home: string }): Promise<(tool: string, args?: Record<string, unknown>) => Promise<Reply>> {
  const client = new Client({ name: 'work', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', `${REPO}src/cli/main.ts`, 'serve', '--vault', vault.root, '--no-watch'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: vault.home, ENGRAM_OFFLINE: '1' },
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  const call = async (tool: string, args: Record<string, unknown> = {}) => (await client.callTool({ name: tool, arguments: args })) as Reply;
  // The start-up index run holds the state's index lock, under which moves (the archive) run.
  await eventually(async () => (await call('index_status')).structuredContent!.indexing !== 'indexing', 'the start-up index run ended');
  return call;
}

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

const must = (reply: Reply): Record<string, unknown> => {
  assert.equal(reply.isError, undefined, reply.content[0]?.text);
  return reply.structuredContent!;
};

test('spawned server: project, three issues, one done and archived with its links intact, listed by status, archive undone', async (t) => {
  const vault = makeVault(t, { 'Claude/README.md': '# Constitution\n', 'Home.md': '# Home\n' });
  const call = await serve(t, vault);
  must(await call('create_project', { name: 'Atlas', goal: 'Ship it.' }));
  for (const title of ['Index the wiki', 'Fix ranking', 'Write docs']) must(await call('create_issue', { project: 'Atlas', title }));
  const issue = 'Claude/Projects/Atlas/Issues/2 Fix ranking.md';
  // Links of several forms to issue 2, from agent notes.
  must(
    await call('write_note', {
      path: 'Claude/Sessions/Plan.md',
      content: '# Plan\n[[2 Fix ranking]] and [[Claude/Projects/Atlas/Issues/2 Fix ranking|ranking]] and ![[2 Fix ranking#Comments]]\n[md](../Projects/Atlas/Issues/2%20Fix%20ranking.md)\n',
    }),
  );
  must(await call('update_issue', { project: 'Atlas', id: 1, comment: 'see [[2 Fix ranking]]' }));
  const before = snapshot(vault.root);

  const doing = must(await call('update_issue', { project: 'Atlas', id: 2, status: 'doing' }));
  assert.deepEqual(doing.archived, []);
  const closed = must(await call('update_issue', { project: 'Atlas', id: 2, status: 'done', comment: 'fixed' }));
  const archived = closed.archived as { from: string; to: string; move_id: number }[];
  assert.deepEqual(
    archived.map((a) => [a.from, a.to]),
    [[issue, 'Claude/Projects/Atlas/Archive/2 Fix ranking.md']],
  );
  assert.ok(!existsSync(join(vault.root, issue)) && existsSync(join(vault.root, archived[0]!.to)));
  const backlinks = must(await call('get_backlinks', { path: archived[0]!.to })).backlinks as { path: string }[];
  assert.deepEqual([...new Set(backlinks.map((b) => b.path))].sort(), ['Claude/Projects/Atlas/Issues/1 Index the wiki.md', 'Claude/Sessions/Plan.md']);
  assert.equal(backlinks.length, 5, 'every link resolves to the archived issue');

  const done = must(await call('list_issues', { project: 'Atlas', status: ['done'] })).issues as { id: number; archived: boolean }[];
  assert.deepEqual(
    done.map((i) => [i.id, i.archived]),
    [[2, true]],
  );
  const open = must(await call('list_issues', { status: ['open'] })).issues as { id: number }[];
  assert.deepEqual(
    open.map((i) => i.id),
    [1, 3],
  );

  must(await call('undo_move', { move_id: archived[0]!.move_id }));
  const restoredText = readFileSync(join(vault.root, issue), 'utf8');
  assert.match(restoredText, /status: done/, 'the issue is back in Issues/, still done (the update stands; only the move is undone)');
  const after = snapshot(vault.root);
  for (const path of Object.keys(before)) if (path !== issue) assert.equal(after[path], before[path], `${path} byte-identical after the undo`);
});

test('two spawned servers update one issue at once: every comment lands, each journaled', async (t) => {
  const vault = makeVault(t, { 'Claude/README.md': '# Constitution\n' });
  const a = await serve(t, vault);
  must(await a('create_project', { name: 'Atlas', archive_after_days: 30 }));
  must(await a('create_issue', { project: 'Atlas', title: 'Shared' }));
  const b = await serve(t, vault);
  const rounds = 8;
  const replies = await Promise.all(
    Array.from({ length: rounds }, (_, i) => [a('update_issue', { project: 'Atlas', id: 1, comment: `a${i}`, author: 'a' }), b('update_issue', { project: 'Atlas', id: 1, comment: `b${i}`, author: 'b' })]).flat(),
  );
  for (const reply of replies) must(reply);
  const text = readFileSync(join(vault.root, 'Claude/Projects/Atlas/Issues/1 Shared.md'), 'utf8');
  for (let i = 0; i < rounds; i++) {
    assert.match(text, new RegExp(`a: a${i}\\n`));
    assert.match(text, new RegExp(`b: b${i}\\n`));
  }
  const ids = new Set(replies.map((reply) => reply.structuredContent!.journal_id));
  assert.equal(ids.size, rounds * 2, 'each update its own journal entry');
});
