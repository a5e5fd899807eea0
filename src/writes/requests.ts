/**
 * What callers hand the writer and get back, and the pure text checks of a write: the checks
 * every new text passes, and the diff a preview shows.
 */
import { EngramError } from '../errors.js';
import type { Actor, RefusalCode } from './quarantine.js';

export interface WriteRequest {
  /** Who writes: the quarantine decides by this, and the journal records it. */
  by: Actor;
  /** Vault-relative path (checked here). */
  path: string;
  /** The new text from the current one (`null` when the note does not exist); line endings as `\n`. */
  next: (current: string | null) => string;
  /** Refuse when the note exists already. */
  create?: boolean;
  /**
   * Largest result allowed (bytes; default `WRITE_DEFAULTS.maxBytes`). Only generated files
   * raise it: a vault map canvas of 10k notes is ~2 MB, which no note written by hand approaches.
   */
  maxBytes?: number;
}

export interface WriteReceipt {
  journalId: number;
  path: string;
  created: boolean;
  beforeHash: string | null;
  afterHash: string;
  /** Every vault path the write changed (the note and the audit note), for whoever keeps the index current. */
  touched: string[];
}

export interface MoveRequest {
  by: Actor;
  from: string;
  to: string;
  /** The moved note's new text from its current text (its own links rewritten); identity when absent. */
  self?: (current: string) => string;
  /** Other notes whose links must follow the move: each one's new text from its current text. */
  rewrites: { path: string; next: (current: string) => string }[];
  /** Refuse when the note no longer has this content hash (it changed since the move was planned). */
  expectHash?: string;
  /**
   * Refuse unless exactly these notes (path → content hash) get their links rewritten: what a
   * preview showed the human is what the move changes.
   */
  expectRewrites?: Record<string, string>;
}

export interface MoveReceipt {
  moveId: number;
  from: string;
  to: string;
  /** Notes whose links were rewritten (the moved note not included). */
  rewritten: string[];
}

/**
 * What `VaultWriter.submit` did: wrote, or previewed (the change needs the human's confirmation,
 * `reason` says why), or refused with the code the edges report.
 */
export type WriteOutcome = { kind: 'written'; receipt: WriteReceipt } | { kind: 'preview'; reason: string; preview: Preview } | { kind: 'refused'; code: RefusalCode; reason: string };

export interface Preview {
  token: string;
  path: string;
  diff: string;
  expires: string;
}

/** Refuses text a note must not hold: NUL bytes and unpaired surrogates (not valid UTF-8). */
export function validateText(text: string): void {
  if (text.includes('\u0000')) throw new EngramError('INVALID_INPUT', 'the content holds a NUL byte; notes are text — remove it');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) {
    throw new EngramError('INVALID_INPUT', 'the content holds an unpaired surrogate (not valid UTF-8); fix the text encoding');
  }
}

/** A compact line diff for previews: removed lines with `-`, added with `+`, shared edges elided. */
export function lineDiff(before: string, after: string): string {
  const a = before === '' ? [] : before.replace(/\r\n/g, '\n').split('\n');
  const b = after.replace(/\r\n/g, '\n').split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const lines = [`@@ line ${start + 1} @@`];
  for (const line of a.slice(start, endA)) lines.push(`- ${line}`);
  for (const line of b.slice(start, endB)) lines.push(`+ ${line}`);
  return lines.join('\n');
}
