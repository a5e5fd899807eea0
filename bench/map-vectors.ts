/**
 * Gives every indexed note of a bench vault a synthetic 384-d vector (bge-micro-v2's width),
 * clustered by the note's top folder plus noise, as if the embedder had run: the map bench
 * measures the layout, not embedding. Usage: node --import tsx bench/map-vectors.ts STATE_DIR
 */
import { openStateDb, vectorToBlob } from '../src/index/index.js';
import { seededRandom } from '../src/map/index.js';

const [stateDir] = process.argv.slice(2);
const { db } = openStateDb(stateDir!);
const random = seededRandom(1);
const centres = new Map<string, Float32Array>();
const rows = db.prepare('SELECT id, path, hash FROM notes').all() as { id: number; path: string; hash: string }[];
const insert = db.prepare("INSERT OR REPLACE INTO vectors (note_id, block_key, model, source, content_hash, vector) VALUES (?, '', 'TaylorAI/bge-micro-v2', 'local', ?, ?)");
db.transaction(() => {
  for (const row of rows) {
    const folder = row.path.split('/')[0]!;
    let centre = centres.get(folder);
    if (!centre) centres.set(folder, (centre = Float32Array.from({ length: 384 }, () => random() - 0.5)));
    const vector = centre.map((value) => value + (random() - 0.5) * 0.8);
    const norm = Math.hypot(...vector);
    insert.run(row.id, row.hash, vectorToBlob(vector.map((value) => value / norm)));
  }
})();
db.close();
console.log(JSON.stringify({ vectors: rows.length, clusters: centres.size }));
