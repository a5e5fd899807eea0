/**
 * The ranking core: query terms + filter → the best notes inside the filter, and what the
 * filter hid. Pure over the in-memory index; the same function serves `engram search`, the
 * MCP tool and `engram eval`.
 */
import type { CompiledFilter, FilterVerdict, NoteMeta } from './filters.js';
import type { LexicalIndex } from './lexical-index.js';

export interface RankedDocument {
  doc: number;
  score: number;
}

export interface RankOutcome {
  hits: RankedDocument[];
  /** Matching notes inside the filter (before `limit`). */
  matches: number;
  /** Matching notes the filter hid, and the best of them. */
  hidden: { count: number; best: (RankedDocument & { reason: Exclude<FilterVerdict, null> }) | null };
}

export function rankDocuments(
  index: LexicalIndex,
  metas: readonly NoteMeta[],
  terms: readonly string[],
  options: { limit: number; filter: CompiledFilter; minScore?: number },
): RankOutcome {
  const scored = index.score(terms);
  const minScore = options.minScore ?? 0;
  const top = new TopK(options.limit, metas);
  let matches = 0;
  let hiddenCount = 0;
  let hiddenBest: RankOutcome['hidden']['best'] = null;
  for (const entry of scored) {
    if (entry.score < minScore) continue;
    const verdict = options.filter.active ? options.filter.test(metas[entry.doc]!) : null;
    if (verdict !== null) {
      hiddenCount++;
      if (hiddenBest === null || before(entry, hiddenBest, metas)) hiddenBest = { ...entry, reason: verdict };
      continue;
    }
    matches++;
    top.offer(entry);
  }
  return { hits: top.sorted(), matches, hidden: { count: hiddenCount, best: hiddenBest } };
}

/** Higher score first; ties by path, so equal scores never depend on insertion order. */
function before(a: RankedDocument, b: RankedDocument, metas: readonly NoteMeta[]): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return metas[a.doc]!.path < metas[b.doc]!.path;
}

/** A bounded min-heap: keeps the best `k` of a stream without sorting it. */
class TopK {
  private readonly heap: RankedDocument[] = [];

  constructor(private readonly k: number, private readonly metas: readonly NoteMeta[]) {}

  offer(entry: RankedDocument): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push(entry);
      this.up(heap.length - 1);
    } else if (this.k > 0 && before(entry, heap[0]!, this.metas)) {
      heap[0] = entry;
      this.down(0);
    }
  }

  sorted(): RankedDocument[] {
    return [...this.heap].sort((a, b) => (before(a, b, this.metas) ? -1 : 1));
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[parent]!, heap[i]!, this.metas)) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && before(heap[worst]!, heap[left]!, this.metas)) worst = left;
      if (right < heap.length && before(heap[worst]!, heap[right]!, this.metas)) worst = right;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i]!, heap[worst]!];
      i = worst;
    }
  }
}
