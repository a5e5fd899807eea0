/**
 * How well the related lane's model-free signals find a note's neighbours without being told:
 * for each note of a vault with links, the lane runs on terms and tags only (links, related:
 * and vectors left out) and we measure how many of the notes it links to or is linked from
 * come back in the top 10 (recall@10) and how early (MRR). This is how RELATED_DEFAULTS' k and
 * tag weight were chosen; the weights of what the human stated (links, related:) are set above
 * both by design, since a stated relation is the strongest evidence there is.
 *
 *   node --import tsx scripts/related-eval.ts [VAULT]   (default evals/vault)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStateDb, runIndex } from '../src/index/index.js';
import { lexicalExtension, VaultSearch } from '../src/search/index.js';
import { relatedLane, type RelatedSignal } from '../src/session/index.js';

const vault = resolve(process.argv[2] ?? 'evals/vault');
const home = mkdtempSync(join(tmpdir(), 'engram-related-eval-'));
const { db } = openStateDb(home);
try {
  runIndex(db, { root: vault, extensions: [lexicalExtension()] });
  const engine = VaultSearch.open(db, vault);
  const rows = db.prepare(`SELECT n.path AS a, l.resolved_path AS b FROM links l JOIN notes n ON n.id = l.note_id WHERE l.resolved_kind = 'note' AND l.resolved_path != n.path`).all() as { a: string; b: string }[];
  const truth = new Map<string, Set<string>>();
  for (const { a, b } of rows) {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      if (!truth.has(x)) truth.set(x, new Set());
      truth.get(x)!.add(y);
    }
  }
  const signals: RelatedSignal[] = ['terms', 'tags'];
  console.log(`${vault}: ${truth.size} notes with linked neighbours`);
  for (const k of [5, 10, 20, 60]) {
    for (const tags of [0, 0.25, 0.5, 1]) {
      let recall = 0;
      let mrr = 0;
      for (const [path, expected] of truth) {
        const results = relatedLane(db, engine, path, { limit: 10, signals, k, weights: { terms: 1, tags } })!.results.map((result) => result.path);
        recall += results.filter((other) => expected.has(other)).length / Math.min(10, expected.size);
        const first = results.findIndex((other) => expected.has(other));
        mrr += first === -1 ? 0 : 1 / (first + 1);
      }
      console.log(`k=${k} tags=${tags}: recall@10 ${(recall / truth.size).toFixed(3)}  MRR ${(mrr / truth.size).toFixed(3)}`);
    }
  }
} finally {
  db.close();
  rmSync(home, { recursive: true, force: true });
}
