/**
 * `engram related` with no model (it used to exit 1, "has no vector yet") and `engram relate`:
 * suggestions, the diff, --apply, and `engram undo` of its run restoring the note's bytes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const NOTE = '---\ntitle: Walrus care\ntags: [zoo]\n---\n# Walrus care\nThe walrus keepers feed the colony at noon.\n';
const FILES = {
  'Zoo/Walrus care.md': NOTE,
  'Zoo/Feeding.md': '---\ntags: [zoo]\n---\n# Feeding\nFish for the walrus colony at noon.\n',
  'Zoo/Pool.md': '# Pool\nLinked from nowhere, about [[Feeding]].\n',
};

test('engram related needs no model; engram relate previews, applies, and its run undoes', async (t) => {
  const vault = makeVault(t, FILES);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['index', '--no-embed'], env)).code, 0);
  const related = await runCli(['related', 'Zoo/Walrus care.md', '--json'], env);
  assert.equal(related.code, 0, related.stderr);
  const doc = JSON.parse(related.stdout) as { related: { path: string; signals: string[]; contributions: Record<string, number> }[]; notices: string[] };
  assert.equal(doc.related[0]!.path, 'Zoo/Feeding.md');
  assert.deepEqual([...doc.related[0]!.signals].sort(), ['tags', 'terms']);
  assert.match(doc.notices.join(), /no vector yet/);
  const text = await runCli(['related', 'Zoo/Walrus care.md'], env);
  assert.match(text.stdout, /1\. Zoo\/Feeding\.md .*\(terms \+[\d.]+, tags \+[\d.]+\)/);
  const vectors = await runCli(['related', 'Zoo/Walrus care.md', '--by', 'vectors'], env);
  assert.equal(vectors.code, 1);
  assert.match(vectors.stderr, /has no .* vector yet.*drop --by vectors/);
  const badWeights = await runCli(['related', 'Zoo/Walrus care.md', '--weights', 'telepathy=2'], env);
  assert.equal(badWeights.code, 2);
  assert.match(badWeights.stderr, /--weights takes SIGNAL=W pairs/);
  const emptyFolder = await runCli(['related', 'Zoo/Walrus care.md', '--folder', ''], env);
  assert.equal(emptyFolder.code, 2, 'an empty --folder is refused, not ignored');
  assert.equal(emptyFolder.stderr, 'engram: --folder is empty: give a folder such as --folder Projects, or leave --folder out\n');

  const file = join(vault.root, 'Zoo/Walrus care.md');
  const preview = await runCli(['relate', 'Zoo/Walrus care.md', '--limit', '1'], env);
  assert.equal(preview.code, 0, preview.stderr);
  assert.match(preview.stdout, /\+ related:\n\+ +- "\[\[Feeding\]\]"/);
  assert.equal(readFileSync(file, 'utf8'), NOTE, 'without --apply nothing is written');
  const applied = await runCli(['relate', 'Zoo/Walrus care.md', '--limit', '1', '--apply', '--json'], env);
  assert.equal(applied.code, 0, applied.stderr);
  const receipt = JSON.parse(applied.stdout) as { applied: boolean; run_id: string };
  assert.equal(receipt.applied, true);
  assert.equal(readFileSync(file, 'utf8'), NOTE.replace('tags: [zoo]\n', 'tags: [zoo]\nrelated:\n  - "[[Feeding]]"\n'));
  const again = JSON.parse((await runCli(['relate', 'Zoo/Walrus care.md', '--limit', '1', '--apply', '--json'], env)).stdout) as { applied: boolean };
  assert.equal(again.applied, false, 'applying again adds nothing');
  const undo = await runCli(['undo', receipt.run_id], env);
  assert.equal(undo.code, 0, undo.stderr);
  assert.equal(readFileSync(file, 'utf8'), NOTE, 'undo restores the bytes');
});
