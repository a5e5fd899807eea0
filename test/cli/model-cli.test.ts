/**
 * `engram model status | install | pull` end to end on the tiny generated model, through the
 * real transformers.js pipeline: archives and folders installed and verified, hostile or broken
 * copies refused with the old model kept, and `pull` from a local HTTP server (never the network).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tarOf, zipOf, type Entry } from '../helpers/archives.js';
import { runCli } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

const base = mkdtempSync(join(tmpdir(), 'engram-model-cli-'));
after(() => rmSync(base, { recursive: true, force: true }));

const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model.onnx'];
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const source = writeTinyModel(join(base, 'source', 'tiny'));
const entriesOf = (folder: string, prefix: string): Entry[] => FILES.map((file) => ({ path: `${prefix}${file}`, data: readFileSync(join(folder, file)) }));

let n = 0;
/** A fresh home and model folder per test, with the tiny model configured under a hub-style id. */
function setup(model = 'test/tiny-bert') {
  const dir = join(base, `case-${++n}`);
  const env = { ENGRAM_HOME: join(dir, 'home'), ENGRAM_MODEL_DIR: join(dir, 'models'), ENGRAM_EMBED_MODEL: model };
  return { dir, env, installed: join(dir, 'models', ...model.split('/')) };
}

test('install from a .tar.gz wrapping one folder, then status: files, sha256, loads, dims', async () => {
  const { dir, env, installed } = setup();
  const archive = join(dir, 'tiny.tar.gz');
  mkdirSync(dir, { recursive: true });
  writeFileSync(archive, tarOf([{ path: 'tiny/', type: '5' }, ...entriesOf(source, 'tiny/')]));

  const before = await runCli(['model', 'status', '--json'], env);
  assert.equal(before.code, 1);
  assert.deepEqual(JSON.parse(before.stdout).missing, ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']);

  const install = await runCli(['model', 'install', archive], env);
  assert.equal(install.code, 0, install.stderr);
  assert.match(install.stdout, /^installed test\/tiny-bert \(384 dims, fp32 weights\)/);
  for (const file of FILES) assert.equal(sha(join(installed, file)), sha(join(source, file)), file);

  const status = await runCli(['model', 'status', '--json'], env);
  assert.equal(status.code, 0, status.stderr);
  const doc = JSON.parse(status.stdout);
  assert.equal(doc.ok, true);
  assert.deepEqual(doc.loads, { ok: true, dims: 384, dtype: 'fp32' });
  assert.deepEqual(
    doc.files.map((file: { path: string }) => file.path),
    FILES,
  );
  for (const file of doc.files) {
    assert.equal(file.sha256, sha(join(source, file.path)));
    assert.equal(file.recorded, 'matches');
  }
  const text = await runCli(['model', 'status'], env);
  assert.match(text.stdout, /loads +yes: 384 dims, fp32 weights/);
  assert.deepEqual(readdirSync(join(dir, 'models', 'test')), ['tiny-bert'], 'no staging folder left behind');
});

test('a corrupted copy is refused and the installed model stays; status then names a changed file', async () => {
  const { dir, env, installed } = setup();
  assert.equal((await runCli(['model', 'install', source], env)).code, 0);
  const good = sha(join(installed, 'onnx/model.onnx'));

  const corrupt = writeTinyModel(join(dir, 'corrupt'));
  writeFileSync(join(corrupt, 'onnx', 'model.onnx'), readFileSync(join(corrupt, 'onnx', 'model.onnx')).subarray(0, 5000));
  const refused = await runCli(['model', 'install', corrupt], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /was not installed \(the model in place is unchanged\): the model does not load/);
  assert.equal(sha(join(installed, 'onnx/model.onnx')), good, 'the previous model is kept');
  assert.deepEqual(readdirSync(join(dir, 'models', 'test')), ['tiny-bert'], 'nothing half-installed');
  assert.equal((await runCli(['model', 'status'], env)).code, 0);

  // A file damaged in place after install: status says so and the model no longer loads.
  writeFileSync(join(installed, 'onnx', 'model.onnx'), 'garbage');
  const status = await runCli(['model', 'status'], env);
  assert.equal(status.code, 1);
  assert.match(status.stdout, /onnx\/model\.onnx +7 +\w{64} +CHANGED since install/);
  assert.match(status.stdout, /loads +NO: the model does not load/);
  assert.match(status.stdout, /remedy +run `engram model pull`, or `engram model install PATH`/);
});

test('a wrong-dimension model is refused for a model Engram knows (bge-micro-v2 makes 384)', async () => {
  const { dir, env } = setup('TaylorAI/bge-micro-v2');
  const small = writeTinyModel(join(dir, 'small'), { dims: 32 });
  const refused = await runCli(['model', 'install', small], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /the model makes 32-dimension vectors; TaylorAI\/bge-micro-v2 makes 384: this is another model/);
  assert.deepEqual(readdirSync(join(dir, 'models', 'TaylorAI')), [], 'nothing installed');
});

test('bad input: a missing file, a symlink, hostile archives, an unknown format — each named, nothing installed', async () => {
  const { dir, env } = setup();
  const partial = join(dir, 'partial');
  mkdirSync(join(partial, 'onnx'), { recursive: true });
  for (const file of FILES.filter((file) => file !== 'tokenizer.json')) writeFileSync(join(partial, file), readFileSync(join(source, file)));
  const missing = await runCli(['model', 'install', partial], env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /the model files are incomplete: missing tokenizer\.json/);

  symlinkSync(source, join(dir, 'link'));
  assert.match((await runCli(['model', 'install', join(dir, 'link')], env)).stderr, /link is a symlink; pass the folder or archive it points to/);

  const cases: [string, Buffer, RegExp][] = [
    ['climb.tar.gz', tarOf([...entriesOf(source, ''), { path: '../evil.json', data: '{}' }]), /climbs out of its folder \(\.\.\/evil\.json\)/],
    ['absolute.zip', zipOf([...entriesOf(source, ''), { path: '/tmp/evil.json', data: '{}' }]), /absolute path \(\/tmp\/evil\.json\)/],
    ['link.tar', tarOf([...entriesOf(source, ''), { path: 'onnx/x', type: '2' }], false), /is a link or a device \(onnx\/x\)/],
    ['truncated.tar.gz', tarOf(entriesOf(source, '')).subarray(0, 3000), /is not a readable tar\.gz archive/],
    ['model.rar', Buffer.from('x'), /neither a folder nor a \.tar\.gz, \.tgz, \.tar or \.zip archive/],
  ];
  for (const [name, bytes, message] of cases) {
    writeFileSync(join(dir, name), bytes);
    const result = await runCli(['model', 'install', join(dir, name)], env);
    assert.equal(result.code, 1, name);
    assert.match(result.stderr, message, name);
  }
  assert.deepEqual(readdirSync(join(dir, 'models', 'test')), [], 'no staging left behind');
  assert.equal((await runCli(['model', 'install', join(dir, 'nowhere')], env)).stderr.trim(), `engram: ${join(dir, 'nowhere')} does not exist`);
  assert.equal((await runCli(['model', 'install'], env)).code, 2);
});

test('install from a flat .zip works the same way', async () => {
  const { dir, env } = setup();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tiny.zip'), zipOf(entriesOf(source, '')));
  const install = await runCli(['model', 'install', join(dir, 'tiny.zip'), '--json'], env);
  assert.equal(install.code, 0, install.stderr);
  assert.equal(JSON.parse(install.stdout).dims, 384);
});

/** Serves `<model>/resolve/main/<file>` from the tiny model; `stall` sends half a file and then nothing. */
async function hub(options: { stall?: string } = {}): Promise<{ url: string; server: Server; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const match = /^\/test\/tiny-bert\/resolve\/main\/(.+)$/.exec(request.url ?? '');
    const file = match ? join(source, match[1]!) : null;
    let body: Buffer;
    try {
      body = readFileSync(file ?? '/nonexistent');
    } catch {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-length': body.length });
    if (match![1] === options.stall) response.write(body.subarray(0, body.length >> 1));
    else response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

test('pull: downloads from the configured hub with progress on stderr, verifies, installs', async (t) => {
  const { url, server, requests } = await hub();
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { env, installed } = setup();
  const pull = await runCli(['model', 'pull', '--dtype', 'fp32'], { ...env, ENGRAM_OFFLINE: '0', HF_ENDPOINT: url });
  assert.equal(pull.code, 0, pull.stderr);
  assert.match(pull.stdout, new RegExp(`^pulled and installed test/tiny-bert \\(384 dims, fp32 weights\\) from ${url}/test/tiny-bert`));
  assert.match(pull.stderr, /onnx\/model\.onnx \[##########\] 100% 2\.4 MB of 2\.4 MB/);
  assert.deepEqual(requests.sort(), FILES.map((file) => `/test/tiny-bert/resolve/main/${file}`).sort());
  for (const file of FILES) assert.equal(sha(join(installed, file)), sha(join(source, file)));
  assert.equal((await runCli(['model', 'status'], env)).code, 0);
});

test('pull: a stalled download times out with a clear message and nothing is installed', async (t) => {
  const { url, server } = await hub({ stall: 'onnx/model.onnx' });
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { dir, env } = setup();
  const pull = await runCli(['model', 'pull', '--dtype', 'fp32', '--timeout', '1'], { ...env, ENGRAM_OFFLINE: '0', HF_ENDPOINT: url });
  assert.equal(pull.code, 1);
  assert.match(pull.stderr, /downloading onnx\/model\.onnx from .* stalled: no data for 1 s/);
  assert.deepEqual(readdirSync(join(dir, 'models', 'test')), []);
});

test('pull: refused while ENGRAM_OFFLINE=1, pointing at install', async () => {
  const { env } = setup();
  const pull = await runCli(['model', 'pull'], env);
  assert.equal(pull.code, 1);
  assert.match(pull.stderr, /downloads are off \(ENGRAM_OFFLINE=1\): unset it to pull, or run `engram model install PATH`/);
});
