// One measured step in its own process, so its peak RSS is its own. Runs the built code (dist/)
// with plain node: no loader overhead in the numbers. Prints one JSON line.
import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ensureStateDir, indexPaths, openStateDb, runIndex } from '../dist/index/index.js';
import { lexicalExtension } from '../dist/search/index.js';

const [mode, vault, home, editPath] = process.argv.slice(2);

function readAndHashAll(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) count += readAndHashAll(abs);
    else if (entry.name.endsWith('.md')) {
      statSync(abs);
      createHash('sha256').update(readFileSync(abs)).digest('hex');
      count++;
    }
  }
  return count;
}

const started = performance.now();
let result;
if (mode === 'floor') {
  result = { notes: readAndHashAll(vault) };
} else {
  const { db } = openStateDb(ensureStateDir(home, vault));
  if (mode === 'edit' || mode === 'edit-path') appendFileSync(join(vault, editPath), `\nEdited at ${Date.now()}.\n`);
  const t0 = performance.now();
  // 'edit-path' is what a watcher does: re-index the one path it was told about.
  // The same extensions `engram index` runs: the keyword lane's term statistics.
  const options = { root: vault, extensions: [lexicalExtension()] };
  const report = mode === 'edit-path' ? indexPaths(db, [editPath], options) : runIndex(db, options);
  result = { indexMs: performance.now() - t0, added: report.added, modified: report.modified, notes: report.notes };
  db.close();
}
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ mode, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, ...result }) + '\n');
