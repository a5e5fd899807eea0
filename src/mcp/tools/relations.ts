/**
 * suggest_relations: related: entries for a note, proposed from the related lane (no model
 * needed), and written into its frontmatter when asked — through the write quarantine, so a
 * note of the human's is previewed and applied with the preview's token, and undo_write reverts
 * it. Only the related: field changes; the rest of the note keeps its bytes.
 */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { suggestRelations, type RelationSuggestion } from '../../session/index.js';
import { addRelatedEntries } from '../../vault/index.js';
import { agent } from '../../writes/index.js';
import type { VaultEngine } from '../engine.js';
import { fail, ok, type ToolResult } from '../results.js';
import { defineTool, WRITES, type Tool, type ToolContext } from './define.js';
import { done } from './shared.js';

export function relationTools({ engine }: ToolContext): Tool[] {
  return [suggestRelationsTool(engine)];
}

const TOOL = 'suggest_relations';

const OUTPUT = {
  path: z.string(),
  suggestions: z
    .array(
      z.object({
        path: z.string(),
        title: z.string(),
        entry: z.string().describe('the link written (a list of ids gets the id)'),
        id: z.string().nullable(),
        score: z.number(),
        signals: z.array(z.string()),
        chains: z.array(z.string()),
      }),
    )
    .optional(),
  applied: z.boolean(),
  preview: z.string().optional(),
  token: z.string().optional(),
  expires: z.string().optional(),
  journal_id: z.number().optional(),
  created: z.boolean().optional(),
  index_warning: z.string().optional(),
};

function suggestRelationsTool(engine: VaultEngine): Tool {
  return defineTool(TOOL, {
    title: 'Suggest related: entries',
    description:
      'Proposes related: frontmatter entries for a note from related_notes by "all" (its links, tags, distinctive terms, shared entities, vectors when present), leaving out notes its related: already names; each with the entry that would be written and the signals behind it. With apply: true it writes them (or only `targets`) into the note\'s related: list, changing nothing else in the note: at once inside the agent folder, elsewhere as a preview (a diff and a token) applied by calling again with token. Idempotent: entries already there are not added twice. undo_write reverts an applied change.',
    inputSchema: {
      path: z.string().optional().describe('vault-relative path of the note'),
      limit: z.number().int().min(1).max(20).default(5).describe('most entries proposed'),
      apply: z.boolean().default(false).describe('write the proposed entries into the note'),
      targets: z.array(z.string()).max(20).optional().describe('with apply: only these proposed notes (their paths)'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: OUTPUT,
    annotations: WRITES,
    handler: (args) => suggestOrApply(engine, args),
  });
}

type Args = { path?: string | undefined; limit: number; apply: boolean; targets?: string[] | undefined; token?: string | undefined };

/** List, write (agent folder), preview (the human's notes) or apply a preview's token. */
async function suggestOrApply(engine: VaultEngine, args: Args): Promise<ToolResult> {
  if (args.token) return done(await engine.apply(args.token, { tool: TOOL, ...(args.path ? { path: args.path } : {}) }), { applied: true });
  if (!args.path) return fail('give the path of a note, or the token of a preview to apply it');
  const resolved = engine.resolve(args.path);
  if (!resolved.ok) return fail(resolved.reason);
  const path = resolved.path;
  const suggestions = suggestRelations(engine.db, engine.search(), path, { limit: args.limit });
  if (suggestions === null) return fail(`${path} is not indexed yet; try again after indexing`, 'NOT_FOUND');
  const listed = suggestions.map((suggestion) => ({
    path: suggestion.path,
    title: suggestion.title,
    entry: suggestion.entry.link,
    id: suggestion.entry.id,
    score: suggestion.score,
    signals: suggestion.signals,
    chains: suggestion.chains,
  }));
  if (!args.apply) {
    const said =
      listed.length === 0
        ? `no new related: entries to suggest for ${path}`
        : `${listed.length} related: entries suggested for ${path}; call again with apply: true to write them all, or with targets: [paths] for some:\n${listed.map(suggestionLine).join('\n')}`;
    return ok({ path, suggestions: listed, applied: false }, said);
  }
  if (args.targets?.length === 0) return fail('targets is empty, so there is nothing to write; pass the paths of the suggestions to write (suggest_relations without apply lists them), or leave targets out to write them all');
  const chosen = pick(suggestions, args.targets);
  if (typeof chosen === 'string') return fail(chosen);
  if (chosen.length === 0) return ok({ path, suggestions: [], applied: false }, `nothing to add to ${path}: no note to suggest that its related: does not already name`);
  const next = (current: string | null): string => {
    const edit = addRelatedEntries(
      current ?? '',
      chosen.map((suggestion) => suggestion.entry),
    );
    if (!edit.ok) throw new EngramError('INVALID_INPUT', `${path}: ${edit.reason}`);
    return edit.text;
  };
  const by = agent(TOOL);
  const verdict = engine.writer().verdict({ by, path });
  if (verdict.kind === 'refused') return fail(verdict.reason, verdict.code);
  if (verdict.kind === 'free') return done(await engine.write({ by, path, next }), { applied: true, suggestions: listed.filter((entry) => chosen.some((c) => c.path === entry.path)) });
  const preview = engine.writer().preview({ by, path, next });
  return ok(
    { path, suggestions: listed.filter((entry) => chosen.some((c) => c.path === entry.path)), applied: false, preview: preview.diff, token: preview.token, expires: preview.expires },
    `${verdict.reason}. Nothing was written yet. Show the human this change and, if they agree, call ${TOOL} again with token "${preview.token}" (valid until ${preview.expires}):\n\n${preview.diff}`,
  );
}

/** A suggestion in the text: where, the entry written, and the signals that found it. */
function suggestionLine(suggestion: { path: string; entry: string; signals: readonly string[] }): string {
  return `- ${suggestion.path} → ${suggestion.entry} (${suggestion.signals.join(', ')})`;
}

/** The suggestions to write: all, or the ones `targets` names (each must be one of them). */
function pick(suggestions: readonly RelationSuggestion[], targets: readonly string[] | undefined): RelationSuggestion[] | string {
  if (!targets) return [...suggestions];
  const unknown = targets.filter((target) => !suggestions.some((suggestion) => suggestion.path === target));
  if (unknown.length > 0) return `not among the suggestions: ${unknown.join(', ')}; call suggest_relations without apply to see them`;
  return suggestions.filter((suggestion) => targets.includes(suggestion.path));
}
