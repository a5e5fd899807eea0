/**
 * Downloading a model's files from the Hugging Face Hub (or a mirror with the same URL layout,
 * `<base>/<org>/<name>/resolve/main/<file>`) into a staging folder, with progress and a stall
 * timeout: a connection that sends nothing for `stallMs` is abandoned with a clear message
 * rather than waited on. Verification and the swap are model-install.ts's.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { OPTIONAL_FILES, REQUIRED_FILES, WEIGHTS } from './model-catalog.js';
import type { ModelDtype } from './protocol.js';

export interface PullOptions {
  /** Default https://huggingface.co. */
  baseUrl: string;
  dtype: ModelDtype;
  /** Abandon a file when no bytes arrive for this long (default 30 s). */
  stallMs?: number;
  /** Called as bytes arrive; `total` is null when the server does not say. */
  onProgress?: (file: string, received: number, total: number | null) => void;
}

/** Fetches the files into `staging`; returns the paths fetched. Throws a NETWORK error naming the file. */
export async function downloadModelFiles(model: string, staging: string, options: PullOptions): Promise<string[]> {
  const fetched: string[] = [];
  for (const file of [...REQUIRED_FILES, WEIGHTS[options.dtype], ...OPTIONAL_FILES]) {
    const optional = (OPTIONAL_FILES as readonly string[]).includes(file);
    const got = await downloadFile(`${options.baseUrl.replace(/\/+$/, '')}/${model}/resolve/main/${file}`, join(staging, file), file, optional, options);
    if (got) fetched.push(file);
  }
  return fetched;
}

async function downloadFile(url: string, destination: string, file: string, optional: boolean, options: PullOptions): Promise<boolean> {
  const stallMs = options.stallMs ?? 30_000;
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), stallMs);
  const stalled = () => new EngramError('NETWORK', `downloading ${file} from ${url} stalled: no data for ${Math.round(stallMs / 1000)} s; check the connection, or fetch the files elsewhere and run \`engram model install PATH\``);
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      if (controller.signal.aborted) throw stalled();
      throw new EngramError('NETWORK', `could not reach ${url}: ${describe(error)}; fetch the files elsewhere and run \`engram model install PATH\``);
    }
    if (response.status === 404 && optional) return false;
    if (!response.ok || !response.body) throw new EngramError('NETWORK', `downloading ${file} from ${url} failed: HTTP ${response.status}`);
    const total = Number(response.headers.get('content-length')) || null;
    const out = createWriteStream(destination);
    let received = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), stallMs);
        received += chunk.length;
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        options.onProgress?.(file, received, total);
      }
    } catch (error) {
      if (controller.signal.aborted) throw stalled();
      throw new EngramError('NETWORK', `downloading ${file} from ${url} broke off after ${received} bytes: ${describe(error)}`);
    } finally {
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    }
    if (total !== null && received !== total) throw new EngramError('NETWORK', `downloading ${file} from ${url} ended after ${received} of ${total} bytes`);
    return true;
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}
