/**
 * Undoing a sweep: every change it made, newest first — moves (with their link rewrites) and
 * writes (reports, entity notes). Everything is checked first; if any file changed since, nothing
 * is reverted and every reason is given.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import { journalActor, type VaultWriter } from '../writes/index.js';
import { rebuildGraphCache, type Extractor, type RebuildReport } from '../graph/index.js';

export interface UndoRunReport {
  runId: string;
  moves: number;
  writes: number;
  /** Paths changed back (for the caller to re-index). */
  paths: string[];
  /** True when the report note was left as it is because later sweeps wrote to it. */
  reportKept: boolean;
}

type Step = { kind: 'move'; id: number } | { kind: 'write'; id: number; path: string };

/**
 * `reportPath` (the Librarian's report note) is history rather than a change: its section is
 * reverted when nothing was written to the report since, else left in place (later sweeps'
 * sections must not vanish) instead of blocking the undo.
 */
export function undoRun(db: Database.Database, writer: VaultWriter, runId: string, reportPath: string, options: { owner?: boolean } = {}): UndoRunReport {
  const rows = db.prepare(`SELECT id, path, tool, move_id FROM journal WHERE run_id = ? AND undone_at IS NULL ORDER BY id DESC`).all(runId) as { id: number; path: string; tool: string; move_id: number | null }[];
  if (options.owner !== true && rows.some((row) => journalActor(row.tool)?.kind === 'owner')) {
    throw new EngramError('WRITE_REFUSED', `run ${runId} is the owner's own \`engram provision\`; only they can undo it, with \`engram undo ${runId}\` on the command line`);
  }
  // (The caller holds the state's `index` lock, so the run is not still going.)
  const run = db.prepare('SELECT status FROM runs WHERE id = ?').pluck().get(runId) as string | undefined;
  if (run === undefined && rows.length === 0 && !journaled(db, runId)) throw new EngramError('NOT_FOUND', `no run ${runId}; librarian_status and the report in Librarian.md name the run ids`);
  if (rows.length === 0 && (run === 'undone' || journaled(db, runId))) {
    const at = db.prepare('SELECT MAX(undone_at) FROM journal WHERE run_id = ?').pluck().get(runId) as string | null;
    throw new EngramError('CONFLICT', `run ${runId} was undone already${at ? ` (${at})` : ''}; nothing left to revert`);
  }
  const steps: Step[] = [];
  const seenMoves = new Set<number>();
  for (const row of rows) {
    if (row.move_id !== null) {
      if (!seenMoves.has(row.move_id)) steps.push({ kind: 'move', id: row.move_id });
      seenMoves.add(row.move_id);
    } else {
      steps.push({ kind: 'write', id: row.id, path: row.path });
    }
  }
  // Check before changing anything, each file at its newest change in the run (a move or a
  // write): undoing that one leaves exactly what the older changes left.
  const problems: string[] = [];
  let keepReport = false;
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.path)) continue;
    seen.add(row.path);
    const problem = writer.undoProblem(row.id);
    if (problem && row.move_id === null && row.path === reportPath) keepReport = true;
    else if (problem) problems.push(problem);
  }
  if (problems.length > 0) {
    throw new EngramError(
      'CONFLICT',
      `run ${runId} cannot be undone without losing later changes: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? ` (+${problems.length - 10} more)` : ''} — undo single moves or writes instead, or restore those files by hand`,
    );
  }
  const report: UndoRunReport = { runId, moves: 0, writes: 0, paths: [], reportKept: keepReport };
  for (const step of steps) {
    if (step.kind === 'move') {
      const undone = writer.undoMove(step.id);
      report.moves++;
      report.paths.push(undone.from, undone.to, ...undone.restored);
    } else if (!(keepReport && step.path === reportPath)) {
      writer.undo(step.id, options);
      report.writes++;
      report.paths.push(step.path);
    }
  }
  db.prepare("UPDATE runs SET status = 'undone' WHERE id = ?").run(runId);
  return report;
}

/** True when the run made journaled changes (undone or not). */
function journaled(db: Database.Database, runId: string): boolean {
  return db.prepare('SELECT 1 FROM journal WHERE run_id = ? LIMIT 1').get(runId) !== undefined;
}

/** Reads the graph cache back after an undo, if the undo touched entity notes (and an extractor is configured). */
export function resyncGraphIfTouched(db: Database.Database, undone: UndoRunReport, options: { root: string; agentRoot: string; extractor: Pick<Extractor, 'backend' | 'model' | 'promptVersion'> | null }): void {
  if (options.extractor && undone.paths.some((path) => path.startsWith(`${options.agentRoot}/Graph/`))) {
    resyncGraph(db, { root: options.root, agentRoot: options.agentRoot, runId: undone.runId, extractor: options.extractor });
  }
}

/**
 * After an undo reverted entity notes, the graph cache is read back from the entity notes as they
 * now are, and the notes extracted during the undone run return to the extraction backlog — the
 * state before the run. (The notes are the graph's durable form; the tables are a cache.)
 */
export function resyncGraph(db: Database.Database, options: { root: string; agentRoot: string; runId: string; extractor: Pick<Extractor, 'backend' | 'model' | 'promptVersion'> }): RebuildReport {
  const run = db.prepare('SELECT started_at, finished_at FROM runs WHERE id = ?').get(options.runId) as { started_at: string; finished_at: string | null } | undefined;
  db.transaction(() => {
    if (run) db.prepare('DELETE FROM extractions WHERE at >= ? AND at <= ?').run(run.started_at, run.finished_at ?? new Date().toISOString());
    db.prepare('UPDATE entities SET merged_into = NULL').run();
    db.prepare('DELETE FROM entities').run();
  })();
  return rebuildGraphCache(db, options);
}
