/**
 * The model itself, through `@huggingface/transformers`: loading a feature-extraction pipeline
 * from a local folder, and turning texts into mean-pooled, L2-normalized vectors with no prefix
 * (what Smart Connections does for bge-micro-v2). Runs inside the embed worker; nothing here
 * knows about threads.
 */
import { env, LogLevel, mean_pooling, pipeline, type Tensor } from '@huggingface/transformers';
import { trimToTokenBudget } from './embed-input.js';
import type { ModelDtype } from './protocol.js';

export interface LoadSettings {
  model: string;
  modelDir: string;
  allowDownload: boolean;
  remoteHost?: string;
  dtype: ModelDtype;
  verbose: boolean;
}

export type Extractor = Awaited<ReturnType<typeof loadExtractor>>;

/**
 * Loads the pipeline through transformers.js's own loading path. `env` is per thread, so setting
 * it here configures only this worker. Local files are looked up as `<modelDir>/<org>/<name>/…`
 * (or in the folder itself when `model` is an absolute path); a download, when allowed, is cached
 * in the same layout, so the next offline start finds it.
 */
export async function loadExtractor(settings: LoadSettings) {
  env.allowLocalModels = true;
  env.allowRemoteModels = settings.allowDownload;
  env.localModelPath = settings.modelDir;
  env.cacheDir = settings.modelDir;
  if (settings.remoteHost) env.remoteHost = `${settings.remoteHost.replace(/\/+$/, '')}/`;
  // transformers.js logs onnxruntime's warnings with console.log; keep only errors unless asked.
  env.logLevel = settings.verbose ? LogLevel.INFO : LogLevel.ERROR;
  return pipeline('feature-extraction', settings.model, {
    dtype: settings.dtype,
    device: 'cpu',
    local_files_only: !settings.allowDownload,
  });
}

/** Tokens as the model sees them, [CLS] and [SEP] included (the plugin counts the same way). */
export function tokenCounter(extractor: Extractor): (text: string) => number {
  return (text) => extractor.tokenizer.encode(text).length;
}

/**
 * Embeds one batch: the plugin's token-budget trimming, then tokenization truncated at
 * `maxTokens`. The explicit `max_length` matters: the pipeline's own call truncates against the
 * tokenizer's `model_max_length`, which is 1e30 for bge-micro-v2, so an over-long text would
 * reach the model uncut and fail on its 512 positions (DESIGN §10).
 */
export async function embedTexts(extractor: Extractor, texts: readonly string[], maxTokens: number): Promise<{ data: Float32Array; dims: number }> {
  const count = tokenCounter(extractor);
  const inputs = texts.map((text) => trimToTokenBudget(text, count, maxTokens));
  const encoded = extractor.tokenizer(inputs, { padding: true, truncation: true, max_length: maxTokens });
  const output = (await extractor.model(encoded)) as Record<string, Tensor | undefined>;
  const hidden = output.last_hidden_state ?? output.logits ?? output.token_embeddings;
  if (!hidden) throw new Error(`the model returned no hidden states (outputs: ${Object.keys(output).join(', ')})`);
  const pooled = mean_pooling(hidden, encoded.attention_mask as Tensor).normalize(2, -1);
  const dims = pooled.dims[1];
  if (dims === undefined || !(pooled.data instanceof Float32Array)) throw new Error(`unexpected pooled output: dims [${pooled.dims.join(', ')}], ${pooled.type}`);
  return { data: pooled.data, dims };
}
