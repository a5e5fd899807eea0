/**
 * `engram mcp sync` with a fake `claude` on PATH (it records its arguments) and without one,
 * drift against Claude Code's config; `engram skills sync` into a temporary home; `engram
 * context` for the SessionStart hook.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli, REPO } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

function home(t: TestContext) {
  const vault = makeVault(t, { 'Notes/A.md': '# A\n' });
  const userHome = join(vault.home, '..', 'user');
  const bin = join(vault.home, '..', 'bin');
  mkdirSync(userHome, { recursive: true });
  mkdirSync(bin, { recursive: true });
  return { vault, userHome, bin, real: realpathSync(vault.root) };
}

/** A `claude` that appends its arguments (one JSON array per line) to a file and succeeds. */
function fakeClaude(bin: string, log: string): void {
  const script = join(bin, 'claude');
  writeFileSync(script, `#!/bin/sh\nnode -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)) + "\\n")' "${log}" "$@"\n`);
  chmodSync(script, 0o755);
}

test('mcp sync registers missing servers additively with claude mcp add; --check and drift', async (t) => {
  const { vault, userHome, bin, real } = home(t);
  const log = join(bin, 'calls.log');
  fakeClaude(bin, log);
  const env = { HOME: userHome, PATH: `${bin}:/usr/bin:/bin`, ENGRAM_VAULT: vault.root, ENGRAM_HOME: vault.home };

  const check = await runCli(['mcp', 'sync', '--check'], env);
  assert.equal(check.code, 1, 'missing before the first sync');
  assert.match(check.stdout, /missing +engram/);

  const sync = await runCli(['mcp', 'sync'], env);
  assert.equal(sync.code, 0, sync.stderr + sync.stdout);
  assert.match(sync.stdout, /registered engram/);
  const calls = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as string[]);
  assert.equal(calls.length, 1);
  const [call] = calls;
  assert.deepEqual(call!.slice(0, 6), ['mcp', 'add', '--scope', 'user', 'engram', '--']);
  assert.deepEqual(call!.slice(-3), ['serve', '--vault', real], 'the vault substituted');

  // Claude Code now knows it (as it would write it), plus a server of the user's own.
  const registered = { command: call![6], args: call!.slice(7), env: {} };
  writeFileSync(join(userHome, '.claude.json'), JSON.stringify({ mcpServers: { engram: registered, mine: { command: 'x', args: [] } } }));
  const present = await runCli(['mcp', 'sync', '--check'], env);
  assert.equal(present.code, 0, present.stdout);
  assert.match(present.stdout, /present +engram/);
  const again = await runCli(['mcp', 'sync'], env);
  assert.equal(again.code, 0);
  assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 1, 'nothing registered twice');

  // Drift: another vault in the registration is reported, never changed.
  writeFileSync(join(userHome, '.claude.json'), JSON.stringify({ mcpServers: { engram: { ...registered, args: [...registered.args.slice(0, -1), '/elsewhere'] } } }));
  const drift = await runCli(['mcp', 'sync'], env);
  assert.equal(drift.code, 1);
  assert.match(drift.stdout, /drift +engram \(args /);
  assert.match(drift.stdout, /claude mcp remove --scope user engram && engram mcp sync/);
  assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 1, 'drift is not "fixed"');

  // Registered earlier with another launcher of the same Engram (`engram` on PATH, node and the
  // built entry, the native launcher): present, not drift; when the native launcher is built and
  // preferred, a note says what registering again brings.
  const native = existsSync(join(REPO, 'build', 'engram'));
  assert.equal(registered.command, native ? join(REPO, 'build', 'engram') : process.execPath, 'the native launcher is registered when built');
  for (const other of [
    { command: 'engram', args: ['serve', '--vault', real] },
    { command: process.execPath, args: [join(REPO, 'dist', 'cli', 'engram.js'), 'serve', '--vault', real] },
  ]) {
    writeFileSync(join(userHome, '.claude.json'), JSON.stringify({ mcpServers: { engram: { ...other, env: {} } } }));
    const same = await runCli(['mcp', 'sync', '--check'], env);
    assert.equal(same.code, 0, same.stdout);
    assert.match(same.stdout, native ? /present +engram \(a Node relay per session .*registers the native one/ : /present +engram$/m);
  }

  // Optional companions only when asked, and only known ones.
  const unknown = await runCli(['mcp', 'sync', '--with', 'nope'], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no optional server "nope" in mcp-servers\.json; the optional ones are fetch, arxiv/);
  const desktop = await runCli(['mcp', 'sync', '--desktop', '--with', 'fetch'], env);
  const snippet = JSON.parse(desktop.stdout);
  assert.deepEqual(Object.keys(snippet.mcpServers), ['engram', 'fetch']);
  assert.deepEqual(snippet.mcpServers.engram.args.slice(-3), ['serve', '--vault', real]);
});

test('mcp sync without the claude CLI prints the commands to run', async (t) => {
  const { vault, userHome, bin } = home(t);
  const sync = await runCli(['mcp', 'sync'], { HOME: userHome, PATH: bin, ENGRAM_VAULT: vault.root, ENGRAM_HOME: vault.home });
  assert.equal(sync.code, 1);
  assert.match(sync.stdout, /the claude CLI is not on PATH; register with:\n {2}claude mcp add --scope user engram -- /);
  const bad = await runCli(['mcp', 'sync'], { HOME: userHome, PATH: bin });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /say which vault/);
  writeFileSync(join(userHome, '.claude.json'), '{ not json');
  const broken = await runCli(['mcp', 'sync', '--check'], { HOME: userHome, PATH: bin, ENGRAM_VAULT: vault.root });
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /\.claude\.json is not valid JSON; nothing was changed/);
});

test('skills sync installs additively, --check reports drift, --force overwrites', async (t) => {
  const { userHome } = home(t);
  const env = { HOME: userHome };
  const skills = readdirSync(join(REPO, 'skills'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  assert.equal((await runCli(['skills', 'sync', '--check'], env)).code, 1, 'nothing installed yet');
  const sync = await runCli(['skills', 'sync'], env);
  assert.equal(sync.code, 0, sync.stderr);
  const target = join(userHome, '.claude', 'skills');
  assert.deepEqual(readdirSync(target).sort(), skills);
  assert.equal(readFileSync(join(target, 'recall', 'SKILL.md'), 'utf8'), readFileSync(join(REPO, 'skills', 'recall', 'SKILL.md'), 'utf8'));
  assert.equal((await runCli(['skills', 'sync', '--check'], env)).code, 0);

  // The user edits a skill and adds a file of their own; another skill of theirs sits beside.
  writeFileSync(join(target, 'recall', 'SKILL.md'), 'my version\n');
  writeFileSync(join(target, 'recall', 'notes.md'), 'mine\n');
  mkdirSync(join(target, 'my-skill'));
  writeFileSync(join(target, 'my-skill', 'SKILL.md'), 'mine\n');
  const check = await runCli(['skills', 'sync', '--check'], env);
  assert.equal(check.code, 1);
  assert.match(check.stdout, /drift +recall \(SKILL\.md\)/);
  const keep = await runCli(['skills', 'sync'], env);
  assert.equal(keep.code, 0);
  assert.equal(readFileSync(join(target, 'recall', 'SKILL.md'), 'utf8'), 'my version\n', 'kept without --force');
  assert.match(keep.stdout, /--force overwrites them/);
  const force = await runCli(['skills', 'sync', '--force'], env);
  assert.equal(force.code, 0);
  assert.match(force.stdout, /updated +recall/);
  assert.equal(readFileSync(join(target, 'recall', 'SKILL.md'), 'utf8'), readFileSync(join(REPO, 'skills', 'recall', 'SKILL.md'), 'utf8'));
  assert.ok(existsSync(join(target, 'recall', 'notes.md')) && existsSync(join(target, 'my-skill', 'SKILL.md')), "the user's own files stay");

  // CLAUDE_CONFIG_DIR moves Claude Code's folder.
  const elsewhere = join(userHome, 'cfg');
  assert.equal((await runCli(['skills', 'sync'], { HOME: userHome, CLAUDE_CONFIG_DIR: elsewhere })).code, 0);
  assert.ok(existsSync(join(elsewhere, 'skills', 'recall', 'SKILL.md')));
});

test('engram context: a briefing of at most 2,000 characters with sessions, open tasks and decisions', async (t) => {
  const long = 'The parser rewrite moved to tokens; benchmarks look good. '.repeat(40);
  const vault = makeVault(t, {
    'Claude/Sessions/2026-11-20 Atlas parser.md': `---\nproject: atlas\n---\n# Atlas parser\n${long}\n`,
    'Claude/Sessions/2026-11-25 Atlas cutover.md': '---\nproject: atlas\n---\n# Atlas cutover\nCutover planned for Friday; rollback tested.\n',
    'Claude/Sessions/2026-11-26 Garden.md': '---\nproject: garden\n---\n# Garden\nTomatoes.\n',
    'Claude/Sessions/README.md': '# Sessions\nOne note per session.\n',
    'Claude/Tasks.md': '- [ ] atlas: write the cutover runbook 📅 2026-12-01\n- [ ] garden: buy seeds\n',
    'Claude/Decisions.md': '# Decisions\n- 2026-11-21 atlas uses tantivy — faster\n- 2026-11-24 atlas cutover on Fridays — low traffic\n',
  });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['index', '--no-embed', '-q'], env)).code, 0);
  const out = await runCli(['context', '--project', 'atlas', '--days', '3650'], env);
  assert.equal(out.code, 0, out.stderr);
  const text = out.stdout.trimEnd();
  assert.ok(text.length <= 2000, `${text.length} characters`);
  assert.match(text, /^Engram memory for "atlas"/);
  assert.match(text, /\[\[Claude\/Sessions\/2026-11-25 Atlas cutover\]\] \(\d{4}-\d{2}-\d{2}\): Cutover planned for Friday; rollback tested\./);
  assert.match(text, /- \[ \] atlas: write the cutover runbook \(due 2026-12-01\)/);
  assert.doesNotMatch(text, /garden|Garden/);
  assert.doesNotMatch(text, /README/, 'a folder README is not a session');
  assert.match(text, /Latest decisions:\n- 2026-11-24 atlas cutover on Fridays/);
  const excerpt = /Atlas parser\]\] \([^)]*\): (.*)/.exec(text)![1]!;
  assert.ok(excerpt.length <= 300, 'session excerpts are cut at 300 characters');
});
