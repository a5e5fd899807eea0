/**
 * Concurrent writers, with real processes: two `engram serve` processes (stdio, the MCP SDK
 * client) write notes as fast as they are answered while `engram index` builds a fresh state,
 * then while `engram librarian` sweeps (which indexes too).
 * Every write is answered as done and is on disk, every command exits 0, and afterwards the
 * state database holds exactly what a clean index of the vault holds: no orphaned rows.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openStateDb, resolveVaultRoot, stateDirFor } from '../../src/index/index.js';
import { REPO } from '../helpers/cli.js';
import { indexState } from '../helpers/indexed-vault.js';
import { orphanRows, runEngram, termRows, type Spawned } from '../helpers/index-check.js';
import { dumpState, withoutIds } from '../helpers/state.js';
import { makeVault } from '../helpers/vault.js';

const NOTES = 300;

/** Deterministic made-up words, so every note brings terms no other note has. */
function word(n: number): string {
  let out = '';
  for (let x = n + 1; x > 0; x = Math.floor(x / 26)) out += String.fromCharCode(97 + (x % 26));
  return `v${out}q`;
}

function vaultFiles(): Record<string, string> {
  const files: Record<string, string> = { 'Claude/README.md': '# Constitution\nAgents write under Claude/ only.\n' };
  for (let i = 0; i < NOTES; i++) {
    const words = Array.from({ length: 40 }, (_, k) => word(i * 40 + k)).join(' ');
    files[`Notes/${String(i).padStart(3, '0')} Topic.md`] = `---\ntags: [topic/t${i % 7}]\n---\n# Topic ${i}\n${words}\nSee [[${String((i + 1) % NOTES).padStart(3, '0')} Topic]].\n- [ ] task ${i}\n`;
  }
  return files;
}

type Reply = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };

async function connect(vault: string, home: string): Promise<Client> {
  const client = new Client({ name: 'hammer', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', `${REPO}src/cli/main.ts`, 'serve', '--vault', vault, '--no-watch', '--no-index'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: home, ENGRAM_OFFLINE: '1' },
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Every file's text under the vault (where a written marker must be found, wherever a sweep filed it). */
function vaultText(root: string): string {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

test('writers hammering through two servers while index and librarian run: every write answered as done, exit 0, no orphaned rows', async (t) => {
  const vault = makeVault(t, vaultFiles());
  const env = { ENGRAM_HOME: vault.home };
  const clients = await Promise.all([connect(vault.root, vault.home), connect(vault.root, vault.home)]);
  t.after(() => Promise.all(clients.map((client) => client.close())));

  const replies: { marker: string; reply: Reply }[] = [];
  let stop = false;
  let writes = 0;
  const hammer = async (client: Client, lane: number) => {
    for (let n = 0; !stop; n++) {
      // Fresh words in every write: each one adds terms while the runs add theirs.
      const marker = `${word(100_000 + lane * 10_000 + n)}mark`;
      const call =
        n % 2 === 0
          ? { name: 'capture', arguments: { text: `noted ${marker}` } }
          : { name: 'write_note', arguments: { path: `Claude/Hammer/${lane}-${n}.md`, content: `# Hammer ${lane} ${n}\n${marker} ${word(200_000 + lane * 10_000 + n)}\n` } };
      replies.push({ marker, reply: (await client.callTool(call)) as Reply });
      writes++;
    }
  };
  const hammering = Promise.all(clients.map((client, lane) => hammer(client, lane)));
  /** Runs a command while the writers write; at least a few writes land during it. */
  const during = async (argv: string[]): Promise<Spawned> => {
    const before = writes;
    const started = Date.now();
    const result = await runEngram(argv, env);
    t.diagnostic(`${argv[0]}: exit ${result.code} in ${Date.now() - started} ms, ${writes - before} writes meanwhile`);
    while (writes < before + 4) await new Promise((done) => setTimeout(done, 20));
    return result;
  };

  const index = await during(['index', '--vault', vault.root, '--quiet', '--no-embed']);
  const sweep = await during(['librarian', '--vault', vault.root]);
  stop = true;
  await hammering;
  t.diagnostic(`${replies.length} writes, ${replies.filter(({ reply }) => reply.isError).length} answered as failed`);

  assert.equal(index.code, 0, `engram index: ${index.stderr}`);
  assert.equal(sweep.code, 0, `engram librarian: ${sweep.stdout}\n${sweep.stderr}`);
  const text = vaultText(vault.root);
  const failedButWritten = replies.filter(({ marker, reply }) => reply.isError && text.includes(marker));
  assert.deepEqual(
    failedButWritten.map(({ reply }) => reply.content[0]?.text),
    [],
    'no write that happened is reported as failed',
  );
  assert.deepEqual(
    replies.filter(({ reply }) => reply.isError).map(({ reply }) => reply.content[0]?.text),
    [],
    'every write succeeds',
  );
  assert.deepEqual(
    replies.filter(({ marker }) => !text.includes(marker)).map(({ marker }) => marker),
    [],
    'every write answered as done is on disk',
  );

  // The live state equals a clean index of the same vault: every note, nothing more.
  const root = resolveVaultRoot(vault.root);
  const live = openStateDb(stateDirFor(resolve(vault.home), root)).db;
  t.after(() => live.close());
  const clean = indexState(t, { root, home: join(vault.home, 'clean') }).db;
  assert.equal(live.prepare('SELECT count(*) FROM notes').pluck().get(), clean.prepare('SELECT count(*) FROM notes').pluck().get());
  assert.ok((live.prepare('SELECT count(*) FROM notes').pluck().get() as number) > NOTES, "the vault's notes and the written ones are indexed");
  assert.deepEqual(orphanRows(live), { note_terms: 0, notes_without_terms: 0, blocks: 0, links: 0, vectors: 0, foreign_key_violations: 0 });
  assert.deepEqual(termRows(live), termRows(clean));
  const { dirty: _dirty, ...liveDump } = withoutIds(dumpState(live));
  const { dirty: _cleanDirty, ...cleanDump } = withoutIds(dumpState(clean));
  assert.deepEqual(liveDump, cleanDump);
});
