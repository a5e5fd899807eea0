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
  | 'USAGE';

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
