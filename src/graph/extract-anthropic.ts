/**
 * The `anthropic` extractor: one Messages API call per note through `@anthropic-ai/sdk`, with the
 * model forced to call the `record_extraction` tool whose input schema is the extraction. The SDK
 * retries 408/409/429/5xx/529 and timeouts with exponential backoff (honouring `retry-after`);
 * what still fails becomes an `ExtractorError` that says whether to retry later or fix the setup.
 * A reply that is not a usable tool call yields an empty extraction with `dropped`, never a throw.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { APIError } from '@anthropic-ai/sdk';
import type { ExtractionInput, ExtractionUsage } from './model.js';
import { EXTRACTION_SCHEMA, EXTRACTION_TOOL, ExtractorError, checkFitsNote, PROMPT_VERSION, buildExtractionPrompt, checkReply, redactSecrets, tokensOf, type CheckedExtraction, type CheckedExtractor } from './prompt.js';

export const ANTHROPIC_DEFAULTS = {
  /** The public endpoint. Always passed to the SDK, so it never falls back to a base URL from the environment. */
  baseURL: 'https://api.anthropic.com',
  /** Retries after the first attempt, on 408/409/429/5xx/529 and timeouts (SDK backoff 0.5 s doubling to 8 s, or `retry-after`). */
  maxRetries: 3,
  /** Per attempt, in ms. A note's extraction is one short call; minutes mean something is stuck. */
  timeoutMs: 60_000,
  /** Output cap. 4096 fits every current model, Haiku 3 included, and about 40 entities and 60 relations with quotes. */
  maxTokens: 4096,
  /**
   * USD per million tokens, used to estimate cost when the caller gives no prices: Claude Haiku
   * 4.5's list price when this was written ($1 in, $5 out). An estimate, not a bill: cache
   * discounts, batch pricing and later price changes are not modelled.
   */
  pricing: { inputPerMTok: 1, outputPerMTok: 5 },
} as const;

export interface AnthropicExtractorOptions {
  /** The API key, sent as `Authorization: Bearer`. Required and non-empty: the SDK's own credential lookup is never used. */
  apiKey: string;
  /** API root (default `https://api.anthropic.com`); tests point it at a loopback fake. */
  baseURL?: string;
  /** Model id, e.g. `claude-haiku-4-5`. Part of the extraction's identity: changing it re-extracts notes. */
  model: string;
  /** Retries after the first attempt, 0 or more (default 3). */
  maxRetries?: number;
  /** Per-attempt timeout in ms, above 0 (default 60000). With retries, a call can take about (maxRetries + 1) × this. */
  timeoutMs?: number;
  /** Output token cap per call (default 4096). */
  maxTokens?: number;
  /** Prices in USD per million tokens for the cost estimate (default Haiku-class: 1 in, 5 out). */
  pricing?: { inputPerMTok: number; outputPerMTok: number };
}

type AnthropicSdk = typeof import('@anthropic-ai/sdk');
let sdk: Promise<AnthropicSdk> | null = null;

/**
 * The SDK, loaded on first use: it is ~270 modules (about 16 MB of a process's memory), and the
 * daemon and servers that only ever run the structural extractor must not carry it.
 */
export function anthropicSdk(): Promise<AnthropicSdk> {
  sdk ??= import('@anthropic-ai/sdk');
  return sdk;
}

export function createAnthropicExtractor(options: AnthropicExtractorOptions): CheckedExtractor {
  if (options.apiKey.trim() === '') {
    throw new ExtractorError('anthropic', 'the anthropic extractor has no API key; set one (ANTHROPIC_API_KEY) or choose the claude-cli or structural backend', {
      kind: 'environment',
      remedy: 'the anthropic extractor has no API key; set ANTHROPIC_API_KEY',
    });
  }
  const maxRetries = options.maxRetries ?? ANTHROPIC_DEFAULTS.maxRetries;
  const timeoutMs = options.timeoutMs ?? ANTHROPIC_DEFAULTS.timeoutMs;
  const pricing = options.pricing ?? ANTHROPIC_DEFAULTS.pricing;
  let client: Anthropic | null = null;
  return {
    backend: 'anthropic',
    model: options.model,
    promptVersion: PROMPT_VERSION,
    async extract(input: ExtractionInput): Promise<CheckedExtraction> {
      const { system, user } = buildExtractionPrompt(input, { reply: 'tool' });
      const loaded = await anthropicSdk();
      client ??= new loaded.default({
        apiKey: options.apiKey,
        baseURL: options.baseURL ?? ANTHROPIC_DEFAULTS.baseURL,
        maxRetries,
        timeout: timeoutMs,
        // Progress goes through the caller's hooks; the SDK must not print on stdout (the MCP channel).
        logLevel: 'off',
      });
      let message: Anthropic.Message;
      try {
        message = await client.messages.create({
          model: options.model,
          max_tokens: options.maxTokens ?? ANTHROPIC_DEFAULTS.maxTokens,
          system,
          messages: [{ role: 'user', content: user }],
          tools: [{ name: EXTRACTION_TOOL, description: 'Record the entities and relations found in the note.', input_schema: EXTRACTION_SCHEMA }],
          tool_choice: { type: 'tool', name: EXTRACTION_TOOL },
        });
      } catch (error) {
        throw describeFailure(error, loaded, input.path, { maxRetries, timeoutMs, model: options.model });
      }
      return checkFitsNote(readReply(message, pricing), input);
    },
  };
}

function readReply(message: Anthropic.Message, pricing: { inputPerMTok: number; outputPerMTok: number }): CheckedExtraction {
  const usage = usageOf(message.usage, pricing);
  const call = (Array.isArray(message.content) ? message.content : []).find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use' && block.name === EXTRACTION_TOOL);
  if (!call) return checkReply(undefined, usage, `the model did not call ${EXTRACTION_TOOL} (stop_reason ${String(message.stop_reason)})`);
  const checked = checkReply(call.input, usage);
  // A reply cut at max_tokens is still checked item by item, but say why it may be short.
  if (message.stop_reason === 'max_tokens' && checked.warning === undefined) checked.warning = 'the reply hit max_tokens and may be incomplete';
  return checked;
}

/** Tokens from the reply and a cost estimate. Cached input tokens are billed as input here (an upper bound). */
export function usageOf(raw: Partial<Anthropic.Usage> | undefined, pricing: { inputPerMTok: number; outputPerMTok: number }): ExtractionUsage {
  const { inputTokens, outputTokens } = tokensOf(raw);
  const costUsd = (inputTokens * pricing.inputPerMTok + outputTokens * pricing.outputPerMTok) / 1_000_000;
  return { inputTokens, outputTokens, costUsd };
}

const RETRY_LATER = 'This is transient: the note stays pending; retry later (or lower the extraction concurrency).';

/** Turns whatever the SDK threw into an `ExtractorError`: the fact, the remedy, and its kind (note, transient, environment). */
function describeFailure(error: unknown, { APIConnectionTimeoutError, APIConnectionError, APIError }: AnthropicSdk, path: string, limits: { maxRetries: number; timeoutMs: number; model: string }): ExtractorError {
  const head = `anthropic extraction of "${path}" failed`;
  const attempts = `${limits.maxRetries + 1} attempt${limits.maxRetries === 0 ? '' : 's'}`;
  if (error instanceof APIConnectionTimeoutError) {
    return new ExtractorError('anthropic', `${head}: timed out after ${limits.timeoutMs} ms per attempt (${attempts}). ${RETRY_LATER}`, { kind: 'transient', cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ExtractorError('anthropic', `${head}: could not reach the API (${redactSecrets(error.message)}) after ${attempts}. ${RETRY_LATER} Check the network or baseURL if it persists.`, { kind: 'transient', cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = apiErrorDetail(error);
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      const what = status === 429 ? 'rate limited' : status === 529 ? 'the API is overloaded' : 'the API failed';
      return new ExtractorError('anthropic', `${head}: ${what} (HTTP ${status}${detail}) after ${attempts}. ${RETRY_LATER}`, { kind: 'transient', status, cause: error });
    }
    const remedy = environmentRemedy(status, detail, limits.model);
    if (remedy !== undefined) {
      return new ExtractorError('anthropic', `${head}: the API refused the request (HTTP ${status}${detail}): ${remedy}. Extraction is paused until this is fixed; no note is charged.`, { kind: 'environment', remedy, status, cause: error });
    }
    return new ExtractorError('anthropic', `${head}: the API refused this note's request (HTTP ${status}${detail}). The note is tried again on the next runs, then left for a human.`, { kind: 'note', status, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ExtractorError('anthropic', `${head}: ${redactSecrets(message.split('\n')[0] ?? '')}. The note is tried again on the next runs, then left for a human.`, { kind: 'note', cause: error });
}

/**
 * The account or the setup, not the note: a bad or revoked key (401), a key without permission
 * (403), no credit (402, or a 400 that says so), a model this account cannot use (404). Every
 * note would fail the same way, so these stop the run.
 */
export function environmentRemedy(status: number, detail: string, model: string): string | undefined {
  if (status === 401) return 'the Anthropic API key is invalid or revoked; set a valid ANTHROPIC_API_KEY';
  if (status === 402 || /credit balance|billing|purchase credits/i.test(detail)) return "the Anthropic account has no credit; check the account's billing or choose ENGRAM_EXTRACTOR=structural";
  if (status === 403) return "the Anthropic API key is not allowed to do this; check the key's permissions and workspace";
  if (status === 404) {
    return /model/i.test(detail) ? `the model "${model}" is not available to this account; set ENGRAM_EXTRACT_MODEL to one it can use` : `the API answered 404 not found; check ENGRAM_EXTRACT_MODEL ("${model}") and ANTHROPIC_BASE_URL`;
  }
  return undefined;
}

/** ` invalid_request_error: model: foo not found`, from the error body, short and secrets-free. */
function apiErrorDetail(error: APIError): string {
  const body = error.error as { error?: { type?: unknown; message?: unknown } } | undefined;
  const type = typeof body?.error?.type === 'string' ? body.error.type : '';
  const message = typeof body?.error?.message === 'string' ? body.error.message.slice(0, 200) : '';
  const text = [type, message].filter((part) => part !== '').join(': ');
  return text === '' ? '' : ` ${redactSecrets(text)}`;
}
