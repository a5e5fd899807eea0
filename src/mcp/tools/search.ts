/**
 * Search tools: ranked hits (search_brain) and everything useful for answering a question,
 * sized to a token budget (context_bundle). Both run the one search pipeline, `searchVault`.
 */
import { z } from 'zod';
import { EngramError } from '../../errors.js';
import { MAX_ALTERNATIVES, matchedText, parseDateBound, searchVault, type PipelineRequest, type SearchHit, type SearchResponse } from '../../search/index.js';
import type { VaultEngine } from '../engine.js';
import { fail, ok } from '../results.js';
import { defineTool, READ_ONLY, type Tool, type ToolContext } from './define.js';
import { dateArg, folderArg, folderList, noteText, readIndexed, resolvePath } from './shared.js';

/** Characters of note text `include_text` attaches to each hit. */
const INCLUDED_TEXT_CHARS = 4000;

const alternativesArg = z
  .array(z.string().max(10_000))
  .max(MAX_ALTERNATIVES)
  .optional()
  .describe(
    `up to ${MAX_ALTERNATIVES} other wordings of the same need, searched with the same filters and fused with the query. ` +
      'For a natural-language question, add two or three short keyword-style rephrasings in the words the vault likely uses ' +
      '(its jargon, note titles, synonyms): "how do I stop sync from deleting files" → ["sync deleted files", "restore version history"]',
  );

const hitSchema = z.object({
  path: z.string(),
  title: z.string(),
  score: z.number(),
  excerpt: z.string(),
  section: z.string(),
  lines: z.tuple([z.number(), z.number()]).nullable(),
  passage_lines: z.tuple([z.number(), z.number()]).optional(),
  tags: z.array(z.string()),
  modified: z.string(),
  lanes: z.record(z.string(), z.unknown()),
  text: z.string().optional(),
});

/** A query of only white space: what to give instead. */
const BLANK_QUERY = 'the query is blank: give the question or the words to search for (to list notes by folder, tag or date, use list_notes)';
export function searchTools({ engine }: ToolContext): Tool[] {
  return [searchBrain(engine), contextBundle(engine)];
}

/** search_brain's `query`: what it reads besides words. */
const QUERY =
  'what to look for, in words; a date in it (2026-05-01, May 2026, 1 May 2026; without a year, "in June" is the last June) favours notes dated then (by file name or frontmatter date), and one relative to today (yesterday, last Friday, two weeks ago, also in pt es fr de it nl ru) or a span (between April 1 and April 30, since June 1) finds the notes of those days; "latest" or "most recent" ranks the newest dated matches first; "still open", "pending items" or "left to do" ranks the best matches holding unfinished tasks (- [ ]) higher (list_tasks with query lists the tasks themselves); asked alone ("what is still open?", "the latest"), they list the notes holding open tasks or the newest dated notes; "quoted words" rank notes holding that phrase first and are taken as written (never as a date, the newest or what is open, never corrected); -word leaves out every note holding the word; tag:x, path:x, file:x narrow as in Obsidian search';

function searchBrain(engine: VaultEngine): Tool {
  return defineTool('search_brain', {
    title: 'Search the vault',
    description:
      "Find notes by words and meaning. Returns ranked hits with path, title, score, the best-matching section with its 1-based line range (passage_lines: its best window, in a long section such as a conversation log) and an excerpt, tags, modified time, and per-lane ranks (keyword, semantic with the vector source, name; fuzzy when a query word is in no note and a title, file name or alias comes close, e.g. a typo). The response says which mode ran and why, and reports scoped_out when a filter hid a better match. Asking a question in natural language? Pass `alternatives`: two or three keyword-style rephrasings in the vault's own words; each hit's lanes.wordings says which wording found it.",
    inputSchema: {
      query: z.string().min(1).max(10_000).describe(QUERY),
      limit: z.number().int().min(1).max(100).default(10).describe('how many hits (1–100)'),
      folder: folderArg,
      exclude_folders: z.array(z.string()).optional().describe('folders to leave out'),
      tags: z.array(z.string()).optional().describe('tags; "project" also matches "project/atlas"'),
      tag_mode: z.enum(['any', 'all']).default('any').describe('any of the tags (default) or all of them'),
      types: z.array(z.string()).optional().describe('frontmatter type/kind values'),
      modified_after: dateArg('only notes modified on or after'),
      modified_before: dateArg('only notes modified on or before'),
      mode: z.enum(['hybrid', 'keyword', 'semantic']).default('hybrid').describe('hybrid fuses keyword and vector lanes when it can, else answers by keyword and says why'),
      min_score: z.number().optional().describe('drop keyword hits scoring below this (in mode "semantic": hits whose cosine is below this)'),
      min_similarity: z.number().min(-1).max(1).optional().describe('drop semantic-lane hits whose cosine is below this, in any mode'),
      scope: z.enum(['all', 'notes', 'blocks']).default('all').describe("which vectors the semantic lane compares: notes' own, their sections', or both"),
      include_text: z.boolean().default(false).describe("attach each hit's text: the matched section for a section-level semantic hit, else the note's first 4,000 characters"),
      alternatives: alternativesArg,
    },
    outputSchema: {
      query: z.string(),
      mode: z.string(),
      mode_reason: z.string(),
      results: z.array(hitSchema),
      total_matches: z.number(),
      scoped_out: z.record(z.string(), z.unknown()).optional(),
      notices: z.array(z.string()),
    },
    annotations: READ_ONLY,
    handler: async (args) => {
      if (args.query.trim() === '') return fail(BLANK_QUERY);
      const filters = {
        folders: folderList(args.folder),
        excludeFolders: folderList(args.exclude_folders),
        tags: args.tags ?? [],
        tagMode: args.tag_mode,
        types: args.types ?? [],
        ...dateBound('modifiedAfter', args.modified_after),
        ...dateBound('modifiedBefore', args.modified_before),
      };
      const response = await runSearch(engine, {
        query: args.query,
        limit: args.limit,
        filters,
        mode: args.mode,
        alternatives: args.alternatives ?? [],
        scope: args.scope,
        ...(args.min_score === undefined ? {} : { minScore: args.min_score }),
        ...(args.min_similarity === undefined ? {} : { minSimilarity: args.min_similarity }),
      });
      const results = args.include_text ? response.results.map((hit) => ({ ...hit, text: includedText(engine, hit) })) : response.results;
      return ok({ ...response, results } as unknown as Record<string, unknown>, describeHits({ ...response, results }));
    },
  });
}

/** The text `include_text` attaches: the block a semantic hit matched, else the note's head. */
function includedText(engine: VaultEngine, hit: SearchHit): string {
  const read = readIndexed(engine, hit.path);
  return read.ok ? matchedText(read.text, hit, INCLUDED_TEXT_CHARS) : '';
}

type BundleHit = { path: string; title: string; section: string; lines: [number, number] | null; text: string };
type RelatedNote = { path: string; title: string; why: string };
type HitEntity = { name: string; type: string; note_path: string; mentioned_in: string[] };

function contextBundle(engine: VaultEngine): Tool {
  return defineTool('context_bundle', {
    title: 'Context for a question',
    description:
      "Everything useful for answering from the vault, sized to a token budget: the best hits for a query (or a note given by path) with their sections (a long one quoted around its best passage), then related notes. Give either query or path; with a query, `alternatives` (rephrasings in the vault's words) widen what it finds.",
    inputSchema: {
      query: z.string().min(1).max(10_000).optional().describe('the question or topic ("quoted words", -word, tag:/path:/file: work as in search_brain)'),
      path: z.string().optional().describe('a note to gather context around'),
      max_tokens: z.number().int().min(200).max(50_000).default(4000).describe('budget for the whole bundle (hits, related notes, entities, as JSON), estimated at 4 characters a token'),
      alternatives: alternativesArg,
    },
    outputSchema: {
      query: z.string(),
      mode: z.string(),
      mode_reason: z.string(),
      budget_tokens: z.number(),
      used_tokens: z.number(),
      hits: z.array(z.object({ path: z.string(), title: z.string(), section: z.string(), lines: z.tuple([z.number(), z.number()]).nullable(), text: z.string() })),
      related: z.array(z.object({ path: z.string(), title: z.string(), why: z.string() })),
      entities: z.array(z.object({ name: z.string(), type: z.string(), note_path: z.string(), mentioned_in: z.array(z.string()) })),
      truncated: z.boolean(),
    },
    annotations: READ_ONLY,
    handler: async (args) => {
      if (args.query === undefined && args.path === undefined) return fail('give a query (what the question is about) or a path (a note to start from)');
      if (args.query !== undefined && args.query.trim() === '' && args.path === undefined) return fail(BLANK_QUERY);
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
      return ok(fitBundle(engine, { query, mode: response.mode, mode_reason: response.mode_reason, budget_tokens: args.max_tokens }, response.results, anchor));
    },
  });
}

/**
 * The bundle held to its budget as the agent receives it (its JSON): its own fields first, then
 * the hits, then related notes and entities while they fit.
 */
function fitBundle(engine: VaultEngine, head: { query: string; mode: string; mode_reason: string; budget_tokens: number }, results: readonly SearchHit[], anchor: string | null) {
  // used_tokens holds the budget's own digits while the fixed part is measured (never fewer than its own).
  const bundle = { ...head, used_tokens: head.budget_tokens, hits: [] as BundleHit[], related: [] as RelatedNote[], entities: [] as HitEntity[], truncated: false };
  const budget = head.budget_tokens * 4;
  const fixed = JSON.stringify(bundle).length;
  let fitted = withinBudget(engine, results, anchor, budget - fixed);
  let related = relatedNotes(
    engine,
    fitted.hits.map((hit) => hit.path),
    10,
  );
  // Notes linked to the hits keep a share of a budget the hits would fill (a note asked for by path, quoted whole).
  const reserve = Math.min(
    related.reduce((size, note) => size + jsonSize(note), 0),
    budget * RELATED_SHARE,
  );
  if (related.length > 0 && fixed + fitted.used + reserve > budget) {
    fitted = withinBudget(engine, results, anchor, budget - fixed - reserve);
    related = relatedNotes(
      engine,
      fitted.hits.map((hit) => hit.path),
      10,
    );
  }
  bundle.hits = fitted.hits;
  let used = fixed + fitted.used;
  const spend = (size: number) => (used += size);
  bundle.related = whileTheyFit(related, budget, () => used, spend);
  bundle.entities = whileTheyFit(
    hitEntities(
      engine,
      fitted.hits.map((hit) => hit.path),
    ),
    budget,
    () => used,
    spend,
  );
  bundle.truncated = fitted.truncated;
  for (let pass = 0; pass < 2; pass++) bundle.used_tokens = Math.ceil(JSON.stringify(bundle).length / 4);
  return bundle;
}

/**
 * The most of a bundle of `budget` characters one hit's section takes, unless it is the anchor:
 * √(500 · budget), 1,000 characters of a 500-token bundle and 2,800 of a 4,000-token one, so the
 * number of hits quoted and the length of each grow alike with the budget. A longer section (a
 * conversation log is one section of many turns) is quoted around its best passage. LoCoMo dev,
 * the bundle holding a question's evidence turn (`bench/bundle-evidence.ts`), whole sections →
 * this: 500 tokens 0.517 → 0.779, 1,000 0.759 → 0.851, 2,000 0.878 → 0.911, 4,000 0.939 →
 * 0.958, 8,000 0.979 → 0.979. 400 or 700 for 500 moved none by more than 0.01; a fixed share of
 * the budget suited small budgets (a half) or large ones (a fifth), not both.
 */
function hitCap(budget: number): number {
  return Math.sqrt(500 * budget);
}

/** What one entry of `entries` costs in the bundle's JSON, the comma before it included. */
function jsonSize(entry: unknown): number {
  return JSON.stringify(entry).length + 1;
}

/** The first of `entries` while the bundle, `used()` characters so far, stays within `budget`. */
function whileTheyFit<T>(entries: readonly T[], budget: number, used: () => number, spend: (size: number) => void): T[] {
  const out: T[] = [];
  for (const entry of entries) {
    const size = jsonSize(entry);
    if (used() + size > budget) break;
    spend(size);
    out.push(entry);
  }
  return out;
}

/**
 * The anchor note (if any), then the hits, each with its section's text, until `budget`
 * characters of the bundle's JSON are used (each hit's path, title and section count with its text).
 */
function withinBudget(engine: VaultEngine, results: readonly SearchHit[], anchor: string | null, budget: number): { hits: BundleHit[]; used: number; truncated: boolean } {
  let used = 0;
  let truncated = false;
  const hits: BundleHit[] = [];
  const order = anchor ? [anchor, ...results.map((hit) => hit.path).filter((path) => path !== anchor)] : results.map((hit) => hit.path);
  for (const path of order) {
    const hit = results.find((candidate) => candidate.path === path);
    const { text, lines } = hit ? sectionText(engine, hit, path === anchor ? budget : hitCap(budget)) : { text: noteText(engine, path, budget), lines: null };
    const entry: BundleHit = { path, title: hit?.title ?? path, section: hit?.section ?? '', lines, text };
    const size = jsonSize(entry);
    if (used + size > budget) {
      truncated = true;
      // What the text may take in the room left: its JSON (escapes) costs more than its characters.
      const room = budget - used - jsonSize({ ...entry, text: '' }) - CUT.length;
      if (room > 200) {
        let cut = text.slice(0, room);
        while (cut.length > 0 && jsonSize(cut) - 3 > room) cut = cut.slice(0, Math.floor(cut.length * 0.9));
        const last = { ...entry, text: `${cut}${CUT}` };
        hits.push(last);
        used += jsonSize(last);
      }
      break;
    }
    hits.push(entry);
    used += size;
  }
  return { hits, used, truncated };
}

const CUT = '…[cut to the budget]';

/** The most of a bundle's budget kept for related notes when the hits would fill it. */
const RELATED_SHARE = 0.15;

/** The one search pipeline, with the server's own notice while the index is behind the vault. */
async function runSearch(engine: VaultEngine, request: PipelineRequest): Promise<SearchResponse> {
  const response = await searchVault(engine.search(), request, (text) => engine.queryVector(text));
  if (engine.indexBehind()) response.notices.unshift('the vault is still being indexed in the background; results may be incomplete');
  return response;
}

/**
 * The hit's matching section and the lines quoted, or the start of the note. A section longer
 * than `cap` characters is quoted from its best passage (`passage_lines`; else its start) out, a
 * line at a time on each side while it fits, with `[…]` where it was cut.
 */
function sectionText(engine: VaultEngine, hit: SearchHit, cap: number): { text: string; lines: [number, number] | null } {
  const read = readIndexed(engine, hit.path);
  if (!read.ok) return { text: hit.excerpt, lines: hit.lines };
  if (!hit.lines) return { text: read.text.slice(0, 2000), lines: null };
  const all = read.text.split('\n');
  const [from, to] = hit.lines;
  const section = all.slice(from - 1, to).join('\n');
  if (section.length <= cap) return { text: section, lines: hit.lines };
  // No passage (a semantic block, a note matched by its name): from the section's start.
  let [first, last] = hit.passage_lines ?? [from, from];
  let size = all.slice(first - 1, last).join('\n').length;
  for (let grew = true; grew;) {
    grew = false;
    if (first > from && size + all[first - 2]!.length + 1 <= cap) {
      size += all[--first - 1]!.length + 1;
      grew = true;
    }
    if (last < to && size + all[last]!.length + 1 <= cap) {
      size += all[last++]!.length + 1;
      grew = true;
    }
  }
  const text = all.slice(first - 1, last).join('\n');
  return { text: `${first > from ? '[…]\n' : ''}${text}${last < to ? '\n[…]' : ''}`, lines: [first, last] };
}

/** Notes linked from or to the given ones, that are not among them. */
function relatedNotes(engine: VaultEngine, paths: readonly string[], limit: number): RelatedNote[] {
  if (paths.length === 0) return [];
  const given = JSON.stringify(paths);
  const rows = engine.db
    .prepare(
      `
    SELECT t.path, t.title, 'linked from ' || s.path AS why FROM links l JOIN notes s ON s.id = l.note_id JOIN notes t ON t.path = l.resolved_path
      WHERE s.path IN (SELECT value FROM json_each(@given)) AND t.path NOT IN (SELECT value FROM json_each(@given))
    UNION ALL
    SELECT s.path, s.title, 'links to ' || l.resolved_path AS why FROM links l JOIN notes s ON s.id = l.note_id
      WHERE l.resolved_path IN (SELECT value FROM json_each(@given)) AND s.path NOT IN (SELECT value FROM json_each(@given))`,
    )
    .all({ given }) as RelatedNote[];
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.path) && seen.add(row.path)).slice(0, limit);
}

/** The graph's entities mentioned by the given notes (empty until the graph is built). */
function hitEntities(engine: VaultEngine, paths: readonly string[]): HitEntity[] {
  if (paths.length === 0) return [];
  const rows = engine.db
    .prepare(
      `SELECT e.name, e.type, e.note_path, n.path FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN notes n ON n.id = m.note_id
    WHERE n.path IN (SELECT value FROM json_each(@paths)) ORDER BY e.name`,
    )
    .all({ paths: JSON.stringify(paths) }) as { name: string; type: string; note_path: string; path: string }[];
  const byEntity = new Map<string, HitEntity>();
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

/** An upper bound (`modifiedBefore`) on a bare date takes the whole day. */
function dateBound(key: 'modifiedAfter' | 'modifiedBefore', value: string | undefined): Record<string, number> {
  if (value === undefined) return {};
  const ms = parseDateBound(value, { endOfDay: key === 'modifiedBefore' });
  if (ms === null) throw new EngramError('INVALID_INPUT', `${key === 'modifiedAfter' ? 'modified_after' : 'modified_before'} must be a date like 2026-03-14, not "${value}"`);
  return { [key]: ms };
}
