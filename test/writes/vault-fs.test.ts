/**
 * VaultFs, in both of its ways of reaching a file (folders pinned by their open descriptor on
 * Linux, and the checked-path fallback used where /proc is missing): a folder or a note that is
 * a symlink is never followed, for reading, writing, removing or sweeping.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { canPinFolders, TEMP_PREFIX, VaultFs } from '../../src/writes/vault-fs.js';
import { refused, snapshot, writerVault } from './fixture.js';

for (const pinned of [true, false]) {
  const label = pinned ? 'pinned folders' : 'checked paths';
  test(`${label}: writes, reads and removes notes, creating folders level by level`, { skip: pinned && !canPinFolders() ? 'no /proc/self/fd' : false }, (t) => {
    const fx = writerVault(t, { 'Home.md': '# Home\n' });
    const files = new VaultFs(fx.root, { pinned });
    files.write('A/B/C.md', Buffer.from('# C\n'));
    assert.equal(fx.text('A/B/C.md'), '# C\n');
    assert.equal(files.read('A/B/C.md')?.toString(), '# C\n');
    assert.equal(files.read('A/Missing/C.md'), null);
    assert.equal(files.removeEmptyFolder('A/B'), false, 'not empty');
    files.remove('A/B/C.md');
    assert.equal(files.removeEmptyFolder('A/B'), true);
    assert.deepEqual(readdirSync(join(fx.root, 'A')), []);
  });

  test(`${label}: a folder or note that is a symlink is refused, and nothing reaches its target`, { skip: pinned && !canPinFolders() ? 'no /proc/self/fd' : false }, (t) => {
    const fx = writerVault(t, { 'Home.md': '# Home\n' });
    writeFileSync(join(fx.outside, 'x.md'), 'outside\n');
    symlinkSync(fx.outside, join(fx.root, 'Notes'));
    symlinkSync(join(fx.outside, 'x.md'), join(fx.root, 'Link.md'));
    const files = new VaultFs(fx.root, { pinned });
    const before = snapshot(fx.outside);
    refused(() => files.write('Notes/x.md', Buffer.from('evil\n')), /Notes is a symlink/);
    refused(() => files.write('Notes/New/x.md', Buffer.from('evil\n')), /Notes is a symlink/);
    refused(() => files.read('Notes/x.md'), /Notes is a symlink/);
    refused(() => files.read('Link.md'), /Link\.md is a symlink/);
    refused(() => files.remove('Notes/x.md'), /Notes is a symlink/);
    assert.equal(files.removeEmptyFolder('Notes'), false);
    assert.equal(files.sweepTemps('Notes', Date.now(), 0), 0);
    assert.deepEqual(snapshot(fx.outside), before);
    // Writing over a link replaces the link itself, never its target.
    files.write('Link.md', Buffer.from('# mine\n'));
    assert.equal(readFileSync(join(fx.outside, 'x.md'), 'utf8'), 'outside\n');
    assert.equal(fx.text('Link.md'), '# mine\n');
  });

  test(`${label}: sweepTemps removes temporary files by age, or all of them at 0`, { skip: pinned && !canPinFolders() ? 'no /proc/self/fd' : false }, (t) => {
    const fx = writerVault(t, { 'Claude/x.md': '# x\n' });
    mkdirSync(join(fx.root, 'Claude'), { recursive: true });
    const old = join(fx.root, 'Claude', `${TEMP_PREFIX}aaaa`);
    writeFileSync(old, 'half');
    utimesSync(old, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    writeFileSync(join(fx.root, 'Claude', `${TEMP_PREFIX}bbbb`), 'half');
    const files = new VaultFs(fx.root, { pinned });
    assert.equal(files.sweepTemps('Claude', Date.now(), 60_000), 1);
    assert.deepEqual(readdirSync(join(fx.root, 'Claude')).sort(), [`${TEMP_PREFIX}bbbb`, 'x.md']);
    assert.equal(files.sweepTemps('Claude', Date.now(), 0), 1);
    assert.deepEqual(readdirSync(join(fx.root, 'Claude')), ['x.md']);
  });
}
