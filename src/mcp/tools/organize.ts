/**
 * Organize tools: review the Librarian's filing proposals and accept or reject them by id, and
 * undo a move or a whole sweep. Listing is the default; nothing moves unless ids are given.
 */
import { z } from 'zod';
import { selectExtractor } from '../../graph/index.js';
import { decideProposals, listOrganizeProposals, resyncGraphIfTouched, undoRun } from '../../librarian/index.js';
import type { VaultEngine } from '../engine.js';
import { ok } from '../results.js';
import { defineTool, type Tool, type ToolContext } from './define.js';

const ids = z.array(z.number().int().min(1)).max(100);
const proposal = z.object({ id: z.number(), path: z.string(), target: z.string(), share: z.number(), reason: z.string() });

export function organizeTools({ engine }: ToolContext): Tool[] {
  return [organizeVaultTool(engine), undoMoveTool(engine), undoRunTool(engine)];
}

function organizeVaultTool(engine: VaultEngine): Tool {
  return defineTool('organize_vault', {
    title: 'Filing proposals',
    description:
      "Lists the Librarian's pending proposals to file Inbox notes into folders (the default: changes nothing). With `apply: [ids]` each named proposal's move is made exactly as proposed — the note moves and every link to it is rewritten, journaled (undo with `undo_move`); with `reject: [ids]` proposals are dismissed. Ask the human before applying.",
    inputSchema: {
      apply: ids.optional().describe('proposal ids to accept: the notes are moved'),
      reject: ids.optional().describe('proposal ids to dismiss'),
    },
    outputSchema: {
      applied: z.array(z.object({ id: z.number(), from: z.string(), to: z.string(), move_id: z.number(), relinked: z.array(z.string()) })),
      rejected: z.array(z.number()),
      pending: z.array(proposal),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    handler: async (args) => {
      let applied: { id: number; from: string; to: string; move_id: number; relinked: string[] }[] = [];
      let rejected: number[] = [];
      if ((args.apply?.length ?? 0) + (args.reject?.length ?? 0) > 0) {
        const decided = await engine.change(
          'a filing',
          () =>
            decideProposals({ root: engine.vault, db: engine.db, writer: engine.writer(), agentRoot: engine.agentRoot, exclude: engine.settings.exclude }, { apply: args.apply ?? [], reject: args.reject ?? [] }, new Date().toISOString()),
          (result) => result.applied.flatMap((move) => [move.from, move.to, ...move.rewritten]),
        );
        applied = decided.applied.map((move) => ({ id: move.id, from: move.from, to: move.to, move_id: move.moveId, relinked: move.rewritten }));
        rejected = decided.rejected;
      }
      const pending = listOrganizeProposals(engine.db).map(({ id, path, target, share, reason }) => ({ id, path, target, share, reason }));
      const text = [
        ...applied.map((move) => `moved ${move.from} → ${move.to} (move ${move.move_id}; ${move.relinked.length} notes relinked)`),
        ...(rejected.length > 0 ? [`rejected ${rejected.map((id) => `#${id}`).join(', ')}`] : []),
        pending.length === 0 ? 'no pending filing proposals' : `${pending.length} pending:`,
        ...pending.slice(0, 30).map((p) => `#${p.id} ${p.path} → ${p.target}/ (share ${p.share.toFixed(2)}; ${p.reason})`),
      ].join('\n');
      return ok({ applied, rejected, pending }, text);
    },
  });
}

function undoMoveTool(engine: VaultEngine): Tool {
  return defineTool('undo_move', {
    title: 'Undo a move',
    description:
      "Moves a note back where it was and restores every note whose links the move rewrote, byte for byte: a filing, an agent's move_note, or an issue's archiving. Refused, with the reason, when any of those files changed since.",
    inputSchema: { move_id: z.number().int().min(1).describe('the move id (from move_note, update_issue, organize_vault or the report in Claude/Librarian.md)') },
    outputSchema: { from: z.string(), to: z.string(), restored: z.array(z.string()) },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    handler: async (args) => {
      const undone = await engine.change(
        'an undo',
        () => engine.writer().undoMove(args.move_id),
        (result) => [result.from, result.to, ...result.restored],
      );
      return ok(undone, `moved ${undone.to} back to ${undone.from}; ${undone.restored.length} notes' links restored`);
    },
  });
}

function undoRunTool(engine: VaultEngine): Tool {
  return defineTool('undo_run', {
    title: 'Undo a sweep',
    description: 'Reverts every change one Librarian sweep made (moves with their link rewrites, entity notes, its report), newest first. Checked first: if any file changed since, nothing is reverted and every reason is listed.',
    inputSchema: { run_id: z.string().min(1).max(80).describe('the run id, e.g. sweep-20261130T0330-3f9a1c (in Claude/Librarian.md and librarian_status)') },
    outputSchema: { run_id: z.string(), moves: z.number(), writes: z.number(), paths: z.array(z.string()), report_kept: z.boolean() },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    handler: async (args) => {
      const report = await engine.change(
        'an undo',
        () => undoRun(engine.db, engine.writer(), args.run_id, `${engine.agentRoot}/Librarian.md`),
        (result) => result.paths,
      );
      resyncGraphIfTouched(engine.db, report, { root: engine.vault, agentRoot: engine.agentRoot, extractor: selectExtractor(engine.extractorSettings, engine.db) });
      return ok(
        { run_id: report.runId, moves: report.moves, writes: report.writes, paths: report.paths, report_kept: report.reportKept },
        `run ${report.runId} undone: ${report.moves} moves and ${report.writes} writes reverted${report.reportKept ? '; its report section stays (later sweeps reported since)' : ''}`,
      );
    },
  });
}
