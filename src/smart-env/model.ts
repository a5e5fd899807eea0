/**
 * Model identity. Smart Connections names each vector file after a fingerprint of the model that
 * wrote it (`mf_ccarbz` = TaylorAI/bge-micro-v2, 384 dims, 512 tokens), and every record keeps one
 * pointer per fingerprint. Vectors are picked by the configured model's fingerprint, never by
 * "newest": a real vault carried newer pointers to a model whose file was absent.
 */
import { murmurHash32Alphanumeric } from './murmur.js';

export interface ModelSpec {
  /** `transformers`, `openai`, … as in the plugin's `embedding_models` records. */
  provider_key: string;
  model_key: string;
  dims: number;
  max_tokens: number;
  /** Only for catalogue models that declare one (bge-micro-v2 does not). */
  embedding_space_id?: string;
}

/**
 * `mf_` + murmur of the plugin's fingerprint key, field order and fallbacks exactly as in
 * smart-env's `get_model_fingerprint_key` (`dimensions: dims || ''`, `max_tokens: Number(… || 0)`).
 */
export function modelFingerprint(model: ModelSpec): string {
  const key: Record<string, string | number> = {
    provider_key: model.provider_key || '',
    model_key: model.model_key || '',
    dimensions: model.dims || '',
    max_tokens: Number(model.max_tokens || 0),
  };
  if (model.embedding_space_id) key.embedding_space_id = model.embedding_space_id;
  return `mf_${murmurHash32Alphanumeric(JSON.stringify(key))}`;
}

/**
 * The plugin's local (transformers) catalogue as copied into a real vault's model record
 * (smart-env 3.1). Used when the vault's own `embedding_models` records do not describe the
 * configured model. Fingerprints checked against real pointers: bge-micro-v2 → mf_ccarbz,
 * multilingual-e5-small → mf_7gwptj.
 */
export const KNOWN_MODELS: readonly ModelSpec[] = [
  { provider_key: 'transformers', model_key: 'TaylorAI/bge-micro-v2', dims: 384, max_tokens: 512 },
  { provider_key: 'transformers', model_key: 'Xenova/multilingual-e5-small', dims: 384, max_tokens: 512, embedding_space_id: 'Xenova/multilingual-e5-small/retrieval-v1' },
  { provider_key: 'transformers', model_key: 'Snowflake/snowflake-arctic-embed-xs', dims: 384, max_tokens: 512, embedding_space_id: 'Snowflake/snowflake-arctic-embed-xs/retrieval-v1' },
  {
    provider_key: 'transformers',
    model_key: 'Snowflake/snowflake-arctic-embed-s',
    dims: 384,
    max_tokens: 512,
    embedding_space_id: 'Snowflake/snowflake-arctic-embed-s/e596f507467533e48a2e17c007f0e1dacc837b33/cls-normalized-query-instruction-v1',
  },
  {
    provider_key: 'transformers',
    model_key: 'onnx-community/granite-embedding-97m-multilingual-r2-ONNX',
    dims: 384,
    max_tokens: 512,
    embedding_space_id: 'onnx-community/granite-embedding-97m-multilingual-r2-ONNX/536a9f241cb3f02a9c5995a1e708c784bd274859/cls-normalized-v1',
  },
  {
    provider_key: 'transformers',
    model_key: 'onnx-community/DenseOn-ONNX',
    dims: 768,
    max_tokens: 512,
    embedding_space_id: 'onnx-community/DenseOn-ONNX/8606070c911ab26c582ce23db387abd3885541f2/cls-normalized-query-document-v1',
  },
];

/** One record of `embedding_models/embedding_models.ajson`, reduced to what identity needs. */
export interface ModelRecord {
  key: string;
  provider_key: string;
  model_key: string;
  dims: number;
  max_tokens: number;
  created_at: number;
  /** The space id the record itself carries for its model, if any (newer records copy the catalogue). */
  embedding_space_id: string | null;
}

/** Reads the few identity fields of a model record; null when it is not one. */
export function toModelRecord(key: string, value: unknown): ModelRecord | null {
  if (!isObject(value)) return null;
  const modelKey = stringField(value, 'model_key');
  if (!modelKey) return null;
  const catalogue = isObject(value.models) ? value.models[modelKey] : undefined;
  const space = spaceIdOf(value) ?? (isObject(catalogue) ? spaceIdOf(catalogue) : null);
  return {
    key,
    provider_key: stringField(value, 'provider_key') ?? stringField(value, 'adapter') ?? '',
    model_key: modelKey,
    dims: numberField(value, 'dims') ?? numberField(value, 'dimensions') ?? 0,
    max_tokens: numberField(value, 'max_tokens') ?? 0,
    created_at: numberField(value, 'created_at') ?? 0,
    embedding_space_id: space,
  };
}

/**
 * The configured model's spec: from the vault's own model records when one names it (the
 * default record first, then the newest), else from `KNOWN_MODELS`; null when neither knows it.
 */
export function resolveModelSpec(modelKey: string, records: readonly ModelRecord[], defaultKey: string | null): ModelSpec | null {
  const matching = records.filter((record) => record.model_key === modelKey && record.dims > 0);
  const known = KNOWN_MODELS.find((model) => model.model_key === modelKey);
  const chosen = matching.find((record) => record.key === defaultKey) ?? [...matching].sort((a, b) => b.created_at - a.created_at)[0];
  if (!chosen) return known ? { ...known } : null;
  const space = chosen.embedding_space_id ?? known?.embedding_space_id;
  return {
    provider_key: chosen.provider_key,
    model_key: chosen.model_key,
    dims: chosen.dims,
    max_tokens: chosen.max_tokens,
    ...(space ? { embedding_space_id: space } : {}),
  };
}

function spaceIdOf(value: Record<string, unknown>): string | null {
  const profile = value.semantic_profile;
  if (!isObject(profile)) return null;
  const id = profile.embedding_space_id;
  return typeof id === 'string' && id !== '' ? id : null;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(value: Record<string, unknown>, name: string): string | null {
  const field = value[name];
  return typeof field === 'string' && field !== '' ? field : null;
}

function numberField(value: Record<string, unknown>, name: string): number | null {
  const field = Number(value[name]);
  return Number.isFinite(field) && field > 0 ? field : null;
}
