/**
 * The ranking core: query terms + filter → the best notes inside the filter, and what the
 * filter hid. Pure over the in-memory index; the same function serves `engram search`, the
 * MCP tool and `engram eval`.
 */
import type { CompiledFilter, FilterVerdict, NoteMeta } from './filters.js';
import type { LexicalIndex, PooledFrequencies, ScoreVisitor } from './lexical-index.js';

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
  /** Matching notes left out for scoring below `minScore` (inside the filter or not). */
  belowMinimum: number;
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
  /** Notes ranked by their `boost` alone when no query term matches them (the notes of a relative date: "yesterday"). */
  brought?: ReadonlySet<number>;
}

export function rankDocuments(index: LexicalIndex, metas: readonly NoteMeta[], terms: readonly string[], options: RankOptions): RankOutcome {
  const ranking = new Ranking(metas, options);
  index.forEachScored(terms, ranking, options.pooled);
  ranking.bringRest();
  return ranking.outcome();
}

const NONE: ReadonlyMap<number, number> = new Map();

/** How two notes compare: named notes first, then higher score; ties by path, so order never depends on insertion order. */
interface Order {
  before(a: RankedDocument, b: RankedDocument): boolean;
}

/**
 * One search's ranking, given every scored note (`visit`). A class rather than closures made per
 * search: the index's posting loop and the heap call it for every note, V8 optimizes them for
 * the function they call, and a closure made per search was a new function every time — the
 * optimized posting loop was thrown away on most searches (314 deoptimizations in one bench run
 * of 320 searches).
 */
class Ranking implements ScoreVisitor, Order {
  private readonly named: ReadonlyMap<number, number>;
  private readonly boost: ReadonlyMap<number, number>;
  private readonly minScore: number;
  private readonly top: TopK;
  private matches = 0;
  private belowMinimum = 0;
  private hiddenCount = 0;
  private hiddenBest: RankOutcome['hidden']['best'] = null;
  /** The `brought` notes no term has matched yet. */
  private readonly pending: Set<number> | null;

  constructor(
    private readonly metas: readonly NoteMeta[],
    private readonly options: RankOptions,
  ) {
    this.named = options.named ?? NONE;
    this.boost = options.boost ?? NONE;
    this.minScore = options.minScore ?? 0;
    this.top = new TopK(options.limit, this, this.named.size > 0);
    this.pending = options.brought !== undefined && options.brought.size > 0 ? new Set(options.brought) : null;
  }

  before(a: RankedDocument, b: RankedDocument): boolean {
    // Without named notes every tier is 0: nothing to look up.
    if (this.named.size > 0) {
      const tierA = this.named.get(a.doc) ?? 0;
      const tierB = this.named.get(b.doc) ?? 0;
      if (tierA !== tierB) return tierA > tierB;
    }
    if (a.score !== b.score) return a.score > b.score;
    return this.metas[a.doc]!.path < this.metas[b.doc]!.path;
  }

  visit(doc: number, bm25: number): void {
    this.pending?.delete(doc);
    this.consider(doc, this.boost.size === 0 ? bm25 : bm25 + (this.boost.get(doc) ?? 0));
  }

  /** The `brought` notes no term matched, ranked by their boost alone. */
  bringRest(): void {
    if (this.pending !== null) for (const doc of this.pending) this.consider(doc, this.boost.get(doc) ?? 0);
  }

  private consider(doc: number, score: number): void {
    if (score < this.minScore) {
      this.belowMinimum++;
      return;
    }
    const verdict = this.options.filter.active ? this.options.filter.test(this.metas[doc]!) : null;
    if (verdict === 'query_excluded') return;
    if (verdict !== null) {
      this.hiddenCount++;
      if (this.hiddenBest === null || this.before({ doc, score }, this.hiddenBest)) this.hiddenBest = { doc, score, reason: verdict };
      return;
    }
    this.matches++;
    this.top.offer(doc, score);
  }

  outcome(): RankOutcome {
    return { hits: this.top.sorted(), matches: this.matches, hidden: { count: this.hiddenCount, best: this.hiddenBest }, belowMinimum: this.belowMinimum };
  }
}

/** A bounded min-heap: keeps the best `k` of a stream without sorting it. */
class TopK {
  private readonly heap: RankedDocument[] = [];
  private readonly probe: RankedDocument = { doc: 0, score: 0 };

  /** @param tiered whether `order` ranks some notes above others whatever their scores (named notes). */
  constructor(
    private readonly k: number,
    private readonly order: Order,
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
    // Without tiers a lower score loses outright, as `before` would say: most offers end here
    // (asking `before`, which looked tiers up first, was 40 % of a query's ranking at 10k notes).
    if (!this.tiered && score < worst.score) return;
    this.probe.doc = doc;
    this.probe.score = score;
    if (this.order.before(this.probe, worst)) {
      heap[0] = { doc, score };
      this.down(0);
    }
  }

  sorted(): RankedDocument[] {
    return [...this.heap].sort((a, b) => (this.order.before(a, b) ? -1 : 1));
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.order.before(heap[parent]!, heap[i]!)) break;
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
      if (left < heap.length && this.order.before(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && this.order.before(heap[worst]!, heap[right]!)) worst = right;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i]!, heap[worst]!];
      i = worst;
    }
  }
}
