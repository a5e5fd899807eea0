/**
 * `engram provision`: conventions into an empty vault and into one whose owner changed them,
 * the Smart Connections model pin, plugin pins installed from a local release server (and the
 * instructions when there is no network), `--check` exit codes and diffs, and undo.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { readActiveModel } from '../../src/smart-env/index.js';
import { runCli, REPO } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const PINS = (JSON.parse(readFileSync(join(REPO, 'conventions', 'plugins.json'), 'utf8')) as { plugins: { id: string; repo: string; version: string }[] }).plugins;

/** GitHub's release download layout, served from memory; records what was asked. */
async function releaseServer(t: TestContext, options: { wrongId?: string } = {}) {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const match = /^\/(.+?\/.+?)\/releases\/download\/([^/]+)\/(manifest\.json|main\.js|styles\.css)$/.exec(req.url ?? '');
    const pin = PINS.find((p) => match && p.repo === match[1] && p.version === match[2]);
    if (!match || !pin) return void res.writeHead(404).end('not found');
    if (match[3] === 'manifest.json') return void res.end(JSON.stringify({ id: pin.id === options.wrongId ? 'someone-else' : pin.id, version: pin.version, name: pin.id }));
    if (match[3] === 'main.js') return void res.end(`// ${pin.id} ${pin.version}\n`);
    if (pin.id === 'dataview') return void res.writeHead(404).end(); // a release without styles
    res.end(`/* ${pin.id} */`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

function envFor(vault: { root: string; home: string }, extra: Record<string, string> = {}) {
  return { ENGRAM_HOME: vault.home, ENGRAM_EMBED_MODEL: 'TaylorAI/bge-micro-v2', ...extra };
}

test('provision an empty vault: conventions, model pin and plugins installed; --check then exits 0; undo removes the conventions', async (t) => {
  const vault = makeVault(t, { 'Notes/Hello.md': '# Hello\n' });
  const releases = await releaseServer(t);
  const result = await runCli(['provision', vault.root, '--install-plugins'], envFor(vault, { ENGRAM_PLUGIN_BASE_URL: releases.url }));
  assert.equal(result.code, 0, result.stderr + result.stdout);
  for (const path of ['Claude/README.md', 'Claude/Inbox/README.md', 'Claude/Sessions/README.md', 'Claude/Concepts/README.md', 'Claude/Answers/README.md', 'Claude/Digests/README.md', 'Claude/Decisions.md', 'CLAUDE.md', 'AGENTS.md']) {
    assert.ok(existsSync(join(vault.root, path)), path);
  }
  const constitution = readFileSync(join(vault.root, 'Claude/README.md'), 'utf8');
  assert.match(constitution, /Everything outside `Claude\/` is the owner's/);
  assert.doesNotMatch(constitution, /\{\{AGENT_ROOT\}\}/);
  assert.equal(readActiveModel(join(vault.root, '.smart-env')).model, 'TaylorAI/bge-micro-v2', "Smart Connections is pinned to Engram's model");
  for (const pin of PINS) {
    const manifest = JSON.parse(readFileSync(join(vault.root, '.obsidian/plugins', pin.id, 'manifest.json'), 'utf8'));
    assert.equal(manifest.version, pin.version);
  }
  assert.deepEqual(
    JSON.parse(readFileSync(join(vault.root, '.obsidian/community-plugins.json'), 'utf8')),
    PINS.map((pin) => pin.id),
  );
  assert.equal(existsSync(join(vault.root, '.obsidian/plugins/dataview/styles.css')), false, 'a release without styles installs without them');

  const check = await runCli(['provision', vault.root, '--check'], envFor(vault));
  assert.equal(check.code, 0, check.stdout);
  assert.match(check.stdout, /no drift/);

  // Provisioning again changes nothing and asks the network for nothing.
  const asked = releases.asked.length;
  const again = await runCli(['provision', vault.root, '--install-plugins', '--json'], envFor(vault, { ENGRAM_PLUGIN_BASE_URL: releases.url }));
  assert.deepEqual(JSON.parse(again.stdout).installed, []);
  assert.equal(releases.asked.length, asked);

  const runId = /run (provision-\d{8}T\d{6})/.exec(result.stdout)![1]!;
  const undo = await runCli(['undo', runId, '--vault', vault.root], envFor(vault));
  assert.equal(undo.code, 0, undo.stderr);
  assert.equal(existsSync(join(vault.root, 'Claude/README.md')), false);
  assert.equal(existsSync(join(vault.root, 'CLAUDE.md')), false);
  assert.ok(existsSync(join(vault.root, 'Notes/Hello.md')));
});

test('a vault whose owner changed the conventions: nothing is overwritten, --check shows the diff and exits 1', async (t) => {
  const ownRules = '# My rules\n\nAgents may only write in Claude/Inbox.\n';
  const ownSettings = JSON.stringify({ embedding_models: { default_model_key: 'x' }, smart_sources: { embed_model: { adapter: 'transformers', transformers: { model_key: 'Xenova/multilingual-e5-small' } } } });
  const vault = makeVault(t, { 'Claude/README.md': ownRules, 'CLAUDE.md': '# mine\n', '.smart-env/smart_env.json': ownSettings });
  const result = await runCli(['provision', vault.root, '--json'], envFor(vault));
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(report.kept.map((kept: { path: string }) => kept.path).sort(), ['CLAUDE.md', 'Claude/README.md']);
  assert.equal(report.smartEnv, 'present');
  assert.equal(readFileSync(join(vault.root, 'Claude/README.md'), 'utf8'), ownRules, "the owner's constitution is kept");
  assert.equal(readFileSync(join(vault.root, '.smart-env/smart_env.json'), 'utf8'), ownSettings, 'existing plugin settings are never touched');
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/README.md')), 'what was absent is installed');
  assert.ok(report.next.some((step: string) => /plugin smart-connections is not installed: run with --install-plugins, or in Obsidian/.test(step)));

  const check = await runCli(['provision', vault.root, '--check'], envFor(vault));
  assert.equal(check.code, 1);
  assert.match(check.stdout, /changed {3}Claude\/README\.md \(yours is kept; - shipped, \+ yours\)/);
  assert.match(check.stdout, /\+ Agents may only write in Claude\/Inbox\./);
  assert.match(check.stdout, /plugin {4}smart-connections: not installed, pinned 4\.5\.3/);
  assert.match(check.stdout, /model {5}Smart Connections embeds with Xenova\/multilingual-e5-small; Engram uses TaylorAI\/bge-micro-v2/);
});

test('after a human edit to the constitution, --check on a provisioned vault turns from 0 to 1', async (t) => {
  const vault = makeVault(t, {});
  const releases = await releaseServer(t);
  assert.equal((await runCli(['provision', vault.root, '--install-plugins'], envFor(vault, { ENGRAM_PLUGIN_BASE_URL: releases.url }))).code, 0);
  assert.equal((await runCli(['provision', vault.root, '--check'], envFor(vault))).code, 0);
  writeFileSync(join(vault.root, 'Claude/README.md'), `${readFileSync(join(vault.root, 'Claude/README.md'), 'utf8')}\nOne more rule of mine.\n`);
  const check = await runCli(['provision', vault.root, '--check', '--json'], envFor(vault));
  assert.equal(check.code, 1);
  const changed = JSON.parse(check.stdout).conventions.find((state: { path: string }) => state.path === 'Claude/README.md');
  assert.equal(changed.state, 'changed');
  assert.match(changed.diff, /\+ One more rule of mine\./);
});

test('plugins: no network means exact instructions and exit 1 (conventions still installed); a release that is not the pinned plugin is refused; a pinned checksum is verified', async (t) => {
  const vault = makeVault(t, {});
  // A port nothing listens on.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const offline = await runCli(['provision', vault.root, '--install-plugins'], envFor(vault, { ENGRAM_PLUGIN_BASE_URL: `http://127.0.0.1:${port}` }));
  assert.equal(offline.code, 1);
  assert.match(
    offline.stdout,
    /could not download smart-connections 4\.5\.3 \(.*\); in Obsidian: Settings → Community plugins → Browse, install "smart-connections" \(version 4\.5\.3\); or download main\.js, manifest\.json and styles\.css from https:\/\/github\.com\/brianpetro\/obsidian-smart-connections\/releases\/tag\/4\.5\.3 into \.obsidian\/plugins\/smart-connections\//,
  );
  assert.ok(existsSync(join(vault.root, 'Claude/README.md')));
  assert.equal(existsSync(join(vault.root, '.obsidian/plugins/smart-connections')), false);

  const impostor = await releaseServer(t, { wrongId: 'dataview' });
  const wrong = await runCli(['provision', vault.root, '--install-plugins', '--json'], envFor(vault, { ENGRAM_PLUGIN_BASE_URL: impostor.url }));
  const dataview = JSON.parse(wrong.stdout).plugins.find((plugin: { id: string }) => plugin.id === 'dataview');
  assert.match(dataview.error, /is "someone-else" 0\.5\.68, not the pinned "dataview"/);
  assert.equal(existsSync(join(vault.root, '.obsidian/plugins/dataview')), false);

  const { installPlugin } = await import('../../src/provision/index.js');
  const releases = await releaseServer(t);
  const pin = { ...PINS[0]!, sha256: createHash('sha256').update('something else').digest('hex') };
  mkdirSync(join(vault.root, 'x'), { recursive: true });
  await assert.rejects(installPlugin(join(vault.root, 'x'), pin, { baseUrl: releases.url }), /does not match its pinned sha256; nothing was installed/);
  const good = { ...PINS[0]!, sha256: createHash('sha256').update(`// ${PINS[0]!.id} ${PINS[0]!.version}\n`).digest('hex') };
  await installPlugin(join(vault.root, 'x'), good, { baseUrl: releases.url });
  assert.ok(existsSync(join(vault.root, 'x/.obsidian/plugins', good.id, 'main.js')));
});

test('bad input: no vault, a vault that does not exist', async (t) => {
  const vault = makeVault(t, {});
  const none = await runCli(['provision'], envFor(vault));
  assert.equal(none.code, 2);
  assert.match(none.stderr, /say which vault/);
  const missing = await runCli(['provision', join(vault.root, 'nope'), '--check'], envFor(vault));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /vault not found/);
});
