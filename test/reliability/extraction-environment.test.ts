/**
 * A logged-out Claude Code CLI, end to end through real processes: `engram librarian` spawns a
 * fake `claude` (first on the PATH) that prints exactly the envelope the real CLI prints when
 * logged out and exits 1. The sweep must spawn it once, report one clear line, and leave every
 * note pending; once the fake answers, the next sweep extracts them all. The fake counts its
 * runs in a file, so no clock is needed.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { runCli, spawnCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const NOTES = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`Zoo/Walrus ${i}.md`, `# Walrus ${i}\nThe walrus keeper feeds the walrus fish at noon.\n`]));

const FAKE = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const dir = __dirname;
fs.appendFileSync(path.join(dir, 'spawns'), 'x');
const mode = fs.readFileSync(path.join(dir, 'mode'), 'utf8').trim();
process.stdin.resume();
process.stdin.on('end', () => {
  if (mode === 'logged-out') {
    process.stdout.write('{"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run /login"}');
    process.exit(1);
  }
  const reply = { entities: [{ name: 'Walrus', type: 'topic', aliases: [], evidence: 'The walrus keeper feeds the walrus' }], relations: [] };
  process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(reply), total_cost_usd: 0, usage: { input_tokens: 10, output_tokens: 5 } }));
});
`;

test('a logged-out claude CLI: one spawn, one line, every note pending; logged in, the next sweep extracts them all', async (t) => {
  const vault = makeVault(t, NOTES);
  const bin = join(vault.home, '..', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'claude'), FAKE);
  chmodSync(join(bin, 'claude'), 0o755);
  writeFileSync(join(bin, 'mode'), 'logged-out');
  const spawns = () => readFileSync(join(bin, 'spawns'), 'utf8').length;
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root, ENGRAM_EXTRACTOR: 'claude-cli', ENGRAM_EXTRACT_MODEL: 'haiku', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  const sweep = () => spawnCli(['librarian', '--phases', 'index,extract,report', '--json'], env);

  const first = sweep();
  assert.equal(first.code, 0, first.stderr);
  const extract = JSON.parse(first.stdout).phases.find((phase: { name: string }) => phase.name === 'extract');
  assert.equal(extract.summary, 'paused — the claude CLI is not logged in; run claude /login; 6 notes wait');
  assert.equal(spawns(), 1, 'the CLI was spawned once, not once per note');
  const report = readFileSync(join(vault.root, 'Claude/Librarian.md'), 'utf8');
  assert.match(report, /^- \*\*extract\*\*: paused — the claude CLI is not logged in; run claude \/login; 6 notes wait$/m);
  assert.doesNotMatch(report, /\(success\)|Walrus \d\.md: /, 'no per-note error lines');
  const [id] = readdirSync(vault.home);
  const db = () => new Database(join(vault.home, id!, 'engram.db'), { readonly: true });
  const state = db();
  assert.equal(state.prepare('SELECT count(*) FROM extractions').pluck().get(), 0, 'no note charged');
  state.close();
  const status = await runCli(['status'], env);
  assert.match(status.stdout, /^graph {8}extraction paused since .* UTC — the claude CLI is not logged in; run claude \/login$/m);

  writeFileSync(join(bin, 'mode'), 'ok');
  const second = sweep();
  assert.equal(second.code, 0, second.stderr);
  const extracted = JSON.parse(second.stdout).phases.find((phase: { name: string }) => phase.name === 'extract');
  assert.equal(extracted.counts.processed, 6, extracted.summary);
  assert.equal(extracted.counts.remaining, 0);
  assert.equal(spawns(), 1 + 6);
  const after = db();
  assert.equal(after.prepare("SELECT count(*) FROM extractions WHERE status = 'ok'").pluck().get(), 6);
  after.close();
  assert.doesNotMatch((await runCli(['status'], env)).stdout, /extraction paused/, 'the pause is lifted');
});
