/**
 * The `claude-cli` extractor: runs Claude Code headless (`claude -p --output-format json`) once per
 * note, so a user with a Claude subscription needs no API key. The prompt goes in on stdin, the
 * system prompt replaces Claude Code's own, and every tool is switched off (`--tools ""`): the
 * note text is untrusted and must not reach an agent that can run commands or write files. The
 * CLI prints one JSON envelope whose `result` is the model's text; the extraction is the JSON
 * object in that text.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { ExtractionInput, ExtractionUsage } from './model.js';
import { ExtractorError, PROMPT_VERSION, checkFitsNote, buildExtractionPrompt, countOf, tokensOf, checkReply, redactSecrets, type CheckedExtraction, type CheckedExtractor } from './prompt.js';

export const CLAUDE_CLI_DEFAULTS = {
  command: 'claude',
  /** Per note, in ms, for the whole run of the CLI (start-up included). Then it is killed. */
  timeoutMs: 180_000,
  /** After SIGTERM, how long the CLI gets to exit before SIGKILL. */
  killGraceMs: 2_000,
  /** Stdout kept, at most; a CLI that prints more is killed (a note's extraction is a few KB). */
  maxStdoutBytes: 4 * 1024 * 1024,
  /** Stderr lines shown in an error, at most, each cut to 200 characters. */
  stderrLines: 5,
} as const;

export interface ClaudeCliExtractorOptions {
  /** The executable, looked up on the PATH of `env` (default `claude`). */
  command?: string;
  /** Passed as `--model` (an alias such as `haiku`, or a full id). Default: the CLI's own default model, which may be a costly one. */
  model?: string;
  /** Per-note limit in ms, above 0 (default 180000); the CLI is killed when it passes. */
  timeoutMs?: number;
  /** The CLI's environment (default: this process's), e.g. for its credentials and PATH. */
  env?: NodeJS.ProcessEnv;
}

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  overflow: boolean;
  spawnError?: NodeJS.ErrnoException;
}

export function createClaudeCliExtractor(options: ClaudeCliExtractorOptions = {}): CheckedExtractor {
  const command = options.command ?? CLAUDE_CLI_DEFAULTS.command;
  const timeoutMs = options.timeoutMs ?? CLAUDE_CLI_DEFAULTS.timeoutMs;
  return {
    backend: 'claude-cli',
    model: options.model ?? 'claude-cli-default',
    promptVersion: PROMPT_VERSION,
    async extract(input: ExtractionInput): Promise<CheckedExtraction> {
      const { system, user } = buildExtractionPrompt(input, { reply: 'json' });
      const args = ['-p', '--output-format', 'json', '--tools', '', '--max-turns', '1', '--system-prompt', system];
      if (options.model !== undefined) args.push('--model', options.model);
      const run = await runCli(command, args, user, { timeoutMs, env: options.env });
      return checkFitsNote(readRun(run, input.path, command, timeoutMs, options.model), input);
    },
  };
}

function runCli(command: string, args: string[], stdin: string, options: { timeoutMs: number; env: NodeJS.ProcessEnv | undefined }): Promise<CliRun> {
  return new Promise((resolve) => {
    // A neutral working directory, so the CLI picks up no project settings, hooks or CLAUDE.md.
    const child = spawn(command, args, { cwd: tmpdir(), env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let overflow = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), CLAUDE_CLI_DEFAULTS.killGraceMs);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > CLAUDE_CLI_DEFAULTS.maxStdoutBytes) {
        if (!overflow) stop();
        overflow = true;
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // Only the first lines are ever shown; keep a bounded head.
      if (errBytes < 64 * 1024) err.push(chunk);
      errBytes += chunk.length;
    });
    // The CLI may exit before reading all of stdin (a bad flag); its exit status tells the story.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    let spawnError: NodeJS.ErrnoException | undefined;
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      resolve({
        code,
        signal,
        timedOut,
        overflow,
        spawnError,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** The fields of Claude Code's `--output-format json` result that Engram reads; others are ignored. */
interface CliEnvelope {
  type?: unknown;
  result?: unknown;
  is_error?: unknown;
  subtype?: unknown;
  /** The HTTP status of the API error behind a failed run, when the CLI says. */
  api_error_status?: unknown;
  total_cost_usd?: unknown;
  usage?: Record<string, unknown>;
}

function readRun(run: CliRun, path: string, command: string, timeoutMs: number, model: string | undefined): CheckedExtraction {
  const head = `claude-cli extraction of "${path}" failed`;
  if (run.spawnError) {
    const missing = run.spawnError.code === 'ENOENT';
    const remedy = missing
      ? `the claude CLI ("${command}") is not installed or not on the PATH; install Claude Code (npm i -g @anthropic-ai/claude-code)`
      : `the claude CLI ("${command}") could not start (${run.spawnError.code ?? run.spawnError.message}); check it runs: claude -p hello`;
    throw new ExtractorError('claude-cli', `${head}: ${remedy}. ${PAUSED}`, { kind: 'environment', remedy, cause: run.spawnError });
  }
  if (run.timedOut) {
    throw new ExtractorError('claude-cli', `${head}: the CLI took longer than ${timeoutMs} ms and was killed.${stderrSummary(run.stderr)} This is transient: the note stays pending; retry later.`, { kind: 'transient' });
  }
  if (run.overflow) {
    throw new ExtractorError('claude-cli', `${head}: the CLI printed more than ${CLAUDE_CLI_DEFAULTS.maxStdoutBytes} bytes and was killed. ${NOTE_AGAIN}`, { kind: 'note' });
  }
  const envelope = parseEnvelope(run.stdout);
  if (run.code !== 0 || envelope?.is_error === true) throw failure(run, envelope, head, model);
  if (!envelope || typeof envelope.result !== 'string') {
    // Exit 0 without a result: not something a note can cause; the CLI is not Claude Code, or a
    // version whose output Engram does not read.
    const what = run.stdout.trim() === '' ? 'printed nothing' : envelope ? 'printed JSON without a result text' : 'did not print a JSON result';
    const remedy = `the claude CLI ${what}; update Claude Code (npm i -g @anthropic-ai/claude-code) and check: claude -p --output-format json hello`;
    throw new ExtractorError('claude-cli', `${head}: ${remedy}. ${PAUSED}`, { kind: 'environment', remedy });
  }
  const usage = usageOf(envelope);
  const reply = parseJsonReply(envelope.result);
  if (reply === undefined) return checkReply(undefined, usage, "the model's reply holds no JSON object");
  return checkReply(reply, usage);
}

const PAUSED = 'Extraction is paused until this is fixed; no note is charged.';
const NOTE_AGAIN = 'The note is tried again on the next runs, then left for a human.';

/** A failed run (non-zero exit or `is_error`): what the CLI said, classified. Never shows the `success` subtype the CLI prints on some failures. */
function failure(run: CliRun, envelope: CliEnvelope | undefined, head: string, model: string | undefined): ExtractorError {
  const said = envelope && typeof envelope.result === 'string' ? envelope.result : '';
  const apiStatus = typeof envelope?.api_error_status === 'number' ? envelope.api_error_status : undefined;
  const subtype = typeof envelope?.subtype === 'string' && envelope.subtype !== 'success' ? ` (${envelope.subtype})` : '';
  const status = run.code === null ? `was killed by ${run.signal ?? 'a signal'}` : run.code === 0 ? 'reported an error' : `exited with ${run.code}`;
  const summary = `${said === '' ? '' : ` It said: ${firstLines(said, 2)}.`}${stderrSummary(run.stderr)}`;
  const verdict = run.code === null && run.signal !== null && apiStatus === undefined ? { kind: 'transient' as const } : classifyCliFailure(`${said}\n${run.stderr}`, apiStatus, model);
  const fact = `${head}: the CLI ${status}${subtype}${apiStatus === undefined ? '' : ` (HTTP ${apiStatus})`}.${summary}`;
  if (verdict.kind === 'environment') return new ExtractorError('claude-cli', `${fact} ${capitalize(verdict.remedy)}. ${PAUSED}`, { kind: 'environment', remedy: verdict.remedy, ...(apiStatus === undefined ? {} : { status: apiStatus }) });
  const next = verdict.kind === 'transient' ? 'This is transient: the note stays pending; retry later.' : NOTE_AGAIN;
  return new ExtractorError('claude-cli', `${fact} ${next}`, { kind: verdict.kind, ...(apiStatus === undefined ? {} : { status: apiStatus }) });
}

/**
 * What a failed CLI run means, from the API status it reports and what it said. The account and
 * the CLI itself (login, key, credit, usage limit, model, flags) are the environment: the run
 * stops. Overload, rate limits and network trouble pass. Anything else is put down to the note.
 */
export function classifyCliFailure(text: string, apiStatus: number | undefined, model: string | undefined): { kind: 'note' | 'transient' } | { kind: 'environment'; remedy: string } {
  const env = (remedy: string) => ({ kind: 'environment' as const, remedy });
  if (/not logged in|please run \/login|run `?\/login/i.test(text)) return env('the claude CLI is not logged in; run claude /login');
  if (apiStatus === 401 || /invalid api key|invalid x-api-key|authentication_error|oauth token (has )?(expired|revoked)|unauthorized/i.test(text)) {
    return env("the claude CLI's login or API key was refused; run claude /login (or fix the ANTHROPIC_API_KEY it sees)");
  }
  if (apiStatus === 402 || /credit balance|billing|purchase credits/i.test(text)) return env("the claude CLI's account has no credit; check its billing or choose ENGRAM_EXTRACTOR=structural");
  if (/usage limit|limit reached|quota exceeded/i.test(text)) return env("the claude CLI's account has reached its usage limit; extraction resumes once it resets");
  if (apiStatus === 403 || /permission_error|forbidden/i.test(text)) return env("the claude CLI's account is not allowed to do this; check its plan and permissions");
  if (apiStatus === 404 || /not_found_error|model.{0,80}(not found|not available|does not exist|invalid)|(invalid|unknown) model/i.test(text)) {
    return env(`the model ${model === undefined ? 'the claude CLI defaults to' : `"${model}"`} is not available to its account; set ENGRAM_EXTRACT_MODEL to one it can use`);
  }
  if (/unknown option|unrecognized option|unknown argument|unexpected argument|error: option/i.test(text)) return env('the claude CLI is too old for the flags Engram passes; update it (npm i -g @anthropic-ai/claude-code)');
  if ((apiStatus !== undefined && (apiStatus === 408 || apiStatus === 409 || apiStatus === 429 || apiStatus >= 500)) || looksTransient(text)) return { kind: 'transient' };
  return { kind: 'note' };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The result envelope: the whole output, its last line (a warning may come first), or the `result` entry of an array of messages (`--verbose`). */
function parseEnvelope(stdout: string): CliEnvelope | undefined {
  const text = stdout.trim();
  for (const candidate of [text, text.slice(text.lastIndexOf('\n{') + 1)]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (Array.isArray(value)) {
        const result = value.filter((item): item is CliEnvelope => typeof item === 'object' && item !== null && (item as CliEnvelope).type === 'result').pop();
        if (result) return result;
      } else if (typeof value === 'object' && value !== null) return value as CliEnvelope;
    } catch {
      // Not JSON as a whole; try the last line.
    }
  }
  return undefined;
}

/**
 * The JSON object in the model's text: the whole text, else the first fenced block that parses,
 * else the span from the first `{` to the last `}`. Models add fences and preambles despite the
 * prompt; this tolerates both.
 */
export function parseJsonReply(text: string): unknown {
  const candidates = [text.trim()];
  for (const match of text.matchAll(/```[a-zA-Z]*\s*\n([\s\S]*?)```/g)) candidates.push((match[1] ?? '').trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first !== -1 && last > first) candidates.push(text.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
    } catch {
      // Try the next candidate.
    }
  }
  return undefined;
}

function usageOf(envelope: CliEnvelope): ExtractionUsage {
  return {
    ...tokensOf(envelope.usage),
    // The CLI's own estimate; on a subscription it is notional, but it is the same yardstick as the API's.
    costUsd: countOf(envelope.total_cost_usd),
  };
}

/** Overload, rate limits, server errors and network trouble pass; a bad login or flag does not. */
function looksTransient(text: string): boolean {
  return /\b(429|5\d\d)\b|overloaded|rate.?limit|too many requests|timed? ?out|ETIMEDOUT|ECONNRESET|ECONNREFUSED|EAI_AGAIN|network|temporarily|try again/i.test(text);
}

function stderrSummary(stderr: string): string {
  const lines = firstLines(stderr, CLAUDE_CLI_DEFAULTS.stderrLines);
  return lines === '' ? '' : ` stderr: ${lines}.`;
}

/** The first non-empty lines, each cut short, joined by " | ", with credentials removed. */
function firstLines(text: string, count: number): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const shown = lines.slice(0, count).map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line));
  const more = lines.length > count ? ` | … (${lines.length - count} more lines)` : '';
  return redactSecrets(`${shown.join(' | ')}${more}`);
}
