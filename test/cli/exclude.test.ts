/**
 * Excluded folders (`engram index --exclude`, ENGRAM_EXCLUDE) are vault-relative folders, read
 * the way they are often written: `./Archive`, `Archive/`, `Work//Old` leave out the folder they
 * name, and `/Archive` the vault's own. A value that names no folder inside the vault (`/`, `./`, `..`, a drive path) is bad
 * usage, refused in one line with a valid example, never an exclusion that leaves out nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Keep.md': '# Keep\nWalrus.\n',
  'Archive/Old.md': '# Old\nWalrus.\n',
  'Work/Old/Draft.md': '# Draft\nWalrus.\n',
  'Work/Current.md': '# Current\nWalrus.\n',
};

async function indexedPaths(argv: string[], env: Record<string, string>): Promise<string[]> {
  const indexed = await runCli(['index', '--no-embed', '--quiet', '--full', ...argv], env);
  assert.equal(indexed.code, 0, indexed.stderr);
  const listed = await runCli(['ls', '--json'], env);
  assert.equal(listed.code, 0, listed.stderr);
  return (JSON.parse(listed.stdout) as { notes: { path: string }[] }).notes.map((note) => note.path);
}

test('--exclude and ENGRAM_EXCLUDE read ./Archive, Archive/ and Work//Old as the folders they name', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.deepEqual(await indexedPaths(['--exclude', './Archive', '--exclude', 'Work//Old/'], env), ['Keep.md', 'Work/Current.md']);
  assert.deepEqual(await indexedPaths(['--exclude', '/Archive'], env), ['Keep.md', 'Work/Current.md', 'Work/Old/Draft.md'], 'a leading / is the vault root');
  // The variable is read by every command that brings the index up to date, not only `engram index`.
  const variable = { ...env, ENGRAM_EXCLUDE: ' ./archive/ , work/./old ,' };
  assert.deepEqual(await indexedPaths([], variable), ['Keep.md', 'Work/Current.md']);
  const searched = await runCli(['search', 'walrus', '--json'], variable);
  assert.equal(searched.code, 0, searched.stderr);
  assert.deepEqual((JSON.parse(searched.stdout) as { results: { path: string }[] }).results.map((hit) => hit.path).sort(), ['Keep.md', 'Work/Current.md']);
});

test('an excluded folder that names no folder inside the vault is refused (exit 2) in one line with an example', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const flag: [string, string][] = [
    ['/', '--exclude "/" names no folder: give a folder such as --exclude Archive, or leave --exclude out'],
    ['./', '--exclude "./" names no folder: give a folder such as --exclude Archive, or leave --exclude out'],
    ['Archive/..', '--exclude "Archive/.." names no folder: give a folder such as --exclude Archive, or leave --exclude out'],
    ['..', '--exclude ".." is outside the vault: give a folder inside it, relative to the vault, such as --exclude Archive'],
    ['../Other/Archive', '--exclude "../Other/Archive" is outside the vault: give a folder inside it, relative to the vault, such as --exclude Archive'],
    ['Work/../../Archive', '--exclude "Work/../../Archive" is outside the vault: give a folder inside it, relative to the vault, such as --exclude Archive'],
    ['C:\\Notes\\Archive', '--exclude "C:\\\\Notes\\\\Archive" is a drive path: give a folder relative to the vault, such as --exclude Archive'],
  ];
  for (const [value, message] of flag) {
    const result = await runCli(['index', '--no-embed', '--exclude', 'Work', '--exclude', value], env);
    assert.equal(result.code, 2, `${value}: ${result.stderr}`);
    assert.equal(result.stderr, `engram: ${message}\n`, value);
  }
  const variable: [string, string][] = [
    ['/', 'ENGRAM_EXCLUDE has "/", which names no folder: give vault-relative folders, comma-separated, such as ENGRAM_EXCLUDE=Archive,Work/Old'],
    ['Archive,./', 'ENGRAM_EXCLUDE has "./", which names no folder: give vault-relative folders, comma-separated, such as ENGRAM_EXCLUDE=Archive,Work/Old'],
    ['Archive,../Other', 'ENGRAM_EXCLUDE has "../Other", which is outside the vault: give vault-relative folders, comma-separated, such as ENGRAM_EXCLUDE=Archive,Work/Old'],
    ['D:\\Notes', 'ENGRAM_EXCLUDE has "D:\\\\Notes", which is a drive path: give vault-relative folders, comma-separated, such as ENGRAM_EXCLUDE=Archive,Work/Old'],
  ];
  for (const [value, message] of variable) {
    for (const argv of [
      ['index', '--no-embed'],
      ['search', 'walrus'],
    ]) {
      const result = await runCli(argv, { ...env, ENGRAM_EXCLUDE: value });
      assert.equal(result.code, 2, `${value}: ${result.stderr}`);
      assert.equal(result.stderr, `engram: ${message}\n`, `${argv[0]} with ENGRAM_EXCLUDE=${value}`);
    }
  }
  // Unset and empty both mean no exclusion, as for every other variable.
  assert.equal((await runCli(['index', '--no-embed', '--quiet'], { ...env, ENGRAM_EXCLUDE: '' })).code, 0);
});
