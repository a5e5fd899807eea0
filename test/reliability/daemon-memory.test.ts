/**
 * What the daemon carries: it serves every attached session for as long as it runs, so what it
 * loads at start is paid by all of them. The Anthropic SDK (~270 modules), umap-js and a
 * per-file watching library are loaded only by the jobs that use them (an `anthropic`
 * extraction or adjudication, a map), never by a daemon that starts, watches and answers a
 * search — a real daemon process, a session attached through the real relay, and a log of
 * every module the daemon loaded (test/helpers/module-log.mjs).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveVaultRoot, stateDirFor } from '../../src/index/index.js';
import { REPO, spawnCli } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { makeVault } from '../helpers/vault.js';

const MAIN = join(REPO, 'src/cli/main.ts');
const ENTRY = join(REPO, 'src/cli/engram.ts');
const MODULE_LOG = join(REPO, 'test/helpers/module-log.mjs');

test('a daemon that starts, watches and answers an attached session loads neither the Anthropic SDK, nor umap-js, nor a per-file watcher', async (t) => {
  const vault = makeVault(t, { 'Claude/README.md': '# Constitution\nAgents write under Claude/ only.\n', 'Notes/Alpha.md': '# Alpha\nThe quokka project ships in spring.\n', 'Notes/Deep/Beta.md': '# Beta\nSee [[Alpha]].\n' });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: vault.home, ENGRAM_OFFLINE: '1' };
  assert.equal(spawnCli(['index', '--vault', vault.root, '--quiet'], { ENGRAM_HOME: vault.home }).code, 0);
  const log = join(vault.home, '..', 'modules.log');
  const daemon = spawn(process.execPath, ['--import', 'tsx', '--import', MODULE_LOG, MAIN, 'daemon', '--vault', vault.root, '--no-index'], { cwd: REPO, env: { ...env, ENGRAM_TEST_MODULE_LOG: log }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  daemon.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  t.after(() => {
    if (daemon.exitCode === null) daemon.kill('SIGKILL');
  });
  const attachFile = join(stateDirFor(vault.home, resolveVaultRoot(vault.root)), 'attach.json');
  await eventually(() => (existsSync(attachFile) && (JSON.parse(readFileSync(attachFile, 'utf8')) as { pid: number }).pid === daemon.pid) || daemon.exitCode !== null, 'the daemon opens its attach endpoint');
  assert.equal(daemon.exitCode, null, `the daemon runs (stderr: ${stderr})`);

  const client = new Client({ name: 'tester', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', ENTRY, 'serve', '--vault', vault.root, '--no-index'], env, cwd: REPO, stderr: 'ignore' }));
  const found = (await client.callTool({ name: 'search_brain', arguments: { query: 'quokka' } })) as { isError?: boolean; structuredContent?: unknown };
  assert.ok(!found.isError && JSON.stringify(found.structuredContent).includes('Notes/Alpha.md'), 'the attached session searches');
  await client.close();
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  daemon.kill('SIGTERM');
  await exited;

  const loaded = readFileSync(log, 'utf8').split('\n');
  // The log saw the daemon's own modules (so an absence below means something).
  for (const used of ['better-sqlite3', '@modelcontextprotocol/sdk', 'node-cron'])
    assert.ok(
      loaded.some((line) => line.includes(`/node_modules/${used}/`)),
      `${used} is in the log`,
    );
  for (const unused of ['@anthropic-ai/sdk', 'umap-js', 'chokidar']) {
    assert.deepEqual(
      loaded.filter((line) => line.includes(`/node_modules/${unused}/`)),
      [],
      `${unused} is not loaded`,
    );
  }
});
