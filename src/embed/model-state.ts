/**
 * The model's remembered failures, in `<home>/model-state.json`: a download that failed is not
 * retried by every `engram index`, search refresh and sweep (each would wait for the same
 * failure) until its back-off has passed; a model whose files failed to load is reported as
 * broken until its files change. `engram model pull` and `engram model install` clear it.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../writes/index.js';
import { MODEL_FILES } from './model-catalog.js';

export interface ModelFailure {
  kind: 'download' | 'load';
  /** ISO time of the last failure. */
  at: string;
  error: string;
  /** Failures in a row. */
  attempts: number;
  /** ISO time before which a download is not tried again. */
  retry_after: string;
  /** For a load failure: the files' sizes and times then; a change means a new copy to try. */
  fingerprint: string;
}

type StateFile = { failures: Record<string, ModelFailure> };

/** First retry after 15 minutes, doubling per failure in a row, at most a day. */
export function backoffMs(attempts: number): number {
  return Math.min(24 * 3600_000, 15 * 60_000 * 2 ** Math.max(0, attempts - 1));
}

const stateFile = (home: string) => join(home, 'model-state.json');
const keyOf = (model: string, modelDir: string) => `${modelDir}|${model}`;

function readState(home: string): StateFile {
  try {
    const parsed = JSON.parse(readFileSync(stateFile(home), 'utf8')) as Partial<StateFile>;
    return { failures: parsed.failures && typeof parsed.failures === 'object' ? parsed.failures : {} };
  } catch {
    // Absent or unreadable: nothing remembered (the worst case is one more attempt).
    return { failures: {} };
  }
}

function writeState(home: string, state: StateFile): void {
  try {
    mkdirSync(home, { recursive: true });
    writeFileAtomic(stateFile(home), Buffer.from(`${JSON.stringify(state, null, 2)}\n`));
  } catch {
    // A read-only home only loses the memory, never the command.
  }
}

/** Sizes and modification times of the model's files: changes when a new copy is put there. */
export function folderFingerprint(folder: string): string {
  return MODEL_FILES.map((file) => {
    try {
      const stat = statSync(join(folder, file));
      return `${file}:${stat.size}:${Math.round(stat.mtimeMs)}`;
    } catch {
      return `${file}:-`;
    }
  }).join(',');
}

export function rememberFailure(home: string, model: string, modelDir: string, failure: { kind: ModelFailure['kind']; error: string; fingerprint: string }, now = Date.now()): ModelFailure {
  const state = readState(home);
  const previous = state.failures[keyOf(model, modelDir)];
  const attempts = previous && previous.kind === failure.kind ? previous.attempts + 1 : 1;
  const entry: ModelFailure = { ...failure, at: new Date(now).toISOString(), attempts, retry_after: new Date(now + backoffMs(attempts)).toISOString() };
  state.failures[keyOf(model, modelDir)] = entry;
  writeState(home, state);
  return entry;
}

export function forgetFailure(home: string, model: string, modelDir: string): void {
  const state = readState(home);
  if (!state.failures[keyOf(model, modelDir)]) return;
  delete state.failures[keyOf(model, modelDir)];
  writeState(home, state);
}

/** The failure still in force: a download within its back-off, a load while the files are unchanged. */
export function activeFailure(home: string, model: string, modelDir: string, folder: string, now = Date.now()): ModelFailure | null {
  const failure = readState(home).failures[keyOf(model, modelDir)];
  if (!failure) return null;
  if (failure.kind === 'load') return failure.fingerprint === folderFingerprint(folder) ? failure : null;
  return now < Date.parse(failure.retry_after) ? failure : null;
}
