// One measured step in its own process, so its peak RSS is its own. Runs the built code (dist/)
// with plain node: no loader overhead in the numbers. Prints one JSON line.
import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ensureStateDir, indexPaths, openStateDb, runIndex } from '../dist/index/index.js';
import { lexicalExtension, VaultSearch } from '../dist/search/index.js';

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
} else if (mode === 'query') {
  // The production search path on the indexed vault: load the keyword index, then full
  // searches (ranking + evidence read from the notes), as `engram search` and the MCP tool do.
  const { db } = openStateDb(ensureStateDir(home, vault));
  const t0 = performance.now();
  const engine = VaultSearch.open(db, vault);
  const openMs = performance.now() - t0;
  const words = ['kalo', 'mire', 'tanvi', 'sodel', 'praun', 'nequa', 'rizen', 'bocha', 'fugar', 'heljo'];
  const times = [];
  for (let i = 0; i < 220; i++) {
    const query = `${words[i % words.length]} ${words[(i * 7) % words.length]}`;
    const q0 = performance.now();
    engine.search({ query, limit: 10 });
    if (i >= 20) times.push(performance.now() - q0);
  }
  times.sort((a, b) => a - b);
  result = { openMs, p50: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
  db.close();
} else if (mode === 'hybrid') {
  // Hybrid search with the query vector given: every note gets one vector and five block
  // vectors (random unit vectors, deterministic), then load and query timings and memory.
  const { db } = openStateDb(ensureStateDir(home, vault));
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5;
  const unit = () => {
    const v = new Float32Array(384);
    let norm = 0;
    for (let i = 0; i < 384; i++) norm += (v[i] = random()) ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < 384; i++) v[i] /= norm;
    return v;
  };
  const notes = db.prepare('SELECT id, hash FROM notes').all();
  const insert = db.prepare("INSERT OR REPLACE INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, ?, 'TaylorAI/bge-micro-v2', 'local', ?, ?)");
  db.transaction(() => {
    for (const note of notes) for (const key of ['', '#a', '#b', '#c', '#d', '#e']) insert.run(note.id, key, note.hash, Buffer.from(unit().buffer));
  })();
  const rssBefore = process.memoryUsage().rss;
  const engine = VaultSearch.open(db, vault);
  const words = ['kalo', 'mire', 'tanvi', 'sodel', 'praun', 'nequa', 'rizen', 'bocha', 'fugar', 'heljo'];
  const times = [];
  for (let i = 0; i < 120; i++) {
    const queryVector = unit();
    const q0 = performance.now();
    engine.search({ query: `${words[i % words.length]} ${words[(i * 3) % words.length]}`, queryVector, limit: 10 });
    if (i >= 20) times.push(performance.now() - q0);
  }
  times.sort((a, b) => a - b);
  result = {
    vectors: engine.vectors.size,
    keywordLoadMs: engine.loadTimings.keywordMs,
    vectorLoadMs: engine.loadTimings.vectorsMs,
    p50: times[Math.floor(times.length / 2)],
    p95: times[Math.floor(times.length * 0.95)],
    rssDeltaMb: (process.memoryUsage().rss - rssBefore) / 1048576,
    vectorMb: engine.vectors.memoryBytes() / 1048576,
  };
  db.close();
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
