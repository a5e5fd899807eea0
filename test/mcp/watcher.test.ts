/**
 * The engine's watcher watches folders, not files (vault/watch.ts): what happens to whole
 * folders — created with notes in them, moved in from outside, renamed, deleted — still reaches
 * search, dot-folders stay out, and a vault of many notes costs one watch per folder.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { connectFixture } from '../helpers/mcp.js';
import { eventually } from '../helpers/eventually.js';
import { pollingReason, watchVault } from '../../src/vault/watch.js';

const VAULT = {
  'Home.md': '# Home\nThe start page.\n',
  'Zoo/Walrus.md': '# Walrus\nWalrus tusks and whiskers.\n',
  'Zoo/Deep/Otter.md': '# Otter\nOtter dens by the river.\n',
  'Garden/Okra.md': '# Okra\nOkra pods grow in the heat.\n',
};

test('folders created, moved in, renamed and deleted under the watcher reach search; dot-folders do not', async (t) => {
  const { call, vault, engine } = await connectFixture(t, VAULT, { watch: true });
  await engine.watching();
  const paths = async (query: string) =>
    ((await call('search_brain', { query, mode: 'keyword' })).structuredContent! as { results: { path: string; lanes: { keyword?: unknown } }[] }).results
      .filter((hit) => hit.lanes.keyword !== undefined)
      .map((hit) => hit.path)
      .sort();

  // A new folder tree, written at once: the files land before or after its watch starts.
  vault.write('Birds/Sea/Puffin.md', '# Puffin\nPuffin burrows on the cliff.\n');
  vault.write('Birds/Sea/Gannet.md', '# Gannet\nGannet dives off the cliff.\n');
  await eventually(async () => (await paths('cliff')).join() === 'Birds/Sea/Gannet.md,Birds/Sea/Puffin.md', 'a new folder tree');

  // A folder moved in from outside the vault (one rename: no event per file).
  const outside = join(dirname(vault.root), 'outside');
  mkdirSync(join(outside, 'Reptiles'), { recursive: true });
  writeFileSync(join(outside, 'Reptiles/Gecko.md'), '# Gecko\nGecko toes cling to glass.\n');
  renameSync(outside, join(vault.root, 'Moved'));
  await eventually(async () => (await paths('gecko')).join() === 'Moved/Reptiles/Gecko.md', 'a folder moved in');

  // A folder renamed: its notes (a sub-folder's too) move with it; then a note written in the renamed folder is seen.
  renameSync(join(vault.root, 'Zoo'), join(vault.root, 'Park'));
  await eventually(async () => (await paths('walrus otter')).join() === 'Park/Deep/Otter.md,Park/Walrus.md', 'a folder renamed');
  vault.write('Park/Deep/Seal.md', '# Seal\nSeal pups on the ice.\n');
  await eventually(async () => (await paths('seal pups')).join() === 'Park/Deep/Seal.md', 'a note in the renamed folder');

  // A folder deleted with everything in it.
  rmSync(join(vault.root, 'Birds'), { recursive: true });
  await eventually(async () => (await paths('cliff')).length === 0, 'a folder deleted');

  // A dot-folder is neither watched nor indexed; an ordinary edit after it still is.
  vault.write('.trash/Okra.md', '# Okra\nsecret okra\n');
  vault.write('Garden/Okra.md', '# Okra\nOkra seedlings want patience.\n');
  await eventually(async () => (await paths('okra seedlings')).join() === 'Garden/Okra.md', 'an edit');
  assert.deepEqual(await paths('secret'), []);
});

/** The inotify watches this process holds (Linux), from /proc/self/fdinfo. */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      count += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

test('the watcher holds one watch per folder, not one per note', { skip: !existsSync('/proc/self/fdinfo') }, async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 120; i++) files[`Folder ${i % 3}/Note ${i}.md`] = `# Note ${i}\nbody ${i}\n`;
  const before = inotifyWatches();
  const { engine } = await connectFixture(t, files, { watch: true });
  await engine.watching();
  // The vault root and its three folders; a watcher keeping a watch per file held 124.
  assert.equal(inotifyWatches() - before, 4);
});

test('a vault on a file system that raises no events is polled (chokidar): edits, new notes, deletions and folders gone are reported; dot-entries are not', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'engram-poll-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'Zoo/Deep'), { recursive: true });
  writeFileSync(join(root, 'Zoo/Walrus.md'), '# Walrus\n');
  writeFileSync(join(root, 'Zoo/Deep/Otter.md'), '# Otter\n');
  const files = new Set<string>();
  const gone = new Set<string>();
  const notices: string[] = [];
  const watcher = watchVault(root, {
    poll: true,
    onFiles: (paths) => paths.forEach((path) => files.add(path)),
    onFolderGone: (path) => gone.add(path),
    onError: (message) => assert.fail(message),
    onNotice: (message) => notices.push(message),
  });
  t.after(() => watcher.close());
  await watcher.ready;
  assert.match(notices.join(), /polling/);
  writeFileSync(join(root, 'Zoo/Walrus.md'), '# Walrus\nTusks.\n');
  writeFileSync(join(root, 'Home.md'), '# Home\n');
  mkdirSync(join(root, '.trash'));
  writeFileSync(join(root, '.trash/Old.md'), '# Old\n');
  await eventually(() => files.has('Zoo/Walrus.md') && files.has('Home.md'), 'an edit and a new note, by polling');
  rmSync(join(root, 'Zoo/Deep'), { recursive: true });
  await eventually(() => gone.has('Zoo/Deep') || files.has('Zoo/Deep/Otter.md'), 'a folder deleted');
  assert.ok(![...files].some((path) => path.startsWith('.')), 'dot-entries are not reported');
});

test('the file systems that raise no events for edits made elsewhere are recognised; a local one is not', () => {
  assert.equal(pollingReason(tmpdir()), null, 'the temporary folder is local here');
  assert.equal(pollingReason(join(tmpdir(), 'no such folder')), null);
});
