/**
 * The embed worker thread (started by embedder.ts): loads the model once, then answers one
 * message per batch. Its stdout and stderr are pipes read by the main thread, so whatever
 * transformers.js or onnxruntime print here never reaches the process's stdout.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { embedTexts, loadExtractor, type Extractor } from './inference.js';
import type { WorkerReply, WorkerRequest, WorkerSettings } from './protocol.js';

const port = parentPort;
if (port === null) throw new Error('embed-worker runs only as a worker thread; use openEmbedder()');
const settings = workerData as WorkerSettings;
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

async function load(): Promise<Extractor | null> {
  const started = performance.now();
  try {
    const extractor = await loadExtractor(settings);
    // One real batch: the output width is the model's dims, and the session is warm for the first caller.
    const probe = await embedTexts(extractor, ['dims probe'], settings.maxTokens);
    const loadMs = Math.round(performance.now() - started);
    if (settings.verbose) console.info(`engram embed: loaded ${settings.model} (${settings.dtype}, ${probe.dims} dims) in ${loadMs} ms`);
    reply({ kind: 'ready', dims: probe.dims, loadMs });
    return extractor;
  } catch (error) {
    reply({ kind: 'failed', reason: describe(error) });
    return null;
  }
}

const extractor = await load();
if (extractor !== null) {
  // One batch at a time, in arrival order (the main thread also sends one at a time).
  let turn = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    turn = turn.then(async () => {
      try {
        const { data, dims } = await embedTexts(extractor, request.texts, settings.maxTokens);
        reply({ kind: 'vectors', id: request.id, dims, data }, [data.buffer as ArrayBuffer]);
      } catch (error) {
        reply({ kind: 'error', id: request.id, message: describe(error) });
      }
    });
  });
}
