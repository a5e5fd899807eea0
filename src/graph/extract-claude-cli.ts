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
import { ExtractorError, PROMPT_VERSION, buildExtractionPrompt, countOf, tokensOf, checkReply, redactSecrets, type CheckedExtraction, type CheckedExtractor } from './prompt.js';

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
      return readRun(run, input.path, command, timeoutMs);
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

interface CliEnvelope {
  result?: unknown;
  is_error?: unknown;
  subtype?: unknown;
  total_cost_usd?: unknown;
  usage?: Record<string, unknown>;
}

function readRun(run: CliRun, path: string, command: string, timeoutMs: number): CheckedExtraction {
  const head = `claude-cli extraction of "${path}" failed`;
  if (run.spawnError) {
    const missing = run.spawnError.code === 'ENOENT';
    const fact = missing ? `"${command}" was not found on the PATH` : `"${command}" could not start (${run.spawnError.code ?? run.spawnError.message})`;
    throw new ExtractorError('claude-cli', `${head}: ${fact}. This is permanent: install Claude Code (npm i -g @anthropic-ai/claude-code) or set the command; retrying will not help.`, { transient: false, cause: run.spawnError });
  }
  if (run.timedOut) {
    throw new ExtractorError('claude-cli', `${head}: the CLI took longer than ${timeoutMs} ms and was killed.${stderrSummary(run.stderr)} This is transient: the note stays pending; retry later.`, { transient: true });
  }
  if (run.overflow) {
    throw new ExtractorError('claude-cli', `${head}: the CLI printed more than ${CLAUDE_CLI_DEFAULTS.maxStdoutBytes} bytes and was killed. This is permanent: check that "${command}" is Claude Code.`, { transient: false });
  }
  const envelope = parseEnvelope(run.stdout);
  const failed = run.code !== 0 || envelope?.is_error === true;
  if (failed) {
    const said = envelope && typeof envelope.result === 'string' ? envelope.result : '';
    const summary = `${said === '' ? '' : ` It said: ${firstLines(said, 2)}.`}${stderrSummary(run.stderr)}`;
    const status = run.code === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with ${run.code}`;
    const transient = looksTransient(`${said}\n${run.stderr}`) || (run.code === null && run.signal !== null);
    const remedy = transient ? 'This is transient: the note stays pending; retry later.' : 'This is permanent until fixed: check the CLI works on its own (`claude -p hello`) and is logged in; retrying will not help.';
    throw new ExtractorError('claude-cli', `${head}: the CLI ${status}${envelope?.subtype ? ` (${String(envelope.subtype)})` : ''}.${summary} ${remedy}`, { transient });
  }
  if (!envelope) return checkReply(undefined, emptyUsage(), 'the CLI did not print its JSON envelope (is --output-format json supported?)');
  const usage = usageOf(envelope);
  if (typeof envelope.result !== 'string') return checkReply(undefined, usage, 'the CLI envelope has no result text');
  const reply = parseJsonReply(envelope.result);
  if (reply === undefined) return checkReply(undefined, usage, "the model's reply holds no JSON object");
  return checkReply(reply, usage);
}

function parseEnvelope(stdout: string): CliEnvelope | undefined {
  const text = stdout.trim();
  for (const candidate of [text, text.slice(text.lastIndexOf('\n{') + 1)]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as CliEnvelope;
    } catch {
      // Not JSON as a whole; a CLI warning may precede the envelope, so try the last line too.
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

function emptyUsage(): ExtractionUsage {
  return { inputTokens: 0, outputTokens: 0, costUsd: 0 };
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
