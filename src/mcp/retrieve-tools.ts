/**
 * Retrieve tools: search, bundles for answering and recalling, reading one note, frontmatter
 * queries, backlinks, recent notes and tasks. Every path argument goes through
 * `resolveNotePath`, the one place that refuses traversal, dot-folders and non-notes.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { MAX_ALTERNATIVES, parseDateBound, searchVault, type PipelineRequest, type SearchHit, type SearchResponse } from '../search/index.js';
import { readNoteFile, resolveNotePath } from '../vault/index.js';
import { recallBundle } from '../librarian/index.js';
import type { VaultEngine } from './engine.js';
import { fail, guarded, ok } from './results.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
/** Characters of note text `include_text` attaches to each hit. */
const INCLUDED_TEXT_CHARS = 4000;

const folderArg = z.union([z.string(), z.array(z.string())]).optional().describe('folder path(s): whole segments, case-insensitive, any depth (e.g. "Claude/Sessions")');
const alternativesArg = z.array(z.string().max(10_000)).max(MAX_ALTERNATIVES).optional().describe(
  `up to ${MAX_ALTERNATIVES} other wordings of the same need, searched with the same filters and fused with the query. `
  + 'For a natural-language question, add two or three short keyword-style rephrasings in the words the vault likely uses '
  + '(its jargon, note titles, synonyms): "how do I stop sync from deleting files" → ["sync deleted files", "restore version history"]');
const dateArg = (what: string) => z.string().optional().describe(`${what}: YYYY-MM-DD or an ISO time`);

const hitSchema = z.object({
  path: z.string(), title: z.string(), score: z.number(), excerpt: z.string(), section: z.string(),
  lines: z.tuple([z.number(), z.number()]).nullable(), tags: z.array(z.string()), modified: z.string(),
  lanes: z.record(z.string(), z.unknown()), text: z.string().optional(),
});

export function registerRetrieveTools(server: McpServer, engine: VaultEngine): void {
  server.registerTool('search_brain', {
    title: 'Search the vault',
    description: 'Find notes by words and meaning. Returns ranked hits with path, title, score, the best-matching section with its 1-based line range and an excerpt, tags, modified time, and per-lane ranks (keyword, semantic with the vector source, name). The response says which mode ran and why, and reports scoped_out when a filter hid a better match. Asking a question in natural language? Pass `alternatives`: two or three keyword-style rephrasings in the vault\'s own words; each hit\'s lanes.wordings says which wording found it.',
    inputSchema: {
      query: z.string().min(1).max(10_000).describe('what to look for, in words'),
      limit: z.number().int().min(1).max(100).default(10).describe('how many hits (1–100)'),
      folder: folderArg,
      exclude_folders: z.array(z.string()).optional().describe('folders to leave out'),
      tags: z.array(z.string()).optional().describe('tags; "project" also matches "project/atlas"'),
      tag_mode: z.enum(['any', 'all']).default('any').describe('any of the tags (default) or all of them'),
      types: z.array(z.string()).optional().describe('frontmatter type/kind values'),
      modified_after: dateArg('only notes modified on or after'),
      modified_before: dateArg('only notes modified on or before'),
      mode: z.enum(['hybrid', 'keyword', 'semantic']).default('hybrid').describe('hybrid fuses keyword and vector lanes when it can, else answers by keyword and says why'),
      min_score: z.number().optional().describe('drop keyword hits scoring below this'),
      include_text: z.boolean().default(false).describe('attach each hit\'s note text (first 4,000 characters)'),
      alternatives: alternativesArg,
    },
    outputSchema: {
      query: z.string(), mode: z.string(), mode_reason: z.string(), results: z.array(hitSchema), total_matches: z.number(),
      scoped_out: z.record(z.string(), z.unknown()).optional(), notices: z.array(z.string()),
    },
    annotations: READ_ONLY,
  }, (args) => guarded(async () => {
    const filters = {
      folders: args.folder === undefined ? [] : Array.isArray(args.folder) ? args.folder : [args.folder],
      excludeFolders: args.exclude_folders ?? [],
      tags: args.tags ?? [],
      tagMode: args.tag_mode,
      types: args.types ?? [],
      ...dateBound('modifiedAfter', args.modified_after, false),
      ...dateBound('modifiedBefore', args.modified_before, true),
    };
    const response = await runSearch(engine, {
      query: args.query, limit: args.limit, filters, mode: args.mode, alternatives: args.alternatives ?? [],
      ...(args.min_score === undefined ? {} : { minScore: args.min_score }),
    });
    const results = args.include_text ? response.results.map((hit) => ({ ...hit, text: noteText(engine, hit.path, INCLUDED_TEXT_CHARS) })) : response.results;
    return ok({ ...response, results } as unknown as Record<string, unknown>, describeHits({ ...response, results }));
  }));

  server.registerTool('context_bundle', {
    title: 'Context for a question',
    description: 'Everything useful for answering from the vault, sized to a token budget: the best hits for a query (or a note given by path) with their sections, then related notes. Give either query or path; with a query, `alternatives` (rephrasings in the vault\'s words) widen what it finds.',
    inputSchema: {
      query: z.string().min(1).max(10_000).optional().describe('the question or topic'),
      path: z.string().optional().describe('a note to gather context around'),
      max_tokens: z.number().int().min(200).max(50_000).default(4000).describe('budget, estimated at 4 characters a token'),
      alternatives: alternativesArg,
    },
    outputSchema: {
      query: z.string(), mode: z.string(), mode_reason: z.string(), budget_tokens: z.number(), used_tokens: z.number(),
      hits: z.array(z.object({ path: z.string(), title: z.string(), section: z.string(), lines: z.tuple([z.number(), z.number()]).nullable(), text: z.string() })),
      related: z.array(z.object({ path: z.string(), title: z.string(), why: z.string() })),
      entities: z.array(z.object({ name: z.string(), type: z.string(), note_path: z.string(), mentioned_in: z.array(z.string()) })),
      truncated: z.boolean(),
    },
    annotations: READ_ONLY,
  }, (args) => guarded(async () => {
    if (args.query === undefined && args.path === undefined) return fail('give a query (what the question is about) or a path (a note to start from)');
    let query = args.query ?? '';
    let anchor: string | null = null;
    if (args.path !== undefined) {
      const resolved = resolvePath(engine, args.path);
      if (!resolved.ok) return fail(resolved.reason);
      const path = resolved.path;
      anchor = path;
      if (query === '') query = engine.search().metas.find((meta) => meta.path === path)?.title ?? path;
    }
    const response = await runSearch(engine, { query, limit: 10, alternatives: args.alternatives ?? [] });
    const budget = args.max_tokens * 4;
    let used = 0;
    let truncated = false;
    const hits: { path: string; title: string; section: string; lines: [number, number] | null; text: string }[] = [];
    const order = anchor ? [anchor, ...response.results.map((hit) => hit.path).filter((path) => path !== anchor)] : response.results.map((hit) => hit.path);
    for (const path of order) {
      const hit = response.results.find((candidate) => candidate.path === path);
      const text = hit ? sectionText(engine, hit) : noteText(engine, path, budget);
      if (used + text.length > budget) {
        truncated = true;
        const room = budget - used;
        if (room > 200) {
          hits.push({ path, title: hit?.title ?? path, section: hit?.section ?? '', lines: hit?.lines ?? null, text: `${text.slice(0, room)}…[cut to the budget]` });
          used = budget;
        }
        break;
      }
      hits.push({ path, title: hit?.title ?? path, section: hit?.section ?? '', lines: hit?.lines ?? null, text });
      used += text.length;
    }
    const related = relatedNotes(engine, hits.map((hit) => hit.path), 10);
    return ok({ query, mode: response.mode, mode_reason: response.mode_reason, budget_tokens: args.max_tokens, used_tokens: Math.ceil(used / 4), hits, related, entities: hitEntities(engine, hits.map((hit) => hit.path)), truncated });
  }));

  server.registerTool('recall_bundle', {
    title: 'Recall: digest or resume',
    description: 'Raw material for a digest or for resuming a project: recent agent sessions, inbox captures, open tasks, decisions and notes changed since a date; a digest adds the caretaker\'s last sweep, pending filing and merge proposals, and graph activity. Each section says its status (ok, empty, or why it is missing).',
    inputSchema: {
      mode: z.enum(['digest', 'resume']).default('digest').describe('digest: what happened since; resume: one project\'s state'),
      project: z.string().optional().describe('for resume: a project name, matched in paths, titles, tags and frontmatter'),
      since: dateArg('changes since (default: 7 days ago)'),
      limit: z.number().int().min(1).max(100).default(20).describe('items per section'),
    },
    outputSchema: { mode: z.string(), since: z.string(), project: z.string().nullable(), sections: z.record(z.string(), z.object({ status: z.string(), items: z.array(z.record(z.string(), z.unknown())) })) },
    annotations: READ_ONLY,
  }, (args) => guarded(() => {
    const sinceMs = args.since === undefined ? Date.now() - 7 * 86_400_000 : parseDateBound(args.since, false);
    if (sinceMs === null) return fail(`"${args.since}" is not a date; use YYYY-MM-DD`);
    if (args.mode === 'resume' && !args.project) return fail('resume needs a project: give the project\'s name');
    return ok({ ...recallBundle(engine.db, { agentRoot: engine.agentRoot, mode: args.mode, project: args.project ?? null, sinceMs, limit: args.limit }) });
  }));

  server.registerTool('read_note', {
    title: 'Read a note',
    description: 'The text of one note, by vault-relative path (as search returns it). Refuses paths outside the vault, dot-folders and files that are not notes.',
    inputSchema: {
      path: z.string().describe('vault-relative path, e.g. "Projects/Atlas/Overview.md"'),
      max_chars: z.number().int().min(100).max(200_000).default(20_000).describe('longer notes are cut, with a marker'),
    },
    outputSchema: { path: z.string(), title: z.string(), text: z.string(), chars: z.number(), truncated: z.boolean(), modified: z.string() },
    annotations: READ_ONLY,
  }, (args) => guarded(() => {
    const resolved = resolvePath(engine, args.path);
    if (!resolved.ok) return fail(resolved.reason);
    const read = readNoteFile(resolved.absolute);
    if (!read.ok) return fail(`cannot read ${resolved.path}: ${read.reason}`);
    const truncated = read.text.length > args.max_chars;
    const text = truncated ? `${read.text.slice(0, args.max_chars)}\n…[truncated at ${args.max_chars} of ${read.text.length} characters; raise max_chars to read more]` : read.text;
    const row = engine.db.prepare('SELECT title, mtime_ms FROM notes WHERE path = ?').get(resolved.path) as { title: string; mtime_ms: number } | undefined;
    return ok({ path: resolved.path, title: row?.title ?? resolved.path, text, chars: read.text.length, truncated, modified: new Date(row?.mtime_ms ?? 0).toISOString() }, text);
  }));

  server.registerTool('query_notes', {
    title: 'Query notes by frontmatter',
    description: 'Notes whose frontmatter fields match all conditions: eq (equals), contains (substring, or list membership), in (one of), gte/lte/gt/lt (numbers or YYYY-MM-DD dates). Sort by a field or by modified time.',
    inputSchema: {
      where: z.array(z.object({
        field: z.string().min(1).describe('frontmatter key, e.g. "status" or "type"'),
        op: z.enum(['eq', 'contains', 'in', 'gte', 'lte', 'gt', 'lt', 'exists']),
        value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]).optional(),
      })).max(20).default([]).describe('conditions, all of which must hold'),
      sort: z.string().default('modified').describe('a frontmatter field, or "modified" / "path" / "title"'),
      order: z.enum(['asc', 'desc']).default('desc').describe('sort direction'),
      limit: z.number().int().min(1).max(500).default(50).describe('most notes returned'),
    },
    outputSchema: { notes: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string(), fields: z.record(z.string(), z.unknown()) })), total: z.number() },
    annotations: READ_ONLY,
  }, (args) => guarded(() => {
    const rows = engine.db.prepare('SELECT path, title, mtime_ms, frontmatter FROM notes').all() as { path: string; title: string; mtime_ms: number; frontmatter: string | null }[];
    const matches = rows.map((row) => ({ row, fields: (row.frontmatter ? JSON.parse(row.frontmatter) : {}) as Record<string, unknown> }))
      .filter(({ fields }) => args.where.every((condition) => matchCondition(lookup(fields, condition.field), condition.op, condition.value)));
    const key = (entry: (typeof matches)[number]): string | number => args.sort === 'modified' ? entry.row.mtime_ms : args.sort === 'path' ? entry.row.path : args.sort === 'title' ? entry.row.title : sortable(lookup(entry.fields, args.sort));
    matches.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const order = x < y ? -1 : x > y ? 1 : a.row.path < b.row.path ? -1 : 1;
      return args.order === 'asc' ? order : -order;
    });
    return ok({ notes: matches.slice(0, args.limit).map(({ row, fields }) => ({ path: row.path, title: row.title, modified: new Date(row.mtime_ms).toISOString(), fields })), total: matches.length });
  }));

  server.registerTool('get_backlinks', {
    title: 'Backlinks',
    description: 'Notes that link to a note — wikilinks, embeds, markdown links and frontmatter links, resolved the way Obsidian resolves them — with the line of each link and the heading or block it points at (subpath, e.g. "Add cards" for [[Canvas#Add cards]]).',
    inputSchema: { path: z.string().describe('the note linked to'), limit: z.number().int().min(1).max(500).default(100).describe('most backlinks returned') },
    outputSchema: { path: z.string(), backlinks: z.array(z.object({ path: z.string(), title: z.string(), kind: z.string(), line: z.number(), subpath: z.string().nullable(), display: z.string().nullable() })), total: z.number() },
    annotations: READ_ONLY,
  }, (args) => guarded(() => {
    const resolved = resolvePath(engine, args.path);
    if (!resolved.ok) return fail(resolved.reason);
    const rows = engine.db.prepare(`SELECT n.path, n.title, l.kind, l.line, l.subpath, l.display FROM links l JOIN notes n ON n.id = l.note_id
      WHERE l.resolved_path = ? AND n.path != ? ORDER BY n.path, l.line, l.ord`).all(resolved.path, resolved.path) as { path: string; title: string; kind: string; line: number; subpath: string | null; display: string | null }[];
    return ok({ path: resolved.path, backlinks: rows.slice(0, args.limit), total: rows.length });
  }));

  server.registerTool('list_recent', {
    title: 'Recent notes',
    description: 'Notes by modification time, newest first, optionally inside a folder.',
    inputSchema: { limit: z.number().int().min(1).max(200).default(20).describe('most notes returned'), folder: folderArg, since: dateArg('only notes modified on or after') },
    outputSchema: { notes: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string(), tags: z.array(z.string()) })) },
    annotations: READ_ONLY,
  }, (args) => guarded(() => {
    const since = args.since === undefined ? 0 : parseDateBound(args.since, false);
    if (since === null) return fail(`"${args.since}" is not a date; use YYYY-MM-DD`);
    const folders = (args.folder === undefined ? [] : Array.isArray(args.folder) ? args.folder : [args.folder]).map((folder) => folder.toLowerCase().replace(/^\/+|\/+$/g, ''));
    const rows = engine.db.prepare(`SELECT n.path, n.title, n.mtime_ms, (SELECT group_concat(tag, ' ') FROM tags WHERE note_id = n.id) AS tags FROM notes n WHERE n.mtime_ms >= ? ORDER BY n.mtime_ms DESC, n.path`).all(since) as { path: string; title: string; mtime_ms: number; tags: string | null }[];
    const inside = rows.filter((row) => folders.length === 0 || folders.some((folder) => `/${row.path.toLowerCase()}`.includes(`/${folder}/`)));
    return ok({ notes: inside.slice(0, args.limit).map((row) => ({ path: row.path, title: row.title, modified: new Date(row.mtime_ms).toISOString(), tags: row.tags ? row.tags.split(' ') : [] })) });
  }));

  server.registerTool('list_tasks', {
    title: 'Tasks',
    description: 'Tasks in Obsidian Tasks format (- [ ] …, 📅 due, ✅ done) across the vault: status, text, due and done dates, priority, path and line.',
    inputSchema: {
      status: z.enum(['open', 'done', 'in_progress', 'cancelled', 'all']).default('open').describe('which tasks: open (default), done, in_progress, cancelled or all'),
      due_before: dateArg('due on or before'),
      due_after: dateArg('due on or after'),
      folder: folderArg,
      limit: z.number().int().min(1).max(500).default(100).describe('most tasks returned'),
    },
    outputSchema: { tasks: z.array(z.object({ status: z.string(), text: z.string(), due: z.string().nullable(), done: z.string().nullable(), priority: z.string().nullable(), path: z.string(), line: z.number() })), total: z.number() },
    annotations: READ_ONLY,
  }, (args) => guarded(() => {
    const statusChar: Record<string, string[]> = { open: [' '], done: ['x', 'X'], in_progress: ['/'], cancelled: ['-'], all: [] };
    const wanted = statusChar[args.status]!;
    for (const [name, value] of [['due_before', args.due_before], ['due_after', args.due_after]] as const) {
      if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return fail(`${name} must be a date like 2026-05-01, not "${value}"`);
    }
    const folders = (args.folder === undefined ? [] : Array.isArray(args.folder) ? args.folder : [args.folder]).map((folder) => folder.toLowerCase().replace(/^\/+|\/+$/g, ''));
    const rows = (engine.db.prepare(`SELECT t.status, t.text, t.due, t.done, t.priority, n.path, t.line FROM tasks t JOIN notes n ON n.id = t.note_id ORDER BY t.due IS NULL, t.due, n.path, t.line`).all() as { status: string; text: string; due: string | null; done: string | null; priority: string | null; path: string; line: number }[])
      .filter((task) => wanted.length === 0 || wanted.includes(task.status))
      .filter((task) => args.due_before === undefined || (task.due !== null && task.due <= args.due_before))
      .filter((task) => args.due_after === undefined || (task.due !== null && task.due >= args.due_after))
      .filter((task) => folders.length === 0 || folders.some((folder) => `/${task.path.toLowerCase()}`.includes(`/${folder}/`)));
    return ok({ tasks: rows.slice(0, args.limit), total: rows.length });
  }));
}



/** The search core plus the query vector, as `engram search` runs it. */
/** The one search pipeline, with the server's own notice while the index is behind the vault. */
async function runSearch(engine: VaultEngine, request: PipelineRequest): Promise<SearchResponse> {
  const response = await searchVault(engine.search(), request, (text) => engine.queryVector(text));
  if (engine.indexBehind()) response.notices.unshift('the vault is still being indexed in the background; results may be incomplete');
  return response;
}

function resolvePath(engine: VaultEngine, path: string) {
  return resolveNotePath(engine.vault, path, { known: engine.knownPaths() });
}

/** Reads an indexed note through the path gate (a note may have become a symlink since). */
function readIndexed(engine: VaultEngine, path: string) {
  const resolved = resolvePath(engine, path);
  return resolved.ok ? readNoteFile(resolved.absolute) : ({ ok: false, vanished: false, reason: resolved.reason } as const);
}

function noteText(engine: VaultEngine, path: string, max: number): string {
  const read = readIndexed(engine, path);
  if (!read.ok) return '';
  return read.text.length > max ? `${read.text.slice(0, max)}…` : read.text;
}

/** The hit's matching section (its line range), or the start of the note. */
function sectionText(engine: VaultEngine, hit: SearchHit): string {
  const read = readIndexed(engine, hit.path);
  if (!read.ok) return hit.excerpt;
  if (!hit.lines) return read.text.slice(0, 2000);
  return read.text.split('\n').slice(hit.lines[0] - 1, hit.lines[1]).join('\n');
}

/** Notes linked from or to the given ones, that are not among them. */
function relatedNotes(engine: VaultEngine, paths: readonly string[], limit: number): { path: string; title: string; why: string }[] {
  if (paths.length === 0) return [];
  const given = JSON.stringify(paths);
  const rows = engine.db.prepare(`
    SELECT t.path, t.title, 'linked from ' || s.path AS why FROM links l JOIN notes s ON s.id = l.note_id JOIN notes t ON t.path = l.resolved_path
      WHERE s.path IN (SELECT value FROM json_each(@given)) AND t.path NOT IN (SELECT value FROM json_each(@given))
    UNION ALL
    SELECT s.path, s.title, 'links to ' || l.resolved_path AS why FROM links l JOIN notes s ON s.id = l.note_id
      WHERE l.resolved_path IN (SELECT value FROM json_each(@given)) AND s.path NOT IN (SELECT value FROM json_each(@given))`).all({ given }) as { path: string; title: string; why: string }[];
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.path) && seen.add(row.path)).slice(0, limit);
}

/** The graph's entities mentioned by the given notes (empty until the graph is built). */
function hitEntities(engine: VaultEngine, paths: readonly string[]): { name: string; type: string; note_path: string; mentioned_in: string[] }[] {
  if (paths.length === 0) return [];
  const rows = engine.db.prepare(`SELECT e.name, e.type, e.note_path, n.path FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN notes n ON n.id = m.note_id
    WHERE n.path IN (SELECT value FROM json_each(@paths)) ORDER BY e.name`).all({ paths: JSON.stringify(paths) }) as { name: string; type: string; note_path: string; path: string }[];
  const byEntity = new Map<string, { name: string; type: string; note_path: string; mentioned_in: string[] }>();
  for (const row of rows) {
    const entry = byEntity.get(row.note_path) ?? { name: row.name, type: row.type, note_path: row.note_path, mentioned_in: [] };
    entry.mentioned_in.push(row.path);
    byEntity.set(row.note_path, entry);
  }
  return [...byEntity.values()].sort((a, b) => b.mentioned_in.length - a.mentioned_in.length || (a.name < b.name ? -1 : 1)).slice(0, 20);
}

function describeHits(response: SearchResponse): string {
  const lines = [`${response.mode} search (${response.mode_reason}); ${response.results.length} of ${response.total_matches} matches`];
  for (const notice of response.notices) lines.push(`note: ${notice}`);
  response.results.forEach((hit, i) => {
    lines.push(`${i + 1}. ${hit.path}${hit.lines ? ` (lines ${hit.lines[0]}–${hit.lines[1]}${hit.section ? `, § ${hit.section}` : ''})` : ''} — ${hit.excerpt}`);
  });
  if (response.scoped_out) lines.push(`note: ${response.scoped_out.hint}`);
  return lines.join('\n');
}

function dateBound(key: 'modifiedAfter' | 'modifiedBefore', value: string | undefined, endOfDay: boolean): Record<string, number> {
  if (value === undefined) return {};
  const ms = parseDateBound(value, endOfDay);
  if (ms === null) throw new EngramError('USAGE', `${key === 'modifiedAfter' ? 'modified_after' : 'modified_before'} must be a date like 2026-03-14, not "${value}"`);
  return { [key]: ms };
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
