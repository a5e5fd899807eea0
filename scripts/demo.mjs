#!/usr/bin/env node
// `npm run demo`: the main job on the bundled sample vault (evals/vault), with the built CLI,
// in a throwaway state directory that is removed afterwards: index, status, search, and the
// golden-set eval. Later capabilities add their steps here as they land.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli', 'main.js');
const vault = join(repo, 'evals', 'vault');
const home = mkdtempSync(join(tmpdir(), 'engram-demo-'));

function engram(...args) {
  console.log(`\n$ engram ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [cli, ...args, '--vault', vault], {
    env: { ...process.env, ENGRAM_HOME: home },
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    rmSync(home, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
}

try {
  console.log(`Engram demo — sample vault: evals/vault, state: a temporary ENGRAM_HOME`);
  engram('index');
  engram('status');
  engram('index'); // nothing changed: the second run only compares mtimes and sizes
  engram('search', 'atlas cutover date', '--limit', '3');
  engram('search', 'Tomek', '--limit', '1'); // an alias finds its note first
  engram('search', 'tantivy', '--folder', 'Claude/Sessions', '--limit', '2'); // a filter, and what it hid
  engram('eval', '--golden', join(repo, 'evals', 'golden.yaml'), '--no-history');
} finally {
  rmSync(home, { recursive: true, force: true });
}
