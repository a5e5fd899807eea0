/**
 * Synthetic Smart Connections data, written by each test next to its notes: AJSON log lines in
 * the plugin's exact shape, `mf_*` float32 files, model records and settings. Hashes are the
 * plugin's murmur of the note text, so a fixture is fresh until the test edits a note.
 */
import { murmurHash32Alphanumeric } from '../../src/smart-env/index.js';
import type { FixtureVault } from '../helpers/vault.js';

export const BGE = 'TaylorAI/bge-micro-v2';
export const BGE_FP = 'mf_ccarbz';
export const E5 = 'Xenova/multilingual-e5-small';
export const E5_FP = 'mf_7gwptj';
export const DIMS = 384;

/** A deterministic unit vector; different seeds give clearly different vectors. */
export function unitVector(seed: number, dims = DIMS): Float32Array {
  const out = new Float32Array(dims);
  let state = (seed * 2654435761) >>> 0 || 1;
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    out[i] = state / 2 ** 32 - 0.5;
    norm += out[i]! * out[i]!;
  }
  for (let i = 0; i < dims; i++) out[i]! /= Math.sqrt(norm);
  return out;
}

/** Unit vectors for the given seeds (one per row). */
export function rows(...seeds: number[]): Float32Array[] {
  return seeds.map((seed) => unitVector(seed));
}

/** Rows as a headerless little-endian float32 file. */
export function mfBytes(rows: readonly Float32Array[]): Buffer {
  const out = Buffer.alloc(rows.reduce((sum, row) => sum + row.length * 4, 0));
  let offset = 0;
  for (const row of rows) for (const value of row) offset = out.writeFloatLE(value, offset);
  return out;
}

/** One log line as the plugin writes it: `"<key>": <json>,`. */
export function line(key: string, value: unknown): string {
  return `${JSON.stringify(key)}: ${JSON.stringify(value)},`;
}

/** Lines joined the plugin's way: `\n` between, none at the end. */
export function log(lines: readonly string[]): string {
  return lines.join('\n');
}

export const hash = murmurHash32Alphanumeric;

export function ref(fileI: number, readHash: string, at = 1_786_000_000_000, file = BGE_FP): Record<string, unknown> {
  return { file, file_i: fileI, read_hash: readHash, at };
}

export function sliceOf(text: string, [start, end]: [number, number]): string {
  return text
    .split('\n')
    .slice(start - 1, end)
    .join('\n');
}

export interface BlockSpec {
  key: string;
  lines: [number, number];
  /** Row in `smart_blocks/mf_ccarbz`; omit for a block without a vector. */
  row?: number;
  /** Extra refs for other fingerprints, e.g. `{ mf_7gwptj: ref(...) }`. */
  refs?: Record<string, unknown>;
}

export interface SourceSpec {
  /** Row in `smart_sources/mf_ccarbz`; omit for a source without a vector. */
  row?: number;
  blocks?: BlockSpec[];
  refs?: Record<string, unknown>;
  /** Override the hash stored as `last_read.hash` (default: murmur of `text`). */
  readHash?: string;
}

/** A smart-env 3 source record for a note whose text is `text`. */
export function sourceRecord(path: string, text: string, spec: SourceSpec = {}): Record<string, unknown> {
  const readHash = spec.readHash ?? hash(text);
  const blocksData: Record<string, unknown> = {};
  for (const block of spec.blocks ?? []) {
    const blockHash = hash(sliceOf(text, block.lines));
    const refs = { ...(block.row === undefined ? {} : { [BGE_FP]: ref(block.row, blockHash) }), ...block.refs };
    blocksData[block.key] = {
      text: null,
      length: 0,
      last_read: { hash: blockHash, at: 1 },
      key: `${path}${block.key}`,
      lines: block.lines,
      size: sliceOf(text, block.lines).length,
      should_embed: Object.keys(refs).length > 0,
      ...(Object.keys(refs).length > 0 ? { embedding: { history: [], default: refs } } : {}),
    };
  }
  const refs = { ...(spec.row === undefined ? {} : { [BGE_FP]: ref(spec.row, readHash) }), ...spec.refs };
  return {
    class_name: 'SmartSource',
    last_read: { hash: readHash, at: 1 },
    embedding: Object.keys(refs).length > 0 ? { history: [], default: refs } : { history: [] },
    path,
    last_import: { mtime: 1, size: Buffer.byteLength(text), at: 1, hash: readHash },
    blocks_data: blocksData,
  };
}

export function modelRecord(key: string, modelKey: string, extra: Record<string, unknown> = {}): string {
  return line(`embedding_models:${key}`, { provider_key: 'transformers', model_key: modelKey, dims: 384, max_tokens: 512, class_name: 'EmbeddingModel', created_at: 1, key, ...extra });
}

export function settings(defaultModelKey: string | null, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    is_obsidian_vault: true,
    smart_blocks: { embed_blocks: true, min_chars: 200 },
    smart_sources: { min_chars: 200, embed_model: { adapter: 'transformers', transformers: { model_key: BGE } } },
    ...(defaultModelKey ? { embedding_models: { default_model_key: defaultModelKey } } : {}),
    ...extra,
  });
}

export interface SmartEnvFiles {
  /** Log lines of `smart_sources/smart_sources.ajson`. */
  lines: string[];
  sourceRows?: Float32Array[];
  blockRows?: Float32Array[];
  /** Active model (default bge-micro-v2); null writes no settings file. */
  active?: string | null;
  dataDir?: string;
}

/** Writes `.smart-env/` with settings, one model record, the log and both mf files. */
export function writeSmartEnv(vault: FixtureVault, files: SmartEnvFiles): void {
  const dir = files.dataDir ?? '.smart-env';
  const active = files.active === undefined ? BGE : files.active;
  if (active !== null) {
    vault.write(`${dir}/smart_env.json`, settings('transformers#1'));
    vault.write(`${dir}/embedding_models/embedding_models.ajson`, modelRecord('transformers#1', active));
  }
  vault.write(`${dir}/smart_sources/smart_sources.ajson`, log(files.lines));
  if (files.sourceRows) vault.write(`${dir}/smart_sources/${BGE_FP}`, mfBytes(files.sourceRows));
  if (files.blockRows) vault.write(`${dir}/smart_blocks/${BGE_FP}`, mfBytes(files.blockRows));
}

/** The note used by most tests: frontmatter, two headings, four blocks. */
export const NOTE = ['---', 'tags: [demo]', '---', '# Alpha', 'First paragraph of alpha.', '', '## Beta', 'Beta text line one.', 'Beta text line two.'].join('\n');
export const NOTE_BLOCKS: BlockSpec[] = [
  { key: '#---frontmatter---', lines: [1, 3] },
  { key: '#Alpha', lines: [4, 9] },
  { key: '#Alpha#{1}', lines: [5, 6], row: 0 },
  { key: '#Alpha#Beta', lines: [7, 9], row: 1 },
];

export function same(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
