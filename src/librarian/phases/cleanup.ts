/**
 * Cleanup: roll back moves a kill interrupted, repoint relations to merged entities' winners,
 * rewrite out-of-date entity notes, count orphan entities.
 */
import type Database from 'better-sqlite3';
import { GraphStore, writeEntityNotes } from '../../graph/index.js';
import { message, reindex, type Phase, type Plan, type SweepContext } from './phase.js';

export interface CleanupCounts {
  toMerged: number;
  dirty: number;
  orphans: number;
  interrupted: number;
}

export interface CleanupPlan extends Plan {
  counts: Record<string, number> & CleanupCounts;
}

export function cleanupPlan(counts: CleanupCounts): CleanupPlan {
  const { toMerged, dirty, orphans, interrupted } = counts;
  return {
    summary: `${toMerged} relations to merged entities, ${dirty} entity notes out of date, ${orphans} orphan entities${interrupted > 0 ? `, ${interrupted} interrupted moves to roll back` : ''}`,
    counts: { toMerged, dirty, orphans, interrupted },
    estimatedCostUsd: 0,
  };
}

function countCleanup(db: Database.Database): CleanupCounts {
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    toMerged: count(`SELECT count(*) FROM relations r JOIN entities a ON a.id = r.from_id JOIN entities b ON b.id = r.to_id
      WHERE a.merged_into IS NOT NULL OR b.merged_into IS NOT NULL`),
    dirty: count('SELECT count(*) FROM entities WHERE dirty = 1'),
    orphans: count(`SELECT count(*) FROM entities e WHERE e.merged_into IS NULL AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)
      AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.from_id = e.id OR r.to_id = e.id)`),
    interrupted: count('SELECT count(*) FROM moves WHERE completed_at IS NULL AND undone_at IS NULL'),
  };
}

/** A move a kill interrupted is rolled back (every file to its state before the move). */
function rollBackInterrupted(ctx: SweepContext): void {
  const rolledBack: string[] = [];
  for (const id of ctx.db.prepare('SELECT id FROM moves WHERE completed_at IS NULL AND undone_at IS NULL ORDER BY id').pluck().all() as number[]) {
    try {
      const undone = ctx.options.writer.undoMove(id);
      rolledBack.push(undone.from, undone.to, ...undone.restored);
    } catch (error) {
      ctx.report.errors.push(`cleanup: interrupted move ${id}: ${message(error)}`);
    }
  }
  reindex(ctx, rolledBack);
}

export const cleanupPhase: Phase<CleanupPlan> = {
  name: 'cleanup',
  plan: (ctx) => cleanupPlan(countCleanup(ctx.db)),
  async act(plan, ctx) {
    rollBackInterrupted(ctx);
    const store = new GraphStore(ctx.db, ctx.agentRoot);
    const repaired = store.repointMergedRelations();
    const notes = { entityNotesWritten: 0, written: [] as string[], errors: ctx.report.errors };
    writeEntityNotes(store, ctx.options.writer, notes);
    reindex(ctx, notes.written);
    const { orphans, interrupted } = plan.counts;
    return {
      summary: `${repaired} relations repointed to merged entities' winners, ${notes.entityNotesWritten} entity notes rewritten, ${orphans} orphan entities flagged${interrupted > 0 ? `, ${interrupted} interrupted moves rolled back` : ''}`,
      counts: { repaired, rewritten: notes.entityNotesWritten, orphans, interrupted },
      costUsd: 0,
    };
  },
};
