/** The last sweep in brief, for `librarian_status`, `onboard` and `engram status`: counts and top-N, never per-entity lists. */
import type Database from 'better-sqlite3';
import { describePause, readExtractionPause } from '../graph/index.js';
import type { SweepReport } from './sweep.js';

export interface SweepSummary {
  run_id: string;
  kind: string;
  status: string;
  started_at: string;
  finished_at: string | null;
  phases: { name: string; status: string; summary: string }[];
  moves: number;
  pending_proposals: { organize: number; merges: number };
  top_proposals: string[];
  health: { name: string; count: number; ok: boolean }[];
  errors: string[];
  cost_usd: number;
  /** Set while extraction is paused by its environment (login, key, credit, CLI, model): what is wrong and what to do. */
  extraction_paused: string | null;
}

/** The extraction pause in one line, or null: kept in the state until a run extracts again. */
export function extractionPaused(db: Database.Database): string | null {
  const pause = readExtractionPause(db);
  return pause ? describePause(pause) : null;
}

export function lastSweep(db: Database.Database, kind: 'sweep' | 'any' = 'sweep'): SweepSummary | null {
  const row = db.prepare(`SELECT id, kind, status, started_at, finished_at, report FROM runs WHERE (@kind = 'any' OR kind = @kind) ORDER BY started_at DESC, rowid DESC LIMIT 1`).get({ kind }) as
    { id: string; kind: string; status: string; started_at: string; finished_at: string | null; report: string | null } | undefined;
  if (!row) return null;
  const report = row.report ? (JSON.parse(row.report) as SweepReport) : null;
  const organize = db.prepare("SELECT count(*) FROM organize_proposals WHERE status = 'pending'").pluck().get() as number;
  const merges = db.prepare("SELECT count(*) FROM proposals WHERE status = 'pending'").pluck().get() as number;
  return {
    run_id: row.id,
    kind: row.kind,
    // A sweep row still 'running' without a live sweep was interrupted (killed); its next run redoes the work.
    status: row.status,
    started_at: row.started_at,
    finished_at: row.finished_at,
    phases: (report?.phases ?? []).map((phase) => ({ name: phase.name, status: phase.status, summary: phase.status === 'failed' ? `failed: ${phase.error ?? ''}` : phase.summary })),
    moves: report?.moves.length ?? 0,
    pending_proposals: { organize, merges },
    top_proposals: [
      ...(report?.proposals.organize ?? []).slice(0, 3).map((p) => `filing #${p.id}: ${p.path} → ${p.target}/ (share ${p.share.toFixed(2)})`),
      ...(report?.proposals.merges ?? []).slice(0, 3).map((p) => `merge #${p.id}: "${p.loser}" → "${p.winner}"`),
    ],
    health: (report?.health ?? []).map((check) => ({ name: check.name, count: check.count, ok: check.ok })),
    errors: (report?.errors ?? []).slice(0, 5),
    cost_usd: (report?.phases ?? []).reduce((sum, phase) => sum + phase.costUsd, 0),
    extraction_paused: extractionPaused(db),
  };
}
