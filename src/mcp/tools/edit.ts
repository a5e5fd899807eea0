/**
 * Edit tools: appending to and writing any note, and undoing a write. Inside the agent folder
 * they write at once; a note of the human's is previewed first and applied with the preview's
 * token — or, when the client supports elicitation, the human is asked directly.
 */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { fail } from '../results.js';
import { applyToken, askOrOffer, previewOrApply } from './confirm.js';
import { defineTool, WRITES, type Tool, type ToolContext } from './define.js';
import { insertText } from './insert-text.js';
import { done } from './shared.js';

export const outsideSchema = {
  path: z.string().optional(),
  journal_id: z.number().optional(),
  created: z.boolean().optional(),
  applied: z.boolean().optional(),
  index_warning: z.string().optional(),
  preview: z.string().optional(),
  token: z.string().optional(),
  expires: z.string().optional(),
};

export function editTools(context: ToolContext): Tool[] {
  return [appendNote(context), writeNote(context), undoWrite(context)];
}

function appendNote(context: ToolContext): Tool {
  return defineTool('append_note', {
    title: 'Append to a note',
    description:
      'Appends text to a note: at the end, at the start (after any frontmatter), or at the end of a named section (the section ends at the next heading of the same or a higher level). Free in the agent folder; elsewhere it previews the change first and applies it with the returned token.',
    inputSchema: {
      path: z.string().optional().describe('vault-relative path of the note'),
      content: z.string().max(500_000).optional().describe('markdown to add'),
      position: z.enum(['end', 'start', 'under_heading']).default('end').describe('where to add it'),
      heading: z.string().optional().describe('for under_heading: the heading text, without #'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: outsideSchema,
    annotations: WRITES,
    handler: async (args) => {
      if (!args.token && (args.content === undefined || args.content === '')) return fail('give the content to append');
      if (args.position === 'under_heading' && !args.heading && !args.token) return fail("under_heading needs the heading's text");
      const content = args.content ?? '';
      const next = (current: string | null): string => {
        if (current === null) throw new EngramError('NOT_FOUND', `${args.path} does not exist; create it with write_note`);
        return insertText(current, content, args.position, args.heading);
      };
      return previewOrApply(context, 'append_note', args, args.content ? next : null, { create: false });
    },
  });
}

function writeNote(context: ToolContext): Tool {
  return defineTool('write_note', {
    title: 'Write a note',
    description:
      "Creates a note; replaces an existing one only with overwrite: true. Free in the agent folder (except the caretaker's files, never written, and the constitution, previewed like the human's notes); elsewhere it previews the change first and applies it with the returned token.",
    inputSchema: {
      path: z.string().optional().describe('vault-relative path, ending in .md'),
      content: z.string().max(1_000_000).optional().describe('the whole note, in markdown'),
      overwrite: z.boolean().default(false).describe('replace the note if it exists'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: outsideSchema,
    annotations: { ...WRITES, destructiveHint: true },
    handler: async (args) => {
      if (!args.token && args.content === undefined) return fail("give the note's content");
      const content = args.content;
      return previewOrApply(context, 'write_note', args, content === undefined ? null : () => content, { create: !args.overwrite });
    },
  });
}

function undoWrite(context: ToolContext): Tool {
  const { engine } = context;
  return defineTool('undo_write', {
    title: 'Undo a write',
    description: `Reverts one journaled write an agent made (its number is in the write's result and in ${engine.agentRoot}/Audit.md) if the note still holds exactly what that write left; otherwise refuses and says why. Inside ${engine.agentRoot}/ it reverts at once; on a note of the human's it previews the undo and applies it with the returned token. The Librarian's and the graph's writes are undone with their whole run (undo_run).`,
    inputSchema: {
      id: z.number().int().min(1).describe("the write's journal number"),
      token: z.string().optional().describe('apply an undo previewed earlier'),
    },
    outputSchema: outsideSchema,
    annotations: { ...WRITES, destructiveHint: true },
    handler: async (args) => {
      if (args.token) return applyToken(context, args.token, { tool: 'undo_write', undoOf: args.id });
      const verdict = engine.writer().undoVerdict(args.id);
      if (verdict.kind === 'refused') return fail(verdict.reason, verdict.code);
      if (verdict.kind === 'confirm') return askOrOffer(context, 'undo_write', verdict.reason, engine.writer().previewUndo(args.id));
      const receipt = await engine.undo(args.id);
      return done({ ...receipt, created: false }, {}, `reverted write #${args.id} on ${receipt.path} (recorded as write #${receipt.journalId})`);
    },
  });
}
