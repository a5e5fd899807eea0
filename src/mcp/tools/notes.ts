/**
 * Note tools: reading one note, frontmatter queries, backlinks, recent notes, tasks, and the
 * recall bundle for a digest or a resume. Every path argument goes through `resolvePath`.
 */
import { z } from 'zod';
import { projectMentioned, recallBundle } from '../../librarian/index.js';
import { parseDateBound } from '../../search/index.js';
import { readNoteFile } from '../../vault/index.js';
import type { VaultEngine } from '../engine.js';
import { fail, ok } from '../results.js';
import { defineTool, READ_ONLY, type Tool, type ToolContext } from './define.js';
import { dateArg, folderArg, folderKeys, insideFolders, resolvePath } from './shared.js';
import { findProjects, unknownProject } from './work-store.js';

export function noteTools({ engine }: ToolContext): Tool[] {
  return [recallBundleTool(engine), readNote(engine), queryNotes(engine), getBacklinks(engine), listRecent(engine), listTasks(engine)];
}

function recallBundleTool(engine: VaultEngine): Tool {
  return defineTool('recall_bundle', {
    title: 'Recall: digest or resume',
    description:
      "Raw material for a digest or for resuming a project: recent agent sessions, inbox captures, open tasks, decisions and notes changed since a date; a digest adds the caretaker's last sweep, pending filing and merge proposals, and graph activity. Each section says its status (ok, empty, or why it is missing).",
    inputSchema: {
      mode: z.enum(['digest', 'resume']).default('digest').describe("digest: what happened since; resume: one project's state"),
      project: z.string().optional().describe('for resume: a project name, matched in paths, titles, tags and frontmatter'),
      since: dateArg('changes since (default: 7 days ago)'),
      limit: z.number().int().min(1).max(100).default(20).describe('items per section'),
    },
    outputSchema: { mode: z.string(), since: z.string(), project: z.string().nullable(), sections: z.record(z.string(), z.object({ status: z.string(), items: z.array(z.record(z.string(), z.unknown())) })) },
    annotations: READ_ONLY,
    handler: (args) => {
      const sinceMs = args.since === undefined ? Date.now() - 7 * 86_400_000 : parseDateBound(args.since, { endOfDay: false });
      if (sinceMs === null) return fail(`"${args.since}" is not a date; use YYYY-MM-DD`);
      if (args.mode === 'resume' && !args.project) return fail("resume needs a project: give the project's name");
      // A name no note mentions would answer every section "empty", as if the project were idle.
      if (args.project && !projectMentioned(engine.db, args.project)) throw unknownProject(findProjects(engine), `no project "${args.project}": no note names it in its path, title, tags or frontmatter`);
      return ok({ ...recallBundle(engine.db, { agentRoot: engine.agentRoot, mode: args.mode, project: args.project ?? null, sinceMs, limit: args.limit }) });
    },
  });
}

function readNote(engine: VaultEngine): Tool {
  return defineTool('read_note', {
    title: 'Read a note',
    description: "The text of one note, by vault-relative path (as search returns it), or only some of its lines (`lines`: a search hit's lines or passage_lines). Refuses paths outside the vault, dot-folders and files that are not notes.",
    inputSchema: {
      path: z.string().describe('vault-relative path, e.g. "Projects/Atlas/Overview.md"'),
      lines: z
        .tuple([z.number().int().min(1), z.number().int().min(1)])
        .optional()
        .describe('[first, last], 1-based and inclusive: only these lines (a search hit gives them)'),
      max_chars: z.number().int().min(100).max(200_000).default(20_000).describe('longer notes are cut, with a marker'),
    },
    outputSchema: { path: z.string(), title: z.string(), text: z.string(), chars: z.number(), line_count: z.number(), lines: z.tuple([z.number(), z.number()]).optional(), truncated: z.boolean(), modified: z.string() },
    annotations: READ_ONLY,
    handler: (args) => {
      const resolved = resolvePath(engine, args.path);
      if (!resolved.ok) return fail(resolved.reason);
      const read = readNoteFile(resolved.absolute);
      if (!read.ok) return fail(`cannot read ${resolved.path}: ${read.reason}`);
      const part = linesOf(read.text, args.lines, resolved.path);
      if (!part.ok) return fail(part.reason);
      const truncated = part.text.length > args.max_chars;
      const text = truncated ? `${part.text.slice(0, args.max_chars)}\n…[truncated at ${args.max_chars} of ${part.text.length} characters; raise max_chars to read more]` : part.text;
      const row = engine.db.prepare('SELECT title, mtime_ms FROM notes WHERE path = ?').get(resolved.path) as { title: string; mtime_ms: number } | undefined;
      const meta = { chars: read.text.length, line_count: part.lineCount, ...(part.lines ? { lines: part.lines } : {}), truncated, modified: new Date(row?.mtime_ms ?? 0).toISOString() };
      return ok({ path: resolved.path, title: row?.title ?? resolved.path, text, ...meta }, text);
    },
  });
}

/** The note's text, or its lines [first, last] (the last clamped to the note's end); a range that holds no line is refused, saying what would. */
function linesOf(text: string, range: [number, number] | undefined, path: string): { ok: true; text: string; lineCount: number; lines?: [number, number] } | { ok: false; reason: string } {
  if (range === undefined) return { ok: true, text, lineCount: lineCountOf(text) };
  const all = text.split('\n');
  const [first, last] = range;
  if (last < first) return { ok: false, reason: `lines [${first}, ${last}] holds no line: give [first, last] with first ≤ last` };
  if (first > all.length) return { ok: false, reason: `${path} has ${all.length} lines: give lines within 1–${all.length}` };
  const end = Math.min(last, all.length);
  return { ok: true, text: all.slice(first - 1, end).join('\n'), lineCount: all.length, lines: [first, end] };
}

/** Lines in a text (one more than its line breaks), counted without splitting it. */
function lineCountOf(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function queryNotes(engine: VaultEngine): Tool {
  return defineTool('query_notes', {
    title: 'Query notes by frontmatter',
    description: 'Notes whose frontmatter fields match all conditions: eq (equals), contains (substring, or list membership), in (one of), gte/lte/gt/lt (numbers or YYYY-MM-DD dates). Sort by a field or by modified time.',
    inputSchema: {
      where: z
        .array(
          z.strictObject({
            field: z.string().min(1).describe('frontmatter key, e.g. "status" or "type"'),
            op: z.enum(['eq', 'contains', 'in', 'gte', 'lte', 'gt', 'lt', 'exists']),
            value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]).optional(),
          }),
        )
        .max(20)
        .default([])
        .describe('conditions, all of which must hold'),
      sort: z.string().default('modified').describe('a frontmatter field, or "modified" / "path" / "title"'),
      order: z.enum(['asc', 'desc']).default('desc').describe('sort direction'),
      limit: z.number().int().min(1).max(500).default(50).describe('most notes returned'),
    },
    outputSchema: { notes: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string(), fields: z.record(z.string(), z.unknown()) })), total: z.number() },
    annotations: READ_ONLY,
    handler: (args) => {
      const where = checkedConditions(args.where);
      if (!where.ok) return fail(where.reason);
      const rows = engine.db.prepare('SELECT path, title, mtime_ms, frontmatter FROM notes').all() as { path: string; title: string; mtime_ms: number; frontmatter: string | null }[];
      const matches = rows
        .map((row) => ({ row, fields: (row.frontmatter ? JSON.parse(row.frontmatter) : {}) as Record<string, unknown> }))
        .filter(({ fields }) => where.conditions.every((condition) => matchCondition(lookup(fields, condition.field), condition.op, condition.value)));
      const key = (entry: (typeof matches)[number]): string | number =>
        args.sort === 'modified' ? entry.row.mtime_ms : args.sort === 'path' ? entry.row.path : args.sort === 'title' ? entry.row.title : sortable(lookup(entry.fields, args.sort));
      matches.sort((a, b) => {
        const x = key(a);
        const y = key(b);
        const order = x < y ? -1 : x > y ? 1 : a.row.path < b.row.path ? -1 : 1;
        return args.order === 'asc' ? order : -order;
      });
      return ok({ notes: matches.slice(0, args.limit).map(({ row, fields }) => ({ path: row.path, title: row.title, modified: new Date(row.mtime_ms).toISOString(), fields })), total: matches.length });
    },
  });
}

type Condition = { field: string; op: 'eq' | 'contains' | 'in' | 'gte' | 'lte' | 'gt' | 'lt' | 'exists'; value?: string | number | boolean | (string | number)[] | undefined };

/**
 * query_notes' conditions as they can be matched, or why one cannot match anything: `in` takes
 * a list (one value is read as a list of one), `eq`/`contains` one value, a comparison a number
 * or a real date, `exists` no value. Refused rather than answered with no notes, which would
 * look like an empty vault.
 */
function checkedConditions(where: readonly Condition[]): { ok: true; conditions: Condition[] } | { ok: false; reason: string } {
  const conditions: Condition[] = [];
  for (const [i, condition] of where.entries()) {
    const { field, op, value } = condition;
    const at = `where[${i}] (${field} ${op})`;
    if (op === 'exists') {
      if (value !== undefined && value !== true) return { ok: false, reason: `${at}: exists takes no value (it matches the notes that have the field); leave value out` };
    } else if (value === undefined) {
      return { ok: false, reason: `${at}: ${op} needs a value to compare ${field} with${op === 'in' ? ' (a list, e.g. ["concept", "person"])' : ''}` };
    } else if (op === 'in') {
      conditions.push({ field, op, value: Array.isArray(value) ? value : [typeof value === 'boolean' ? String(value) : value] });
      continue;
    } else if (Array.isArray(value)) {
      return { ok: false, reason: `${at}: ${op} compares with one value, not a list; to match any of several values use op "in"` };
    } else if (op !== 'eq' && op !== 'contains') {
      const problem = comparableProblem(value);
      if (problem !== null) return { ok: false, reason: `${at}: ${problem}` };
    }
    conditions.push(condition);
  }
  return { ok: true, conditions };
}

/** Why gte/lte/gt/lt cannot compare with `value`, or null: they compare numbers and real dates. */
function comparableProblem(value: string | number | boolean): string | null {
  if (typeof value === 'number') return null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return null;
  if (typeof value === 'string' && /^\s*\d{4}-\d{2}-\d{2}/.test(value)) {
    return parseDateBound(value, { endOfDay: false }) === null ? `"${value}" is not a real date; give one like 2026-05-01 (or 2026-05-01T09:30)` : null;
  }
  return `comparisons take a number or a date like 2026-05-01, not ${JSON.stringify(value)}`;
}

function getBacklinks(engine: VaultEngine): Tool {
  return defineTool('get_backlinks', {
    title: 'Backlinks',
    description:
      'Notes that link to a note — wikilinks, embeds, markdown links, frontmatter links and related: entries (kind "related", with their relation type; by id they follow a renamed note), resolved the way Obsidian resolves them — with the line of each link and the heading or block it points at (subpath, e.g. "Add cards" for [[Canvas#Add cards]]).',
    inputSchema: { path: z.string().describe('the note linked to'), limit: z.number().int().min(1).max(500).default(100).describe('most backlinks returned') },
    outputSchema: {
      path: z.string(),
      backlinks: z.array(
        z.object({
          path: z.string(),
          title: z.string(),
          kind: z.string(),
          line: z.number(),
          subpath: z.string().nullable(),
          display: z.string().nullable(),
          type: z.string().nullable().optional().describe('related: entries: the relation type (supports, references…), null when untyped'),
          note: z.string().optional().describe("related: entries: the entry's note"),
        }),
      ),
      total: z.number(),
    },
    annotations: READ_ONLY,
    handler: (args) => {
      const resolved = resolvePath(engine, args.path);
      if (!resolved.ok) return fail(resolved.reason);
      const rows = engine.db
        .prepare(
          `SELECT n.path, n.title, l.kind, l.line, l.subpath, l.display, l.rel_type, l.rel_note FROM links l JOIN notes n ON n.id = l.note_id
        WHERE l.resolved_path = ? AND n.path != ? ORDER BY n.path, l.line, l.ord`,
        )
        .all(resolved.path, resolved.path) as { path: string; title: string; kind: string; line: number; subpath: string | null; display: string | null; rel_type: string | null; rel_note: string | null }[];
      const backlinks = rows.map(({ rel_type, rel_note, ...row }) => (row.kind === 'related' ? { ...row, type: rel_type, ...(rel_note ? { note: rel_note } : {}) } : row));
      return ok({ path: resolved.path, backlinks: backlinks.slice(0, args.limit), total: rows.length });
    },
  });
}

function listRecent(engine: VaultEngine): Tool {
  return defineTool('list_recent', {
    title: 'Recent notes',
    description: 'Notes by modification time, newest first, optionally inside a folder.',
    inputSchema: { limit: z.number().int().min(1).max(200).default(20).describe('most notes returned'), folder: folderArg, since: dateArg('only notes modified on or after') },
    outputSchema: { notes: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string(), tags: z.array(z.string()) })) },
    annotations: READ_ONLY,
    handler: (args) => {
      const since = args.since === undefined ? 0 : parseDateBound(args.since, { endOfDay: false });
      if (since === null) return fail(`"${args.since}" is not a date; use YYYY-MM-DD`);
      const folders = folderKeys(args.folder);
      const rows = engine.db.prepare(`SELECT n.path, n.title, n.mtime_ms, (SELECT group_concat(tag, ' ') FROM tags WHERE note_id = n.id) AS tags FROM notes n WHERE n.mtime_ms >= ? ORDER BY n.mtime_ms DESC, n.path`).all(since) as {
        path: string;
        title: string;
        mtime_ms: number;
        tags: string | null;
      }[];
      const inside = rows.filter((row) => insideFolders(row.path, folders));
      return ok({ notes: inside.slice(0, args.limit).map((row) => ({ path: row.path, title: row.title, modified: new Date(row.mtime_ms).toISOString(), tags: row.tags ? row.tags.split(' ') : [] })) });
    },
  });
}

const STATUS_CHARS: Record<string, string[]> = { open: [' '], done: ['x', 'X'], in_progress: ['/'], cancelled: ['-'], all: [] };

function listTasks(engine: VaultEngine): Tool {
  return defineTool('list_tasks', {
    title: 'Tasks',
    description: 'Tasks in Obsidian Tasks format (- [ ] …, 📅 due, ✅ done) across the vault: status, text, due and done dates, priority, path and line.',
    inputSchema: {
      status: z.enum(['open', 'done', 'in_progress', 'cancelled', 'all']).default('open').describe('which tasks: open (default), done, in_progress, cancelled or all'),
      due_before: dateArg('due on or before'),
      due_after: dateArg('due on or after'),
      folder: folderArg,
      query: z
        .string()
        .max(1000)
        .optional()
        .describe(
          'only tasks whose line, or whose note\'s title or path, holds every word of this, read as search reads words ("harbor keys" finds "Per-tenant KMS keys" in Harbor tasks.md; asking words such as "still open" or "latest" are not required of the task; a joined word such as tenant-deletion needs all its parts; "quoted words" are kept as written, -word or -"a phrase" leaves out the tasks holding it; tag:, path: and file: are refused: use folder)',
        ),
      limit: z.number().int().min(1).max(500).default(100).describe('most tasks returned'),
    },
    outputSchema: { tasks: z.array(z.object({ status: z.string(), text: z.string(), due: z.string().nullable(), done: z.string().nullable(), priority: z.string().nullable(), path: z.string(), line: z.number() })), total: z.number() },
    annotations: READ_ONLY,
    handler: (args) => {
      const wanted = STATUS_CHARS[args.status]!;
      for (const [name, value] of [
        ['due_before', args.due_before],
        ['due_after', args.due_after],
      ] as const) {
        // A calendar day (tasks are due on days), and a real one: 2026-02-30 is refused, not compared as text.
        if (value !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(value) || parseDateBound(value, { endOfDay: false }) === null)) return fail(`${name} must be a real date like 2026-05-01, not "${value}"`);
      }
      const folders = folderKeys(args.folder);
      const matcher = args.query === undefined ? null : engine.search().wordsMatcher(args.query);
      if (matcher !== null && 'refused' in matcher) return fail(`query "${args.query!.slice(0, 80)}": ${matcher.refused}`);
      const matches = matcher === null ? null : matcher.matches;
      const rows = (
        engine.db.prepare(`SELECT t.status, t.text, t.due, t.done, t.priority, n.path, n.title, t.line FROM tasks t JOIN notes n ON n.id = t.note_id ORDER BY t.due IS NULL, t.due, n.path, t.line`).all() as {
          status: string;
          text: string;
          due: string | null;
          done: string | null;
          priority: string | null;
          path: string;
          title: string;
          line: number;
        }[]
      )
        .filter((task) => wanted.length === 0 || wanted.includes(task.status))
        .filter((task) => args.due_before === undefined || (task.due !== null && task.due <= args.due_before))
        .filter((task) => args.due_after === undefined || (task.due !== null && task.due >= args.due_after))
        .filter((task) => insideFolders(task.path, folders))
        .filter((task) => matches === null || matches(`${task.text}\n${task.title}\n${task.path}`));
      // The title was read for the query only; the tasks returned are as before.
      return ok({ tasks: rows.slice(0, args.limit).map(({ title: _title, ...task }) => task), total: rows.length });
    },
  });
}

function lookup(fields: Record<string, unknown>, field: string): unknown {
  // Own fields only: `constructor` or `toString` are not frontmatter.
  if (Object.hasOwn(fields, field)) return fields[field];
  const lower = field.toLowerCase();
  const key = Object.keys(fields).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : fields[key];
}

function matchCondition(actual: unknown, op: string, expected: unknown): boolean {
  if (op === 'exists') return actual !== undefined && actual !== null;
  if (actual === undefined || actual === null) return false;
  const norm = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
  switch (op) {
    case 'eq':
      return Array.isArray(actual) ? actual.some((item) => norm(item) === norm(expected)) : norm(actual) === norm(expected) || String(actual) === String(expected);
    case 'contains':
      return Array.isArray(actual) ? actual.some((item) => String(item).toLowerCase().includes(String(expected).toLowerCase())) : String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'in':
      return Array.isArray(expected) && expected.some((value) => norm(value) === norm(actual) || String(value) === String(actual));
    default: {
      const a = sortable(actual);
      const b = sortable(expected);
      if (typeof a !== typeof b) return false;
      return op === 'gte' ? a >= b : op === 'lte' ? a <= b : op === 'gt' ? a > b : a < b;
    }
  }
}

function sortable(value: unknown): string | number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value === undefined || value === null ? '' : String(value);
}
