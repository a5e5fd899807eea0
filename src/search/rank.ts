/**
 * The ranking core: query terms + filter → the best notes inside the filter, and what the
 * filter hid. Pure over the in-memory index; the same function serves `engram search`, the
 * MCP tool and `engram eval`.
 */
import type { CompiledFilter, FilterVerdict, NoteMeta } from './filters.js';
import type { LexicalIndex, PooledFrequencies } from './lexical-index.js';

export interface RankedDocument {
  doc: number;
  score: number;
}

export interface RankOutcome {
  hits: RankedDocument[];
  /** Matching notes inside the filter (before `limit`). */
  matches: number;
  /** Matching notes the filter hid, and the best of them. */
  hidden: { count: number; best: (RankedDocument & { reason: Exclude<FilterVerdict, null | 'query_excluded'> }) | null };
}

export interface RankOptions {
  limit: number;
  filter: CompiledFilter;
  minScore?: number;
  /**
   * Notes whose title, file name or alias is the query, with a tier: 2 when spelled the same
   * (after case and accent folding), 1 when only the tokens agree (`Workspaces` for
   * `Workspace`). Named notes rank above every other match — a known-item search must find its
   * note first, however often other notes repeat the words — higher tiers first.
   */
  named?: ReadonlyMap<number, number>;
  /** Added to a matching note's score (a name the query covers); bounded by the caller. */
  boost?: ReadonlyMap<number, number>;
  /** Document frequencies shared by a word's spellings in several languages (`PooledFrequencies`). */
  pooled?: PooledFrequencies;
}

export function rankDocuments(index: LexicalIndex, metas: readonly NoteMeta[], terms: readonly string[], options: RankOptions): RankOutcome {
  const minScore = options.minScore ?? 0;
  const named = options.named ?? NONE;
  const boost = options.boost ?? NONE;
  const byPath = (a: RankedDocument, b: RankedDocument): boolean => metas[a.doc]!.path < metas[b.doc]!.path;
  // Without named notes every tier is 0, so scores are compared without looking tiers up.
  const before: Before =
    named.size === 0
      ? (a, b) => (a.score !== b.score ? a.score > b.score : byPath(a, b))
      : (a, b) => {
          const tierA = named.get(a.doc) ?? 0;
          const tierB = named.get(b.doc) ?? 0;
          if (tierA !== tierB) return tierA > tierB;
          return a.score !== b.score ? a.score > b.score : byPath(a, b);
        };
  const top = new TopK(options.limit, before, named.size > 0);
  let matches = 0;
  let hiddenCount = 0;
  let hiddenBest: RankOutcome['hidden']['best'] = null;
  index.forEachScored(
    terms,
    (doc, bm25) => {
      const score = boost.size === 0 ? bm25 : bm25 + (boost.get(doc) ?? 0);
      if (score < minScore) return;
      const verdict = options.filter.active ? options.filter.test(metas[doc]!) : null;
      if (verdict === 'query_excluded') return;
      if (verdict !== null) {
        hiddenCount++;
        if (hiddenBest === null || before({ doc, score }, hiddenBest)) hiddenBest = { doc, score, reason: verdict };
        return;
      }
      matches++;
      top.offer(doc, score);
    },
    options.pooled,
  );
  return { hits: top.sorted(), matches, hidden: { count: hiddenCount, best: hiddenBest } };
}

const NONE: ReadonlyMap<number, number> = new Map();

/** Named notes first, then higher score; ties by path, so order never depends on insertion order. */
type Before = (a: RankedDocument, b: RankedDocument) => boolean;

/** A bounded min-heap: keeps the best `k` of a stream without sorting it. */
class TopK {
  private readonly heap: RankedDocument[] = [];
  private readonly probe: RankedDocument = { doc: 0, score: 0 };

  /** @param tiered whether `before` ranks some notes above others whatever their scores (named notes). */
  constructor(
    private readonly k: number,
    private readonly before: Before,
    private readonly tiered: boolean,
  ) {}

  /** Keeps (doc, score) if it is among the best k so far; allocates only for what it keeps. */
  offer(doc: number, score: number): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push({ doc, score });
      this.up(heap.length - 1);
      return;
    }
    const worst = heap[0];
    if (worst === undefined) return;
    // Without tiers a lower score loses outright, as `before` would say: most offers end here,
    // spared its two tier look-ups (they were 40 % of a query's ranking at 10k notes).
    if (!this.tiered && score < worst.score) return;
    this.probe.doc = doc;
    this.probe.score = score;
    if (this.before(this.probe, worst)) {
      heap[0] = { doc, score };
      this.down(0);
    }
  }

  sorted(): RankedDocument[] {
    return [...this.heap].sort((a, b) => (this.before(a, b) ? -1 : 1));
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[parent]!, heap[i]!)) break;
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
      if (left < heap.length && this.before(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && this.before(heap[worst]!, heap[right]!)) worst = right;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i]!, heap[worst]!];
      i = worst;
    }
  }
}
