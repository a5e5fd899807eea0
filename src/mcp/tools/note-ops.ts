/**
 * Note operations: editing a note by section (update_note), moving a note with its links kept
 * (move_note) and listing the notes Engram has indexed (list_notes). Inside the agent folder the
 * changes are made at once; a change that touches a note of the human's is previewed first.
 */
import { posix } from 'node:path';
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { LIST_NOTES_DEFAULTS, listNotes, planMove } from '../../librarian/index.js';
import { parseDateBound } from '../../search/index.js';
import { resolveNotePath } from '../../vault/index.js';
import { agent, type MoveReceipt, type WriteVerdict } from '../../writes/index.js';
import { fail, ok, type ToolResult } from '../results.js';
import { askOrOffer, previewOrApply } from './confirm.js';
import { defineTool, READ_ONLY, WRITES, type Tool, type ToolContext } from './define.js';
import { outsideSchema } from './edit.js';
import { folderArg, folderList, resolvePath } from './shared.js';
import { updateText } from './sections.js';

export function noteOpsTools(context: ToolContext): Tool[] {
  return [updateNote(context), moveNoteTool(context), listNotesTool(context)];
}

function updateNote(context: ToolContext): Tool {
  return defineTool('update_note', {
    title: 'Update a note',
    description:
      'Edits a note in one of four ways: append (at the end), prepend (at the start, after any frontmatter), replace_section (a heading\'s body, up to the next heading of the same or a higher level, becomes the content; the heading stays), insert_under_heading (right under the heading). Name a heading by its text, or by its path "Plan > Risks" when titles repeat; headings inside code blocks do not count. Free in the agent folder; elsewhere it previews the change first and applies it with the returned token.',
    inputSchema: {
      path: z.string().optional().describe('vault-relative path of the note'),
      mode: z.enum(['append', 'prepend', 'replace_section', 'insert_under_heading']).default('append').describe('how to change it'),
      content: z.string().max(500_000).optional().describe("markdown to add, or the section's new body (may be empty for replace_section)"),
      heading: z.string().max(2000).optional().describe('for the section modes: heading text without #, or a path "A > B"'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: outsideSchema,
    annotations: { ...WRITES, destructiveHint: true },
    handler: async (args) => {
      const section = args.mode === 'replace_section' || args.mode === 'insert_under_heading';
      if (!args.token && args.content === undefined) return fail('give the content (or the token of a preview to apply it)');
      if (!args.token && args.content === '' && args.mode !== 'replace_section') return fail(`${args.mode} needs some content; only replace_section takes an empty one (it empties the section)`);
      if (!args.token && section && !args.heading?.trim()) return fail(`${args.mode} needs the heading: its text, or a path like "Plan > Risks"`);
      const content = args.content;
      const next =
        content === undefined
          ? null
          : (current: string | null) => {
              if (current === null) throw new EngramError('NOT_FOUND', `${args.path} does not exist; create it with write_note`);
              return updateText(current, args.mode, content, args.heading);
            };
      return previewOrApply(context, 'update_note', args, next, { create: false });
    },
  });
}

const moveSchema = {
  ...outsideSchema,
  from: z.string().optional(),
  to: z.string().optional(),
  move_id: z.number().optional(),
  relinked: z.array(z.string()).optional(),
};

function moveNoteTool(context: ToolContext): Tool {
  const { engine } = context;
  return defineTool('move_note', {
    title: 'Move a note',
    description: `Moves or renames a note and rewrites every link to it (wikilinks, embeds, markdown links, frontmatter links), as the caretaker's filing does; journaled as one move, which undo_move reverts byte for byte. Free when the note, its new place and every linking note are in ${engine.agentRoot}/; otherwise it previews the move and the link changes first and applies them with the returned token. Refuses a target that exists, a dot-folder, or the same place.`,
    inputSchema: {
      from: z.string().optional().describe('vault-relative path of the note'),
      to: z.string().optional().describe('its new path (ending in .md), or a folder ending in / to keep its name'),
      token: z.string().optional().describe('apply a move previewed earlier'),
    },
    outputSchema: moveSchema,
    annotations: WRITES,
    handler: async (args) => {
      const by = agent('move_note');
      const plan = (from: string, to: string) => planMove(engine.db, by, from, to);
      if (args.token) return moved(await engine.change('a move', () => engine.writer().applyMove(args.token!, plan), touchedBy));
      if (!args.from || !args.to) return fail('give from and to (or the token of a previewed move)');
      const gate = resolveNotePath(engine.vault, args.from, { allowMissing: true });
      if (!gate.ok) return fail(gate.reason);
      const source = resolvePath(engine, args.from);
      if (!source.ok) return fail(`${source.reason}; list_notes or search_brain give the paths of the notes`, 'NOT_FOUND');
      const from = source.path;
      const to = args.to.endsWith('/') ? `${args.to.replace(/\/+$/, '')}/${posix.basename(from)}` : args.to;
      if (!/\.md$/i.test(to)) return fail(`the new path must end in .md (or be a folder ending in /), not "${args.to}"`);
      if (to.normalize('NFC') === from.normalize('NFC')) return fail(`${from} is already there; give another path or folder`);
      const request = plan(from, to);
      const verdicts = [from, to, ...request.rewrites.map((rewrite) => rewrite.path)].map((path) => ({ path, verdict: engine.writer().verdict({ by, path }) }));
      const refused = verdicts.find((entry): entry is { path: string; verdict: Extract<WriteVerdict, { kind: 'refused' }> } => entry.verdict.kind === 'refused');
      if (refused) return fail(refused.verdict.reason, refused.verdict.code);
      const confirm = verdicts.find((entry) => entry.verdict.kind === 'confirm');
      if (!confirm) return moved(await engine.change('a move', () => engine.writer().move(request), touchedBy));
      const preview = engine.writer().previewMove(request);
      const reason = `moving ${from} to ${to} changes ${confirm.path}, which is the human's: it needs their confirmation`;
      return askOrOffer(context, 'move_note', reason, preview, async () => moved(await engine.change('a move', () => engine.writer().applyMove(preview.token, plan), touchedBy)));
    },
  });
}

const touchedBy = (receipt: MoveReceipt) => [receipt.from, receipt.to, ...receipt.rewritten];

function moved(receipt: MoveReceipt): ToolResult {
  return ok(
    { from: receipt.from, to: receipt.to, move_id: receipt.moveId, relinked: receipt.rewritten, applied: true },
    `moved ${receipt.from} → ${receipt.to} (move ${receipt.moveId}; ${receipt.rewritten.length} notes relinked; undo_move ${receipt.moveId} reverts it)`,
  );
}

function listNotesTool({ engine }: ToolContext): Tool {
  return defineTool('list_notes', {
    title: 'List notes',
    description:
      'Every indexed note in path order, a page at a time (pass next_cursor back for the next page), with the filters search takes. Each note: size in bytes, modified time, blocks (sections), vectors (fresh: made from its current text; stale: from an older one) and whether the graph has extracted its current text.',
    inputSchema: {
      folder: folderArg,
      exclude_folders: z.array(z.string()).optional().describe('folders to leave out'),
      tags: z.array(z.string()).optional().describe('tags; "project" also matches "project/atlas"'),
      tag_mode: z.enum(['any', 'all']).default('any').describe('any of the tags (default) or all of them'),
      types: z.array(z.string()).optional().describe('frontmatter type/kind values'),
      modified_after: z.string().optional().describe('only notes modified on or after: YYYY-MM-DD or an ISO time'),
      modified_before: z.string().optional().describe('only notes modified on or before: YYYY-MM-DD or an ISO time'),
      limit: z.number().int().min(1).max(LIST_NOTES_DEFAULTS.maxLimit).default(LIST_NOTES_DEFAULTS.limit).describe('notes per page'),
      cursor: z.string().max(4000).optional().describe('next_cursor from the previous page'),
    },
    outputSchema: {
      notes: z.array(z.object({ path: z.string(), title: z.string(), size: z.number(), modified: z.string(), blocks: z.number(), vectors: z.object({ fresh: z.number(), stale: z.number() }), extracted: z.boolean() })),
      total: z.number(),
      next_cursor: z.string().nullable(),
    },
    annotations: READ_ONLY,
    handler: (args) => {
      const bounds: { modifiedAfter?: number; modifiedBefore?: number } = {};
      for (const [key, value, endOfDay] of [
        ['modifiedAfter', args.modified_after, false],
        ['modifiedBefore', args.modified_before, true],
      ] as const) {
        if (value === undefined) continue;
        const ms = parseDateBound(value, { endOfDay });
        if (ms === null) return fail(`"${value}" is not a date; use YYYY-MM-DD or an ISO time`);
        bounds[key] = ms;
      }
      const filters = { folders: folderList(args.folder), excludeFolders: folderList(args.exclude_folders), tags: args.tags ?? [], tagMode: args.tag_mode, types: args.types ?? [], ...bounds };
      const listed = listNotes(engine.db, { filters, limit: args.limit, cursor: args.cursor ?? null });
      const lines = listed.notes.map(
        (note) => `${note.path} · ${note.size} B · ${note.modified.slice(0, 10)} · ${note.blocks} blocks · vectors ${note.vectors.fresh} fresh/${note.vectors.stale} stale${note.extracted ? ' · extracted' : ''}`,
      );
      const tail = listed.nextCursor ? `more: call again with cursor "${listed.nextCursor}"` : 'end of the list';
      return ok({ notes: listed.notes, total: listed.total, next_cursor: listed.nextCursor }, [`${listed.notes.length} of ${listed.total} notes`, ...lines, tail].join('\n'));
    },
  });
}
