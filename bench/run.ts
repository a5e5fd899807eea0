/**
 * `npm run bench`: indexing speed and memory on deterministic synthetic vaults. Each step runs
 * in its own process over the built code. Results print as a table and are appended to
 * bench/results.jsonl. Usage: npm run bench -- [--sizes 1000,10000,50000]
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateVault } from './generate-vault.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000' } } });
const sizes = values.sizes!.split(',').map(Number).filter((n) => n > 0);

interface Step { mode: string; ms: number; maxRssMb: number; indexMs?: number; notes: number }

function step(mode: string, vault: string, home: string, editPath = ''): Step {
  const out = execFileSync(process.execPath, [join(here, 'index-worker.mjs'), mode, vault, home, editPath], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Step;
}

function vaultFor(size: number): { root: string; paths: string[] } {
  const root = join(here, '.vaults', String(size));
  const marker = join(root, '.generated');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const { paths } = generateVault(root, size);
  writeFileSync(marker, 'deterministic synthetic vault; safe to delete\n');
  return { root, paths };
}

const rows: Record<string, string | number>[] = [];
for (const size of sizes) {
  process.stderr.write(`generating ${size} notes…\n`);
  const { root, paths } = vaultFor(size);
  const home = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  try {
    step('floor', root, home); // warm the page cache so every step reads from memory
    const floor = step('floor', root, home);
    const full = step('full', root, home);
    const again = step('again', root, home);
    const edit = step('edit', root, home, paths[Math.floor(paths.length / 2)]!);
    const editPath = step('edit-path', root, home, paths[Math.floor(paths.length / 3)]!);
    const row = {
      notes: size,
      'full index (s)': +(full.indexMs! / 1000).toFixed(2),
      'notes/s': Math.round(size / (full.indexMs! / 1000)),
      'vs read+hash floor': `${(full.indexMs! / floor.ms).toFixed(1)}×`,
      'no-change (ms)': Math.round(again.indexMs!),
      'no-change process (ms)': Math.round(again.ms),
      'one edit, scan (ms)': Math.round(edit.indexMs!),
      'one edit, by path (ms)': +editPath.indexMs!.toFixed(1),
      'peak RSS full (MB)': Math.round(full.maxRssMb),
    };
    rows.push(row);
    appendFileSync(join(here, 'results.jsonl'), JSON.stringify({ at: new Date().toISOString(), suite: 'index', cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, ...row }) + '\n');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
console.table(rows);
if (!existsSync(join(here, 'results.jsonl'))) process.exitCode = 1;
