/**
 * The related lane: notes related to a note by every signal the vault has, model or not —
 * explicit `related:` entries, closeness in the link graph (1–3 hops), shared tags, the note's
 * distinctive terms as a BM25 query (more like this), shared entities when the graph has been
 * extracted, and vectors when the note has one. Each signal ranks notes on its own; the ranks
 * are fused by weighted reciprocal rank (`fuseRrf`, as search fuses its lanes), so scores of
 * different kinds need no calibration and each result says how much each signal added.
 *
 * It sits in the session layer because it composes search (terms, vectors) and graph (tags,
 * links, relations, entities), which are peers and may not import each other.
 */
import type Database from 'better-sqlite3';
import { explicitRelations, linkNeighbours, relatedNotes, tagNeighbours, type SignalHit } from '../graph/index.js';
import { compileFilter, fuseRrf, moreLikeThis, type VaultSearch } from '../search/index.js';

export const RELATED_SIGNALS = ['related', 'links', 'tags', 'terms', 'graph', 'vectors'] as const;
export type RelatedSignal = (typeof RELATED_SIGNALS)[number];

/**
 * Defaults chosen on evals/vault (scripts/related-eval.ts; docs/search-quality.md has the
 * numbers): recovering each note's linked neighbours from terms and tags alone, k 5 with tags at
 * a quarter of terms kept terms' recall@10 (0.734 vs 0.742) and MRR (0.827 vs 0.843) while still
 * relating notes that share only tags; k 60 or equal tag weight cost 0.1–0.2 of both. What the
 * human stated (`related:`, links) weighs above both by design.
 */
export const RELATED_DEFAULTS = {
  /** RRF's k: far lower than search's 60, so a signal's first notes stand out from its tail. */
  k: 5,
  weights: { related: 2, links: 1.5, tags: 0.25, terms: 1, graph: 1, vectors: 1 } as Record<RelatedSignal, number>,
  /** Notes each signal ranks before fusion. */
  depth: 50,
} as const;

export interface RelatedLaneOptions {
  limit: number;
  /** Signals to use; all by default. A weight of 0 leaves a signal out too. */
  signals?: readonly RelatedSignal[];
  weights?: Partial<Record<RelatedSignal, number>>;
  k?: number;
  /** Only notes in these folders (and below). */
  folders?: readonly string[];
  /** Entity hops for the graph signal. */
  hops?: 1 | 2;
}

export interface RelatedResult {
  path: string;
  title: string;
  score: number;
  /** The signals that found it, strongest contribution first. */
  signals: RelatedSignal[];
  /** How much each signal added to `score`. */
  contributions: Partial<Record<RelatedSignal, number>>;
  /** Why, one line per signal (the graph's chains as they were). */
  chains: string[];
  /** The section whose vector matched, when vectors found it through a section. */
  section?: string;
}

export interface RelatedLaneOutcome {
  results: RelatedResult[];
  /** Signals that could not run, and why. */
  notices: string[];
}

/** Related notes for `path`, or null when it is not indexed. */
export function relatedLane(db: Database.Database, engine: VaultSearch, path: string, options: RelatedLaneOptions): RelatedLaneOutcome | null {
  const docOf = docsByPath(engine);
  const doc = docOf.get(path);
  if (doc === undefined) return null;
  const weights = { ...RELATED_DEFAULTS.weights, ...options.weights };
  const wanted = new Set((options.signals ?? RELATED_SIGNALS).filter((signal) => weights[signal] > 0));
  const filter = compileFilter({ folders: [...(options.folders ?? [])] });
  const inside = (other: string): boolean => {
    const at = docOf.get(other);
    return other !== path && at !== undefined && (!filter.active || filter.test(engine.metas[at]!) === null);
  };
  const depth = Math.max(RELATED_DEFAULTS.depth, options.limit);
  const notices: string[] = [];
  const lanes = new Map<RelatedSignal, { path: string; why: string; section?: string }[]>();
  const keep = (signal: RelatedSignal, hits: readonly { path: string; why: string; section?: string }[]) => {
    if (wanted.has(signal)) lanes.set(signal, hits.filter((hit) => inside(hit.path)).slice(0, depth));
  };
  const why = (hits: SignalHit[]) => hits.map((hit) => ({ path: hit.path, why: hit.why }));
  if (wanted.has('related')) keep('related', why(explicitRelations(db, path)));
  if (wanted.has('links')) keep('links', why(linkNeighbours(db, path, 3)));
  if (wanted.has('tags')) keep('tags', why(tagNeighbours(db, path)));
  if (wanted.has('terms')) {
    const similar = moreLikeThis(db, engine.index, doc, depth, (other) => inside(engine.metas[other]!.path));
    keep(
      'terms',
      similar.map((hit) => ({ path: engine.metas[hit.doc]!.path, why: `terms ${hit.terms.join(', ')}` })),
    );
  }
  if (wanted.has('graph')) {
    const entities = relatedNotes(db, path, { hops: options.hops ?? 1, limit: 500 }) ?? [];
    keep(
      'graph',
      entities.map((note) => ({ path: note.path, why: note.chains[0] ?? 'shared entities' })),
    );
  }
  if (wanted.has('vectors')) {
    const nearest = engine.related(path, depth, { folders: [...(options.folders ?? [])] });
    if (nearest === null) notices.push(`${path} has no vector yet, so related notes are found without meaning (vectors)`);
    keep(
      'vectors',
      (nearest ?? []).map((hit) => ({ path: hit.path, why: hit.section ? `nearest by meaning, section ${hit.section}` : 'nearest by meaning', ...(hit.section ? { section: hit.section } : {}) })),
    );
  }
  return { results: fuse(lanes, weights, options.k ?? RELATED_DEFAULTS.k, options.limit, (other) => engine.metas[docOf.get(other)!]!.title), notices };
}

/** Weighted RRF over the signals' rankings; each result keeps every signal's share and reason. */
function fuse(lanes: Map<RelatedSignal, { path: string; why: string; section?: string }[]>, weights: Record<RelatedSignal, number>, k: number, limit: number, titleOf: (path: string) => string): RelatedResult[] {
  const paths: string[] = [];
  const idOf = new Map<string, number>();
  const id = (path: string): number => {
    let known = idOf.get(path);
    if (known === undefined) idOf.set(path, (known = paths.push(path) - 1));
    return known;
  };
  const ranked: Record<string, number[]> = {};
  for (const [signal, hits] of lanes) ranked[signal] = hits.map((hit) => id(hit.path));
  return fuseRrf(ranked, { k, weights })
    .slice(0, limit)
    .map(({ doc, score, ranks }) => {
      const path = paths[doc]!;
      const found = (Object.keys(ranks) as RelatedSignal[]).map((signal) => ({ signal, added: weights[signal] / (k + ranks[signal]!), hit: lanes.get(signal)![ranks[signal]! - 1]! }));
      found.sort((a, b) => b.added - a.added || RELATED_SIGNALS.indexOf(a.signal) - RELATED_SIGNALS.indexOf(b.signal));
      const section = found.find((entry) => entry.hit.section)?.hit.section;
      return {
        path,
        title: titleOf(path),
        score: round(score),
        signals: found.map((entry) => entry.signal),
        contributions: Object.fromEntries(found.map((entry) => [entry.signal, round(entry.added)])),
        chains: found.map((entry) => (entry.signal === 'graph' ? entry.hit.why : `${entry.signal}: ${entry.hit.why}`)),
        ...(section ? { section } : {}),
      };
    });
}

/** Path → document, once per engine (an engine's notes never change; a new index is a new engine). */
const DOCS = new WeakMap<VaultSearch, Map<string, number>>();
function docsByPath(engine: VaultSearch): Map<string, number> {
  let docs = DOCS.get(engine);
  if (!docs) DOCS.set(engine, (docs = new Map(engine.metas.map((meta, doc) => [meta.path, doc]))));
  return docs;
}

function round(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
