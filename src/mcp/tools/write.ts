/**
 * Agent-folder write tools: session logs, inbox captures, concepts and tasks, all inside the
 * agent folder (`Claude/` by default), where writes are free. Every write is journaled
 * (undo_write reverts it) and searchable when the tool returns: `engine.write` indexes what
 * the write's receipt says it touched.
 */
import { z } from 'zod';
import { agent, freeNotePath, safeNoteName } from '../../writes/index.js';
import type { VaultEngine } from '../engine.js';
import { fail } from '../results.js';
import { defineTool, WRITES, type Tool, type ToolContext } from './define.js';
import { done, receiptSchema } from './shared.js';

const today = () => new Date().toISOString().slice(0, 10);

export function writeTools({ engine }: ToolContext): Tool[] {
  return [logSession(engine), capture(engine), upsertConcept(engine), addTask(engine)];
}

function logSession(engine: VaultEngine): Tool {
  return defineTool('log_session', {
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
    handler: async (args) => {
      const name = safeNoteName(`${today()} ${args.title}`);
      if (!name.ok) return fail(name.reason);
      const root = engine.agentRoot;
      const path = freeNotePath(`${root}/Sessions`, name.name, (candidate) => engine.writer().exists(candidate));
      const frontmatter = [
        '---',
        `created: ${new Date().toISOString()}`,
        `agent: ${yamlString(args.agent)}`,
        ...(args.project ? [`project: ${yamlString(args.project)}`] : []),
        `tags: [${['session', ...args.tags].map(yamlString).join(', ')}]`,
        '---',
      ];
      const receipt = await engine.write({ by: agent('log_session'), path, create: true, next: () => `${frontmatter.join('\n')}\n# ${args.title.trim()}\n\n${args.body.trim()}\n` });
      const link = path.slice(0, -3);
      const index = await engine.write({
        by: agent('log_session'),
        path: `${root}/Index.md`,
        next: (current) => `${current ?? '# Index\n\n'}${current && !current.endsWith('\n') ? '\n' : ''}- ${today()} [[${link}|${args.title.trim()}]]${args.project ? ` (${oneLine(args.project)})` : ''}\n`,
      });
      return done({ ...receipt, indexWarning: receipt.indexWarning ?? index.indexWarning }, { index_journal_id: index.journalId });
    },
  });
}

function capture(engine: VaultEngine): Tool {
  return defineTool('capture', {
    title: 'Capture a thought',
    description: `Adds a timestamped line to today's inbox note (${engine.agentRoot}/Inbox/YYYY-MM-DD.md). For quick facts, ideas and to-dos worth triaging later.`,
    inputSchema: { text: z.string().min(1).max(20_000).describe('what to capture (one line or a short paragraph)') },
    outputSchema: receiptSchema,
    annotations: WRITES,
    handler: async (args) => {
      const time = new Date().toISOString().slice(11, 16);
      const line = `- ${time} ${oneLine(args.text)}`;
      const receipt = await engine.write({ by: agent('capture'), path: `${engine.agentRoot}/Inbox/${today()}.md`, next: (current) => `${current ?? `# Inbox ${today()}\n\n`}${current && !current.endsWith('\n') ? '\n' : ''}${line}\n` });
      return done(receipt);
    },
  });
}

function upsertConcept(engine: VaultEngine): Tool {
  return defineTool('upsert_concept', {
    title: 'Create or extend a concept',
    description: `Writes ${engine.agentRoot}/Concepts/<name>.md: creates it, or — when a concept of that name exists (case-insensitive) — appends the text under "## Update YYYY-MM-DD". Reports similar notes, so you can extend one instead of duplicating it.`,
    inputSchema: {
      name: z.string().max(200).describe("the concept's name; it becomes the file name"),
      body: z.string().min(1).max(200_000).describe('what the vault should know about it, in markdown'),
    },
    outputSchema: { ...receiptSchema, similar: z.array(z.object({ path: z.string(), title: z.string() })) },
    annotations: WRITES,
    handler: async (args) => {
      const name = safeNoteName(args.name);
      if (!name.ok) return fail(name.reason);
      const folder = `${engine.agentRoot}/Concepts`;
      const existing = engine.knownPaths().find((path) => path.toLowerCase() === `${folder}/${name.name}.md`.toLowerCase()) ?? `${folder}/${name.name}.md`;
      const similar = engine
        .search()
        .search({ query: args.name, limit: 5, mode: 'keyword' })
        .results.filter((hit) => hit.path !== existing)
        .map((hit) => ({ path: hit.path, title: hit.title }));
      const receipt = await engine.write({
        by: agent('upsert_concept'),
        path: existing,
        next: (current) =>
          current === null ? `---\ncreated: ${new Date().toISOString()}\ntype: concept\n---\n# ${name.name}\n\n${args.body.trim()}\n` : `${current}${current.endsWith('\n') ? '' : '\n'}\n## Update ${today()}\n\n${args.body.trim()}\n`,
      });
      return done(receipt, { similar });
    },
  });
}

const PRIORITY_MARKS: Record<string, string> = { highest: '🔺', high: '⏫', medium: '🔼', low: '🔽', lowest: '⏬' };

function addTask(engine: VaultEngine): Tool {
  return defineTool('add_task', {
    title: 'Add a task',
    description: `Adds a task in Obsidian Tasks format to ${engine.agentRoot}/Tasks.md: "- [ ] text ⏫ 📅 YYYY-MM-DD".`,
    inputSchema: {
      text: z.string().min(1).max(2000).describe('the task'),
      due: z.string().optional().describe('due date, YYYY-MM-DD'),
      priority: z.enum(['highest', 'high', 'medium', 'low', 'lowest']).optional().describe('Tasks priority'),
    },
    outputSchema: { ...receiptSchema, line: z.string() },
    annotations: WRITES,
    handler: async (args) => {
      if (args.due !== undefined && !isRealDate(args.due)) return fail(`due must be a real date like 2026-05-01, not "${args.due}"`);
      const line = `- [ ] ${oneLine(args.text)}${args.priority ? ` ${PRIORITY_MARKS[args.priority]}` : ''}${args.due ? ` 📅 ${args.due}` : ''}`;
      const receipt = await engine.write({ by: agent('add_task'), path: `${engine.agentRoot}/Tasks.md`, next: (current) => `${current ?? '# Tasks\n\n'}${current && !current.endsWith('\n') ? '\n' : ''}${line}\n` });
      return done(receipt, { line });
    },
  });
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
