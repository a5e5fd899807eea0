/**
 * Agent undo against the quarantine, with real processes: a real sweep (`engram librarian`)
 * writes the report and entity notes; a spawned `engram serve` over stdio then gets an agent's
 * `undo_write` for every journal number in the audit trail. None of the caretaker's files is
 * touched; the agent's own write is still undoable.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO, spawnCli } from '../helpers/cli.js';
import { MCP_VAULT } from '../helpers/mcp.js';
import { makeVault } from '../helpers/vault.js';
import { snapshot } from '../writes/fixture.js';

const ENTRY = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

test("an agent's undo_write of the Librarian's and the graph's journal entries touches nothing", { timeout: 120_000 }, async (t) => {
  const vault = makeVault(t, {
    ...MCP_VAULT,
    'People/Ada.md': '---\ntype: person\n---\n# Ada\nAda Lovelace works on [[Atlas]] with [[Lena]].\n',
  });
  const env = { ENGRAM_HOME: vault.home };
  const sweep = spawnCli(['librarian', '--vault', vault.root, '--phases', 'index,extract,report'], env);
  assert.equal(sweep.code, 0, sweep.stderr);
  const journaled = () => [...readFileSync(join(vault.root, 'Claude/Audit.md'), 'utf8').matchAll(/^- .* · #(\d+) (\w+) · (\S+)/gm)].map((m) => ({ id: Number(m[1]), tool: m[2]!, path: m[3]! }));
  const caretaker = journaled();
  assert.ok(
    caretaker.some((entry) => entry.path === 'Claude/Librarian.md'),
    'the sweep wrote its report',
  );
  assert.ok(
    caretaker.some((entry) => entry.path.startsWith('Claude/Graph/')),
    `the sweep wrote entity notes: ${JSON.stringify(caretaker)}`,
  );

  const client = new Client({ name: 'undo-agent', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', ENTRY, 'serve', '--vault', vault.root, '--no-watch'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_OFFLINE: '1', ...env },
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  type R = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as R;

  const before = snapshot(vault.root);
  // Newest first, as an agent reading the trail would; then oldest first.
  for (const entry of [...caretaker, ...[...caretaker].reverse()]) {
    const undo = await call('undo_write', { id: entry.id });
    assert.equal(undo.isError, true, `#${entry.id} ${entry.path}: ${undo.content[0]?.text}`);
    assert.match(undo.content[0]!.text!, /not by an agent/);
  }
  assert.deepEqual(snapshot(vault.root), before, 'no protected file touched, nothing written');

  const own = (await call('write_note', { path: 'Claude/Own.md', content: '# Own\n' })).structuredContent as { journal_id: number };
  const undone = await call('undo_write', { id: own.journal_id });
  assert.equal(undone.isError, undefined, undone.content[0]?.text);
  const after = snapshot(vault.root);
  delete after['Claude/Audit.md'];
  const expected = { ...before };
  delete expected['Claude/Audit.md'];
  assert.deepEqual(after, expected, "the agent's own write was undone, and only that");
});
