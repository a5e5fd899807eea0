/**
 * The cosine lane's index: every note and block vector of one model in one contiguous
 * Float32Array, scanned brute force (near memory bandwidth at 10k–50k vectors; an ANN index is
 * a later option for 100k+). Vectors are L2-normalized, so cosine is a dot product. A note
 * scores its best vector, and the hit says which one (the note itself or a block) and where the
 * vector came from.
 */

import { DOT_WASM_BASE64 } from './dot-wasm.js';

export type VectorSource = 'smart-connections' | 'local';

export interface VectorEntry {
  /** Position of the owning note in the search index's document list. */
  doc: number;
  /** '' for the note's own vector, else the block's Smart Connections sub-key. */
  blockKey: string;
  source: VectorSource;
  vector: Float32Array;
}

export interface VectorHit {
  doc: number;
  score: number;
  blockKey: string;
  source: VectorSource;
}

export interface VectorColumns {
  data: Float32Array;
  owners: Int32Array;
  blockKeys: string[];
  sources: VectorSource[];
  /** The SIMD kernel whose memory holds `data`, when the platform has one. */
  kernel: DotKernel | null;
}

/**
 * The WASM SIMD dot-product kernel (src/search/dot.wat): one query against every row in one
 * call, four floats per instruction. Measured at 60k × 384: 14.4 ms for the unrolled JS loop.
 * Its memory holds [vectors | query | scores]; the loader writes vectors straight into it.
 */
export class DotKernel {
  readonly data: Float32Array;
  private readonly query: Float32Array;
  private readonly scores: Float32Array;
  private readonly dots: (data: number, query: number, rows: number, dims: number, out: number) => void;

  private constructor(
    instance: WebAssembly.Instance,
    private readonly dims: number,
    private readonly rows: number,
  ) {
    const memory = instance.exports.memory as WebAssembly.Memory;
    const dataBytes = rows * dims * 4;
    const need = dataBytes + dims * 4 + rows * 4;
    const pages = Math.ceil(need / 65536);
    if (pages > memory.buffer.byteLength / 65536) memory.grow(pages - memory.buffer.byteLength / 65536);
    this.data = new Float32Array(memory.buffer, 0, rows * dims);
    this.query = new Float32Array(memory.buffer, dataBytes, dims);
    this.scores = new Float32Array(memory.buffer, dataBytes + dims * 4, rows);
    this.dots = instance.exports.dots as DotKernel['dots'];
  }

  /** A kernel for up to `rows` vectors of `dims`, or null where WASM SIMD is unavailable. */
  static create(dims: number, rows: number): DotKernel | null {
    if (dims === 0 || dims % 8 !== 0 || rows === 0) return null;
    try {
      DotKernel.module ??= new WebAssembly.Module(Buffer.from(DOT_WASM_BASE64, 'base64'));
      return new DotKernel(new WebAssembly.Instance(DotKernel.module), dims, rows);
    } catch {
      return null; // no SIMD (or no memory): the JS loop serves
    }
  }

  private static module: WebAssembly.Module | undefined;

  /** Scores of the first `rows` vectors against `query` (a view, valid until the next call). */
  score(query: Float32Array, rows: number): Float32Array {
    this.query.set(query);
    this.dots(0, this.data.length * 4, Math.min(rows, this.rows), this.dims, this.data.length * 4 + this.dims * 4);
    return this.scores;
  }
}

export class VectorIndex {
  readonly size: number;
  private readonly data: Float32Array;
  private readonly owners: Int32Array;
  private readonly blockKeys: string[];
  private readonly sources: VectorSource[];

  private readonly best: Float32Array;
  private readonly bestRow: Int32Array;
  private readonly touched: Int32Array;
  private readonly kernel: DotKernel | null;

  /**
   * An index over `rows` vectors held in `columns` (filled in place by a loader, so no object
   * is made per vector). `documents` is how many documents the owners index into.
   */
  constructor(
    readonly dims: number,
    columns: VectorColumns,
    rows: number,
    documents: number,
  ) {
    this.size = rows;
    this.data = columns.data.subarray(0, rows * dims);
    this.owners = columns.owners.subarray(0, rows);
    this.blockKeys = columns.blockKeys;
    this.sources = columns.sources;
    this.best = new Float32Array(documents).fill(-Infinity);
    this.bestRow = new Int32Array(documents);
    this.touched = new Int32Array(documents);
    this.kernel = columns.kernel;
  }

  /** Empty columns for up to `rows` vectors; their `data` lives in the SIMD kernel when there is one. */
  static allocate(dims: number, rows: number): VectorColumns {
    const kernel = DotKernel.create(dims, rows);
    return { data: kernel?.data ?? new Float32Array(rows * dims), owners: new Int32Array(rows), blockKeys: new Array<string>(rows), sources: new Array<VectorSource>(rows), kernel };
  }

  /** An index over a list of entries (tests, small callers). */
  static fromEntries(dims: number, entries: readonly VectorEntry[], documents: number): VectorIndex {
    const columns = VectorIndex.allocate(dims, entries.length);
    entries.forEach((entry, row) => {
      if (entry.vector.length !== dims) throw new Error(`vector of ${entry.vector.length} dims in a ${dims}-dim index`);
      columns.data.set(entry.vector, row * dims);
      columns.owners[row] = entry.doc;
      columns.blockKeys[row] = entry.blockKey;
      columns.sources[row] = entry.source;
    });
    return new VectorIndex(dims, columns, entries.length, documents);
  }

  /** Bytes held for the vectors: the floats, owners, and an estimate for the section keys. */
  memoryBytes(): number {
    let keys = 0;
    for (let row = 0; row < this.size; row++) keys += 16 + this.blockKeys[row]!.length * 2;
    return this.data.byteLength + this.owners.byteLength + keys + this.size * 8;
  }

  /** Whether scans run in the WASM SIMD kernel (else the JS loop). */
  get accelerated(): boolean {
    return this.kernel !== null;
  }

  /** A document's vectors (copies), in storage order. */
  vectorsOf(doc: number): VectorEntry[] {
    const out: VectorEntry[] = [];
    for (let row = 0; row < this.size; row++) {
      if (this.owners[row] !== doc) continue;
      out.push({ doc, blockKey: this.blockKeys[row]!, source: this.sources[row]!, vector: this.data.slice(row * this.dims, (row + 1) * this.dims) });
    }
    return out;
  }

  /** Documents that have at least one vector. */
  coveredDocuments(): Set<number> {
    return new Set(this.owners);
  }

  /**
   * The k notes whose best vector is most similar to `query`, best first; ties by document order.
   * `scope` limits which vectors count: a note's own (`notes`), its sections' (`blocks`), or both.
   */
  nearest(query: Float32Array, k: number, allow?: (doc: number) => boolean, scope: VectorScope = 'all'): VectorHit[] {
    const { dims, data, owners, best, bestRow, touched, blockKeys } = this;
    if (query.length !== dims) throw new Error(`query vector of ${query.length} dims in a ${dims}-dim index`);
    let count = 0;
    const scores = this.kernel?.score(query, this.size) ?? null;
    for (let row = 0; row < this.size; row++) {
      if (scope !== 'all' && (blockKeys[row] === '') !== (scope === 'notes')) continue;
      const doc = owners[row]!;
      const dot = scores !== null ? scores[row]! : dotAt(data, row * dims, query, dims);
      if (best[doc] === -Infinity) touched[count++] = doc;
      if (dot > best[doc]!) {
        best[doc] = dot;
        bestRow[doc] = row;
      }
    }
    // Keep the best k in a small min-heap over typed arrays: sorting every touched note made
    // 10k objects and took a third of a hybrid query at 10k notes.
    const heapDoc = new Int32Array(Math.max(0, k));
    const heapScore = new Float32Array(Math.max(0, k));
    let size = 0;
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      const score = best[doc]!;
      best[doc] = -Infinity;
      if (k <= 0 || (allow && !allow(doc))) continue;
      if (size < k) {
        let at = size++;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!worse(score, doc, heapScore[parent]!, heapDoc[parent]!)) break;
          heapScore[at] = heapScore[parent]!;
          heapDoc[at] = heapDoc[parent]!;
          at = parent;
        }
        heapScore[at] = score;
        heapDoc[at] = doc;
      } else if (worse(heapScore[0]!, heapDoc[0]!, score, doc)) {
        let at = 0;
        for (;;) {
          const left = 2 * at + 1;
          if (left >= size) break;
          const right = left + 1;
          const child = right < size && worse(heapScore[right]!, heapDoc[right]!, heapScore[left]!, heapDoc[left]!) ? right : left;
          if (!worse(heapScore[child]!, heapDoc[child]!, score, doc)) break;
          heapScore[at] = heapScore[child]!;
          heapDoc[at] = heapDoc[child]!;
          at = child;
        }
        heapScore[at] = score;
        heapDoc[at] = doc;
      }
    }
    const hits: VectorHit[] = [];
    for (let i = 0; i < size; i++) {
      const doc = heapDoc[i]!;
      const row = bestRow[doc]!;
      hits.push({ doc, score: heapScore[i]!, blockKey: this.blockKeys[row]!, source: this.sources[row]! });
    }
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return hits;
  }
}

/** Which vectors a semantic search compares: notes' own, their sections', or both. */
export type VectorScope = 'all' | 'notes' | 'blocks';

/** True when (scoreA, docA) ranks below (scoreB, docB): lower score, or equal score and later document. */
function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}

/**
 * Dot product of `query` with the vector at `data[base…]`, for platforms without WASM SIMD
 * and widths the kernel does not take. Unrolled by 8 into four accumulators: measured 12.9 ms
 * against 18.7 ms for the plain loop over 60k × 384 floats.
 */
function dotAt(data: Float32Array, base: number, query: Float32Array, dims: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 8 <= dims; i += 8) {
    a += data[base + i]! * query[i]! + data[base + i + 4]! * query[i + 4]!;
    b += data[base + i + 1]! * query[i + 1]! + data[base + i + 5]! * query[i + 5]!;
    c += data[base + i + 2]! * query[i + 2]! + data[base + i + 6]! * query[i + 6]!;
    d += data[base + i + 3]! * query[i + 3]! + data[base + i + 7]! * query[i + 7]!;
  }
  for (; i < dims; i++) a += data[base + i]! * query[i]!;
  return a + b + c + d;
}
