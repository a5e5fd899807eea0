import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

const VAULT = {
  'Atlas.md': '---\ntags: [project/atlas]\n---\n# Atlas\n## Plan\nSearch migration.\n',
  'Notes/Other.md': '# Other\nText.\n',
  'Notes/Third.md': '# Third\nMore.\n',
};

test('engram ls: pages with a cursor, filters, JSON; bad input is one line and exit 2', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  assert.equal((await runCli(['index', '--quiet', '--no-embed'], env)).code, 0);
  const first = JSON.parse((await runCli(['ls', '--json', '--limit', '2'], env)).stdout);
  assert.deepEqual(
    first.notes.map((n: { path: string }) => n.path),
    ['Atlas.md', 'Notes/Other.md'],
  );
  assert.equal(first.total, 3);
  assert.deepEqual(Object.keys(first.notes[0]).sort(), ['blocks', 'extracted', 'modified', 'path', 'size', 'title', 'vectors']);
  const second = JSON.parse((await runCli(['ls', '--json', '--limit', '2', '--cursor', first.next_cursor], env)).stdout);
  assert.deepEqual(
    second.notes.map((n: { path: string }) => n.path),
    ['Notes/Third.md'],
  );
  assert.equal(second.next_cursor, null);
  const tagged = await runCli(['ls', '--tag', 'project'], env);
  assert.match(tagged.stdout, /^Atlas\.md {2}\d+ B {2}.* {2}3 blocks {2}no vectors\n1 of 1 notes\n$/);
  for (const [argv, pattern, code] of [
    [['ls', '--limit', '0'], /--limit must be a whole number/, 2],
    [['ls', '--modified-after', 'soon'], /--modified-after must be a date/, 2],
    [['ls', '--cursor', 'bogus!'], /not a cursor this listing gave/, 1],
  ] as const) {
    const result = await runCli([...argv], env);
    assert.equal(result.code, code, argv.join(' '));
    assert.match(result.stderr, pattern);
    assert.equal(result.stderr.trim().split('\n').length, 1, `one line: ${result.stderr}`);
  }
});
