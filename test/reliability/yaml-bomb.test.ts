/**
 * One hostile note cannot stop indexing: an agent writes a YAML alias bomb ("billion laughs",
 * anchors nesting anchors) through MCP `write_note`; the write is answered as done, and
 * `engram index`, `index --full`, `search` and `librarian` all exit 0, index every other note,
 * index the bomb without its frontmatter, and report it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openStateDb, readStatus, resolveVaultRoot, stateDirFor } from '../../src/index/index.js';
import { REPO } from '../helpers/cli.js';
import { runEngram } from '../helpers/index-check.js';
import { makeVault } from '../helpers/vault.js';

const BOMB = [
  '---',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  '---',
  '# Laughs',
  'kookaburra body text',
].join('\n');

test('a YAML alias bomb written by an agent: the write is done, index, index --full, search and librarian exit 0 and report it', async (t) => {
  const files: Record<string, string> = { 'Claude/README.md': '# Constitution\nAgents write under Claude/ only.\n' };
  for (let i = 0; i < 20; i++) files[`Notes/N${i}.md`] = `---\ntags: [t${i}]\n---\n# Note ${i}\nwallaby ${i}\n`;
  const vault = makeVault(t, files);
  const env = { ENGRAM_HOME: vault.home };
  const client = new Client({ name: 'bomber', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', `${REPO}src/cli/main.ts`, 'serve', '--vault', vault.root, '--no-watch', '--no-index'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: vault.home, ENGRAM_OFFLINE: '1' },
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  const written = (await client.callTool({ name: 'write_note', arguments: { path: 'Claude/Laughs.md', content: BOMB } })) as { isError?: boolean; content: { text?: string }[] };
  assert.notEqual(written.isError, true, written.content[0]?.text);
  assert.ok(existsSync(join(vault.root, 'Claude/Laughs.md')));
  await client.close();

  const index = await runEngram(['index', '--vault', vault.root, '--no-embed', '--json'], env);
  assert.equal(index.code, 0, index.stderr);
  assert.equal((JSON.parse(index.stdout) as { notes: number }).notes, 23, 'every note (20, the constitution, the audit trail) and the bomb');
  const full = await runEngram(['index', '--vault', vault.root, '--full', '--no-embed', '--json'], env);
  assert.equal(full.code, 0, full.stderr);
  assert.equal((JSON.parse(full.stdout) as { notes: number }).notes, 23);

  const search = await runEngram(['search', 'kookaburra', '--vault', vault.root, '--json'], env);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.stdout, /Claude\/Laughs\.md/, 'the bomb note is found by its body');

  const state = openStateDb(stateDirFor(resolve(vault.home), resolveVaultRoot(vault.root))).db;
  const warnings = readStatus(state, { vault: vault.root, stateDir: vault.home }).warnings;
  assert.equal(state.prepare("SELECT frontmatter FROM notes WHERE path = 'Claude/Laughs.md'").pluck().get(), null, 'indexed without its frontmatter');
  state.close();
  assert.ok(
    warnings.some((warning) => warning.startsWith('Claude/Laughs.md: frontmatter could not be read safely')),
    warnings.join('\n'),
  );

  const sweep = await runEngram(['librarian', '--vault', vault.root], env);
  assert.equal(sweep.code, 0, `${sweep.stdout}\n${sweep.stderr}`);
});
