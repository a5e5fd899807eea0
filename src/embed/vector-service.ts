/**
 * Vectors as the commands and the MCP server use them: import Smart Connections' fresh vectors
 * and drain the local embedding backlog after an index run, embed a query, and describe it all
 * for `status`. Settings come in as plain data from the composition roots.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import { isIndexedByDefault, readSmartEnv, type ScReport, type SmartEnvRead } from '../smart-env/index.js';
import { excludedFolderKeys, foldPath } from '../vault/index.js';
import { embedBacklog, importSmartVectors, type BacklogReport } from './backlog.js';
import { openEmbedder, type Embedder } from './embedder.js';
import { queryInput } from './model-catalog.js';
import { forgetOpenFailure, MODEL_REMEDY, modelUnavailable, rememberOpenFailure } from './model-service.js';

/** What the vector functions need to know of the environment. */
export interface VectorSettings {
  model: string;
  modelDir: string;
  offline: boolean;
  exclude: readonly string[];
  /** Engram's home: where a failed download or load is remembered (see model-state.ts). */
  home?: string;
  /** Where a missing model is downloaded from (HF_ENDPOINT); default the Hugging Face Hub. */
  modelBaseUrl?: string;
}

/** Where embedder log lines go (never stdout: that is the MCP channel). */
export interface LogSink {
  err(text: string): void;
}

export interface VectorRefresh {
  smartConnections: ScReport | null;
  imported: number;
  embedder: { available: boolean; reason?: string };
  backlog: BacklogReport | null;
}

export async function openConfiguredEmbedder(env: VectorSettings, io: LogSink): Promise<{ embedder: Embedder } | { reason: string }> {
  const missing = modelUnavailable(env);
  if (missing) return { reason: missing };
  const opened = await openEmbedder({ model: env.model, modelDir: env.modelDir, allowDownload: !env.offline, onLog: (line) => io.err(line), ...(env.modelBaseUrl ? { remoteHost: env.modelBaseUrl } : {}) });
  if (!opened.ok) {
    // Remembered, so the next index run, search refresh or sweep does not wait on the same failure.
    rememberOpenFailure(env, opened.reason);
    return { reason: `${opened.reason}; ${MODEL_REMEDY}` };
  }
  forgetOpenFailure(env);
  return { embedder: opened.embedder };
}

/**
 * Which Smart Connections records are about notes Engram indexes: the walker's rule (markdown
 * outside dot-folders) minus excluded folders, read as the walker reads them. By rule, not by
 * what is in the index, so a record for a deleted note counts as missing on disk rather than
 * silently out of scope.
 */
function notePathRule(env: VectorSettings): (path: string) => boolean {
  const excluded = [...excludedFolderKeys(env.exclude)].map((folder) => `${folder}/`);
  return (path) => isIndexedByDefault(path) && !excluded.some((prefix) => foldPath(path).startsWith(prefix));
}

/**
 * Reads the vault's Smart Connections data (if any) for the configured model. Data the plugin
 * keeps rewriting while we read is skipped for this run, with a warning: Engram carries on with
 * its own vectors rather than fail the index.
 */
export function readSmartConnections(vault: string, env: VectorSettings, isIndexed: (path: string) => boolean = notePathRule(env)): SmartEnvRead {
  try {
    return readSmartEnv({ vaultRoot: vault, modelKey: env.model, isIndexed });
  } catch (error) {
    if (!(error instanceof EngramError && error.code === 'SMART_ENV_UNSTABLE')) throw error;
    const none = { records: 0, withVector: 0, fresh: 0, stale: 0 };
    return {
      vectors: [],
      report: {
        detected: true,
        layout: null,
        activeModel: null,
        modelMatches: false,
        fingerprint: '',
        dims: null,
        sources: none,
        blocks: { withVector: 0, fresh: 0, stale: 0 },
        tombstonesApplied: 0,
        missingOnDisk: 0,
        unresolvablePointers: 0,
        attempts: 0,
        warnings: [`${error.message}; this run used no Smart Connections vectors`],
      },
    };
  }
}

export async function refreshVectors(db: Database.Database, vault: string, env: VectorSettings, io: LogSink, options: { budgetMs?: number; embed: boolean; progress: boolean }): Promise<VectorRefresh> {
  const smart = readSmartConnections(vault, env, notePathRule(env));
  const imported = smart.report.detected ? importSmartVectors(db, env.model, smart.vectors).imported : 0;
  const refresh: VectorRefresh = { smartConnections: smart.report.detected ? smart.report : null, imported, embedder: { available: false }, backlog: null };
  if (!options.embed) {
    refresh.embedder = { available: false, reason: 'embedding was skipped (--no-embed)' };
    return refresh;
  }
  const opened = await openConfiguredEmbedder(env, io);
  if ('reason' in opened) {
    refresh.embedder = { available: false, reason: opened.reason };
    return refresh;
  }
  refresh.embedder = { available: true };
  let last = 0;
  try {
    refresh.backlog = await embedBacklog(db, {
      root: vault,
      embedder: opened.embedder,
      ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
      onProgress: (done, total) => {
        if (!options.progress || total < 50 || (Date.now() - last < 500 && done < total)) return;
        last = Date.now();
        io.err(`embedded ${done}/${total} notes`);
      },
    });
  } finally {
    await opened.embedder.close();
  }
  return refresh;
}

/** The query as a vector of the configured model, or why there is none. */
export async function embedQuery(query: string, env: VectorSettings, io: LogSink): Promise<{ vector: Float32Array } | { reason: string }> {
  const opened = await openConfiguredEmbedder(env, io);
  if ('reason' in opened) return opened;
  try {
    const [vector] = await opened.embedder.embed([queryInput(env.model, query)]);
    return vector ? { vector } : { reason: 'the embedder returned no vector for the query' };
  } finally {
    await opened.embedder.close();
  }
}

export interface VectorStatus {
  model: string;
  dims: number | null;
  query_embedder: { available: boolean; reason?: string };
  smart_connections: {
    detected: boolean;
    layout: 'v3' | 'legacy' | null;
    active_model: string | null;
    model_matches: boolean;
    sources: { records: number; with_vector: number; fresh: number; stale: number };
    blocks: { with_vector: number; fresh: number; stale: number };
    tombstones_applied: number;
    missing_on_disk: number;
    unresolvable_pointers: number;
  };
  local: { notes: number; blocks: number };
  coverage: { notes_with_vector: number; notes_keyword_only: number };
  warnings: string[];
}

/** The `vectors` section of `engram status`: what the plugin has, what is stored, what is missing. */
export function vectorStatus(db: Database.Database, vault: string, env: VectorSettings): VectorStatus {
  const indexed = new Set(db.prepare('SELECT path_key FROM notes').pluck().all() as string[]);
  const { report } = readSmartConnections(vault, env, notePathRule(env));
  const current = `FROM vectors v JOIN notes n ON n.id = v.note_id AND n.hash = v.content_hash WHERE v.model = ? AND length(v.vector) > 0`;
  const count = (sql: string) => db.prepare(sql).pluck().get(env.model) as number;
  const dimsBytes = db.prepare(`SELECT length(v.vector) ${current} LIMIT 1`).pluck().get(env.model) as number | undefined;
  const notes = indexed.size;
  const covered = count(`SELECT count(DISTINCT v.note_id) ${current}`);
  const unavailable = modelUnavailable(env);
  const warnings = [...report.warnings];
  if (unavailable) warnings.push(`queries cannot be embedded: ${unavailable}; search answers by keyword`);
  const uncovered = notes - covered;
  // While the model is missing, `engram index` cannot help: the remedy is installing the model.
  if (uncovered > 0)
    warnings.push(`${uncovered} of ${notes} notes have no ${env.model} vector yet and are found by keyword only; ${unavailable ? 'they are embedded by the first `engram index` after the model is installed' : 'run `engram index`'}`);
  return {
    model: env.model,
    dims: dimsBytes === undefined ? report.dims : dimsBytes / 4,
    query_embedder: unavailable ? { available: false, reason: unavailable } : { available: true },
    smart_connections: {
      detected: report.detected,
      layout: report.layout,
      active_model: report.activeModel,
      model_matches: report.modelMatches,
      sources: { records: report.sources.records, with_vector: report.sources.withVector, fresh: report.sources.fresh, stale: report.sources.stale },
      blocks: { with_vector: report.blocks.withVector, fresh: report.blocks.fresh, stale: report.blocks.stale },
      tombstones_applied: report.tombstonesApplied,
      missing_on_disk: report.missingOnDisk,
      unresolvable_pointers: report.unresolvablePointers,
    },
    local: {
      notes: count(`SELECT count(*) ${current} AND v.source = 'local' AND v.block_key = ''`),
      blocks: count(`SELECT count(*) ${current} AND v.source = 'local' AND v.block_key != ''`),
    },
    coverage: { notes_with_vector: covered, notes_keyword_only: uncovered },
    warnings,
  };
}
