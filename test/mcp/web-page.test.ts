/**
 * The local page beside /mcp, over real HTTP: the token (once in the URL or the form, then a
 * cookie), the Origin and JSON rules on a change, paths that try to escape the page's files,
 * and every API the page uses — a decision made through the page is the CLI's own, journaled and
 * undoable; a second click, an unknown or a changed proposal change nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { acquireLock } from '../../src/index/index.js';
import { filingSubject, newRunId, runSweep, sweepOptions } from '../../src/librarian/index.js';
import { proposalLine, readTicks } from '../../src/librarian/approvals.js';
import { connectFixture } from '../helpers/mcp.js';
import { startHttp } from '../../src/mcp/index.js';
import type { AddressInfo } from 'node:net';
import { WEB_DIR } from '../../src/mcp/web-assets.js';
import { cookieName } from '../../src/mcp/web-auth.js';
import { raw, startPage } from '../helpers/page.js';

const REPO = join(import.meta.dirname, '..', '..');
const TOKEN = 'page-sekret';

test('the page needs the token: once in the URL or the form, then an HttpOnly SameSite=Strict cookie; a wrong one is refused', async (t) => {
  const { port, origin } = await startPage(t, { token: TOKEN });
  const bare = await raw(port, '/');
  assert.equal(bare.status, 401);
  assert.match(bare.body, /<label for="token">Token<\/label>/, 'a login form, labelled');
  assert.equal((await raw(port, '/api/status')).status, 401);
  assert.equal((await raw(port, '/?token=wrong')).status, 401);
  assert.equal((await raw(port, '/api/status', { cookie: `${cookieName(port)}=forged` })).status, 401);
  assert.equal((await raw(port, '/api/status', { authorization: 'Bearer wrong' })).status, 401);

  const granted = await raw(port, `/?token=${TOKEN}`);
  assert.equal(granted.status, 303);
  assert.equal(granted.headers.location, '/', 'the token leaves the address bar');
  const cookie = String(granted.headers['set-cookie']);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.ok(!cookie.includes(TOKEN), 'the cookie is no copy of the token');
  const jar = cookie.split(';')[0]!;
  const page = await raw(port, '/', { cookie: jar });
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
  assert.equal((await raw(port, '/api/status', { cookie: jar })).status, 200);
  assert.equal((await raw(port, '/api/status', { authorization: `Bearer ${TOKEN}` })).status, 200);

  const form = 'application/x-www-form-urlencoded';
  assert.equal((await raw(port, '/login', { 'content-type': form }, 'POST', `token=${TOKEN}`)).status, 403, 'a login needs the page origin');
  assert.equal((await raw(port, '/login', { 'content-type': form, origin }, 'POST', 'token=nope')).status, 401);
  const login = await raw(port, '/login', { 'content-type': form, origin }, 'POST', `token=${TOKEN}`);
  assert.equal(login.status, 303);
  assert.equal(String(login.headers['set-cookie']).split(';')[0], jar);
  assert.equal((await raw(port, '/mcp', { cookie: jar, 'content-type': 'application/json' }, 'POST', '{}')).status, 401, '/mcp still wants the bearer header');
});

test('a foreign Origin or Host is refused; a change must come from the page origin as JSON', async (t) => {
  const { port, origin, proposals, vault } = await startPage(t, { token: TOKEN });
  const auth = { authorization: `Bearer ${TOKEN}` };
  assert.equal((await raw(port, '/', { ...auth, origin: 'http://evil.example' })).status, 403);
  assert.equal((await raw(port, '/api/status', { ...auth, host: 'evil.example' })).status, 403);
  const decision = JSON.stringify({ kind: 'filing', id: proposals[0]!.id, decision: 'approve', subject: filingSubject('Claude/Inbox/Walrus Plan.md', 'Projects/Zoo') });
  const json = { ...auth, 'content-type': 'application/json' };
  assert.equal((await raw(port, '/api/decide', json, 'POST', decision)).status, 403, 'no Origin: refused');
  assert.equal((await raw(port, '/api/decide', { ...json, origin: 'http://evil.example' }, 'POST', decision)).status, 403);
  assert.equal((await raw(port, '/api/decide', { ...auth, origin, 'content-type': 'text/plain' }, 'POST', decision)).status, 403, 'a form type is refused');
  assert.equal((await raw(port, '/api/decide', { ...json, origin })).status, 405, 'GET does not decide');
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')), 'nothing moved');
});

test('a path that escapes the page files is 404 and reads nothing', async (t) => {
  const { port } = await startPage(t);
  const secret = readFileSync(join(REPO, 'package.json'), 'utf8').slice(0, 40);
  for (const path of [
    '/static/../package.json',
    '/static/%2e%2e/package.json',
    '/static/..%2fpackage.json',
    '/static/%2e%2e%2f%2e%2e%2fpackage.json',
    '/static/..%5cpackage.json',
    '/static/..\\package.json',
    '/static/style.css%00.js',
    '/static/',
    '/static/.gitignore',
    '/%2e%2e/package.json',
    '/..%2f..%2fpackage.json',
    '//etc/passwd',
    '/index.html',
    '/api/../package.json',
    '/api/map?name=..%2F..%2F..%2Fpackage.json',
    '/api/map?name=../Librarian.md',
    '/api/note?path=..%2Fpackage.json',
    '/api/constructor',
  ]) {
    const answer = await raw(port, path);
    assert.equal(answer.status, 404, `${path} → ${answer.status}`);
    assert.ok(!answer.body.includes(secret), `${path} leaked a file`);
  }
  assert.equal((await raw(port, '/static/style.css')).status, 200);
  assert.equal((await raw(port, '/static/app.js')).headers['content-type'], 'text/javascript; charset=utf-8');
});

test('approve through the page: the filing is made as the CLI makes it, journaled, undoable; a second click, an unknown or a changed proposal change nothing', async (t) => {
  const { port, origin, proposals, vault, engine } = await startPage(t);
  const [walrus, rota] = proposals.map((p) => p.id);
  const post = (body: unknown) => raw(port, '/api/decide', { origin, 'content-type': 'application/json' }, 'POST', JSON.stringify(body));
  const listed = JSON.parse((await raw(port, '/api/proposals')).body).proposals as { kind: string; id: number; subject: string }[];
  assert.deepEqual(
    listed.map((p) => p.id),
    [walrus, rota],
  );
  const subject = listed[0]!.subject;
  // The report lists both, as a sweep writes them: a decision on the page marks its lines.
  const report = join(vault.root, 'Claude/Librarian.md');
  writeFileSync(report, `# Librarian\n\n${proposalLine({ kind: 'filing', id: walrus!, subject }, 'seen 2 times')}\n${proposalLine({ kind: 'filing', id: rota!, subject: listed[1]!.subject }, 'x')}\n`);

  const changed = await post({ kind: 'filing', id: walrus, decision: 'approve', subject: filingSubject('Claude/Inbox/Walrus Plan.md', 'Garden') });
  assert.equal(changed.status, 409);
  assert.match(JSON.parse(changed.body).error, /changed since/);
  const unknown = await post({ kind: 'filing', id: 9999, decision: 'approve', subject });
  assert.equal(unknown.status, 404);
  assert.match(JSON.parse(unknown.body).error, /no filing proposal #9999/);
  assert.equal((await post({ kind: 'filing', id: walrus, decision: 'maybe', subject })).status, 400);
  assert.equal((await raw(port, '/api/decide', { origin, 'content-type': 'application/json' }, 'POST', '{not json')).status, 400);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')), 'refusals moved nothing');

  const sweep = acquireLock(vault.home, 'index', { purpose: 'a Librarian sweep' });
  const busy = await post({ kind: 'filing', id: walrus, decision: 'approve', subject });
  sweep.release();
  assert.equal(busy.status, 409);
  assert.match(JSON.parse(busy.body).error, /a Librarian sweep is already running/);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')), 'refusals moved nothing');

  const approved = await post({ kind: 'filing', id: walrus, decision: 'approve', subject });
  assert.equal(approved.status, 200, approved.body);
  const result = JSON.parse(approved.body) as { outcome: string; undo: string };
  assert.match(result.outcome, /^applied: moved to Projects\/Zoo\/Walrus Plan\.md/);
  assert.ok(existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')) && !existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')));
  assert.match(readFileSync(join(vault.root, 'Home.md'), 'utf8'), /\[\[Projects\/Zoo\/Walrus Plan\|plan\]\]/, 'links rewritten');

  const twice = await post({ kind: 'filing', id: walrus, decision: 'approve', subject });
  assert.equal(twice.status, 409);
  assert.match(JSON.parse(twice.body).error, /is applied, no longer pending/);

  const rejected = await post({ kind: 'filing', id: rota, decision: 'reject', subject: listed[1]!.subject });
  assert.equal(JSON.parse(rejected.body).outcome, 'rejected');
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Rota.md')));
  assert.deepEqual(JSON.parse((await raw(port, '/api/proposals')).body).proposals, []);
  const lines = readFileSync(report, 'utf8').split('\n');
  assert.match(lines[2]!, new RegExp(`^- \\[x\\] filing #${walrus}: .* — \\*\\*applied: moved to Projects/Zoo/Walrus Plan\\.md .*\\*\\* \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC \\(on the local page\\)$`));
  assert.match(lines[3]!, new RegExp(`^- \\[-\\] filing #${rota}: .* — \\*\\*rejected\\*\\* .* \\(on the local page\\)$`));
  assert.deepEqual(readTicks(lines.join('\n')), [], 'no line reads as a new decision');

  const moveId = Number(/^move:(\d+)$/.exec(result.undo)![1]);
  engine.writer().undoMove(moveId);
  assert.ok(existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')), 'the journaled move is undone');
});

test('approve a merge through the page: merged as `engram graph consolidate --apply` merges, undoable as merge:N; a second click is refused', async (t) => {
  const { engine, vault } = await connectFixture(t, {
    'People/Ana Silva.md': '---\ntype: person\n---\n# Ana Silva\nEngineer.\n',
    'Meetings/Sync.md': '---\nattendees: ["[[Ana Silva]]"]\n---\n# Sync\nWith [[Ana Silva]].\n',
    'Meetings/Retro.md': '---\nattendees: [Anna Silva]\n---\n# Retro\nA retro.\n',
  });
  await runSweep(
    sweepOptions(
      { ...engine.settings, agentRoot: 'Claude', extractor: 'structural', extractModel: 'structural', organizeRoot: false, sweepMaxNotes: undefined, sweepMaxCostUsd: undefined },
      { vault: vault.root, stateDir: vault.home, db: engine.db },
      { runId: newRunId('sweep'), kind: 'sweep', dryRun: false, log: { err: () => {} }, phases: ['extract', 'consolidate'] },
    ),
  );
  engine.changed();
  const http = await startHttp(engine, { port: 0 });
  t.after(() => {
    http.closeAllConnections();
    http.close();
  });
  const port = (http.address() as AddressInfo).port;
  const { proposals } = JSON.parse((await raw(port, '/api/proposals')).body) as { proposals: { kind: string; id: number; subject: string }[] };
  const merge = proposals.find((p) => p.kind === 'merge')!;
  assert.equal(merge.subject, '"Anna Silva" → "Ana Silva"');
  const post = () => raw(port, '/api/decide', { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' }, 'POST', JSON.stringify({ kind: 'merge', id: merge.id, decision: 'approve', subject: merge.subject }));
  const approved = await post();
  assert.equal(approved.status, 200, approved.body);
  assert.deepEqual(JSON.parse(approved.body).undo, `merge:${merge.id}`);
  assert.match(readFileSync(join(vault.root, 'Claude/Graph/People/Anna Silva.md'), 'utf8'), /Ana Silva/, 'the loser is a stub pointing at the winner');
  const twice = await post();
  assert.equal(twice.status, 409);
  assert.match(JSON.parse(twice.body).error, /is applied, no longer pending/);
});

test('search answers with lanes and the explain breakdown; maps list and read only Claude/Maps canvases; a hover reads only indexed notes', async (t) => {
  const { port, vault } = await startPage(t);
  const found = JSON.parse((await raw(port, '/api/search?q=walrus%20feeding')).body) as { mode: string; results: { path: string; lanes: Record<string, unknown>; explain?: unknown[] }[]; analysis?: { terms: string[] } };
  assert.equal(found.results[0]!.path, 'Projects/Zoo/Walrus Feeding.md');
  assert.ok(found.results[0]!.lanes.keyword, 'the keyword lane is named');
  assert.ok((found.results[0]!.explain ?? []).length > 0, 'the per-term breakdown is there');
  assert.deepEqual(found.analysis?.terms, ['walrus', 'feed']);
  assert.equal((await raw(port, '/api/search?q=')).status, 400);

  symlinkSync(join(vault.root, 'Home.md'), join(vault.root, 'Claude/Maps/Linked.canvas'));
  vault.write('Claude/Maps/Broken.canvas', '{"nodes": 3}');
  const maps = JSON.parse((await raw(port, '/api/maps')).body) as { maps: string[] };
  assert.deepEqual(maps.maps, ['Broken.canvas', 'Entity graph.canvas', 'Vault map.canvas'], 'a symlink is not listed');
  const map = JSON.parse((await raw(port, '/api/map?name=Vault%20map.canvas')).body) as { nodes: unknown[]; edges: unknown[]; vault_name: string };
  assert.equal(map.nodes.length, 9);
  assert.equal(map.edges.length, 2);
  assert.equal(map.vault_name, 'vault');
  assert.equal((await raw(port, '/api/map?name=Linked.canvas')).status, 404);
  assert.equal((await raw(port, '/api/map?name=Broken.canvas')).status, 422);
  const note = JSON.parse((await raw(port, '/api/note?path=Garden%2FRoses.md')).body) as { title: string; excerpt: string };
  assert.deepEqual(note, { path: 'Garden/Roses.md', title: 'Roses', excerpt: 'Prune the roses in the garden; water the beds.' });
  assert.equal((await raw(port, '/api/note?path=Claude%2FMaps%2FVault%20map.canvas')).status, 404, 'not an indexed note');
});

test('the page files ship with the package and are found from src/ and from dist/', () => {
  assert.equal(relative(REPO, WEB_DIR), 'web');
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { files: string[] };
  assert.ok(pkg.files.includes('web'), 'package.json files lists web/');
  const build = JSON.parse(readFileSync(join(REPO, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: { rootDir: string; outDir: string } };
  assert.deepEqual([build.compilerOptions.rootDir, build.compilerOptions.outDir], ['src', 'dist'], 'dist/mcp sits as deep as src/mcp, so ../../web is the same folder');
  const html = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
  for (const [, name] of html.matchAll(/"\/static\/([^"]+)"/g)) assert.ok(existsSync(join(WEB_DIR, name!)), `${name} is referenced and ships`);
  for (const [, name] of readFileSync(join(WEB_DIR, 'app.js'), 'utf8').matchAll(/from '\.\/([^']+)'/g)) assert.ok(existsSync(join(WEB_DIR, name!)), `${name} is imported and ships`);
});
