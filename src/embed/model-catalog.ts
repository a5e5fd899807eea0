/**
 * The models Engram knows by name: their vector width and the files a feature-extraction
 * pipeline reads. Checksums are pinned only where they were taken from the published files;
 * none are yet (they cannot be computed without network access, and an invented pin would
 * refuse good files), so `engram model pull` records the sha256 of what it fetched instead.
 */
import type { ModelDtype } from './protocol.js';

export interface PinnedFile {
  size: number;
  sha256: string;
}

export interface KnownModel {
  dims: number;
  /** What the model is, for `engram model status`. */
  about: string;
  /** sha256 and size per file path, where known. */
  pins: Record<string, PinnedFile>;
  /**
   * Prepended to a search query before it is embedded, for models trained with one (E5: "query: ").
   * Notes are embedded without a prefix, exactly as Smart Connections embeds them, so both
   * sources' vectors stay in one space; the query prefix only moves the query, as the model expects.
   */
  queryPrefix?: string;
}

export const KNOWN_MODELS: Record<string, KnownModel> = {
  'TaylorAI/bge-micro-v2': { dims: 384, about: "Smart Connections' default (English)", pins: {} },
  'Xenova/multilingual-e5-small': { dims: 384, about: "Smart Connections' multilingual choice", pins: {}, queryPrefix: 'query: ' },
};

/** What transformers.js reads for a BERT feature-extraction model (it fails without any of them). */
export const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
/** Read when present; a model without them still loads. */
export const OPTIONAL_FILES = ['special_tokens_map.json'] as const;
export const WEIGHTS: Record<ModelDtype, string> = { fp32: 'onnx/model.onnx', q8: 'onnx/model_quantized.onnx' };

/** Every file a model folder may hold that Engram copies, checks and lists. */
export const MODEL_FILES: readonly string[] = [...REQUIRED_FILES, ...OPTIONAL_FILES, WEIGHTS.q8, WEIGHTS.fp32];

/** A search query as the model wants it embedded: with its query prefix, when it has one. */
export function queryInput(model: string, query: string): string {
  return (KNOWN_MODELS[model]?.queryPrefix ?? '') + query;
}
