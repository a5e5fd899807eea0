/**
 * The project's few error classes. Each carries a stable `code` and a message that states the
 * fact and the remedy, so the edges (CLI exit codes, MCP `isError` text) can translate them
 * without guessing. Expected outcomes (found / missing, hybrid / keyword) are typed results,
 * never errors.
 */

/**
 * Every code and what it means to the one who gets it: the edges' tables (CLI exit codes, the
 * docs) are keyed by these, so the compiler makes each of them name every code.
 */
export const ERROR_CODES = {
  VAULT_NOT_FOUND: 'the vault folder does not exist',
  VAULT_NOT_DIRECTORY: 'the vault path is not a folder',
  STATE_DIR_UNWRITABLE: 'Engram cannot write its state folder (ENGRAM_HOME)',
  STATE_CORRUPT: 'the state database cannot be read',
  LOCKED: 'another Engram process holds the lock for this work',
  EMBEDDER_FAILED: 'the embedding model failed',
  EXTRACTOR_FAILED: 'the graph extractor failed and retrying will not help until its setup is fixed',
  SMART_ENV_UNSTABLE: 'Smart Connections kept changing its data while it was read',
  NETWORK: 'a download failed',
  USAGE: 'bad command-line usage (unknown command, option or value); the command line only',
  INVALID_INPUT: "an argument, a file given to read, or a note's new text cannot be used as it is",
  CONFIG_INVALID: 'a setting (environment variable, conventions file, configuration Engram reads) is wrong: a human fixes it',
  NOT_FOUND: 'what the request names does not exist (a journal entry, run, move, proposal, note)',
  WRITE_REFUSED: "the write quarantine forbids this write or undo to this actor (a protected file, someone else's write)",
  CONFIRMATION_REQUIRED: "allowed only with the human's confirmation: preview the change, then apply it with the token",
  PREVIEW_EXPIRED: 'the preview token cannot be applied (unknown, used, or past its 5 minutes): preview again',
  CONFLICT: 'the vault or the journal is not as the request expects (changed since, exists already, undone already)',
  TRANSIENT: 'may pass on its own (rate limit, overload, timeout): retry later',
  IO_FAILED: 'the file system refused the operation; nothing was changed',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class EngramError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngramError';
    this.code = code;
  }
}

/** Bad command-line usage: the CLI exits 2 instead of 1. */
export class UsageError extends EngramError {
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}

/** The errno-style code of a Node system error, or undefined. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
