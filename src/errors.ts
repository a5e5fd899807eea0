/**
 * The project's few error classes. Each carries a stable `code` and a message that states the
 * fact and the remedy, so the edges (CLI exit codes, MCP `isError` text) can translate them
 * without guessing. Expected outcomes (found / missing, hybrid / keyword) are typed results,
 * never errors.
 */

export type ErrorCode =
  | 'VAULT_NOT_FOUND'
  | 'VAULT_NOT_DIRECTORY'
  | 'STATE_DIR_UNWRITABLE'
  | 'STATE_CORRUPT'
  | 'LOCKED'
  | 'EMBEDDER_FAILED'
  | 'EXTRACTOR_FAILED'
  | 'SMART_ENV_UNSTABLE'
  | 'NETWORK'
  /** Bad command-line usage (unknown command, flag or value): the CLI only. */
  | 'USAGE'
  /** An argument, a file given to read, or a note's new text that cannot be used as it is. */
  | 'INVALID_INPUT'
  /** A setting (environment variable, conventions file, configuration Engram reads) is wrong: a human fixes it. */
  | 'CONFIG_INVALID'
  /** What the request names does not exist: a journal entry, a run, a move, a proposal, a note. */
  | 'NOT_FOUND'
  /** The quarantine forbids this write (or undo) to this actor: protected file, someone else's write. */
  | 'WRITE_REFUSED'
  /** Allowed only with the human's confirmation: preview the change, then apply it with the token. */
  | 'CONFIRMATION_REQUIRED'
  /** The preview token cannot be applied (unknown, used, or past its 5 minutes): preview again. */
  | 'PREVIEW_EXPIRED'
  /** The vault or the journal is not as the request expects (changed since, exists already, undone already). */
  | 'CONFLICT'
  /** May pass on its own: retry later (rate limit, overload, timeout). */
  | 'TRANSIENT'
  /** The file system refused the operation; nothing was changed. */
  | 'IO_FAILED';

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
