/**
 * Putting a model into `<modelDir>/<org>/<name>/` so that nothing is ever half-installed: files
 * are staged in a hidden sibling folder, verified there for real (the model loads through the
 * same worker the index uses, its vectors have the model's width, are finite and unit length,
 * pinned sizes and checksums match), and only then swapped in by renames. A copy that fails
 * any check is removed and the model already installed stays as it was.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EngramError } from '../errors.js';
import { archiveKind, readArchive, type ArchiveEntry } from './archive.js';
import { openEmbedder } from './embedder.js';
import { KNOWN_MODELS, MODEL_FILES, REQUIRED_FILES, WEIGHTS } from './model-catalog.js';
import { modelFolder } from './model-files.js';
import type { ModelDtype } from './protocol.js';

export interface ModelFileInfo {
  path: string;
  size: number;
  sha256: string;
}

/** Written next to the files at install: what was verified, so `status` can tell a changed file. */
export interface ModelManifest {
  model: string;
  dims: number;
  dtype: ModelDtype;
  installed_at: string;
  source: string;
  files: ModelFileInfo[];
}

export const MANIFEST = 'engram-model.json';
/** Embedded at every verification: any text would do, a fixed one makes results comparable. */
export const PROBE_SENTENCE = 'Engram checks that this model embeds a sentence.';

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The model files present in a folder, with sizes and checksums. */
export function inventory(folder: string): ModelFileInfo[] {
  return MODEL_FILES.filter((file) => existsSync(join(folder, file))).map((file) => ({ path: file, size: statSync(join(folder, file)).size, sha256: sha256File(join(folder, file)) }));
}

export function readManifest(folder: string): ModelManifest | null {
  try {
    return JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as ModelManifest;
  } catch {
    return null;
  }
}

/** A fresh hidden folder beside the model's own, on the same file system so the swap is a rename. */
export function stagingFolder(model: string, modelDir: string): string {
  const target = modelFolder(model, modelDir);
  const staging = join(dirname(target), `.${basename(target)}.staging-${process.pid}-${randomBytes(3).toString('hex')}`);
  mkdirSync(join(staging, 'onnx'), { recursive: true });
  return staging;
}

export type Verified = { dims: number; dtype: ModelDtype; probe: Float32Array };

/** Loads the staged copy through the real embed worker and embeds the probe sentence; throws why not. */
export async function verifyModelFolder(model: string, folder: string, onLog: (line: string) => void): Promise<Verified> {
  const missing = REQUIRED_FILES.filter((file) => !existsSync(join(folder, file)));
  const dtype: ModelDtype | null = existsSync(join(folder, WEIGHTS.q8)) ? 'q8' : existsSync(join(folder, WEIGHTS.fp32)) ? 'fp32' : null;
  if (missing.length > 0 || dtype === null) {
    throw new EngramError('INVALID_INPUT', `the model files are incomplete: missing ${[...missing, ...(dtype === null ? [`${WEIGHTS.q8} (or ${WEIGHTS.fp32})`] : [])].join(', ')}`);
  }
  const known = KNOWN_MODELS[model];
  for (const [file, pin] of Object.entries(known?.pins ?? {})) {
    if (!existsSync(join(folder, file))) continue;
    const size = statSync(join(folder, file)).size;
    if (size !== pin.size) throw new EngramError('EMBEDDER_FAILED', `${file} is ${size} bytes, ${model}'s is ${pin.size}: a truncated or different file`);
    if (sha256File(join(folder, file)) !== pin.sha256) throw new EngramError('EMBEDDER_FAILED', `${file} does not have ${model}'s sha256 ${pin.sha256}: a corrupted or different file`);
  }
  const opened = await openEmbedder({ model: folder, modelDir: dirname(folder), allowDownload: false, dtype, onLog });
  if (!opened.ok) throw new EngramError('EMBEDDER_FAILED', `the model does not load: ${opened.reason.replace(/^model .*? could not be loaded from \S+: /, '')}`);
  try {
    const [probe] = await opened.embedder.embed([PROBE_SENTENCE]);
    const dims = opened.embedder.dims;
    if (known && dims !== known.dims) throw new EngramError('EMBEDDER_FAILED', `the model makes ${dims}-dimension vectors; ${model} makes ${known.dims}: this is another model`);
    const norm = probe ? Math.hypot(...probe) : 0;
    if (!probe || !probe.every(Number.isFinite) || Math.abs(norm - 1) > 1e-3) throw new EngramError('EMBEDDER_FAILED', 'the model loads but its probe vector is not a finite unit vector');
    return { dims, dtype, probe };
  } finally {
    await opened.embedder.close();
  }
}

/** Copies the model files of a folder (or of its only sub-folder holding them) into `staging`. */
export function stageFromFolder(source: string, staging: string): void {
  const subfolders = existsSync(join(source, 'config.json'))
    ? []
    : readdirSync(source, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(source, entry.name, 'config.json')))
        .map((entry) => join(source, entry.name));
  const root = subfolders.length === 1 ? subfolders[0]! : source;
  for (const file of MODEL_FILES) {
    const from = join(root, file);
    if (!existsSync(from)) continue;
    if (lstatSync(from).isSymbolicLink()) throw new EngramError('INVALID_INPUT', `${from} is a symlink; copy the real file into the folder`);
    copyFileSync(from, join(staging, file));
  }
}

/** Writes the model files of an archive (paths already checked safe) into `staging`. */
export function stageFromArchive(source: string, staging: string): void {
  const kind = archiveKind(source);
  if (kind === null) throw new EngramError('INVALID_INPUT', `${source} is neither a folder nor a .tar.gz, .tgz, .tar or .zip archive`);
  const entries = readArchive(readFileSync(source), kind, basename(source));
  const byPath = new Map<string, ArchiveEntry>(entries.map((entry) => [entry.path, entry]));
  // Archives often wrap the files in one folder: the model's root is where config.json is, at most one level down.
  const configs = entries.map((entry) => entry.path).filter((path) => path === 'config.json' || /^[^/]+\/config\.json$/.test(path));
  const prefix = configs.includes('config.json') || configs.length !== 1 ? '' : `${configs[0]!.split('/')[0]}/`;
  for (const file of MODEL_FILES) {
    const entry = byPath.get(`${prefix}${file}`);
    if (entry) writeFileSync(join(staging, file), entry.data);
  }
}

/**
 * Verifies the staged copy, records its manifest and swaps it in. The staging folder is always
 * gone afterwards; on any failure the installed model is untouched.
 */
export async function commitStaged(model: string, modelDir: string, staging: string, source: string, onLog: (line: string) => void, now = Date.now()): Promise<ModelManifest> {
  try {
    const verified = await verifyModelFolder(model, staging, onLog);
    const manifest: ModelManifest = { model, dims: verified.dims, dtype: verified.dtype, installed_at: new Date(now).toISOString(), source, files: inventory(staging) };
    writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    swapIn(staging, modelFolder(model, modelDir));
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function swapIn(staging: string, target: string): void {
  const previous = existsSync(target) ? `${staging}.previous` : null;
  if (previous) renameSync(target, previous);
  try {
    renameSync(staging, target);
  } catch (error) {
    if (previous) renameSync(previous, target);
    throw new EngramError('EMBEDDER_FAILED', `could not move the verified model into ${target}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (previous) rmSync(previous, { recursive: true, force: true });
}
