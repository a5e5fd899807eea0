/**
 * Archiving closed issues: each closed issue of a project whose delay has passed moves into the
 * project's Archive/ folder by the link-safe move (every link to it rewritten, one journaled
 * move that undo_move reverts). Only when every file the move touches is in the agent folder:
 * a move that would change a note of the human's is left for move_note, which previews it.
 */
import { posix } from 'node:path';
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { CLOSED, planMove } from '../../librarian/index.js';
import { agent, freeNotePath, type MoveReceipt } from '../../writes/index.js';
import type { VaultEngine } from '../engine.js';
import { isArchived, projectIssues, type Project } from './work-store.js';

export const archivedSchema = z.array(z.object({ from: z.string(), to: z.string(), move_id: z.number() })).optional();

const DAY_MS = 86_400_000;

/** Whether an issue closed on `closed` (YYYY-MM-DD, or unknown) is due for the archive on `today`. */
export function archiveIsDue(closed: string | null, afterDays: number, today: string): boolean {
  if (afterDays === 0) return true;
  const at = closed === null ? NaN : Date.parse(`${closed.slice(0, 10)}T00:00:00Z`);
  return Number.isFinite(at) && Date.parse(`${today}T00:00:00Z`) - at >= afterDays * DAY_MS;
}

/**
 * Archives the project's closed issues that are due. The moves run under the state's index lock
 * (as filings do); while a sweep or an index run holds it the archive waits for the next issue
 * write (`deferred` says why), as after any refused move — the update that closed the issue is done
 * either way, and must not be answered as failed.
 */
export async function archiveDue(engine: VaultEngine, project: Project, today: string): Promise<{ archived: { from: string; to: string; move_id: number }[]; deferred: string | null }> {
  const by = agent('update_issue');
  const due = projectIssues(engine, project).filter((issue) => CLOSED.has(issue.status) && !isArchived(project, issue) && archiveIsDue(issue.closed, project.archiveAfterDays, today));
  const archived: { from: string; to: string; move_id: number }[] = [];
  for (const issue of due) {
    const name = posix.basename(issue.path, '.md');
    const to = freeNotePath(`${project.folder}/Archive`, name, (path) => engine.writer().exists(path));
    const request = planMove(engine.db, by, issue.path, to);
    const paths = [issue.path, to, ...request.rewrites.map((rewrite) => rewrite.path)];
    if (paths.some((path) => engine.writer().verdict({ by, path }).kind !== 'free')) continue;
    let receipt: MoveReceipt;
    try {
      receipt = await engine.change(
        'an archive',
        () => engine.writer().move(request),
        (moved) => [moved.from, moved.to, ...moved.rewritten],
      );
    } catch (error) {
      if (error instanceof EngramError) return { archived, deferred: `archiving ${issue.path} waits for the next issue write: ${error.message}` };
      throw error;
    }
    archived.push({ from: receipt.from, to: receipt.to, move_id: receipt.moveId });
  }
  return { archived, deferred: null };
}
