/**
 * Source records, reduced at parse time to what the reader needs: the content hash, the pointer
 * (or inline vector) for the configured model, and each block's range, hash and vector. Full
 * snapshots are dropped line by line, so a log holding a note's history 28 times over costs one
 * slim record in memory. Pure functions over parsed JSON.
 */
import { isObject } from './model.js';

/** Where a vector lives, before it is resolved. `hash` is the content hash it was computed from. */
export type VectorOrigin = { kind: 'pointer'; file: unknown; row: unknown; hash: string | null } | { kind: 'inline'; values: Float32Array | null; hash: string | null };

/** `murmur`: the plugin's murmur of the text; `sha256`: 2.x `create_hash`; `inherit`: fresh when its source is. */
export type HashKind = 'murmur' | 'sha256' | 'inherit';

export interface BlockRecord {
  /** Sub-key below the source: `#Heading#{1}`, `#---frontmatter---`, … */
  key: string;
  lines: [number, number] | null;
  readHash: string | null;
  hashKind: HashKind;
  vector: VectorOrigin | null;
}

export interface SourceRecord {
  /** The item key as written: the vault-relative path in its original spelling. */
  item: string;
  readHash: string | null;
  hashKind: HashKind;
  vector: VectorOrigin | null;
  blocks: BlockRecord[];
  /** Vectors exist for another model but none for the configured one (source or blocks). */
  otherModelsOnly: boolean;
}

/** A smart-env 3 record (`smart_sources.ajson`). `fingerprint` selects the pointers. */
export function sourceFromV3(item: string, value: Record<string, unknown>, fingerprint: string): SourceRecord {
  const own = pointerFor(value.embedding, fingerprint);
  let other = own.other;
  let any = own.pointer !== null;
  const blocks = new Map<string, BlockRecord>();
  const blocksData = isObject(value.blocks_data) ? value.blocks_data : {};
  for (const [ref, data] of Object.entries(blocksData)) {
    const key = subKeyOf(item, ref);
    // A legacy full-key entry loses to the canonical sub-key entry, as in the plugin's loader.
    if (key === null || data === null || data === undefined || (key !== ref && Object.hasOwn(blocksData, key))) continue;
    if (Array.isArray(data)) {
      blocks.set(key, { key, lines: toLines(data), readHash: null, hashKind: 'murmur', vector: null });
      continue;
    }
    if (!isObject(data)) continue;
    const found = pointerFor(data.embedding, fingerprint);
    other ||= found.other;
    any ||= found.pointer !== null;
    blocks.set(key, { key, lines: toLines(data.lines), readHash: lastReadHash(data), hashKind: 'murmur', vector: found.pointer });
  }
  return { item, readHash: lastReadHash(value), hashKind: 'murmur', vector: own.pointer, blocks: inDocumentOrder([...blocks.values()]), otherModelsOnly: other && !any };
}

/**
 * A 2.x record from `multi/`: the source line (with its `blocks` map of sub-key → lines) plus
 * the block lines, which carry inline vectors keyed by model name. Blocks are attached through
 * the source's map, never by cutting a block key at `#` (headings and paths may contain `#`).
 */
export function sourceFromLegacy(item: string, value: Record<string, unknown>, blockValues: ReadonlyMap<string, unknown>, modelKey: string): SourceRecord {
  const readHash = stringAt(value, 'last_read', 'hash') ?? stringOf(value.last_read_hash) ?? stringOf(value.hash);
  const hashKind: HashKind = readHash !== null && /^[0-9a-f]{64}$/.test(readHash) ? 'sha256' : 'murmur';
  const own = inlineFor(value, modelKey, hashKind === 'sha256' ? (stringOf(value.hash) ?? readHash) : null);
  let other = own.other;
  let any = own.vector !== null;
  const blocks: BlockRecord[] = [];
  const map = isObject(value.blocks) ? value.blocks : {};
  for (const [ref, range] of Object.entries(map)) {
    const key = subKeyOf(item, ref);
    if (key === null) continue;
    const data = blockValues.get(`${item}${key}`);
    const block = isObject(data) ? data : {};
    const found = inlineFor(block, modelKey, null);
    other ||= found.other;
    any ||= found.vector !== null;
    blocks.push({
      key,
      lines: toLines(range) ?? toLines(block.lines),
      // 2.x-early block hashes are sha256 of an input we could not rebuild (not the line slice, trimmed or
      // not, nor with breadcrumbs; checked on the plugin author's demo vault): the block is as fresh as its note.
      readHash: hashKind === 'sha256' ? null : stringAt(block, 'last_read', 'hash'),
      hashKind: hashKind === 'sha256' ? 'inherit' : 'murmur',
      vector: found.vector,
    });
  }
  return { item, readHash, hashKind, vector: own.vector, blocks: inDocumentOrder(blocks), otherModelsOnly: other && !any };
}

/**
 * The pointer stored for `fingerprint`, reading both shapes: the current map (fingerprint →
 * ref) and the pre-migration one (`default` is itself a ref, older refs in `history`), which
 * the plugin migrates on load keyed by `model_fingerprint || file`, newest `at` per key.
 */
function pointerFor(embedding: unknown, fingerprint: string): { pointer: VectorOrigin | null; other: boolean } {
  if (!isObject(embedding) || !isObject(embedding.default)) return { pointer: null, other: false };
  let refs: Record<string, unknown> = embedding.default;
  if (typeof refs.file === 'string') {
    const migrated: Record<string, Record<string, unknown>> = {};
    for (const old of Array.isArray(embedding.history) ? embedding.history : []) {
      if (!isObject(old) || typeof old.file !== 'string' || (old.type ?? 'default') !== 'default') continue;
      const fp = stringOf(old.model_fingerprint) ?? old.file;
      const current = migrated[fp];
      if (!current || Number(old.at ?? 0) >= Number(current.at ?? 0)) migrated[fp] = old;
    }
    migrated[stringOf(refs.model_fingerprint) ?? refs.file] = refs;
    refs = migrated;
  }
  const ref = refs[fingerprint];
  const other = Object.keys(refs).some((fp) => fp !== fingerprint && isObject(refs[fp]));
  if (!isObject(ref)) return { pointer: null, other };
  return { pointer: { kind: 'pointer', file: ref.file, row: ref.file_i, hash: stringOf(ref.read_hash) }, other };
}

/** A 2.x inline vector for `modelKey` and the hash it was embedded from. */
function inlineFor(value: Record<string, unknown>, modelKey: string, fallbackHash: string | null): { vector: VectorOrigin | null; other: boolean } {
  const embeddings = isObject(value.embeddings) ? value.embeddings : {};
  const other = Object.keys(embeddings).some((key) => key !== modelKey && isObject(embeddings[key]) && Array.isArray(embeddings[key].vec));
  const entry = embeddings[modelKey];
  if (!isObject(entry) || !Array.isArray(entry.vec)) return { vector: null, other };
  const hash = stringAt(entry, 'last_embed', 'hash') ?? stringAt(value, 'last_embed', 'hash') ?? fallbackHash;
  return { vector: { kind: 'inline', values: toFloat32(entry.vec), hash }, other };
}

/** By first line, an enclosing block before the blocks inside it; blocks without a range last. */
function inDocumentOrder(blocks: BlockRecord[]): BlockRecord[] {
  const start = (block: BlockRecord) => block.lines?.[0] ?? Number.MAX_SAFE_INTEGER;
  const end = (block: BlockRecord) => block.lines?.[1] ?? 0;
  return blocks.sort((a, b) => start(a) - start(b) || end(b) - end(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The sub-key of a `blocks_data` entry, which may be written as a sub-key or as a full block key. */
function subKeyOf(item: string, ref: string): string | null {
  if (ref.startsWith('#')) return ref;
  if (ref.startsWith(`${item}#`)) return ref.slice(item.length);
  return null;
}

function toLines(value: unknown): [number, number] | null {
  if (!Array.isArray(value) || value.length < 2) return null;
  const [start, end] = value as unknown[];
  if (!Number.isInteger(start) || !Number.isInteger(end)) return null;
  const s = start as number;
  const e = end as number;
  return s >= 1 && e >= s ? [s, e] : null;
}

function toFloat32(values: unknown[]): Float32Array | null {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    out[i] = v;
  }
  return values.length > 0 ? out : null;
}

function lastReadHash(value: Record<string, unknown>): string | null {
  return stringAt(value, 'last_read', 'hash');
}

function stringAt(value: Record<string, unknown>, field: string, sub: string): string | null {
  const inner = value[field];
  return isObject(inner) ? stringOf(inner[sub]) : null;
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
