/**
 * `readSmartEnv`: what Smart Connections already embedded for the configured model, with an
 * exact freshness flag per vector and a report of everything that was skipped and why.
 *
 * One attempt: snapshot the inputs → settings and model records → replay the source log →
 * keep records whose note exists and is indexed → resolve each pointer of the configured
 * fingerprint (never another model's, never "newest") → hash the note to tell fresh from stale
 * → snapshot again. A changed snapshot means a writer was busy: the attempt is discarded.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { EngramError, systemErrorCode } from '../errors.js';
import { listFolder, listLegacyFiles, listShards, replayLegacy, replayShards, type Replay } from './log.js';
import { modelFingerprint, resolveModelSpec, type ModelSpec } from './model.js';
import { NoteFiles } from './note-files.js';
import { resolveVectors } from './resolve.js';
import { readModelRecords, readSettings } from './settings.js';
import { sameSnapshot, snapshotInputs } from './snapshot.js';

export interface SmartEnvOptions {
  /** The vault's real path. */
  vaultRoot: string;
  /** The configured embedding model, e.g. `TaylorAI/bge-micro-v2`. Only its vectors are returned. */
  modelKey: string;
  /**
   * Smart Connections' data folder, relative to `vaultRoot` (default `.smart-env`). It may be a
   * sub-path (`docs/.smart-env`): the plugin's vault is then the folder holding it, and note
   * paths are prefixed accordingly. Must stay inside the vault.
   */
  dataDir?: string;
  /** Whole re-reads allowed when input files change underneath (default 3, at least 1). */
  maxAttempts?: number;
  /** Vault-relative NFC path → should this note count (default: `*.md` outside dot-folders). */
  isIndexed?: (path: string) => boolean;
  /**
   * The configured model's identity, for a model that neither the vault's `embedding_models`
   * records nor `KNOWN_MODELS` describe. Its fingerprint names the vector files.
   */
  modelSpec?: ModelSpec;
  /** Called once per attempt after the log is replayed, before vectors are read (a seam for tests of concurrent writers). */
  onRecordsRead?: (attempt: number) => void;
}

export interface ScVector {
  /** Vault-relative note path, `/`-separated, NFC. */
  path: string;
  kind: 'source' | 'block';
  /** `''` for a source; the block sub-key (e.g. `#Heading#{1}`) for a block. */
  key: string;
  /** 1-based inclusive block range; null for a source. */
  lines: [number, number] | null;
  /** The pointer's hash equals the record's and the current text's (note, or the block's line slice). */
  fresh: boolean;
  /** A copy, `dims` long. */
  vector: Float32Array;
}

export interface ScReport {
  /** A data folder with a Smart Connections source log (smart-env 3 or 2.x) exists. */
  detected: boolean;
  layout: 'v3' | 'legacy' | null;
  /** The model Smart Connections embeds with now: the default model record's, else the 2.x setting. */
  activeModel: string | null;
  modelMatches: boolean;
  /** Fingerprint of the configured model (`''` when it cannot be computed). */
  fingerprint: string;
  dims: number | null;
  sources: { records: number; withVector: number; fresh: number; stale: number };
  blocks: { withVector: number; fresh: number; stale: number };
  tombstonesApplied: number;
  /** Live records whose note file no longer exists (dropped, as the plugin does). */
  missingOnDisk: number;
  /** Configured-model pointers to a missing file, past its end, or malformed; inline vectors of the wrong length. */
  unresolvablePointers: number;
  /** Attempts the read took (more than 1 when files changed underneath). */
  attempts: number;
  /** Plain, actionable sentences. Never quotes smart_env.json. */
  warnings: string[];
}

export interface SmartEnvRead {
  report: ScReport;
  vectors: ScVector[];
}

export const SMART_ENV_DEFAULTS = {
  dataDir: '.smart-env',
  maxAttempts: 3,
} as const;

/** `*.md` outside dot-folders: what Obsidian, and Engram's walker, treat as notes. */
export function isIndexedByDefault(path: string): boolean {
  return /\.md$/i.test(path) && !path.split('/').some((segment) => segment.startsWith('.'));
}

interface Context {
  options: SmartEnvOptions;
  /** Absolute data folder. */
  dataDir: string;
  /** Note paths in the log are relative to the data folder's parent: this is that parent, vault-relative with a `/`, or ''. */
  prefix: string;
  isIndexed: (path: string) => boolean;
}

export function readSmartEnv(options: SmartEnvOptions): SmartEnvRead {
  const context = prepare(options);
  const attempts = Math.max(1, Math.floor(options.maxAttempts ?? SMART_ENV_DEFAULTS.maxAttempts));
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const before = snapshotInputs(context.dataDir);
    const outcome = readOnce(context, attempt);
    const after = snapshotInputs(context.dataDir);
    // A file caught mid-rename is worth another attempt, but a leftover `.tmp` from a crash
    // must not block the read forever: on the last attempt a steady snapshot is enough.
    if (sameSnapshot(before, after) && (!outcome.unstable || attempt === attempts)) {
      outcome.read.report.attempts = attempt;
      return outcome.read;
    }
  }
  throw new EngramError(
    'SMART_ENV_UNSTABLE',
    `Smart Connections data in ${options.dataDir ?? SMART_ENV_DEFAULTS.dataDir} kept changing while being read (${attempts} attempts); ` + 'wait until Smart Connections has finished embedding, compacting or syncing, then try again',
  );
}

function prepare(options: SmartEnvOptions): Context {
  const relativeDir = (options.dataDir ?? SMART_ENV_DEFAULTS.dataDir).replace(/\\/g, '/');
  const dataDir = resolve(options.vaultRoot, relativeDir);
  const inside = relative(options.vaultRoot, dataDir);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new EngramError('CONFIG_INVALID', `the Smart Connections data folder must be inside the vault: "${relativeDir}" is not; give a path relative to the vault such as .smart-env`);
  }
  const parent = dirname(inside).split(sep).join('/');
  return { options, dataDir, prefix: parent === '.' ? '' : `${parent}/`, isIndexed: options.isIndexed ?? isIndexedByDefault };
}

function readOnce(context: Context, attempt: number): { read: SmartEnvRead; unstable: boolean } {
  const { options, dataDir } = context;
  const warnings: string[] = [];
  const report = emptyReport(warnings);
  try {
    const spec = identifyModel(context, report);
    const sourceNames = listFolder(join(dataDir, 'smart_sources'));
    const shards = listShards(sourceNames);
    const legacyFiles = shards.length === 0 ? listLegacyFiles(listFolder(join(dataDir, 'multi'))) : [];
    if (shards.length === 0 && legacyFiles.length === 0) {
      // Compaction renames shard 0 to `.bak` before moving the new one in: a moment without it.
      return { read: { report, vectors: [] }, unstable: sourceNames.some((name) => /^smart_sources\.ajson\.(tmp|bak)$/.test(name)) };
    }
    report.detected = true;
    report.layout = shards.length > 0 ? 'v3' : 'legacy';
    if (report.layout === 'v3' && !spec) {
      warnings.push(
        `Engram's model "${options.modelKey}" is not described by this vault's Smart Connections model records nor known to Engram, ` +
          'so its vector files cannot be named and no Smart Connections vectors are used; notes will be embedded locally.',
      );
    }
    const replay: Replay = report.layout === 'v3' ? replayShards(join(dataDir, 'smart_sources'), shards, report.fingerprint) : replayLegacy(join(dataDir, 'multi'), legacyFiles, options.modelKey);
    report.tombstonesApplied = replay.tombstonesApplied;
    if (replay.damagedLines > 0) {
      const where = report.layout === 'v3' ? 'the Smart Connections source log' : 'the Smart Connections files under multi/';
      warnings.push(`${replay.damagedLines} line(s) of ${where} could not be read and were skipped (usually a write in progress; if it persists, run Smart Connections once so it rewrites them).`);
    }
    options.onRecordsRead?.(attempt);

    const tally = resolveVectors({ replay, dataDir, prefix: context.prefix, isIndexed: context.isIndexed, notes: new NoteFiles(options.vaultRoot), dims: spec?.dims ?? null });
    report.dims = tally.dims;
    report.sources = tally.sources;
    report.blocks = tally.blocks;
    report.missingOnDisk = tally.missingOnDisk;
    report.unresolvablePointers = tally.unresolvable;
    warnings.push(...tally.warnings);
    if (report.activeModel !== null && !report.modelMatches) warnings.push(mismatchWarning(report, options.modelKey, tally.otherModelsOnly));
    return { read: { report, vectors: tally.vectors }, unstable: tally.unstable };
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === undefined) throw error;
    if (code === 'ENOENT') {
      // A file listed a moment ago vanished: a writer is renaming. This read is normally discarded and done again.
      warnings.push('A Smart Connections file vanished while being read (the plugin was rewriting it); its vectors were not used this time.');
      return { read: { report, vectors: [] }, unstable: true };
    }
    warnings.push(`Smart Connections data in ${options.dataDir ?? SMART_ENV_DEFAULTS.dataDir} cannot be read (${code}); check its permissions. Notes will be embedded locally.`);
    return { read: { report, vectors: [] }, unstable: false };
  }
}

/**
 * Only the model Smart Connections embeds with (the default model record's, else the 2.x
 * setting), without reading any vectors; null when there are no settings.
 */
export function readActiveModel(dataDir: string): { model: string | null; warnings: string[] } {
  const warnings: string[] = [];
  const settings = readSettings(join(dataDir, 'smart_env.json'), warnings);
  const models = readModelRecords(join(dataDir, 'embedding_models', 'embedding_models.ajson'));
  const active = models.records.find((record) => record.key === settings.defaultModelKey);
  return { model: active?.model_key ?? settings.legacyModelKey, warnings };
}

/**
 * The active model (the default model record's, else the 2.x setting) and the configured
 * model's spec and fingerprint, written into `report`.
 */
function identifyModel(context: Context, report: ScReport): ModelSpec | null {
  const { options, dataDir } = context;
  const settings = readSettings(join(dataDir, 'smart_env.json'), report.warnings);
  const models = readModelRecords(join(dataDir, 'embedding_models', 'embedding_models.ajson'));
  const active = models.records.find((record) => record.key === settings.defaultModelKey);
  report.activeModel = active?.model_key ?? settings.legacyModelKey;
  report.modelMatches = report.activeModel === options.modelKey;
  const spec = options.modelSpec ?? resolveModelSpec(options.modelKey, models.records, settings.defaultModelKey);
  report.fingerprint = spec ? modelFingerprint(spec) : '';
  report.dims = spec?.dims ?? null;
  return spec;
}

function mismatchWarning(report: ScReport, modelKey: string, otherModelsOnly: number): string {
  return (
    `Smart Connections embeds with "${report.activeModel}" but Engram is configured for "${modelKey}": only "${modelKey}" vectors are used` +
    `${report.fingerprint ? ` (${report.fingerprint})` : ''}; ${otherModelsOnly} note(s) with vectors from another model only will be embedded locally. ` +
    `Set Engram's model to "${report.activeModel}" or switch Smart Connections back to reuse them.`
  );
}

function emptyReport(warnings: string[]): ScReport {
  return {
    detected: false,
    layout: null,
    activeModel: null,
    modelMatches: false,
    fingerprint: '',
    dims: null,
    sources: { records: 0, withVector: 0, fresh: 0, stale: 0 },
    blocks: { withVector: 0, fresh: 0, stale: 0 },
    tombstonesApplied: 0,
    missingOnDisk: 0,
    unresolvablePointers: 0,
    attempts: 0,
    warnings,
  };
}
