/**
 * What every command needs from its environment, resolved once by `main.ts` (the only CLI
 * module that reads the process environment) and passed down as plain data.
 */
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { numberValue, shownArg } from './command.js';
import { FUSION_DEFAULTS, type FusionOptions } from '../search/index.js';
import { openVaultSession, type VaultSession } from '../session/index.js';
import { excludedFolder } from '../vault/index.js';

export interface CliEnv {
  vault: string | undefined;
  home: string;
  exclude: string[];
  /** The embedding model (ENGRAM_EMBED_MODEL); must be the vault's Smart Connections model for reuse. */
  model: string;
  /** Where model files live (ENGRAM_MODEL_DIR). */
  modelDir: string;
  /** ENGRAM_FUSION_K and ENGRAM_FUSION_WEIGHTS (`keyword=1,semantic=0.5`): how hybrid search fuses its lanes. */
  fusion: FusionOptions;
  /** ENGRAM_OFFLINE=1 forbids downloading a missing model. */
  offline: boolean;
  /** HF_ENDPOINT, the Hugging Face convention for a mirror: where a missing model is downloaded from (default https://huggingface.co). */
  modelBaseUrl: string;
  /** ENGRAM_HTTP_TOKEN: the bearer token `engram serve --http` requires, when set. */
  httpToken: string | undefined;
  /** ENGRAM_HTTP_MAX_SESSIONS: most MCP sessions an HTTP server keeps (default 64; a new one evicts the idlest). */
  httpMaxSessions: number | undefined;
  /** ENGRAM_AGENT_ROOT: the agent-territory folder (default `Claude`). */
  agentRoot: string;
  /** ENGRAM_EXTRACTOR: anthropic, claude-cli, structural, none, or auto. */
  extractor: string;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  /** ENGRAM_EXTRACT_MODEL. */
  extractModel: string;
  /** ENGRAM_CONSOLIDATE_MODEL: adjudicates merge candidates (Anthropic API); unset, a human does. */
  consolidateModel: string | undefined;
  /** ENGRAM_ORGANIZE_ROOT=1: the organizer may also file loose notes at the vault root. */
  organizeRoot: boolean;
  /** ENGRAM_SWEEP_MAX_NOTES / ENGRAM_SWEEP_MAX_COST: extraction budget per sweep. */
  sweepMaxNotes: number | undefined;
  sweepMaxCostUsd: number | undefined;
  /** ENGRAM_SWEEP_MAX_TOKENS: input + output tokens per sweep's extraction. */
  sweepMaxTokens: number | undefined;
  /** ENGRAM_GOLDEN: a golden query file the Librarian's health phase scores each sweep. */
  golden: string | undefined;
  /** ENGRAM_DEVICE: this device's name in the caretaker lease (default the host name). */
  device: string;
  /** ENGRAM_SCHEDULE_BACKLOG / ENGRAM_SCHEDULE_SWEEP (cron expressions) and ENGRAM_TIMEZONE for the daemon. */
  scheduleBacklog: string;
  scheduleSweep: string;
  timezone: string | undefined;
  /** The user's home (HOME) and Claude Code's folder (CLAUDE_CONFIG_DIR, default ~/.claude). */
  userHome: string;
  claudeDir: string;
  /** Claude Code's user configuration (`~/.claude.json`, or `.claude.json` in CLAUDE_CONFIG_DIR). */
  claudeConfig: string;
  /** PATH, to find the `claude` and `engram` executables. */
  path: string;
  /** ENGRAM_PLUGIN_BASE_URL: where plugin releases are downloaded from (default https://github.com). */
  pluginBaseUrl: string;
  /** The environment as given, for child processes that must see it whole (`claude mcp add`). */
  processEnv: NodeJS.ProcessEnv;
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress may redraw in place). */
  errIsTty: boolean;
}

/** Reads Engram's variables from an environment object. */
export function readCliEnv(env: NodeJS.ProcessEnv): CliEnv {
  return {
    vault: env.ENGRAM_VAULT || undefined,
    home: env.ENGRAM_HOME || join(homedir(), '.engram'),
    exclude: excludeVariable(env.ENGRAM_EXCLUDE),
    model: env.ENGRAM_EMBED_MODEL || 'TaylorAI/bge-micro-v2',
    modelDir: env.ENGRAM_MODEL_DIR || join(homedir(), '.cache', 'engram', 'models'),
    fusion: fusionOptions(env.ENGRAM_FUSION_K || undefined, env.ENGRAM_FUSION_WEIGHTS || undefined),
    offline: env.ENGRAM_OFFLINE === '1' || env.ENGRAM_OFFLINE === 'true',
    modelBaseUrl: env.HF_ENDPOINT || 'https://huggingface.co',
    httpToken: env.ENGRAM_HTTP_TOKEN || undefined,
    httpMaxSessions: wholeNumber(env.ENGRAM_HTTP_MAX_SESSIONS || undefined, 'ENGRAM_HTTP_MAX_SESSIONS'),
    agentRoot: (env.ENGRAM_AGENT_ROOT || 'Claude').replace(/^\/+|\/+$/g, ''),
    extractor: (env.ENGRAM_EXTRACTOR || 'auto').toLowerCase(),
    anthropicApiKey: env.ANTHROPIC_API_KEY || undefined,
    anthropicBaseUrl: env.ANTHROPIC_BASE_URL || undefined,
    extractModel: env.ENGRAM_EXTRACT_MODEL || 'claude-haiku-4-5',
    consolidateModel: env.ENGRAM_CONSOLIDATE_MODEL || undefined,
    organizeRoot: env.ENGRAM_ORGANIZE_ROOT === '1' || env.ENGRAM_ORGANIZE_ROOT === 'true',
    sweepMaxNotes: positiveNumber(env.ENGRAM_SWEEP_MAX_NOTES || undefined, 'ENGRAM_SWEEP_MAX_NOTES'),
    sweepMaxCostUsd: positiveNumber(env.ENGRAM_SWEEP_MAX_COST || undefined, 'ENGRAM_SWEEP_MAX_COST'),
    sweepMaxTokens: positiveNumber(env.ENGRAM_SWEEP_MAX_TOKENS || undefined, 'ENGRAM_SWEEP_MAX_TOKENS'),
    golden: env.ENGRAM_GOLDEN || undefined,
    device: (env.ENGRAM_DEVICE || hostname()).trim(),
    scheduleBacklog: env.ENGRAM_SCHEDULE_BACKLOG || '*/15 * * * *',
    scheduleSweep: env.ENGRAM_SCHEDULE_SWEEP || '30 3 * * *',
    timezone: env.ENGRAM_TIMEZONE || undefined,
    userHome: env.HOME || homedir(),
    claudeDir: env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'),
    claudeConfig: env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, '.claude.json') : join(env.HOME || homedir(), '.claude.json'),
    path: env.PATH ?? '',
    pluginBaseUrl: env.ENGRAM_PLUGIN_BASE_URL || 'https://github.com',
    processEnv: env,
  };
}

/**
 * ENGRAM_EXCLUDE: comma-separated vault-relative folders, each read as the walker reads it
 * (`./Archive/` is `Archive`). Unset, empty or only commas: none. An item that names no folder
 * inside the vault (`/`, `..`, a drive path) is bad usage: it would leave nothing out.
 */
function excludeVariable(raw: string | undefined): string[] {
  const items = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.map((item) => {
    const read = excludedFolder(item);
    if ('problem' in read) throw new UsageError(`ENGRAM_EXCLUDE has ${shownArg(item)}, which ${read.problem}: give vault-relative folders, comma-separated, such as ENGRAM_EXCLUDE=Archive,Work/Old`);
    return read.folder;
  });
}

/** An option or variable that must be a positive number; undefined when not given (an empty variable: pass undefined). */
export function positiveNumber(raw: unknown, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = numberValue(String(raw));
  if (!(value > 0)) throw new UsageError(`${name} must be a positive number, not ${shownArg(String(raw))}`);
  return value;
}

/**
 * RRF's k and the lanes' weights: `ENGRAM_FUSION_WEIGHTS=keyword=1,semantic=0.5` (either lane,
 * each a number ≥ 0; the one not named keeps 1). The defaults (k 60, weights 1) are what the dev
 * sets were measured with; change them only with eval numbers.
 */
export function fusionOptions(k: string | undefined, weights: string | undefined): FusionOptions {
  const fused: FusionOptions = { k: positiveNumber(k, 'ENGRAM_FUSION_K') ?? FUSION_DEFAULTS.k, weights: { ...FUSION_DEFAULTS.weights } };
  for (const part of (weights ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')) {
    const match = /^(keyword|semantic)\s*[=:]\s*(\S+)$/.exec(part);
    const value = match ? Number(match[2]) : NaN;
    if (!match || !(value >= 0)) throw new UsageError(`ENGRAM_FUSION_WEIGHTS must look like keyword=1,semantic=0.5 (lanes keyword and semantic, weights ≥ 0), not ${shownArg(weights ?? '')}`);
    fused.weights[match[1]!] = value;
  }
  if (fused.weights.keyword === 0 && fused.weights.semantic === 0) throw new UsageError('ENGRAM_FUSION_WEIGHTS gives both lanes weight 0; give at least one a positive weight');
  return fused;
}

/** An option or variable that must be a whole number ≥ 1; undefined when not given. */
export function wholeNumber(raw: unknown, name: string): number | undefined {
  const value = positiveNumber(raw, name);
  if (value !== undefined && !Number.isInteger(value)) throw new UsageError(`${name} must be a whole number, not ${shownArg(String(raw))}`);
  return value;
}

/** Resolves `--vault` (or ENGRAM_VAULT), checks it, and opens a session on it with the environment's defaults. */
export function openSession(flag: string | undefined, env: CliEnv): VaultSession {
  const given = flag ?? env.vault;
  if (given === undefined || given === '') {
    throw new UsageError('no vault given: pass --vault PATH or set ENGRAM_VAULT to your vault folder');
  }
  return openVaultSession({ vault: given, home: env.home, exclude: env.exclude, model: env.model, agentRoot: env.agentRoot, fusion: env.fusion });
}

/** `--http PORT` as a port number, or null when absent; anything else is bad usage. */
export function httpPort(raw: unknown): number | null {
  if (raw === undefined) return null;
  const port = numberValue(String(raw));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http needs a port number such as 8765, not ${shownArg(String(raw))}`);
  return port;
}

/** The `engram index` a user would run, for a server to start in a child process (null: none). */
export function indexChild(vault: string, skip: boolean): { command: string; args: string[] } | null {
  const entry = process.argv[1];
  return skip || !entry ? null : { command: process.execPath, args: [...process.execArgv, entry, 'index', '--vault', vault, '--quiet'] };
}
