/**
 * The local embedder: a worker thread owns the transformers.js pipeline and the main thread talks
 * to it by messages, so an MCP server stays responsive while a backlog embeds. Batches from
 * concurrent `embed()` calls take turns, so a query waits for at most one batch per other caller,
 * never for a whole backlog. Nothing the worker prints reaches stdout (the MCP protocol channel):
 * its stdout and stderr are piped here and handed to `onLog`.
 */
import { Worker } from 'node:worker_threads';
import { EngramError, type ErrorCode } from '../errors.js';
import { INPUT_DEFAULTS } from './embed-input.js';
import { locateModel, type DtypeChoice } from './model-files.js';
import type { WorkerReply, WorkerRequest, WorkerSettings } from './protocol.js';

export const EMBEDDER_DEFAULTS = {
  /** The model Smart Connections uses by default, so local vectors share its space. */
  model: 'TaylorAI/bge-micro-v2',
  ...INPUT_DEFAULTS,
  /**
   * Texts per model call. Also the most a query waits behind each other caller's batch. 16 ran at
   * 433 texts/s against 460 at 64 on the tiny model (research/libs.md §3).
   */
  batchSize: 16,
} as const;

export interface EmbedderOptions {
  /** A hub id (`org/name`, looked up as `<modelDir>/org/name/`) or an absolute model folder. */
  model: string;
  /** Where models live, and where a download is stored. */
  modelDir: string;
  /** Fetch missing files from the Hugging Face Hub (default off: ENGRAM_OFFLINE and no network). */
  allowDownload: boolean;
  /** Where a download comes from (a mirror with the Hub's URL layout; default https://huggingface.co). */
  remoteHost?: string;
  /** Texts per model call, 1 or more (default 16). */
  batchSize?: number;
  /** Token window, special tokens included (default 512, bge-micro-v2's positions). */
  maxTokens?: number;
  /** Which weights (default `auto`: `onnx/model_quantized.onnx` when present, as the plugin runs, else `onnx/model.onnx`). */
  dtype?: DtypeChoice;
  /** Let transformers.js and onnxruntime log at info level (default false: errors only). */
  verbose?: boolean;
  /**
   * Receives each line the worker's JavaScript printed (default: written to stderr; never to
   * stdout). onnxruntime's native messages bypass it and go straight to stderr (errors only).
   */
  onLog?: (line: string) => void;
}

export interface Embedder {
  readonly model: string;
  readonly dims: number;
  /**
   * One vector per text, in order: mean pooled, L2-normalized, no prefix. Each text goes through
   * the plugin's token-budget trimming and is truncated at `maxTokens` tokens. Rejects if the
   * embedder is closed or the model fails; the vectors of other callers are unaffected.
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Stops the worker; pending and later `embed()` calls reject. Safe to call twice. */
  close(): Promise<void>;
}

export type EmbedderOpen = { ok: true; embedder: Embedder } | { ok: false; reason: string };

const FAILED: ErrorCode = 'EMBEDDER_FAILED';

/** Starts the worker and loads the model. Never throws: an absent or broken model is `{ ok: false, reason }`. */
export async function openEmbedder(options: EmbedderOptions): Promise<EmbedderOpen> {
  const batchSize = options.batchSize ?? EMBEDDER_DEFAULTS.batchSize;
  const maxTokens = options.maxTokens ?? EMBEDDER_DEFAULTS.maxTokens;
  if (!Number.isInteger(batchSize) || batchSize < 1) return { ok: false, reason: `batch size must be a whole number ≥ 1, not ${batchSize}` };
  if (!Number.isInteger(maxTokens) || maxTokens < 3) return { ok: false, reason: `max tokens must be a whole number ≥ 3, not ${maxTokens}` };
  const location = locateModel(options.model, options.modelDir, options.dtype ?? 'auto', { allowDownload: options.allowDownload });
  if (!location.ok) return location;

  const settings: WorkerSettings = {
    model: options.model,
    modelDir: options.modelDir,
    allowDownload: options.allowDownload,
    ...(options.remoteHost ? { remoteHost: options.remoteHost } : {}),
    dtype: location.dtype,
    maxTokens,
    verbose: options.verbose ?? false,
  };
  const onLog = options.onLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  let worker: Worker;
  try {
    worker = startWorker(settings, onLog);
  } catch (error) {
    return { ok: false, reason: `the embed worker could not start: ${firstLine(error)}` };
  }
  const ready = await waitUntilLoaded(worker);
  if (!ready.ok) {
    await worker.terminate();
    const where = location.folder === options.model ? '' : ` ${location.local ? 'from' : 'to'} ${location.folder}`;
    return { ok: false, reason: `model ${options.model} could not be ${location.local ? 'loaded' : 'downloaded'}${where}: ${ready.reason}` };
  }
  return { ok: true, embedder: new WorkerEmbedder(worker, options.model, ready.dims, batchSize) };
}

/**
 * The worker file sits next to this one: `.js` after `tsc`, `.ts` under tsx. Node 20 does not
 * carry tsx's loader hooks into worker threads, so for `.ts` a one-line bootstrap registers tsx
 * inside the worker before importing the source. tsx is a dev dependency: only tests and
 * `npm run engram` take that path.
 */
function startWorker(settings: WorkerSettings, onLog: (line: string) => void): Worker {
  const self = import.meta.url;
  const io = { workerData: settings, stdout: true, stderr: true };
  let worker: Worker;
  if (self.endsWith('.ts')) {
    const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const entry = JSON.stringify(new URL('./embed-worker.ts', self).href);
    worker = new Worker(`import(${tsx}).then((api) => { api.register(); return import(${entry}); });`, { ...io, eval: true });
  } else {
    worker = new Worker(new URL('./embed-worker.js', self), io);
  }
  forwardLines(worker.stdout, onLog);
  forwardLines(worker.stderr, onLog);
  return worker;
}

function forwardLines(stream: NodeJS.ReadableStream, onLog: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLog(line.trimEnd());
  });
  stream.on('end', () => {
    if (pending.trim() !== '') onLog(pending.trimEnd());
    pending = '';
  });
}

type Loaded = { ok: true; dims: number } | { ok: false; reason: string };

function waitUntilLoaded(worker: Worker): Promise<Loaded> {
  return new Promise((resolve) => {
    const done = (result: Loaded) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      resolve(result);
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.kind === 'ready') done({ ok: true, dims: reply.dims });
      else if (reply.kind === 'failed') done({ ok: false, reason: reply.reason });
    };
    const onError = (error: unknown) => done({ ok: false, reason: firstLine(error) });
    const onExit = (code: number) => done({ ok: false, reason: `the embed worker exited with code ${code} while loading` });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

interface Job {
  texts: readonly string[];
  vectors: Float32Array[];
  /** Index of the next text to send. */
  next: number;
  /** Texts embedded so far. */
  done: number;
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/** How long `close` waits for the batch the model is running before ending the worker anyway. */
const CLOSE_WAIT_MS = 10_000;

class WorkerEmbedder implements Embedder {
  /** Jobs with texts left to send, in turn order: a job goes to the back after each batch. */
  private queue: Job[] = [];
  private inFlight: { id: number; job: Job; start: number; count: number } | null = null;
  /** The batch the worker is computing, even after `stop` gave up on its job: `close` lets it finish. */
  private running: { id: number; finished: Promise<void>; finish(): void } | null = null;
  private nextId = 1;
  private stopped: string | null = null;

  constructor(
    private readonly worker: Worker,
    readonly model: string,
    readonly dims: number,
    private readonly batchSize: number,
  ) {
    worker.on('message', (reply: WorkerReply) => this.receive(reply));
    worker.on('error', (error) => {
      this.running?.finish();
      this.stop(`the embed worker failed: ${firstLine(error)}`);
    });
    worker.on('exit', (code) => {
      this.running?.finish();
      this.stop(`the embed worker exited (code ${code})`);
    });
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.stopped !== null) return Promise.reject(new EngramError(FAILED, `cannot embed: ${this.stopped}`));
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      // A copy: batches are cut lazily, so a caller reusing its array cannot change what is embedded.
      this.queue.push({ texts: [...texts], vectors: new Array<Float32Array>(texts.length), next: 0, done: 0, resolve, reject });
      this.pump();
    });
  }

  /**
   * Rejects what is pending, lets the batch the model is running finish (at most `CLOSE_WAIT_MS`),
   * then ends the worker. Ended mid-batch, onnxruntime's native code can throw into a torn-down
   * thread and abort the whole process ("terminate called after throwing an instance of
   * 'Napi::Error'", seen once in CI).
   */
  async close(): Promise<void> {
    this.stop('the embedder is closed');
    const running = this.running;
    if (running !== null) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running.finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
    }
    await this.worker.terminate();
  }

  private pump(): void {
    if (this.inFlight !== null || this.stopped !== null) return;
    const job = this.queue.shift();
    if (!job) return;
    const start = job.next;
    const count = Math.min(this.batchSize, job.texts.length - start);
    job.next += count;
    if (job.next < job.texts.length) this.queue.push(job);
    const id = this.nextId++;
    this.inFlight = { id, job, start, count };
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    this.running = { id, finished, finish };
    const request: WorkerRequest = { kind: 'embed', id, texts: job.texts.slice(start, start + count) };
    this.worker.postMessage(request);
  }

  private receive(reply: WorkerReply): void {
    if ((reply.kind === 'vectors' || reply.kind === 'error') && this.running?.id === reply.id) {
      this.running.finish();
      this.running = null;
    }
    const batch = this.inFlight;
    if (batch === null || (reply.kind !== 'vectors' && reply.kind !== 'error') || reply.id !== batch.id) return;
    this.inFlight = null;
    const { job } = batch;
    if (reply.kind === 'error') {
      this.queue = this.queue.filter((queued) => queued !== job);
      job.reject(new EngramError(FAILED, `embedding failed: ${reply.message}`));
    } else {
      // Copies, not views: each vector owns its buffer, so storing `vector.buffer` stores one vector.
      for (let i = 0; i < batch.count; i++) job.vectors[batch.start + i] = reply.data.slice(i * reply.dims, (i + 1) * reply.dims);
      job.done += batch.count;
      if (job.done === job.texts.length) job.resolve(job.vectors);
    }
    this.pump();
  }

  private stop(reason: string): void {
    if (this.stopped !== null) return;
    this.stopped = reason;
    const pending = new Set([...this.queue, ...(this.inFlight ? [this.inFlight.job] : [])]);
    this.queue = [];
    this.inFlight = null;
    for (const job of pending) job.reject(new EngramError(FAILED, `cannot embed: ${reason}`));
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
