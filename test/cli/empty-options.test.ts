/**
 * An option given an empty or blank value (`--seed ""`, often a shell variable that was not set)
 * is bad usage, one line naming the option and what to give: never read as 0, nor dropped as if
 * the option was not given. `engram context --project ""` is the one exception.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

test('an empty or blank option value is refused (exit 2) in one line, not read as 0 or as no value', async (t) => {
  const vault = makeVault(t, { 'Zoo/Walrus care.md': '---\ntags: [zoo]\n---\n# Walrus care\nThe walrus colony.\n', 'Zoo/Feeding.md': '---\ntags: [zoo]\n---\n# Feeding\nFish for the walrus colony.\n' });
  // No ENGRAM_VAULT: a row names its vault, so `serve`/`daemon --http ""` could never start a server.
  const env = { ENGRAM_HOME: vault.home };
  const v = ['--vault', vault.root];
  const missing = join(vault.root, '..', 'absent.yaml');
  const cases: [string[], string][] = [
    [['index', ...v, '--no-embed', '--exclude', ''], '--exclude is empty: give a folder such as --exclude Archive, or leave --exclude out'],
    [['index', ...v, '--no-embed', '--exclude', 'Zoo', '--exclude', '/'], '--exclude "/" names no folder: give a folder such as --exclude Archive, or leave --exclude out'],
    [['index', ...v, '--no-embed', '--batch-size', 'abc'], '--batch-size must be a positive number, not "abc"'],
    [['index', ...v, '--no-embed', '--batch-size', ''], '--batch-size must be a positive number, not ""'],
    [['index', ...v, '--embed-budget', ''], '--embed-budget must be a number of seconds, not ""'],
    // Without a vault the old reading (port 0, any free port) stopped at the missing vault instead.
    [['serve', '--http', ''], '--http needs a port number such as 8765, not ""'],
    [['daemon', '--http', ' '], '--http needs a port number such as 8765, not " "'],
    [['map', ...v, '--seed', ''], '--seed must be a whole number from 0 to 4294967295, not ""'],
    [['verify', ...v, '--seed', ''], '--seed must be a whole number, not ""'],
    [['eval', ...v, '--known-items', '--k1', ''], '--k1 must be a number ≥ 0, not ""'],
    [['eval', ...v, '--known-items', '--b', ' '], '--b must be a number ≥ 0, not " "'],
    [['eval', ...v, '--known-items', '--delta', ''], '--delta must be a number ≥ 0, not ""'],
    [['eval', ...v, '--known-items', '--title-weight', ''], '--title-weight must be a number ≥ 0, not ""'],
    [['eval', ...v, '--known-items', '--min-mrr', ''], '--min-mrr must be a number ≥ 0, not ""'],
    [['eval', '--golden', missing, '--min-success5', ''], '--min-success5 must be a number ≥ 0, not ""'],
    [['eval', '--graph', missing, '--min-entity-f1', ''], '--min-entity-f1 must be a number between 0 and 1, not ""'],
    // A file or folder to read, named by nothing: bad usage, not a file that cannot be read (exit 1).
    [['eval', ...v, '--golden', ''], '--golden is empty: give a golden file such as --golden evals/golden.yaml, or leave --golden out'],
    [['eval', '--beir', ' '], '--beir is blank: give a BEIR folder such as --beir path/to/scifact, or leave --beir out'],
    [['eval', '--beir', missing, '--split', ''], '--split is empty: give a qrels split such as --split test, or leave --split out'],
    [['eval', ...v, '--locomo', ''], '--locomo is empty: give a LoCoMo file or folder such as --locomo locomo10.json, or leave --locomo out'],
    [['eval', '--graph', ''], '--graph is empty: give a graph gold file such as --graph evals/graph-gold.yaml, or leave --graph out'],
    [['eval', '--golden', missing, '--also', ''], '--also is empty: give a rephrasings file such as --also evals/golden-blind.also.json, or leave --also out'],
    [['ls', ...v, '--cursor', ''], '--cursor is empty: give a next-page cursor such as --cursor cDpBdGxhcy5tZA, or leave --cursor out'],
    [['ls', ...v, '--cursor', ' '], '--cursor is blank: give a next-page cursor such as --cursor cDpBdGxhcy5tZA, or leave --cursor out'],
    [['eval', '--graph', missing, '--min-relation-f1', ' '], '--min-relation-f1 must be a number between 0 and 1, not " "'],
    [['related', ...v, 'Zoo/Walrus care.md', '--weights', ''], '--weights is empty: give a SIGNAL=W pair such as --weights tags=0.5, or leave --weights out'],
    [['related', ...v, 'Zoo/Walrus care.md', '--weights', ' , '], '--weights " , " names no SIGNAL=W pair: give a SIGNAL=W pair such as --weights tags=0.5, or leave --weights out'],
    [['search', ...v, 'walrus', '--also', ''], '--also is empty: give a wording such as --also "weekly sync notes", or leave --also out'],
    [['mcp', 'sync', ...v, '--desktop', '--with', ''], '--with is empty: give a server name such as --with fetch, or leave --with out'],
  ];
  for (const [argv, message] of cases) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, `${JSON.stringify(argv)}: ${result.stderr}`);
    assert.equal(result.stderr, `engram: ${message}\n`, JSON.stringify(argv));
  }
  // On purpose: a SessionStart hook may pass an empty project name, which means every project.
  const context = await runCli(['context', ...v, '--project', ''], env);
  assert.equal(context.code, 0, context.stderr);
});
