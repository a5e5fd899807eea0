/**
 * `engram serve --resume-relay FILE`, the way the native relay hands its session over when its
 * daemon went for good, run as the real `engram` executable (src/cli/engram.ts through tsx):
 * what stops it — no vault, no FILE, an option a plain serve does not take, a resume file
 * missing, not a file, not JSON or not shaped as one — is one line on stderr and the exit status
 * the rest of the command line gives (2 bad usage, 1 otherwise), and a resume file it cannot use
 * is left where it is (it holds the client's lines).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/cli.js';
import { makeVault, type FixtureVault } from '../helpers/vault.js';

const ENGRAM = join(REPO, 'src', 'cli', 'engram.ts');

/** What native/handoff.c writes: a session that had sent nothing yet. */
const RESUME = JSON.stringify({ session: 'abc123', why: 'the daemon stopped', initialize: null, initialized: false, queue: [], partial: '', dropping: false });

interface Run {
  code: number | null;
  stderr: string;
}

/** The real `engram serve --resume-relay …`, its stdin closed, with no ENGRAM_VAULT unless `env` brings one. */
function resume(vault: FixtureVault, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENGRAM, 'serve', '--resume-relay', ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_HOME: vault.home, ENGRAM_OFFLINE: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function assertOneLine(run: Run, code: number, pattern: RegExp, label: string): void {
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `${label}: one line on stderr, got:\n${run.stderr}`);
  assert.match(lines[0]!, pattern, label);
  assert.equal(run.code, code, `${label}: exit status (stderr: ${run.stderr})`);
}

test('serve --resume-relay without a vault, without FILE or with options a plain serve does not take is bad usage: one line, exit 2; the resume file is kept', async (t) => {
  const vault = makeVault(t, { 'Note.md': '# Note\n' });
  mkdirSync(vault.home, { recursive: true });
  const file = join(vault.home, 'relay-resume-abc123.json');
  writeFileSync(file, RESUME, { mode: 0o600 });
  const [noVault, noFile, badOption] = await Promise.all([resume(vault, [file]), resume(vault, [], { ENGRAM_VAULT: vault.root }), resume(vault, [file, '--vault', vault.root, '--http'])]);
  assertOneLine(noVault, 2, /^engram: no vault given to serve --resume-relay: pass --vault PATH or set ENGRAM_VAULT/, 'no vault');
  assert.ok(existsSync(file), 'the resume file is left for a run that can use it');
  assertOneLine(noFile, 2, /^engram: serve --resume-relay needs the resume FILE/, 'no FILE');
  assertOneLine(badOption, 2, /^engram: serve --resume-relay FILE takes only --vault PATH, --no-watch, --no-index and --reconnect-wait S/, '--http');
});

test('a resume file that is missing, not a file, not JSON or not a resume file: one line naming it, exit 1, the file kept', async (t) => {
  const vault = makeVault(t, { 'Note.md': '# Note\n' });
  mkdirSync(vault.home, { recursive: true });
  const at = (name: string) => join(vault.home, name);
  writeFileSync(at('garbled.json'), '{"session": "abc', { mode: 0o600 });
  writeFileSync(at('other.json'), JSON.stringify({ session: 'abc123', queue: 'not a list' }), { mode: 0o600 });
  mkdirSync(at('folder.json'));
  const cases = [
    { name: 'missing.json', why: /no such file/ },
    { name: 'folder.json', why: /it is not a relay resume file of yours/ },
    { name: 'garbled.json', why: /it is not JSON/ },
    { name: 'other.json', why: /it is not a relay resume file \(session, why/ },
  ];
  const runs = await Promise.all(cases.map(({ name }) => resume(vault, [at(name), '--vault', vault.root])));
  cases.forEach(({ name, why }, i) => {
    assertOneLine(runs[i]!, 1, new RegExp(`^engram: cannot resume the relayed session from ${at(name).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ${why.source}.*; restart the session$`), name);
  });
  for (const kept of ['garbled.json', 'other.json', 'folder.json']) assert.ok(existsSync(at(kept)), `${kept} is left where it was`);
});
