/**
 * Two-dimensional layouts of notes by UMAP (umap-js, PAIR's maintained port of McInnes' UMAP).
 * Every layout is a function of its input and a seed: umap-js draws all its randomness from the
 * `random` function it is given, and we give it a seeded generator, so the same vault and seed
 * give the same map. Pure (no I/O); UMAP's CPU work is the cost.
 *
 * Both inputs end as a k-nearest-neighbour graph: vectors by UMAP's own approximate search
 * (random-projection forest + NN-descent), the model-free signals as a precomputed graph
 * (`setPrecomputedKNN`), since a note's links and tags say who its neighbours are, not where it
 * lies in a metric space.
 */
import { createRequire } from 'node:module';
import type { UMAP } from 'umap-js';
import { VectorIndex } from '../search/index.js';
import { seededRandom } from './random.js';

export const LAYOUT_DEFAULTS = {
  /** UMAP's neighbourhood: 15 is UMAP's own default, a balance of local and global structure. */
  neighbours: 15,
  /** How tightly UMAP packs neighbours (UMAP's default 0.1); the canvas spreads them onto a grid anyway. */
  minDist: 0.1,
  seed: 42,
  /** Most notes UMAP lays out together; the rest are placed near them (see `layoutVectors`). */
  landmarks: 2000,
  /** Nearest laid-out notes a placed note is averaged from. */
  placeBy: 6,
  /** Epochs: UMAP's reference implementation uses 200 for large inputs; more changed little on a map. */
  epochs: 200,
} as const;

export interface LayoutOptions {
  seed?: number;
  neighbours?: number;
  epochs?: number;
  landmarks?: number;
}

/** One neighbour in a precomputed graph: its index and distance (smaller is closer, ≥ 0). */
export interface Neighbour {
  index: number;
  distance: number;
}

/**
 * Positions for `n` points where UMAP cannot run: none, one (the origin), or two (side by side).
 * UMAP needs more points than neighbours; below three there is no neighbourhood to keep.
 */
function trivialLayout(n: number): [number, number][] | null {
  if (n === 0) return [];
  if (n === 1) return [[0, 0]];
  if (n === 2) {
    return [
      [-1, 0],
      [1, 0],
    ];
  }
  return null;
}

/**
 * UMAP over vectors (L2-normalized, so cosine orders as euclidean does). Up to `landmarks`
 * notes are laid out by UMAP together; in a larger vault UMAP lays out an evenly spread sample
 * of that many and every other note goes near its nearest sampled ones (`placeNear`), which keeps
 * 10k–50k notes within seconds: umap-js's fuzzy-set construction and epochs grow with n, the
 * placement with n × landmarks dot products in the WASM kernel.
 */
export function layoutVectors(vectors: readonly Float32Array[], options: LayoutOptions = {}): [number, number][] {
  const n = vectors.length;
  const trivial = trivialLayout(n);
  if (trivial) return trivial;
  const dims = vectors[0]!.length;
  const sample = sampleIndices(n, options.landmarks ?? LAYOUT_DEFAULTS.landmarks);
  const index = VectorIndex.fromEntries(
    dims,
    sample.map((at, doc) => ({ doc, blockKey: '', source: 'local' as const, vector: vectors[at]! })),
    sample.length,
  );
  const k = Math.min(options.neighbours ?? LAYOUT_DEFAULTS.neighbours, sample.length - 1);
  // Chord distance on the unit sphere: √(2 − 2·cos), a metric UMAP's smoothing expects.
  const chord = (cos: number) => Math.sqrt(Math.max(0, 2 - 2 * cos));
  const graph = sample.map((at) => index.nearest(vectors[at]!, k + 1).map((hit) => ({ index: hit.doc, distance: chord(hit.score) })));
  const placed = layoutGraph(graph, options);
  if (sample.length === n) return placed;
  const out: [number, number][] = new Array(n);
  sample.forEach((at, i) => (out[at] = placed[i]!));
  const inSample = new Uint8Array(n);
  for (const at of sample) inSample[at] = 1;
  for (let i = 0; i < n; i++) {
    if (inSample[i]) continue;
    const near = index.nearest(vectors[i]!, LAYOUT_DEFAULTS.placeBy).map((hit) => ({ x: placed[hit.doc]![0], y: placed[hit.doc]![1], weight: Math.max(hit.score, 0) ** 4 }));
    out[i] = roundPoint(placeNear(near) ?? placed[0]!);
  }
  return out;
}

/** `count` indices spread evenly over 0…n−1 (all of them when n ≤ count): a sample with no randomness. */
export function sampleIndices(n: number, count: number): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor((i * n) / count));
}

/**
 * UMAP over a precomputed neighbour graph: `neighbours[i]` lists point i's nearest others, closest
 * first (at most `options.neighbours` − 1 are used; fewer is fine). A point with no neighbour
 * still gets a place — UMAP's repulsion puts it apart from the rest.
 */
export function layoutGraph(neighbours: readonly (readonly Neighbour[])[], options: LayoutOptions = {}): [number, number][] {
  const n = neighbours.length;
  const trivial = trivialLayout(n);
  if (trivial) return trivial;
  const k = Math.min(options.neighbours ?? LAYOUT_DEFAULTS.neighbours, n - 1);
  const indices: number[][] = [];
  const distances: number[][] = [];
  for (let i = 0; i < n; i++) {
    // UMAP's convention: a point is its own first neighbour, at distance 0; -1 pads a short row.
    const row = neighbours[i]!.filter((other) => other.index !== i).slice(0, k - 1);
    indices.push([i, ...row.map((other) => other.index), ...new Array<number>(k - 1 - row.length).fill(-1)]);
    distances.push([0, ...row.map((other) => other.distance), ...new Array<number>(k - 1 - row.length).fill(Infinity)]);
  }
  const umap = makeUmap(n, { ...options, neighbours: k });
  umap.setPrecomputedKNN(indices, distances);
  // The search graph umap-js builds for `transform` is never used here (new notes are placed by
  // `placeNear`), and building it was a third of the set-up time.
  (umap as unknown as { makeSearchGraph: () => undefined }).makeSearchGraph = () => undefined;
  // The points' coordinates are not used once the graph is given; one number each satisfies the API.
  return round(umap.fit(Array.from({ length: n }, (_, i) => [i])));
}

const require = createRequire(import.meta.url);

function makeUmap(n: number, options: LayoutOptions): UMAP {
  // Loaded by the first layout, not with the module: a daemon or server that never draws a map does not carry it.
  const { UMAP } = require('umap-js') as typeof import('umap-js');
  const neighbours = Math.max(2, Math.min(options.neighbours ?? LAYOUT_DEFAULTS.neighbours, n - 1));
  return new UMAP({
    nComponents: 2,
    nNeighbors: neighbours,
    minDist: LAYOUT_DEFAULTS.minDist,
    random: seededRandom(options.seed ?? LAYOUT_DEFAULTS.seed),
    nEpochs: options.epochs ?? LAYOUT_DEFAULTS.epochs,
  });
}

/** Six decimals: a cached layout reads back as it was computed, and is the same on every platform. */
function round(points: number[][]): [number, number][] {
  return points.map((point) => roundPoint(point as [number, number]));
}

function roundPoint([x, y]: readonly [number, number]): [number, number] {
  return [Math.round(x * 1e6) / 1e6, Math.round(y * 1e6) / 1e6];
}

/**
 * A layout of a model-free neighbour graph. Notes with no neighbour at all get null: nothing
 * places them, so the canvas sets them apart instead of scattering them at random. Up to
 * `landmarks` connected notes are laid out by UMAP together; beyond that the best-connected ones
 * are, and the others are placed near their placed neighbours, round by round outwards.
 */
export function layoutSignalGraph(neighbours: readonly (readonly Neighbour[])[], options: LayoutOptions = {}): ([number, number] | null)[] {
  const n = neighbours.length;
  const connected = neighbours.flatMap((row, i) => (row.length > 0 ? [i] : []));
  const limit = options.landmarks ?? LAYOUT_DEFAULTS.landmarks;
  const chosen =
    connected.length <= limit
      ? connected
      : [...connected]
          .sort((a, b) => neighbours[b]!.length - neighbours[a]!.length || a - b)
          .slice(0, limit)
          .sort((a, b) => a - b);
  const local = new Map(chosen.map((node, i) => [node, i]));
  const graph = chosen.map((node) => neighbours[node]!.flatMap((other) => (local.has(other.index) ? [{ index: local.get(other.index)!, distance: other.distance }] : [])));
  const placed = layoutGraph(graph, options);
  const out: ([number, number] | null)[] = new Array<[number, number] | null>(n).fill(null);
  chosen.forEach((node, i) => (out[node] = placed[i]!));
  let waiting = connected.filter((node) => out[node] === null);
  while (waiting.length > 0) {
    const round: [number, [number, number]][] = [];
    for (const node of waiting) {
      const near = neighbours[node]!.flatMap((other) => {
        const point = out[other.index];
        return point ? [{ x: point[0], y: point[1], weight: 1 / other.distance - 1 }] : [];
      });
      const point = placeNear(near);
      if (point) round.push([node, roundPoint(point)]);
    }
    // A component with no landmark in it: lay it beside the rest rather than loop forever.
    if (round.length === 0) round.push([waiting[0]!, [0, 0]]);
    for (const [node, point] of round) out[node] = point;
    waiting = waiting.filter((node) => out[node] === null);
  }
  return out;
}

/**
 * Where a new note goes in an existing layout without recomputing it: the similarity-weighted
 * mean of its nearest placed neighbours (what UMAP's own `transform` starts from), or null when
 * it has none. `weights` are similarities (larger is closer).
 */
export function placeNear(neighbours: readonly { x: number; y: number; weight: number }[]): [number, number] | null {
  let sum = 0;
  let x = 0;
  let y = 0;
  for (const neighbour of neighbours) {
    const weight = Math.max(neighbour.weight, 1e-6);
    sum += weight;
    x += neighbour.x * weight;
    y += neighbour.y * weight;
  }
  return sum === 0 ? null : [x / sum, y / sum];
}
