/**
 * Graph tools: extract the backlog, look entities up, walk from a note to related notes, count.
 */
import { z } from 'zod';
import { consolidate, ENTITY_TYPES, GraphStore, graphStats, relatedNotes, runGraphIndex, selectAdjudicator, selectExtractor, type RelatedNote } from '../../graph/index.js';
import type { VaultEngine } from '../engine.js';
import { fail, ok } from '../results.js';
import { defineTool, READ_ONLY, type Tool, type ToolContext } from './define.js';
import { folderArg, folderKeys, folderList, insideFolders } from './shared.js';
import { relatedLane, RELATED_DEFAULTS, RELATED_SIGNALS, type RelatedResult } from '../../session/index.js';

export function graphTools({ engine }: ToolContext): Tool[] {
  return [indexBrainTool(engine), findEntityTool(engine), relatedNotesTool(engine), graphStatsTool(engine), consolidateGraphTool(engine)];
}

function indexBrainTool(engine: VaultEngine): Tool {
  return defineTool('index_brain', {
    title: 'Extract entities',
    description:
      'Extracts people, organizations, topics, projects and sources from new or changed notes (a bounded batch) into entity notes under Claude/Graph/. Reports processed, failed and remaining, tokens and cost. Call again while remaining > 0.',
    inputSchema: { max_notes: z.number().int().min(1).max(500).default(20).describe('notes to extract in this call') },
    outputSchema: {
      extractor: z.string(),
      processed: z.number(),
      failed: z.number(),
      remaining: z.number(),
      skipped_private: z.number(),
      unreadable_private: z.array(z.string()).describe('private only because their frontmatter cannot be read: fix the YAML to have them extracted'),
      secrets_redacted: z.record(z.string(), z.number()).describe('secrets taken out of the text sent to an LLM, by kind'),
      entities: z.number(),
      entity_notes_written: z.number(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      cost_usd: z.number(),
      errors: z.array(z.string()),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    handler: async (args) => {
      const extractor = selectExtractor(engine.extractorSettings, engine.db);
      if (!extractor) return fail('no extractor is configured (ENGRAM_EXTRACTOR=none); set ENGRAM_EXTRACTOR to structural, anthropic or claude-cli', 'CONFIG_INVALID');
      const report = await engine.change(
        'an extraction',
        () => runGraphIndex({ root: engine.vault, db: engine.db, extractor, writer: engine.writer(), agentRoot: engine.agentRoot, maxNotes: args.max_notes, vectorModel: engine.settings.model }),
        (result) => result.written,
      );
      if (report.paused && report.processed === 0) {
        return fail(`extraction paused — ${report.paused.reason}. ${report.remaining} notes wait; none was charged. Call index_brain again once it is fixed.`, 'EXTRACTOR_FAILED');
      }
      return ok({
        extractor: `${extractor.backend}${extractor.model !== extractor.backend ? ` (${extractor.model})` : ''}`,
        processed: report.processed,
        failed: report.failed,
        remaining: report.remaining,
        skipped_private: report.skippedPrivate,
        unreadable_private: report.unreadablePrivate,
        secrets_redacted: report.redacted,
        entities: report.entities,
        entity_notes_written: report.entityNotesWritten,
        input_tokens: report.inputTokens,
        output_tokens: report.outputTokens,
        cost_usd: Math.round(report.costUsd * 1e6) / 1e6,
        errors: report.errors,
      });
    },
  });
}

function findEntityTool(engine: VaultEngine): Tool {
  return defineTool('find_entity', {
    title: 'Find an entity',
    description: "Looks an entity up by name or alias (case, accents and spacing ignored; partial names match), optionally of one type. Returns its entity note's path and how many notes mention it.",
    inputSchema: {
      name: z.string().min(1).max(200).describe('a name or alias, or part of one'),
      type: z.enum(ENTITY_TYPES).optional().describe('only entities of this type'),
      limit: z.number().int().min(1).max(50).default(10).describe('most entities returned'),
    },
    outputSchema: { entities: z.array(z.object({ name: z.string(), type: z.string(), note_path: z.string(), mentions: z.number(), aliases: z.array(z.string()) })) },
    annotations: READ_ONLY,
    handler: (args) => {
      const store = new GraphStore(engine.db, engine.agentRoot);
      const aliases = engine.db.prepare('SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY alias').pluck();
      const found = store.find(args.name, args.type ?? null, args.limit).map((row) => ({ name: row.name, type: row.type, note_path: row.note_path, mentions: row.mentions, aliases: aliases.all(row.id) as string[] }));
      return ok({ entities: found });
    },
  });
}

function relatedNotesTool(engine: VaultEngine): Tool {
  return defineTool('related_notes', {
    title: 'Related notes',
    description:
      'Notes related to a note. by "all" (needs no model or extraction; as `engram related`): every signal — its related: entries, links 1–3 hops away (closer is stronger), shared tags (rarer tags count more), its distinctive terms as a keyword query (more like this), shared entities, and vectors when it has one — fused by weighted reciprocal rank; each result lists the signals that found it, how much each added (contributions) and why (chains). by "graph" (default): through the entities they share (hops 1) or through related entities (hops 2), hub entities damped by how many notes mention them, each result with the chain that connects it. by "vectors": nearest by meaning, from the note\'s own and its sections\' vectors.',
    inputSchema: {
      path: z.string().describe('vault-relative path of the note'),
      by: z.enum(['graph', 'vectors', 'all']).default('graph').describe('which signals relate notes: shared entities, vectors, or every signal'),
      hops: z.number().int().min(1).max(2).default(1).describe('graph: 1 shared entities; 2 also entities related to them'),
      folder: folderArg,
      limit: z.number().int().min(1).max(100).default(10).describe('most notes returned'),
      weights: z
        .object(Object.fromEntries(RELATED_SIGNALS.map((signal) => [signal, z.number().min(0).max(10).optional()])) as Record<(typeof RELATED_SIGNALS)[number], z.ZodOptional<z.ZodNumber>>)
        .strict()
        .optional()
        .describe(`by "all": weight per signal, 0 leaves it out (defaults ${JSON.stringify(RELATED_DEFAULTS.weights)})`),
    },
    outputSchema: {
      path: z.string(),
      related: z.array(
        z.object({
          path: z.string(),
          title: z.string(),
          score: z.number(),
          chains: z.array(z.string()),
          signals: z.array(z.enum(RELATED_SIGNALS)),
          contributions: z.record(z.string(), z.number()).optional().describe('by "all": how much each signal added to score'),
          section: z.string().optional(),
        }),
      ),
      notices: z.array(z.string()),
    },
    annotations: READ_ONLY,
    handler: (args) => {
      const resolved = engine.resolve(args.path);
      if (!resolved.ok) return fail(resolved.reason);
      if (args.by === 'all') return allSignals(engine, resolved.path, args);
      const folders = folderKeys(args.folder);
      const notices: string[] = [];
      const graph = args.by === 'vectors' ? [] : graphRelated(engine, resolved.path, args.hops as 1 | 2, folders);
      if (graph === null) return fail(`${resolved.path} is not indexed yet; try again after indexing`, 'NOT_FOUND');
      const vectors = args.by === 'graph' ? [] : engine.search().related(resolved.path, args.limit, { folders: folderList(args.folder) });
      if (vectors === null) {
        const why = engine.search().vectors.size === 0 ? engine.search().semanticUnavailable({ query: '' }) : 'it is embedded in the background after indexing';
        notices.push(`${resolved.path} has no vector yet (${why}); related by vectors is empty`);
      }
      const related = combineRelated(
        graph,
        (vectors ?? []).map((hit) => ({ path: hit.path, title: hit.title, score: hit.score, section: hit.section })),
        args.by,
        args.limit,
      );
      const empty =
        related.length === 0
          ? `no related notes for ${resolved.path} yet${args.by === 'graph' ? ' (run index_brain to extract entities, or try by "all": links, related: entries, tags and terms need no model or extraction)' : ''}`
          : undefined;
      return ok({ path: resolved.path, related, notices }, [empty, ...notices].filter(Boolean).join('; ') || undefined);
    },
  });
}

type Related = { path: string; title: string; score: number; chains: string[]; signals: RelatedResult['signals']; section?: string };

/** by "all": the related lane, every signal fused (`relatedLane`); works with no model and no extraction. */
function allSignals(engine: VaultEngine, path: string, args: { hops: number; folder?: string | string[] | undefined; limit: number; weights?: Partial<Record<(typeof RELATED_SIGNALS)[number], number | undefined>> | undefined }) {
  const weights = Object.fromEntries(Object.entries(args.weights ?? {}).filter((entry): entry is [string, number] => entry[1] !== undefined));
  const lane = relatedLane(engine.db, engine.search(), path, { limit: args.limit, weights, folders: folderList(args.folder), hops: args.hops as 1 | 2 });
  if (lane === null) return fail(`${path} is not indexed yet; try again after indexing`, 'NOT_FOUND');
  const empty = lane.results.length === 0 ? `no related notes for ${path}: it has no related: entries, links, tags or distinctive terms shared with another note${args.folder ? ' in those folders' : ''}` : undefined;
  return ok({ path, related: lane.results, notices: lane.notices }, [empty, ...lane.notices].filter(Boolean).join('; ') || undefined);
}

/** Notes sharing entities with the note, inside the folders; null when the note is not indexed. */
function graphRelated(engine: VaultEngine, path: string, hops: 1 | 2, folders: readonly string[]): RelatedNote[] | null {
  const related = relatedNotes(engine.db, path, { hops, limit: 500 });
  return related === null ? null : related.filter((note) => insideFolders(note.path, folders));
}

/** One signal's list, as it ranked (by "all" is the related lane's). */
function combineRelated(graph: readonly RelatedNote[], vectors: readonly { path: string; title: string; score: number; section: string }[], by: 'graph' | 'vectors', limit: number): Related[] {
  if (by === 'graph') return graph.slice(0, limit).map((note) => ({ ...note, signals: ['graph'] }));
  return vectors.slice(0, limit).map((hit) => ({ path: hit.path, title: hit.title, score: hit.score, chains: [], signals: ['vectors'], ...(hit.section ? { section: hit.section } : {}) }));
}

function graphStatsTool(engine: VaultEngine): Tool {
  return defineTool('graph_stats', {
    title: 'Graph statistics',
    description: 'Entity counts by type, relations, mentions, orphans (entities no note mentions any more), notes extracted and failed, the last extraction, tokens and cost so far.',
    inputSchema: {},
    outputSchema: {
      entities: z.record(z.string(), z.number()),
      relations: z.number(),
      mentions: z.number(),
      orphans: z.number(),
      extracted_notes: z.number(),
      failed_notes: z.number(),
      last_extraction: z.string().nullable(),
      cost_usd: z.number(),
      tokens: z.object({ input: z.number(), output: z.number() }),
    },
    annotations: READ_ONLY,
    handler: () => ok({ ...graphStats(engine.db) }),
  });
}

function consolidateGraphTool(engine: VaultEngine): Tool {
  return defineTool('consolidate_graph', {
    title: 'Consolidate entities',
    description:
      'Finds entities that are probably the same (same type; names equal up to word order, one an alias of the other, or a couple of letters apart) and lists them as numbered merge proposals, each with a verdict from ENGRAM_CONSOLIDATE_MODEL when one is set ("different" verdicts are recorded as rejected). Nothing merges until you call again with apply: [ids] — the loser\'s mentions, relations and names move to the winner and its note becomes a stub linking there. undo: [ids] reverses an applied merge.',
    inputSchema: {
      apply: z.array(z.number().int().min(1)).max(50).optional().describe('ids of pending proposals to merge, exactly as listed'),
      undo: z.array(z.number().int().min(1)).max(50).optional().describe('ids of applied merges to reverse'),
    },
    outputSchema: {
      proposed: z.array(PROPOSAL),
      pending: z.array(PROPOSAL),
      applied: z.array(z.number()),
      undone: z.array(z.number()),
      written: z.array(z.string()),
      errors: z.array(z.string()),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    handler: async (args) => {
      const deciding = Boolean(args.apply?.length || args.undo?.length);
      const adjudicator = deciding ? undefined : selectAdjudicator(engine.extractorSettings, engine.db);
      const report = await engine.change(
        'a consolidation',
        () =>
          consolidate(new GraphStore(engine.db, engine.agentRoot), engine.db, engine.writer(), {
            ...(args.apply ? { apply: args.apply } : {}),
            ...(args.undo ? { undo: args.undo } : {}),
            ...(adjudicator ? { adjudicator } : {}),
            vectorModel: engine.settings.model,
          }),
        (result) => result.written,
      );
      const hint =
        report.pending.length > 0 && report.applied.length === 0 && report.undone.length === 0 ? `${report.pending.length} merge proposal(s) wait for review; apply the right ones with consolidate_graph({ apply: [ids] })` : undefined;
      return ok({ ...report }, hint ? `${hint}\n\n${JSON.stringify(report)}` : undefined);
    },
  });
}

const PROPOSAL = z.object({ id: z.number(), winner: z.string(), loser: z.string(), type: z.string(), reason: z.string(), verdict: z.string(), status: z.string() });
