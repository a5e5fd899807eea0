/**
 * The command line's one translation of error codes into exit statuses. Scripts get three
 * promises: 2 means the command line itself was wrong (fix the invocation), 75 means try again
 * later (EX_TEMPFAIL from sysexits.h, which cron wrappers and mail agents already treat as
 * "retry"), and 1 means any other failure, whose one-line message says what to do.
 */
import { EngramError, type ErrorCode } from '../errors.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, retryLater: 75 } as const;

/** Every code's exit status (the compiler checks that none is missing). */
export const EXIT_CODES: Readonly<Record<ErrorCode, number>> = {
  VAULT_NOT_FOUND: EXIT.failure,
  VAULT_NOT_DIRECTORY: EXIT.failure,
  STATE_DIR_UNWRITABLE: EXIT.failure,
  STATE_CORRUPT: EXIT.failure,
  // A second daemon or sweep is not "try again": the first one keeps running until stopped.
  LOCKED: EXIT.failure,
  EMBEDDER_FAILED: EXIT.failure,
  EXTRACTOR_FAILED: EXIT.failure,
  SMART_ENV_UNSTABLE: EXIT.retryLater,
  NETWORK: EXIT.failure,
  USAGE: EXIT.usage,
  INVALID_INPUT: EXIT.failure,
  CONFIG_INVALID: EXIT.failure,
  NOT_FOUND: EXIT.failure,
  WRITE_REFUSED: EXIT.failure,
  CONFIRMATION_REQUIRED: EXIT.failure,
  PREVIEW_EXPIRED: EXIT.failure,
  CONFLICT: EXIT.failure,
  TRANSIENT: EXIT.retryLater,
  IO_FAILED: EXIT.failure,
};

/** The exit status for what a command threw: its code's, or 1 for anything that is not an EngramError. */
export function exitCodeOf(error: unknown): number {
  return error instanceof EngramError ? EXIT_CODES[error.code] : EXIT.failure;
}
