/**
 * The cosine lane's index: every note and block vector of one model in one contiguous
 * Float32Array, scanned brute force (near memory bandwidth at 10k–50k vectors; an ANN index is
 * a later option for 100k+). Vectors are L2-normalized, so cosine is a dot product. A note
 * scores its best vector, and the hit says which one (the note itself or a block) and where the
 * vector came from.
 */

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

export class VectorIndex {
  readonly size: number;
  private readonly data: Float32Array;
  private readonly owners: Int32Array;
  private readonly blockKeys: string[];
  private readonly sources: VectorSource[];
  private readonly best: Float32Array;
  private readonly bestRow: Int32Array;
  private readonly touched: Int32Array;

  /** @param documents how many documents the owners index into. */
  constructor(readonly dims: number, entries: readonly VectorEntry[], documents: number) {
    this.size = entries.length;
    this.data = new Float32Array(entries.length * dims);
    this.owners = new Int32Array(entries.length);
    this.blockKeys = new Array<string>(entries.length);
    this.sources = new Array<VectorSource>(entries.length);
    entries.forEach((entry, row) => {
      if (entry.vector.length !== dims) throw new Error(`vector of ${entry.vector.length} dims in a ${dims}-dim index`);
      this.data.set(entry.vector, row * dims);
      this.owners[row] = entry.doc;
      this.blockKeys[row] = entry.blockKey;
      this.sources[row] = entry.source;
    });
    this.best = new Float32Array(documents).fill(-Infinity);
    this.bestRow = new Int32Array(documents);
    this.touched = new Int32Array(documents);
  }

  /** Documents that have at least one vector. */
  coveredDocuments(): Set<number> {
    return new Set(this.owners);
  }

  /** The k notes whose best vector is most similar to `query`, best first; ties by document order. */
  nearest(query: Float32Array, k: number, allow?: (doc: number) => boolean): VectorHit[] {
    const { dims, data, owners, best, bestRow, touched } = this;
    if (query.length !== dims) throw new Error(`query vector of ${query.length} dims in a ${dims}-dim index`);
    let count = 0;
    for (let row = 0; row < this.size; row++) {
      const doc = owners[row]!;
      let dot = 0;
      const base = row * dims;
      for (let i = 0; i < dims; i++) dot += data[base + i]! * query[i]!;
      if (best[doc] === -Infinity) touched[count++] = doc;
      if (dot > best[doc]!) {
        best[doc] = dot;
        bestRow[doc] = row;
      }
    }
    const hits: VectorHit[] = [];
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      if (!allow || allow(doc)) {
        const row = bestRow[doc]!;
        hits.push({ doc, score: best[doc]!, blockKey: this.blockKeys[row]!, source: this.sources[row]! });
      }
      best[doc] = -Infinity;
    }
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return hits.slice(0, k);
  }
}
