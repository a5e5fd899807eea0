/**
 * Archiving closed issues: each closed issue of a project whose delay has passed moves into the
 * project's Archive/ folder by the link-safe move (every link to it rewritten, one journaled
 * move that undo_move reverts). An archived issue that is open again (reopened by update_issue
 * or by hand) moves back into Issues/ the same way. Only when every file the move touches is in
 * the agent folder: a move that would change a note of the human's is left for move_note, which
 * previews it.
 */
import { posix } from 'node:path';
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { CLOSED, planMove, type IssueRecord } from '../../librarian/index.js';
import { agent, freeNotePath } from '../../writes/index.js';
import type { VaultEngine } from '../engine.js';
import { isArchived, projectIssues, type Project } from './work-store.js';

const movesSchema = z.array(z.object({ from: z.string(), to: z.string(), move_id: z.number() })).optional();
export const archivedSchema = movesSchema;
export const unarchivedSchema = movesSchema;

export type IssueMove = { from: string; to: string; move_id: number };

const DAY_MS = 86_400_000;

/** Statuses an issue is worked in: one of these in Archive/ was reopened and goes back to Issues/. */
const ACTIVE: ReadonlySet<string> = new Set(['open', 'doing']);

/** Whether an issue closed on `closed` (YYYY-MM-DD, or unknown) is due for the archive on `today`. */
export function archiveIsDue(closed: string | null, afterDays: number, today: string): boolean {
  if (afterDays === 0) return true;
  const at = closed === null ? NaN : Date.parse(`${closed.slice(0, 10)}T00:00:00Z`);
  return Number.isFinite(at) && Date.parse(`${today}T00:00:00Z`) - at >= afterDays * DAY_MS;
}

/**
 * Archives the project's closed issues that are due, and moves reopened ones back to Issues/.
 * The moves run under the state's index lock (as filings do); while a sweep or an index run holds
 * it the move waits for the next issue write (`deferred` says why), as after any refused move —
 * the update that closed or reopened the issue is done either way, and must not be answered as
 * failed.
 */
export async function archiveDue(engine: VaultEngine, project: Project, today: string): Promise<{ archived: IssueMove[]; unarchived: IssueMove[]; deferred: string | null }> {
  const issues = projectIssues(engine, project);
  const due = issues.filter((issue) => CLOSED.has(issue.status) && !isArchived(project, issue) && archiveIsDue(issue.closed, project.archiveAfterDays, today));
  const reopened = issues.filter((issue) => ACTIVE.has(issue.status) && isArchived(project, issue));
  const moved = { archived: [] as IssueMove[], unarchived: [] as IssueMove[] };
  for (const [issue, into] of [...due.map((issue) => [issue, 'Archive'] as const), ...reopened.map((issue) => [issue, 'Issues'] as const)]) {
    try {
      const move = await moveIssue(engine, project, issue, into);
      if (move !== null) moved[into === 'Archive' ? 'archived' : 'unarchived'].push(move);
    } catch (error) {
      if (!(error instanceof EngramError)) throw error;
      const what = into === 'Archive' ? `archiving ${issue.path}` : `moving ${issue.path} back to ${project.folder}/Issues/`;
      return { ...moved, deferred: `${what} waits for the next issue write: ${error.message}` };
    }
  }
  return { ...moved, deferred: null };
}

/** Moves one issue into the project's `into` folder under its own name (a free one); null when a file the move touches is not the agent's. */
async function moveIssue(engine: VaultEngine, project: Project, issue: IssueRecord, into: 'Archive' | 'Issues'): Promise<IssueMove | null> {
  const by = agent('update_issue');
  const name = posix.basename(issue.path, '.md');
  const to = freeNotePath(`${project.folder}/${into}`, name, (path) => engine.writer().exists(path));
  const request = planMove(engine.db, by, issue.path, to);
  const paths = [issue.path, to, ...request.rewrites.map((rewrite) => rewrite.path)];
  if (paths.some((path) => engine.writer().verdict({ by, path }).kind !== 'free')) return null;
  const receipt = await engine.change(
    into === 'Archive' ? 'an archive' : 'an issue moving back from the archive',
    () => engine.writer().move(request),
    (moved) => [moved.from, moved.to, ...moved.rewritten],
  );
  return { from: receipt.from, to: receipt.to, move_id: receipt.moveId };
}
