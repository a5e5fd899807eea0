/**
 * The edges of setting up: the owner's files and links are never followed or overwritten,
 * Smart Connections' existing model records are kept, plugin pins are plain and never
 * downgrade, the hook's briefing stays within bounds, and agents cannot undo the owner's
 * provisioning.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkPlugins, compareConventions, conventionFiles, readPins, seedSmartEnv } from '../../src/provision/index.js';
import { readActiveModel } from '../../src/smart-env/index.js';
import { runCli } from '../helpers/cli.js';
import { connectFixture } from '../helpers/mcp.js';
import { makeVault } from '../helpers/vault.js';

test('conventions: a symlink (even dangling) is left alone and not followed; CRLF and BOM are not drift', async (t) => {
  const vault = makeVault(t, { 'outside-secret.md': 'SECRET CONTENT\n' });
  mkdirSync(join(vault.root, 'Claude'), { recursive: true });
  symlinkSync(join(vault.root, 'nowhere.md'), join(vault.root, 'Claude/README.md'));
  symlinkSync(join(vault.root, 'outside-secret.md'), join(vault.root, 'CLAUDE.md'));
  const result = await runCli(['provision', vault.root, '--json'], { ENGRAM_HOME: vault.home });
  const report = JSON.parse(result.stdout);
  assert.deepEqual(report.kept.map((kept: { path: string }) => kept.path).sort(), ['CLAUDE.md', 'Claude/README.md']);
  assert.ok(report.installed.includes('AGENTS.md') && report.smartEnv === 'seeded', 'the rest is installed');
  const check = await runCli(['provision', vault.root, '--check'], { ENGRAM_HOME: vault.home });
  assert.doesNotMatch(check.stdout, /SECRET CONTENT/, 'a link is never read');
  assert.match(check.stdout, /a symlink: left alone, not followed/);

  const templates = join(vault.home, '..', 'templates');
  mkdirSync(join(templates, 'Claude'), { recursive: true });
  writeFileSync(join(templates, 'Claude/README.md'), '\uFEFF# Rules\r\nfor {{AGENT_ROOT}}/\r\n');
  const files = conventionFiles(templates, 'Agents');
  assert.deepEqual(files, [{ path: 'Agents/README.md', text: '# Rules\nfor Agents/\n' }]);
  const other = makeVault(t, { 'Agents/README.md': '# Rules\r\nfor Agents/\r\n' });
  assert.equal(compareConventions(other.root, files)[0]!.state, 'same');
});

test('smart-env seed keeps the model records already there and points the default at its own', (t) => {
  const e5 = '"embedding_models:transformers#1": {"provider_key":"transformers","model_key":"Xenova/multilingual-e5-small","key":"transformers#1"},';
  const vault = makeVault(t, { '.smart-env/embedding_models/embedding_models.ajson': e5 });
  assert.equal(seedSmartEnv(vault.root, 'TaylorAI/bge-micro-v2', 42), 'seeded');
  const records = readFileSync(join(vault.root, '.smart-env/embedding_models/embedding_models.ajson'), 'utf8');
  assert.ok(records.startsWith(`${e5}\n`) && !records.endsWith('\n'));
  assert.equal(readActiveModel(join(vault.root, '.smart-env')).model, 'TaylorAI/bge-micro-v2');
  assert.equal(seedSmartEnv(vault.root, 'other/model', 43), 'present', 'never twice');
});

test('plugin pins: only plain ids, repos and versions; a newer install is reported, never downgraded', (t) => {
  const vault = makeVault(t, {});
  const file = join(vault.root, 'pins.json');
  for (const bad of [
    { id: '..', repo: 'a/b', version: '1.0.0' },
    { id: 'x', repo: 'a/../b', version: '1.0.0' },
    { id: 'x', repo: 'a/b', version: '1.0.0/../../evil' },
  ]) {
    writeFileSync(file, JSON.stringify({ plugins: [bad] }));
    assert.throws(() => readPins(file), /must hold/);
  }
  writeFileSync(file, JSON.stringify({ plugins: [{ id: 'dataview', repo: 'blacksmithgu/obsidian-dataview', version: '0.5.68' }] }));
  vault.write('.obsidian/plugins/dataview/manifest.json', JSON.stringify({ id: 'dataview', version: '0.6.0' }));
  assert.equal(checkPlugins(vault.root, readPins(file))[0]!.status, 'newer');
  vault.write('.obsidian/plugins/dataview/manifest.json', JSON.stringify({ id: 'dataview', version: '0.5.1' }));
  assert.equal(checkPlugins(vault.root, readPins(file))[0]!.status, 'drift');
});

test('engram context: never-indexed vaults, CRLF ledgers, ADR headings, huge lines, emoji and whole-word projects', async (t) => {
  const fresh = makeVault(t, { 'a.md': '# a\n' });
  const none = await runCli(['context', '--vault', fresh.root], { ENGRAM_HOME: fresh.home });
  assert.equal(none.code, 0);
  assert.match(none.stdout, /is not indexed yet; run `engram index --vault /);
  assert.equal(existsSync(fresh.home), false, 'the hook creates no state');

  const vault = makeVault(t, {
    'Claude/Sessions/2026-11-01 App launch.md': `---\nproject: app\n---\n# App launch\n${'🎉 party '.repeat(60)}\n`,
    'Claude/Sessions/2026-11-02 Happy hour.md': '# Happy hour\nDrinks.\n',
    'Claude/Tasks.md': `- [ ] app: ${'very long task '.repeat(300)}\n- [ ] app: ship\n`,
    'Claude/Decisions.md': '# Decisions\r\n- 2026-11-01 app ships weekly — cadence\r\n',
    'Projects/App/ADR-1.md': '---\ntype: decision\n---\n# ADR 1\n## Context\nx\n## Decision\ny\n## Consequences\nz\n',
  });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['index', '-q', '--no-embed'], env)).code, 0);
  const out = (await runCli(['context', '--project', 'app', '--days', '3650'], env)).stdout.trimEnd();
  assert.ok(out.length <= 2000, `${out.length}`);
  assert.doesNotMatch(out, /Happy hour/, '"app" is not in "Happy"');
  assert.doesNotMatch(out, /\uFFFD/, 'no emoji cut in half');
  assert.match(out, /- \[ \] app: ship/, 'a huge task line does not push out the next one');
  assert.match(out, /Latest decisions:\n- 2026-11-01 app ships weekly/);
  assert.doesNotMatch(out, /- (Context|Decision|Consequences)$/m, 'ADR section headings are not decisions');
});

test("an agent cannot undo the owner's provisioning through MCP", async (t) => {
  const { vault, call, engine } = await connectFixture(t, { 'a.md': '# a\n' });
  // Provisioned into the server's own state, as `engram provision` would journal it.
  const { provisionVault } = await import('../../src/provision/index.js');
  const { REPO } = await import('../helpers/cli.js');
  const report = await provisionVault({
    vault: vault.root,
    db: engine.db,
    stateDir: vault.home,
    agentRoot: 'Claude',
    model: 'm',
    runId: 'provision-test',
    templateDir: join(REPO, 'conventions', 'vault'),
    pinsFile: join(REPO, 'conventions', 'plugins.json'),
  });
  assert.ok(report.installed.includes('Claude/README.md'));
  const refused = await call('undo_run', { run_id: 'provision-test' });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0]!.text!, /owner's own `engram provision`; only they can undo it/);
  const rows = engine.db.prepare("SELECT id FROM journal WHERE run_id = 'provision-test'").pluck().all() as number[];
  const single = await call('undo_write', { id: rows[0] });
  assert.equal(single.isError, true);
  assert.ok(existsSync(join(vault.root, 'Claude/README.md')));
});

test('mcp sync hands claude the environment as it is (no CLAUDE_CONFIG_DIR of its own); skills sync never writes through a symlink', async (t) => {
  const vault = makeVault(t, { 'a.md': '# a\n' });
  const bin = join(vault.home, '..', 'bin');
  const userHome = join(vault.home, '..', 'user');
  mkdirSync(bin, { recursive: true });
  mkdirSync(userHome, { recursive: true });
  const log = join(bin, 'env.log');
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nenv > "${log}"\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  const sync = await runCli(['mcp', 'sync'], { HOME: userHome, PATH: `${bin}:/usr/bin:/bin`, ENGRAM_VAULT: vault.root, ENGRAM_HOME: vault.home, SOME_SETTING: 'kept' });
  assert.equal(sync.code, 0, sync.stdout + sync.stderr);
  const seen = readFileSync(log, 'utf8');
  assert.match(seen, /^SOME_SETTING=kept$/m);
  assert.doesNotMatch(seen, /^CLAUDE_CONFIG_DIR=/m);

  const skills = join(userHome, '.claude', 'skills');
  const dotfiles = join(userHome, 'dotfiles-recall');
  mkdirSync(dotfiles, { recursive: true });
  writeFileSync(join(dotfiles, 'SKILL.md'), 'mine\n');
  mkdirSync(skills, { recursive: true });
  symlinkSync(dotfiles, join(skills, 'recall'));
  const forced = await runCli(['skills', 'sync', '--force'], { HOME: userHome });
  assert.match(forced.stdout, /drift +recall \(\(a symlink: left alone\)\)/);
  assert.equal(readFileSync(join(dotfiles, 'SKILL.md'), 'utf8'), 'mine\n');
  assert.deepEqual(readdirSync(dotfiles), ['SKILL.md']);
});
