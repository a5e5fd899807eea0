/**
 * `engram model`'s work: what is installed and whether it loads, fetching it, and installing a
 * copy the user brought — each ending in the same verified, atomic swap, and each clearing the
 * remembered failure so the next index run tries the model again.
 */
import { lstatSync, rmSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { EngramError, systemErrorCode } from '../errors.js';
import { KNOWN_MODELS, REQUIRED_FILES, WEIGHTS } from './model-catalog.js';
import { locateModel, modelFolder } from './model-files.js';
import { commitStaged, inventory, readManifest, stageFromArchive, stageFromFolder, stagingFolder, verifyModelFolder, type ModelManifest } from './model-install.js';
import { downloadModelFiles } from './model-pull.js';
import { activeFailure, forgetFailure, folderFingerprint, rememberFailure, type ModelFailure } from './model-state.js';
import type { ModelDtype } from './protocol.js';

export interface ModelSettings {
  model: string;
  modelDir: string;
  offline: boolean;
  /** Engram's home, where failures are remembered; without it nothing is. */
  home?: string;
  /** Where `pull` downloads from (default https://huggingface.co). */
  modelBaseUrl?: string;
}

/** The one remedy every "unavailable" message ends with. */
export const MODEL_REMEDY = 'run `engram model pull`, or `engram model install PATH` with the files fetched elsewhere';

export interface ModelStatus {
  model: string;
  known: { dims: number; about: string } | null;
  folder: string;
  installed: boolean;
  files: { path: string; size: number; sha256: string; recorded: 'matches' | 'differs' | 'not recorded' }[];
  missing: string[];
  manifest: { installed_at: string; source: string; dims: number } | null;
  loads: { ok: true; dims: number; dtype: ModelDtype } | { ok: false; reason: string } | null;
  failure: ModelFailure | null;
}

/** What is on disk for the configured model; with `load`, whether it really loads (about a second). */
export async function modelStatus(settings: ModelSettings, options: { load: boolean; onLog: (line: string) => void }): Promise<ModelStatus> {
  const folder = modelFolder(settings.model, settings.modelDir);
  const manifest = readManifest(folder);
  const recorded = new Map((manifest?.files ?? []).map((file) => [file.path, file.sha256]));
  const files = inventory(folder).map((file) => ({ ...file, recorded: !recorded.has(file.path) ? ('not recorded' as const) : recorded.get(file.path) === file.sha256 ? ('matches' as const) : ('differs' as const) }));
  const present = new Set(files.map((file) => file.path));
  const missing = [...REQUIRED_FILES.filter((file) => !present.has(file)), ...(present.has(WEIGHTS.q8) || present.has(WEIGHTS.fp32) ? [] : [WEIGHTS.q8])];
  const installed = missing.length === 0;
  let loads: ModelStatus['loads'] = null;
  if (options.load && installed) {
    try {
      const verified = await verifyModelFolder(settings.model, folder, options.onLog);
      loads = { ok: true, dims: verified.dims, dtype: verified.dtype };
    } catch (error) {
      loads = { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  const known = KNOWN_MODELS[settings.model];
  return {
    model: settings.model,
    known: known ? { dims: known.dims, about: known.about } : null,
    folder,
    installed,
    files,
    missing,
    manifest: manifest ? { installed_at: manifest.installed_at, source: manifest.source, dims: manifest.dims } : null,
    loads,
    failure: settings.home ? activeFailure(settings.home, settings.model, settings.modelDir, folder) : null,
  };
}

function hubId(settings: ModelSettings): string {
  if (isAbsolute(settings.model)) throw new EngramError('CONFIG_INVALID', `ENGRAM_EMBED_MODEL is a folder (${settings.model}); engram model installs hub ids (org/name) into ENGRAM_MODEL_DIR — use that folder as it is, or set a hub id`);
  return settings.model;
}

/** Installs from a folder or an archive the user fetched; returns what was installed. */
export async function installModel(settings: ModelSettings, source: string, onLog: (line: string) => void): Promise<ModelManifest> {
  const model = hubId(settings);
  const path = resolve(source);
  let isFolder: boolean;
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) throw new EngramError('INVALID_INPUT', `${path} is a symlink; pass the folder or archive it points to`);
    isFolder = stat.isDirectory();
  } catch (error) {
    if (error instanceof EngramError) throw error;
    throw new EngramError('INVALID_INPUT', systemErrorCode(error) === 'ENOENT' ? `${path} does not exist` : `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const staging = stagingFolder(model, settings.modelDir);
  try {
    if (isFolder) stageFromFolder(path, staging);
    else stageFromArchive(path, staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (error instanceof EngramError) throw error;
    throw new EngramError('INVALID_INPUT', `cannot read the model files in ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const manifest = await commitStaged(model, settings.modelDir, staging, path, onLog).catch((error: unknown) => {
    throw error instanceof EngramError ? new EngramError(error.code, `${path} was not installed (the model in place is unchanged): ${error.message}`) : error;
  });
  if (settings.home) forgetFailure(settings.home, model, settings.modelDir);
  return manifest;
}

/** Downloads, verifies and installs; a failed download is remembered so index runs do not wait on it. */
export async function pullModel(settings: ModelSettings, options: { dtype: ModelDtype; stallMs?: number; onProgress?: (file: string, received: number, total: number | null) => void; onLog: (line: string) => void }): Promise<ModelManifest> {
  const model = hubId(settings);
  if (settings.offline) throw new EngramError('CONFIG_INVALID', 'downloads are off (ENGRAM_OFFLINE=1): unset it to pull, or run `engram model install PATH` with the files fetched elsewhere');
  const baseUrl = settings.modelBaseUrl ?? 'https://huggingface.co';
  const staging = stagingFolder(model, settings.modelDir);
  try {
    await downloadModelFiles(model, staging, { baseUrl, dtype: options.dtype, ...(options.stallMs ? { stallMs: options.stallMs } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (settings.home) rememberFailure(settings.home, model, settings.modelDir, { kind: 'download', error: error instanceof Error ? error.message : String(error), fingerprint: '' });
    throw error;
  }
  const manifest = await commitStaged(model, settings.modelDir, staging, `${baseUrl}/${model}`, options.onLog).catch((error: unknown) => {
    throw error instanceof EngramError ? new EngramError(error.code, `the downloaded ${model} was not installed (the model in place is unchanged): ${error.message}`) : error;
  });
  if (settings.home) forgetFailure(settings.home, model, settings.modelDir);
  return manifest;
}

/**
 * Why the configured model cannot be used, or null when it can — checked without loading it:
 * absent with downloads off, a download that failed within its back-off, or files that failed
 * to load and have not changed since.
 */
export function modelUnavailable(env: ModelSettings): string | null {
  const location = locateModel(env.model, env.modelDir, 'auto', { allowDownload: !env.offline });
  const folder = modelFolder(env.model, env.modelDir);
  const failure = env.home ? activeFailure(env.home, env.model, env.modelDir, folder) : null;
  if (location.ok && location.local) {
    return failure?.kind === 'load' ? `model ${env.model} in ${folder} failed to load (${failure.error}); ${MODEL_REMEDY}` : null;
  }
  if (!location.ok) {
    const where = isAbsolute(env.model) ? `the folder ${folder}` : env.modelDir;
    return `model ${env.model} is not in ${where}${env.offline ? ' and downloads are off (ENGRAM_OFFLINE=1)' : ''}; ${MODEL_REMEDY}`;
  }
  if (failure?.kind === 'download') return `model ${env.model} could not be downloaded at ${failure.at} (${failure.error}); not retried before ${failure.retry_after}; ${MODEL_REMEDY}`;
  return null;
}

/** Remembers how opening the model failed: a download (absent files) or a load (files present). */
export function rememberOpenFailure(env: ModelSettings, reason: string): void {
  if (!env.home) return;
  const folder = modelFolder(env.model, env.modelDir);
  const local = locateModel(env.model, env.modelDir, 'auto', { allowDownload: false }).ok;
  rememberFailure(env.home, env.model, env.modelDir, { kind: local ? 'load' : 'download', error: reason, fingerprint: local ? folderFingerprint(folder) : '' });
}

export function forgetOpenFailure(env: ModelSettings): void {
  if (env.home) forgetFailure(env.home, env.model, env.modelDir);
}
