/**
 * Run-level extraction failures. When the extractor's environment fails (not logged in, a bad
 * key, no credit, a missing CLI, a model the account cannot use), the run stops and no note is
 * charged; the pause is kept in the state database so every report — the CLI, the sweep's
 * report, `librarian_status`, `onboard`, `engram status` — can say it once, until a run of the
 * same extractor extracts a note again.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import type { Extractor } from './model.js';
import { ExtractorError, type FailureKind } from './prompt.js';

export interface ExtractionPause {
  backend: Extractor['backend'];
  model: string;
  /** One line: what is wrong and what to do ("the claude CLI is not logged in; run claude /login"). */
  reason: string;
  /** The full message of the failure that paused it (first line). */
  message: string;
  /** When extraction first paused for this reason, and when a run last found it so. */
  since: string;
  at: string;
}

const KEY = 'graph_extraction_paused';

export function readExtractionPause(db: Database.Database): ExtractionPause | null {
  const raw = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(KEY) as string | undefined;
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as ExtractionPause;
  } catch {
    return null;
  }
}

/** Records the pause; `since` stays from an earlier run that paused for the same reason. */
export function recordExtractionPause(db: Database.Database, pause: Omit<ExtractionPause, 'since'>): ExtractionPause {
  const previous = readExtractionPause(db);
  const since = previous && previous.backend === pause.backend && previous.reason === pause.reason ? previous.since : pause.at;
  const stored = { ...pause, since };
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(KEY, JSON.stringify(stored));
  return stored;
}

export function clearExtractionPause(db: Database.Database): void {
  db.prepare('DELETE FROM meta WHERE key = ?').run(KEY);
}

/** "extraction paused since 2026-12-01 20:10 UTC — the claude CLI is not logged in; run claude /login". */
export function describePause(pause: ExtractionPause): string {
  return `extraction paused since ${pause.since.slice(0, 16).replace('T', ' ')} UTC — ${pause.reason}`;
}

/**
 * How a failure counts. Extractors say so themselves (`ExtractorError.kind`); for anything else,
 * rate limits, overload, server errors and timeouts pass, and the rest is put down to the note.
 */
export function failureKind(error: unknown): FailureKind {
  if (error instanceof ExtractorError) return error.kind;
  if (error instanceof EngramError) return error.code === 'TRANSIENT' || error.code === 'NETWORK' ? 'transient' : 'note';
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : NaN;
  if (status === 429 || status === 529 || status >= 500) return 'transient';
  return error instanceof Error && /timeout|timed out|ECONNRESET|ECONNREFUSED|socket hang up/i.test(error.message) ? 'transient' : 'note';
}

/** Forgets failed attempts (`engram graph index --retry-failed`): those notes are pending again. Returns how many. */
export function releaseFailed(db: Database.Database): number {
  return db.prepare("DELETE FROM extractions WHERE status = 'failed'").run().changes;
}

/** Notes whose extraction failed, newest first, with the reason and whether they wait for a human (`parked`). */
export function failedExtractions(db: Database.Database, maxAttempts: number, limit = 50): { path: string; error: string; attempts: number; parked: boolean; at: string }[] {
  const rows = db.prepare("SELECT n.path, coalesce(x.error, '') AS error, x.attempts, x.at FROM extractions x JOIN notes n ON n.id = x.note_id WHERE x.status = 'failed' ORDER BY x.at DESC, n.path LIMIT ?").all(limit) as {
    path: string;
    error: string;
    attempts: number;
    at: string;
  }[];
  return rows.map((row) => ({ ...row, parked: row.attempts >= maxAttempts }));
}
