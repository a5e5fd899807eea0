/**
 * Agent-folder write tools: session logs, inbox captures, concepts and tasks, all inside the
 * agent folder (`Claude/` by default), where writes are free. Every write is journaled
 * (undo_write reverts it) and searchable when the tool returns: `engine.write` indexes what
 * the write's receipt says it touched.
 */
import { z } from 'zod';
import { agent, freeNotePath, safeNoteName } from '../../writes/index.js';
import type { IndexedReceipt, VaultEngine } from '../engine.js';
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
      const title = oneLine(args.title);
      // The date alone would make a name ("2026-12-04.md") for a log whose heading says nothing.
      if (title === '') return fail('the title is empty; give the session a title');
      const tags = tagList(['session', ...args.tags], 'tag');
      if (!tags.ok) return fail(tags.reason);
      const name = safeNoteName(`${today()} ${title}`);
      if (!name.ok) return fail(name.reason);
      const root = engine.agentRoot;
      const path = freeNotePath(`${root}/Sessions`, name.name, (candidate) => engine.writer().exists(candidate));
      const frontmatter = ['---', `created: ${new Date().toISOString()}`, `agent: ${yamlString(args.agent)}`, ...(args.project ? [`project: ${yamlString(args.project)}`] : []), `tags: [${tags.values.map(yamlString).join(', ')}]`, '---'];
      const receipt = await engine.write({ by: agent('log_session'), path, create: true, next: () => `${frontmatter.join('\n')}\n# ${title}\n\n${args.body.trim()}\n` });
      const link = path.slice(0, -3);
      const index = await engine.write({
        by: agent('log_session'),
        path: `${root}/Index.md`,
        next: (current) => `${current ?? '# Index\n\n'}${current && !current.endsWith('\n') ? '\n' : ''}- ${today()} [[${link}|${title}]]${args.project ? ` (${oneLine(args.project)})` : ''}\n`,
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
      const text = oneLine(args.text);
      if (text === '') return fail('the text is empty (only spaces or line breaks); give the thought to capture');
      const time = new Date().toISOString().slice(11, 16);
      const line = `- ${time} ${text}`;
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
      if (args.body.trim() === '') return fail('the body is empty (only spaces or line breaks); say what the vault should know about the concept');
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
      return done(receipt, { similar }, similarSaid(receipt, similar));
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
      if (oneLine(args.text) === '') return fail('the task is empty (only spaces or line breaks); say what is to be done');
      if (args.due !== undefined && !isRealDate(args.due)) return fail(`due must be a real date like 2026-05-01, not "${args.due}"`);
      const line = `- [ ] ${oneLine(args.text)}${args.priority ? ` ${PRIORITY_MARKS[args.priority]}` : ''}${args.due ? ` 📅 ${args.due}` : ''}`;
      const receipt = await engine.write({ by: agent('add_task'), path: `${engine.agentRoot}/Tasks.md`, next: (current) => `${current ?? '# Tasks\n\n'}${current && !current.endsWith('\n') ? '\n' : ''}${line}\n` });
      return done(receipt, { line });
    },
  });
}

/** upsert_concept's answer: the receipt, and the similar notes by path (the first few), so an agent reading only the text sees a near-duplicate. */
function similarSaid(receipt: IndexedReceipt, similar: readonly { path: string }[]): string {
  const said = `${receipt.created ? 'created' : 'updated'} ${receipt.path} (write #${receipt.journalId}; undo_write can revert it)`;
  if (similar.length === 0) return said;
  const shown = similar.slice(0, SIMILAR_SHOWN).map((note) => note.path);
  const more = similar.length > shown.length ? ` and ${similar.length - shown.length} more` : '';
  return `${said}; similar notes: ${shown.join(', ')}${more} (if one is about this concept, extend it rather than keep two notes on one thing)`;
}

/** Similar notes named in upsert_concept's text (all of them are in structuredContent). */
const SIMILAR_SHOWN = 3;

/** The longest piece of a refused value quoted back in a message. */
const SHOWN_CHARS = 40;

/**
 * Tags (or issue labels) as written into frontmatter: a leading # dropped, empty ones and
 * repeats (case-insensitive, as Obsidian matches tags) left out; one that Obsidian would not
 * read as a tag — a space, a dot, an empty part between slashes, digits alone — is refused,
 * naming it.
 */
export function tagList(values: readonly string[], what: 'tag' | 'label'): { ok: true; values: string[] } | { ok: false; reason: string } {
  const kept = new Map<string, string>();
  for (const value of values) {
    const tag = oneLine(value).replace(/^#+/, '').trim().normalize('NFC');
    if (tag === '') continue;
    const problem = tagProblem(tag);
    if (problem !== null) return { ok: false, reason: `${what} "${shown(oneLine(value))}" ${problem}; a ${what} is letters, digits, _ and -, with / between nested parts (area/health): rename it or leave it out` };
    if (!kept.has(tag.toLowerCase())) kept.set(tag.toLowerCase(), tag);
  }
  return { ok: true, values: [...kept.values()] };
}

function tagProblem(tag: string): string | null {
  if (/\s/u.test(tag)) return 'contains a space';
  const bad = /[^\p{L}\p{N}\p{M}_\-/]/u.exec(tag);
  if (bad) return `contains "${bad[0]}"`;
  if (tag.startsWith('/') || tag.endsWith('/') || tag.includes('//')) return 'has an empty part between slashes';
  if (/^[\p{N}/]+$/u.test(tag)) return 'is only digits, which Obsidian does not read as a tag';
  return null;
}

/** A value quoted back in a message: at most SHOWN_CHARS characters, cut between code points. */
function shown(value: string): string {
  const points = Array.from(value);
  return points.length <= SHOWN_CHARS ? value : `${points.slice(0, SHOWN_CHARS).join('')}…`;
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
