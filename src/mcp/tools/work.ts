/**
 * Work tools: projects and issues as plain notes (see librarian/issues.ts for the record). A
 * project lives under Claude/Projects/ by default, where every change is free; a project in a
 * folder of the human's is created and changed through preview → apply like any note of theirs.
 * A closed issue (done, wontfix) is archived into the project's Archive/ folder — the link-safe,
 * journaled move undo_move reverts — at once, or after the project's `archive_after_days`; one
 * reopened moves back into Issues/ the same way.
 */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { CLOSED, ISSUE_PRIORITIES, ISSUE_STATUSES, parseIssue, projectNameProblem, renderIssue, renderProject, setFields, takeIssueNumber, transitionProblem, yamlList, yamlValue } from '../../librarian/index.js';
import { resolveNotePath } from '../../vault/index.js';
import { agent, safeNoteName } from '../../writes/index.js';
import { fail, ok } from '../results.js';
import { askOrOffer, previewOrApply } from './confirm.js';
import { defineTool, READ_ONLY, WRITES, type Tool, type ToolContext } from './define.js';
import { outsideSchema } from './edit.js';
import { insertText } from './insert-text.js';
import { done, readIndexed } from './shared.js';
import { archiveDue, archivedSchema, unarchivedSchema, type IssueMove } from './work-archive.js';
import { findIssue, findProject, findProjects, isArchived, projectIssues } from './work-store.js';
import { oneLine, tagList } from './write.js';

const today = () => new Date().toISOString().slice(0, 10);

export function workTools(context: ToolContext): Tool[] {
  return [createProject(context), createIssue(context), updateIssue(context), listIssues(context)];
}

function createProject(context: ToolContext): Tool {
  const { engine } = context;
  return defineTool('create_project', {
    title: 'Create a project',
    description: `Scaffolds a project: a folder with a README note (frontmatter type: project; goal, status, links; a Dataview table of its issues) and, with its first issue, an Issues/ folder. Under ${engine.agentRoot}/Projects/ by default (free); under a folder of the human's (root, e.g. "Projects") it previews first and applies with the returned token.`,
    inputSchema: {
      name: z.string().max(500).optional().describe('the project\'s name: one folder name, e.g. "Atlas"'),
      goal: z.string().max(20_000).default('').describe('what the project is for'),
      links: z.array(z.string().max(500)).max(50).default([]).describe('related notes or URLs, e.g. "[[Atlas spec]]"'),
      root: z.string().max(500).optional().describe(`the projects folder, relative to the vault (default ${engine.agentRoot}/Projects)`),
      archive_after_days: z.number().int().min(0).max(3650).default(0).describe('days a closed issue waits before it is archived (0: at once)'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: { ...outsideSchema, folder: z.string().optional() },
    annotations: WRITES,
    handler: async (args) => {
      if (args.token) return previewOrApply(context, 'create_project', { token: args.token }, null, { create: true });
      if (!args.name) return fail("give the project's name (or the token of a preview to apply it)");
      const problem = projectNameProblem(args.name);
      if (problem !== null) return fail(problem);
      const name = args.name.trim();
      const existing = findProjects(engine).find((project) => project.name.toLowerCase() === name.toLowerCase());
      if (existing) return fail(`a project "${existing.name}" exists already at ${existing.folder}/; file issues in it, or choose another name`, 'CONFLICT');
      // Only trailing slashes go: a leading one makes the root absolute, which the path gate refuses.
      const root = (args.root ?? `${engine.agentRoot}/Projects`).replace(/\/+$/, '');
      const folder = root === '' ? name : `${root}/${name}`;
      const gate = resolveNotePath(engine.vault, `${folder}/README.md`, { allowMissing: true });
      if (!gate.ok) return fail(args.root === undefined ? gate.reason : `root "${args.root}" cannot hold the project: ${gate.reason}`);
      const links = [...new Set(args.links.map(oneLine).filter((link) => link !== ''))];
      const text = renderProject({ name, folder, goal: args.goal, links, today: today(), archiveAfterDays: args.archive_after_days });
      return previewOrApply(context, 'create_project', { path: `${folder}/README.md` }, () => text, { create: true });
    },
  });
}

function createIssue(context: ToolContext): Tool {
  const { engine } = context;
  return defineTool('create_issue', {
    title: 'File an issue',
    description:
      "Files an issue in a project: a note <project>/Issues/<n> <title>.md whose frontmatter is the record (type: issue, issue: its number, project, status: open, priority, assignee, labels, created, updated). Numbers count up per project (the README's next_issue). Labels are written as tags are: a leading # dropped, empty and repeated ones left out, one with a space or a dot refused. Free in the agent folder; in a project of the human's it previews first.",
    inputSchema: {
      project: z.string().max(500).optional().describe("the project's name"),
      title: z.string().max(500).optional().describe('a short title; it becomes the file name'),
      body: z.string().max(200_000).default('').describe('what the issue is about, in markdown'),
      priority: z.enum(ISSUE_PRIORITIES).default('medium').describe('low, medium, high or urgent'),
      assignee: z.string().max(100).optional().describe('who works on it'),
      labels: z.array(z.string().max(60)).max(20).default([]).describe('labels, e.g. ["bug"]'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: { ...outsideSchema, id: z.number().optional() },
    annotations: WRITES,
    handler: async (args) => {
      if (args.token) return previewOrApply(context, 'create_issue', { token: args.token }, null, { create: true });
      if (!args.project || !args.title) return fail('give the project and a title (or the token of a preview to apply it)');
      const labels = tagList(args.labels, 'label');
      if (!labels.ok) return fail(labels.reason);
      const project = findProject(engine, args.project);
      const title = oneLine(args.title);
      const named = safeNoteName(`999999 ${title}`);
      if (!named.ok) return fail(named.reason);
      const by = agent('create_issue');
      const floor = Math.max(0, ...projectIssues(engine, project).map((issue) => issue.id)) + 1;
      const issue = (id: number) => ({
        path: `${project.folder}/Issues/${id} ${named.name.slice(7)}.md`,
        text: renderIssue({ id, title, project: project.name, priority: args.priority, assignee: args.assignee ? oneLine(args.assignee) : null, labels: labels.values, body: args.body, today: today() }),
      });
      if (engine.writer().verdict({ by, path: project.readme }).kind !== 'free') {
        // The human approves the new note; its number is the next free one now.
        const { path, text } = issue(floor);
        return previewOrApply(context, 'create_issue', { path }, () => text, { create: true });
      }
      // The number is taken under the write lock (README's next_issue), so two agents never share one.
      let id = floor;
      await engine.write({
        by,
        path: project.readme,
        next: (current) => {
          if (current === null) throw new EngramError('NOT_FOUND', `${project.readme} is gone; create the project again`);
          const taken = takeIssueNumber(current, floor);
          id = taken.id;
          return taken.text;
        },
      });
      const { path, text } = issue(id);
      const receipt = await engine.write({ by, path, create: true, next: () => text });
      await archiveDue(engine, project, today());
      return done(receipt, { id }, `filed issue ${id} as ${path}`);
    },
  });
}

function updateIssue(context: ToolContext): Tool {
  const { engine } = context;
  return defineTool('update_issue', {
    title: 'Update an issue',
    description:
      "Changes an issue's status (open → doing → done or wontfix; done and wontfix reopen to open), priority, assignee or labels, and appends a comment with the date and author. Reads the note as it is now, so a human's edit stands. A closed issue is archived to the project's Archive/ folder with its links kept (at once, or after the project's archive_after_days; undo_move reverts it); a reopened one moves back to Issues/ the same way.",
    inputSchema: {
      id: z.number().int().min(1).optional().describe("the issue's number"),
      project: z.string().max(500).optional().describe('its project (needed when several projects have that number)'),
      status: z.enum(ISSUE_STATUSES).optional().describe('the new status'),
      priority: z.enum(ISSUE_PRIORITIES).optional().describe('the new priority: low, medium, high or urgent'),
      assignee: z.string().max(100).optional().describe('who works on it ("" to clear)'),
      labels: z.array(z.string().max(60)).max(20).optional().describe('the labels, replacing the old ones'),
      comment: z.string().max(20_000).optional().describe('a comment, appended under ## Comments'),
      author: z.string().max(100).default('claude').describe('who comments'),
      token: z.string().optional().describe('apply a preview made earlier'),
    },
    outputSchema: { ...outsideSchema, status: z.string().optional(), archived: archivedSchema, unarchived: unarchivedSchema, archive_deferred: z.string().optional() },
    annotations: WRITES,
    handler: async (args) => {
      if (args.token) return previewOrApply(context, 'update_issue', { token: args.token }, null, { create: false });
      if (args.id === undefined) return fail("give the issue's id (list_issues shows them)");
      if ([args.status, args.priority, args.assignee, args.labels, args.comment].every((value) => value === undefined)) return fail('nothing to change: give a status, priority, assignee, labels or a comment');
      const labels = args.labels === undefined ? undefined : tagList(args.labels, 'label');
      if (labels?.ok === false) return fail(labels.reason);
      const { project, issue } = findIssue(engine, args.id, args.project);
      const next = issueEdit(issue.path, { ...args, labels: labels?.values });
      const by = agent('update_issue');
      const verdict = engine.writer().verdict({ by, path: issue.path });
      if (verdict.kind === 'confirm') return askOrOffer(context, 'update_issue', verdict.reason, engine.writer().preview({ by, path: issue.path, next }));
      const receipt = await engine.write({ by, path: issue.path, next });
      const { archived, unarchived, deferred } = await archiveDue(engine, project, today());
      // The issue may have moved (archived, or back from the archive): its record is read where it is now.
      const path = [...archived, ...unarchived].find((move) => move.from === receipt.path)?.to ?? receipt.path;
      const read = readIndexed(engine, path);
      const status = (read.ok ? parseIssue(path, read.text)?.status : undefined) ?? args.status ?? issue.status;
      const said = `updated issue ${issue.id} (${status}; write #${receipt.journalId})${movesSaid(archived, unarchived)}${deferred ? `; ${deferred}` : ''}`;
      const stays = deferred === null && status !== issue.status && !CLOSED.has(status) && path.startsWith(`${project.folder}/Archive/`);
      // Only a move among the agent's notes is automatic; a reopened issue whose move would change a human's note waits for move_note.
      const hint = stays ? `; it stays in ${project.folder}/Archive/ because moving it back would change a note of the human's: move_note {from: "${path}", to: "${project.folder}/Issues/"} does it with their confirmation` : '';
      return done({ ...receipt, path }, { status, archived, unarchived, ...(deferred ? { archive_deferred: deferred } : {}) }, `${said}${hint}`);
    },
  });
}

function movesSaid(archived: readonly IssueMove[], unarchived: readonly IssueMove[]): string {
  return [...archived.map((a) => `; archived to ${a.to} (undo_move ${a.move_id})`), ...unarchived.map((a) => `; reopened, so moved back to ${a.to} (undo_move ${a.move_id})`)].join('');
}

/** What update_issue changes; `labels` already through `tagList`. */
type IssueEdit = { id?: number; status?: (typeof ISSUE_STATUSES)[number]; priority?: string; assignee?: string; labels?: string[] | undefined; comment?: string; author: string };

/** The issue's new text from its text as it is now: checked against its current status, then only the named fields changed. */
function issueEdit(path: string, args: IssueEdit): (current: string | null) => string {
  return (current) => {
    if (current === null) throw new EngramError('NOT_FOUND', `${path} is gone (moved or deleted since it was found); list_issues again`);
    const now = parseIssue(path, current);
    if (now === null) throw new EngramError('CONFLICT', `${path} is no longer an issue note (its type changed); leave it to the human`);
    if (args.status !== undefined) {
      const problem = transitionProblem(now.status, args.status);
      if (problem !== null) throw new EngramError('INVALID_INPUT', `${problem}; nothing was written`);
    }
    const fields: Record<string, string | null> = { updated: today() };
    if (args.status !== undefined && args.status !== now.status) {
      fields.status = args.status;
      fields.closed = CLOSED.has(args.status) ? today() : null;
    }
    if (args.priority !== undefined) fields.priority = args.priority;
    if (args.assignee !== undefined) fields.assignee = args.assignee.trim() === '' ? null : yamlValue(oneLine(args.assignee));
    if (args.labels !== undefined) fields.labels = yamlList(args.labels);
    const text = setFields(current, fields);
    if (args.comment === undefined || args.comment.trim() === '') return text;
    const line = `- ${today()} ${oneLine(args.author)}: ${oneLine(args.comment)}`;
    return /^## Comments\s*$/im.test(text) ? insertText(text, line, 'under_heading', 'Comments') : `${text}${text.endsWith('\n') ? '' : '\n'}\n## Comments\n\n${line}\n`;
  };
}

function listIssues({ engine }: ToolContext): Tool {
  return defineTool('list_issues', {
    title: 'List issues',
    description: 'Issues by project, status, label, assignee or words in the title, read from the notes as they are now (archived ones included, marked), in project and id order, a page at a time.',
    inputSchema: {
      project: z.string().max(500).optional().describe("a project's name (default: every project)"),
      status: z.array(z.enum(ISSUE_STATUSES)).max(4).optional().describe('only these statuses'),
      label: z.string().max(60).optional().describe('only issues with this label'),
      assignee: z.string().max(100).optional().describe('only issues assigned to them'),
      text: z.string().max(500).optional().describe('words in the title'),
      limit: z.number().int().min(1).max(500).default(50).describe('issues per page'),
      cursor: z.string().max(100).optional().describe('next_cursor from the previous page'),
    },
    outputSchema: {
      issues: z.array(
        z.object({
          project: z.string(),
          id: z.number(),
          title: z.string(),
          status: z.string(),
          priority: z.string().nullable(),
          assignee: z.string().nullable(),
          labels: z.array(z.string()),
          path: z.string(),
          archived: z.boolean(),
          closed: z.string().nullable(),
        }),
      ),
      total: z.number(),
      next_cursor: z.string().nullable(),
    },
    annotations: READ_ONLY,
    handler: (args) => {
      const start = args.cursor === undefined ? 0 : Number(/^i(\d+)$/.exec(args.cursor)?.[1] ?? NaN);
      if (!Number.isInteger(start)) return fail(`"${args.cursor}" is not a cursor list_issues gave; pass next_cursor as it is, or none for the first page`);
      const projects = args.project === undefined ? findProjects(engine) : [findProject(engine, args.project)];
      const words = (args.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const issues = projects
        .flatMap((project) => projectIssues(engine, project).map((issue) => ({ ...issue, project: project.name, archived: isArchived(project, issue) })))
        .filter((issue) => args.status === undefined || (args.status as string[]).includes(issue.status))
        .filter((issue) => args.label === undefined || issue.labels.some((label) => label.toLowerCase() === args.label!.toLowerCase()))
        .filter((issue) => args.assignee === undefined || issue.assignee?.toLowerCase() === args.assignee.toLowerCase())
        .filter((issue) => words.every((word) => issue.title.toLowerCase().includes(word)));
      const page = issues.slice(start, start + args.limit).map(({ project, id, title, status, priority, assignee, labels, path, archived, closed }) => ({ project, id, title, status, priority, assignee, labels, path, archived, closed }));
      const next = start + args.limit < issues.length ? `i${start + args.limit}` : null;
      const lines = page.map((issue) => `${issue.project} #${issue.id} [${issue.status}] ${issue.title}${issue.assignee ? ` @${issue.assignee}` : ''}${issue.archived ? ' (archived)' : ''}`);
      return ok({ issues: page, total: issues.length, next_cursor: next }, [`${page.length} of ${issues.length} issues`, ...lines, ...(next ? [`more: cursor "${next}"`] : [])].join('\n'));
    },
  });
}
