/**
 * Preview → apply, shared by the tools that change notes of the human's: inside the agent
 * folder a change is made at once; elsewhere the human sees it first — asked directly when the
 * client supports elicitation, else given the diff and a token the agent applies with.
 */
import { agent, type Preview } from '../../writes/index.js';
import type { ApplyExpectation } from '../engine.js';
import { fail, ok, type ToolResult } from '../results.js';
import type { ToolContext } from './define.js';
import { done } from './shared.js';

/** `next` is null when the call carries no content (a token alone). */
export async function previewOrApply(context: ToolContext, tool: string, args: { path?: string; token?: string }, next: ((current: string | null) => string) | null, { create }: { create: boolean }): Promise<ToolResult> {
  const { engine } = context;
  if (args.token) return applyToken(context, args.token, { tool, ...(args.path ? { path: args.path } : {}), ...(next ? { next } : {}) });
  if (!args.path || !next) return fail('give a path (and content), or the token of a preview to apply it');
  // The writer's typed verdict says whether the human must see it first; the MCP layer does not classify.
  const by = agent(tool);
  const verdict = engine.writer().verdict({ by, path: args.path });
  if (verdict.kind !== 'confirm') return done(await engine.write({ by, path: args.path, next, create }));
  return askOrOffer(context, tool, verdict.reason, engine.writer().preview({ by, path: args.path, next, create }));
}

/** Applies a preview's token; what the caller sent along must be what was previewed. */
export async function applyToken({ engine }: ToolContext, token: string, expect: ApplyExpectation): Promise<ToolResult> {
  return done(await engine.apply(token, expect), { applied: true });
}

/**
 * A previewed change to a note of the human's: a client that can ask its human does so now;
 * the rest get the diff and a token. (A transport that cannot carry the question — Engram's
 * JSON-only HTTP endpoint — fails it at once, and the answer is the diff and the token.)
 * `approved` applies the preview when the human said yes (by default: the write's token).
 */
export async function askOrOffer(context: ToolContext, tool: string, reason: string, preview: Preview, approved: () => Promise<ToolResult> = () => applyToken(context, preview.token, {})): Promise<ToolResult> {
  const { server } = context;
  const answer = server.server.getClientCapabilities()?.elicitation
    ? await server.server
        .elicitInput({
          message: `Engram wants to change ${preview.path}, which is yours:\n\n${preview.diff}\n\nApprove this change?`,
          requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve', description: 'Apply this change to your note' } }, required: ['approve'] },
        })
        .catch(() => null)
    : null;
  if (answer) {
    if (answer.action === 'accept' && answer.content?.approve === true) return approved();
    return fail(`the human did not approve the change to ${preview.path}; nothing was written`, 'WRITE_REFUSED');
  }
  return ok(
    { path: preview.path, preview: preview.diff, token: preview.token, expires: preview.expires, applied: false },
    `${reason}. Nothing was written yet. Show the human this change and, if they agree, call ${tool} again with token "${preview.token}" (valid until ${preview.expires}):\n\n${preview.diff}`,
  );
}
