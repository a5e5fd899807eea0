/**
 * Write tools: what an agent writes back. Inside the agent folder (`Claude/` by default) writes
 * are free, except the protected files; anywhere else a write is previewed first and applied
 * with the preview's token — or, when the client supports elicitation, the human is asked
 * directly. Every write is journaled (undo_write reverts it) and searchable when the tool returns.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { agent, freeNotePath, safeNoteName, type Preview, type WriteReceipt, type WriteRequest } from '../writes/index.js';
import type { VaultEngine } from './engine.js';
import { fail, guarded, ok, type ToolResult } from './results.js';

const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

const receiptSchema = { path: z.string(), journal_id: z.number(), created: z.boolean(), index_warning: z.string().optional() };

/** A receipt, and why the write is not searchable yet when indexing it failed (the write stands). */
type Committed = WriteReceipt & { indexWarning?: string | null };

export function registerWriteTools(server: McpServer, engine: VaultEngine): void {
  const root = () => engine.agentRoot;
  const today = () => new Date().toISOString().slice(0, 10);

  /** Commits inside the agent folder, then makes the change searchable before returning. */
  const commit = async (request: WriteRequest): Promise<Committed> => indexed(engine.writer().write(request));
  const indexed = async (receipt: WriteReceipt): Promise<Committed> =>
    ({ ...receipt, indexWarning: await engine.indexWritten([receipt.path, `${root()}/Audit.md`]) });
  const done = (receipt: Committed, extra: Record<string, unknown> = {}, text?: string): ToolResult => {
    const warning = receipt.indexWarning ? { index_warning: receipt.indexWarning } : {};
    const said = text ?? `${receipt.created ? 'created' : 'updated'} ${receipt.path} (write #${receipt.journalId}; undo_write can revert it)`;
    return ok({ path: receipt.path, journal_id: receipt.journalId, created: receipt.created, ...extra, ...warning }, receipt.indexWarning ? `${said}; warning: ${receipt.indexWarning}` : said);
  };

  server.registerTool('log_session', {
    title: 'Log a session',
    description: `Files a session log as ${engine.agentRoot}/Sessions/YYYY-MM-DD <title>.md (frontmatter created, agent, project, tags) and adds a line to the session index. Use at the end of a working session: what was done, decided and left open.`,
    inputSchema: {
      title: z.string().max(300).describe('a short title; it becomes the file name'),
      body: z.string().max(500_000).describe('the log, in markdown'),
      project: z.string().max(200).optional().describe('the project it belongs to'),
      tags: z.array(z.string().max(100)).max(20).default([]).describe('tags, without #'),
      agent: z.string().max(100).default('claude').describe('who is writing'),
    },
    outputSchema: { ...receiptSchema, index_journal_id: z.number() },
    annotations: WRITES,
  }, (args) => guarded(async () => {
    const name = safeNoteName(`${today()} ${args.title}`);
    if (!name.ok) return fail(name.reason);
    const path = freeNotePath(`${root()}/Sessions`, name.name, (candidate) => engine.writer().exists(candidate));
    const frontmatter = ['---', `created: ${new Date().toISOString()}`, `agent: ${yamlString(args.agent)}`,
      ...(args.project ? [`project: ${yamlString(args.project)}`] : []), `tags: [${['session', ...args.tags].map(yamlString).join(', ')}]`, '---'];
    const receipt = await commit({ by: agent('log_session'), path, create: true, next: () => `${frontmatter.join('\n')}\n# ${args.title.trim()}\n\n${args.body.trim()}\n` });
    const link = path.slice(0, -3);
    const index = await commit({ by: agent('log_session'), path: `${root()}/Index.md`, next: (current) => `${current ?? '# Index\n\n'}${current && !current.endsWith('\n') ? '\n' : ''}- ${today()} [[${link}|${args.title.trim()}]]${args.project ? ` (${oneLine(args.project)})` : ''}\n` });
    return done({ ...receipt, indexWarning: receipt.indexWarning ?? index.indexWarning }, { index_journal_id: index.journalId });
  }));

  server.registerTool('capture', {
    title: 'Capture a thought',
    description: `Adds a timestamped line to today's inbox note (${engine.agentRoot}/Inbox/YYYY-MM-DD.md). For quick facts, ideas and to-dos worth triaging later.`,
    inputSchema: { text: z.string().min(1).max(20_000).describe('what to capture (one line or a short paragraph)') },
    outputSchema: receiptSchema,
    annotations: WRITES,
  }, (args) => guarded(async () => {
    const time = new Date().toISOString().slice(11, 16);
    const line = `- ${time} ${oneLine(args.text)}`;
    const receipt = await commit({ by: agent('capture'), path: `${root()}/Inbox/${today()}.md`, next: (current) => `${current ?? `# Inbox ${today()}\n\n`}${current && !current.endsWith('\n') ? '\n' : ''}${line}\n` });
    return done(receipt);
  }));

  server.registerTool('upsert_concept', {
    title: 'Create or extend a concept',
    description: `Writes ${engine.agentRoot}/Concepts/<name>.md: creates it, or — when a concept of that name exists (case-insensitive) — appends the text under "## Update YYYY-MM-DD". Reports similar notes, so you can extend one instead of duplicating it.`,
    inputSchema: {
      name: z.string().max(200).describe('the concept\'s name; it becomes the file name'),
      body: z.string().min(1).max(200_000).describe('what the vault should know about it, in markdown'),
    },
    outputSchema: { ...receiptSchema, similar: z.array(z.object({ path: z.string(), title: z.string() })) },
    annotations: WRITES,
  }, (args) => guarded(async () => {
    const name = safeNoteName(args.name);
    if (!name.ok) return fail(name.reason);
    const folder = `${root()}/Concepts`;
    const existing = engine.knownPaths().find((path) => path.toLowerCase() === `${folder}/${name.name}.md`.toLowerCase()) ?? `${folder}/${name.name}.md`;
    const similar = engine.search().search({ query: args.name, limit: 5, mode: 'keyword' }).results
      .filter((hit) => hit.path !== existing).map((hit) => ({ path: hit.path, title: hit.title }));
    const receipt = await commit({
      by: agent('upsert_concept'), path: existing,
      next: (current) => current === null
        ? `---\ncreated: ${new Date().toISOString()}\ntype: concept\n---\n# ${name.name}\n\n${args.body.trim()}\n`
        : `${current}${current.endsWith('\n') ? '' : '\n'}\n## Update ${today()}\n\n${args.body.trim()}\n`,
    });
    return done(receipt, { similar });
  }));

  server.registerTool('add_task', {
    title: 'Add a task',
    description: `Adds a task in Obsidian Tasks format to ${engine.agentRoot}/Tasks.md: "- [ ] text ⏫ 📅 YYYY-MM-DD".`,
    inputSchema: {
      text: z.string().min(1).max(2000).describe('the task'),
      due: z.string().optional().describe('due date, YYYY-MM-DD'),
      priority: z.enum(['highest', 'high', 'medium', 'low', 'lowest']).optional().describe('Tasks priority'),
    },
    outputSchema: { ...receiptSchema, line: z.string() },
    annotations: WRITES,
  }, (args) => guarded(async () => {
    if (args.due !== undefined && !isRealDate(args.due)) return fail(`due must be a real date like 2026-05-01, not "${args.due}"`);
    const marks: Record<string, string> = { highest: '🔺', high: '⏫', medium: '🔼', low: '🔽', lowest: '⏬' };
    const line = `- [ ] ${oneLine(args.text)}${args.priority ? ` ${marks[args.priority]}` : ''}${args.due ? ` 📅 ${args.due}` : ''}`;
    const receipt = await commit({ by: agent('add_task'), path: `${root()}/Tasks.md`, next: (current) => `${current ?? '# Tasks\n\n'}${current && !current.endsWith('\n') ? '\n' : ''}${line}\n` });
    return done(receipt, { line });
  }));

  /** Applies a preview's token; what the caller sent along must be what was previewed. */
  const applyToken = async (token: string, expect: Parameters<ReturnType<VaultEngine['writer']>['apply']>[1]): Promise<ToolResult> => {
    const receipt = await indexed(engine.writer().apply(token, expect));
    return done(receipt, { applied: true });
  };

  /**
   * A previewed change to a note of the human's: a client that can ask its human does so now;
   * the rest get the diff and a token. (A transport that cannot carry the question — Engram's
   * JSON-only HTTP endpoint — fails it at once, and the answer is the diff and the token.)
   */
  const askOrOffer = async (tool: string, reason: string, preview: Preview): Promise<ToolResult> => {
    const answer = server.server.getClientCapabilities()?.elicitation
      ? await server.server.elicitInput({
        message: `Engram wants to change ${preview.path}, which is yours:\n\n${preview.diff}\n\nApprove this change?`,
        requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve', description: 'Apply this change to your note' } }, required: ['approve'] },
      }).catch(() => null)
      : null;
    if (answer) {
      if (answer.action === 'accept' && answer.content?.approve === true) return applyToken(preview.token, {});
      return fail(`the human did not approve the change to ${preview.path}; nothing was written`);
    }
    return ok({ path: preview.path, preview: preview.diff, token: preview.token, expires: preview.expires, applied: false },
      `${reason}. Nothing was written yet. Show the human this change and, if they agree, call ${tool} again with token "${preview.token}" (valid until ${preview.expires}):\n\n${preview.diff}`);
  };

  /** `next` is null when the call carries no content (a token alone). */
  const previewOrApply = async (tool: string, args: { path?: string; token?: string }, next: ((current: string | null) => string) | null, create: boolean): Promise<ToolResult> => {
    if (args.token) return applyToken(args.token, { tool, ...(args.path ? { path: args.path } : {}), ...(next ? { next } : {}) });
    if (!args.path || !next) return fail('give a path (and content), or the token of a preview to apply it');
    const verdict = engine.writer().verdict({ by: agent(tool), path: args.path });
    if (verdict.kind !== 'confirm') return done(await commit({ by: agent(tool), path: args.path, next, create }));
    return askOrOffer(tool, verdict.reason, engine.writer().preview({ by: agent(tool), path: args.path, next, create }));
  };

  const outsideSchema = {
    path: z.string().optional(), journal_id: z.number().optional(), created: z.boolean().optional(), applied: z.boolean().optional(), index_warning: z.string().optional(),
    preview: z.string().optional(), token: z.string().optional(), expires: z.string().optional(),
  };

  server.registerTool('append_note', {
    title: 'Append to a note',
    description: 'Appends text to a note: at the end, at the start (after any frontmatter), or at the end of a named section (the section ends at the next heading of the same or a higher level). Free in the agent folder; elsewhere it previews the change first and applies it with the returned token.',
    inputSchema: {
      path: z.string().optional().describe('vault-relative path of the note'),
      content: z.string().max(500_000).optional().describe('markdown to add'),
      position: z.enum(['end', 'start', 'under_heading']).default('end').describe('where to add it'),
      heading: z.string().optional().describe('for under_heading: the heading text, without #'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: outsideSchema,
    annotations: WRITES,
  }, (args) => guarded(async () => {
    if (!args.token && (args.content === undefined || args.content === '')) return fail('give the content to append');
    if (args.position === 'under_heading' && !args.heading && !args.token) return fail('under_heading needs the heading\'s text');
    const content = args.content ?? '';
    const next = (current: string | null): string => {
      if (current === null) throw new EngramError('USAGE', `${args.path} does not exist; create it with write_note`);
      return insertText(current, content, args.position, args.heading);
    };
    return previewOrApply('append_note', args, args.content ? next : null, false);
  }));

  server.registerTool('write_note', {
    title: 'Write a note',
    description: 'Creates a note; replaces an existing one only with overwrite: true. Free in the agent folder (except the caretaker\'s files, never written, and the constitution, previewed like the human\'s notes); elsewhere it previews the change first and applies it with the returned token.',
    inputSchema: {
      path: z.string().optional().describe('vault-relative path, ending in .md'),
      content: z.string().max(1_000_000).optional().describe('the whole note, in markdown'),
      overwrite: z.boolean().default(false).describe('replace the note if it exists'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: outsideSchema,
    annotations: { ...WRITES, destructiveHint: true },
  }, (args) => guarded(async () => {
    if (!args.token && args.content === undefined) return fail('give the note\'s content');
    const content = args.content;
    return previewOrApply('write_note', args, content === undefined ? null : () => content, !args.overwrite);
  }));

  server.registerTool('undo_write', {
    title: 'Undo a write',
    description: `Reverts one journaled write an agent made (its number is in the write's result and in ${engine.agentRoot}/Audit.md) if the note still holds exactly what that write left; otherwise refuses and says why. Inside ${engine.agentRoot}/ it reverts at once; on a note of the human's it previews the undo and applies it with the returned token. The Librarian's and the graph's writes are undone with their whole run (undo_run).`,
    inputSchema: {
      id: z.number().int().min(1).describe('the write\'s journal number'),
      token: z.string().optional().describe('apply an undo previewed earlier'),
    },
    outputSchema: outsideSchema,
    annotations: { ...WRITES, destructiveHint: true },
  }, (args) => guarded(async () => {
    if (args.token) return applyToken(args.token, { tool: 'undo_write', undoOf: args.id });
    const verdict = engine.writer().undoVerdict(args.id);
    if (verdict.kind === 'refused') return fail(verdict.reason, verdict.code);
    if (verdict.kind === 'confirm') return askOrOffer('undo_write', verdict.reason, engine.writer().previewUndo(args.id));
    const receipt = await indexed(engine.writer().undo(args.id, { agent: true }));
    return done({ ...receipt, created: false }, {}, `reverted write #${args.id} on ${receipt.path} (recorded as write #${receipt.journalId})`);
  }));
}

/** Inserts `content` at the end, the start (after frontmatter) or the end of a named section. */
export function insertText(current: string, content: string, position: 'end' | 'start' | 'under_heading', heading?: string): string {
  const addition = content.trim();
  if (position === 'end') return `${current}${current.endsWith('\n') || current === '' ? '' : '\n'}${addition}\n`;
  const lines = current.split('\n');
  let bodyStart = 0;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
    if (close !== -1) bodyStart = close + 1;
  }
  if (position === 'start') return [...lines.slice(0, bodyStart), addition, ...lines.slice(bodyStart)].join('\n');
  const wanted = (heading ?? '').replace(/^#+\s*/, '').trim().toLowerCase();
  let fence = false;
  let found = -1;
  let level = 0;
  for (let i = bodyStart; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i]!)) fence = !fence;
    if (fence) continue;
    const match = /^(#{1,6})\s+(.*?)\s*$/.exec(lines[i]!);
    if (!match) continue;
    if (found === -1 && match[2]!.toLowerCase() === wanted) {
      found = i;
      level = match[1]!.length;
    } else if (found !== -1 && match[1]!.length <= level) {
      return insertBefore(lines, i, addition);
    }
  }
  if (found === -1) throw new EngramError('USAGE', `no heading "${heading}" in the note; use position "end", or one of its headings`);
  return insertBefore(lines, lines.length, addition);
}

/** Inserts `addition` after the last non-blank line before line `at` (the end of a section). */
function insertBefore(lines: string[], at: number, addition: string): string {
  let end = at;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  const rest = lines.slice(end);
  if (rest.length === 0 || rest.every((line) => line.trim() === '')) return [...lines.slice(0, end), addition, ''].join('\n');
  // Keep the blank lines that separated the section from the next heading; add one if there were none.
  return [...lines.slice(0, end), addition, ...(rest[0]!.trim() === '' ? rest : ['', ...rest])].join('\n');
}

/**
 * Agent text for a single line: every line break — CRLF, LF, and a lone CR, which Obsidian also
 * ends a line at — becomes a space, so the text cannot start a task, a heading or a list item.
 */
export function oneLine(text: string): string {
  return text.trim().replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ');
}

function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function yamlString(value: string): string {
  return /^[\p{L}\p{N} _.-]+$/u.test(value) && !/^(true|false|null|yes|no|~|\d.*)$/i.test(value) ? value : JSON.stringify(value);
}
