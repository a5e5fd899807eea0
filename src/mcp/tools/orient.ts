/**
 * Orient tools: what an agent calls first — the vault's constitution and routing rules, what
 * each tool is for, and the state of the index, vectors and caretaker, in one compact call.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { vectorStatus } from '../../embed/index.js';
import { readStatus } from '../../index/index.js';
import { describeLease, extractionPaused, lastSweep, readLeaseNote, type SweepSummary } from '../../librarian/index.js';
import type { VaultEngine } from '../engine.js';
import { sessionRunId, type SessionIdentity } from '../identity.js';
import { ok } from '../results.js';
import { defineTool, READ_ONLY, type Tool, type ToolContext } from './define.js';

/** The constitution is shown whole up to this size, then cut with a marker. */
const CONSTITUTION_CHARS = 4000;

export const ROUTING = [
  "The vault is the human's. Read anything outside dot-folders; cite notes as [[wikilinks]] with their path.",
  "Agents write only under Claude/ (sessions, inbox captures, concepts, tasks); everything else changes only with the human's explicit confirmation.",
  'Search before you write, so you extend an existing note instead of duplicating it.',
];

export const TOOL_GUIDE: Record<string, string> = {
  onboard: 'this orientation: rules, tools, status',
  index_status: 'full index health: counts, links, vectors, skipped files, warnings',
  librarian_status: "the caretaker's last sweep",
  search_brain: 'find notes by words or meaning (hybrid), with filters, "phrases", -words and tag:/path:; for a question add 2–3 keyword alternatives; cite the path and lines',
  context_bundle: 'search hits plus related notes, sized to a token budget — for answering a question',
  recall_bundle: 'recent sessions, captures, open tasks and changes — for a digest or resuming a project',
  read_note: 'read one note (paths as search returns them)',
  query_notes: 'filter notes by frontmatter fields (equals, contains, in, ranges)',
  get_backlinks: 'notes that link to a note (related: entries with their type)',
  list_recent: 'recently modified notes',
  list_tasks: 'tasks in Obsidian Tasks format, by status and due date',
  log_session: 'file a session log under Claude/Sessions/ (and index it)',
  capture: "a timestamped line in today's Claude/Inbox/ note",
  upsert_concept: 'create or extend Claude/Concepts/<name>.md',
  add_task: 'a task in Claude/Tasks.md (Obsidian Tasks format)',
  append_note: 'append to a note (end, start, under a heading); outside Claude/ it previews first',
  write_note: 'create a note (overwrite only when asked); outside Claude/ it previews first',
  undo_write: 'revert a journaled write by its number',
  update_note: 'edit a note: append, prepend, replace a section or insert under a heading ("A > B"); outside Claude/ it previews first',
  move_note: 'move or rename a note with every link to it rewritten; outside Claude/ it previews first; undo_move reverts it',
  create_project: 'scaffold a project (README with goal, status, links; Issues/) under Claude/Projects/',
  create_issue: 'file an issue in a project: a note whose frontmatter is the record (Dataview-friendly)',
  update_issue: 'change status (open → doing → done/wontfix), priority, assignee, labels; comment; closed issues are archived',
  list_issues: 'issues by project, status, label, assignee, words; paged',
  list_notes: 'every indexed note, paged: size, modified, blocks, vectors fresh/stale, extracted by the graph',
  index_brain: 'extract entities from new or changed notes into Claude/Graph/ (bounded batch)',
  find_entity: 'look an entity up by name or alias',
  related_notes: 'notes connected to a note: by "all" every signal, no model needed (related:, links, tags, terms, entities, vectors); by default shared entities, with the chain',
  suggest_relations: 'propose related: entries for a note; apply writes them (previewed outside Claude/), undo_write reverts',
  graph_stats: 'entity, relation and mention counts; extraction cost',
  consolidate_graph: 'propose merges of duplicate entities; apply or undo them by id',
  organize_vault: "the caretaker's filing proposals; accept (move) or reject them by id",
  undo_move: 'move a note back (a filing, a move_note, an archived issue) and restore the links rewritten for it',
  undo_run: 'revert every change of one caretaker sweep',
};

export function orientTools({ engine, identity }: ToolContext): Tool[] {
  return [onboardTool(engine, identity), indexStatusTool(engine), librarianStatusTool(engine)];
}

function onboardTool(engine: VaultEngine, identity: SessionIdentity): Tool {
  return defineTool('onboard', {
    title: 'Orient in the vault',
    description: "Call this first. Returns the vault's constitution (Claude/README.md), where to write what, a one-line guide to every tool, and a compact status of the index, vectors and the caretaker.",
    inputSchema: {},
    outputSchema: {
      constitution: z.string().nullable().describe('Claude/README.md, cut at 4,000 characters; null when absent'),
      routing: z.array(z.string()),
      tools: z.record(z.string(), z.string()),
      status: z.object({
        notes: z.number(),
        indexing: z.string(),
        vectors: z.string(),
        librarian: z.string(),
        session: z.string().describe('how this session is served (attached to the engram daemon, or on its own) and the run id its writes are journaled under'),
        warnings: z.array(z.string()),
      }),
    },
    annotations: READ_ONLY,
    handler: () => {
      const path = join(engine.vault, engine.agentRoot, 'README.md');
      let constitution: string | null = null;
      if (existsSync(path)) {
        const text = readFileSync(path, 'utf8');
        constitution = text.length > CONSTITUTION_CHARS ? `${text.slice(0, CONSTITUTION_CHARS)}\n…[cut; read_note Claude/README.md for the rest]` : text;
      }
      const status = readStatus(engine.db, { vault: engine.vault, stateDir: engine.stateDir });
      const search = engine.search();
      const covered = search.vectors.coveredDocuments().size;
      const structured = {
        constitution,
        routing: ROUTING,
        tools: TOOL_GUIDE,
        status: {
          notes: status.notes,
          indexing:
            engine.indexBehind() && engine.indexState.state === 'indexing'
              ? `indexing in the background since ${engine.indexState.since}; results cover ${status.notes} notes so far`
              : engine.indexState.state === 'failed'
                ? `the last index run failed: ${engine.indexState.reason}`
                : `up to date (last full run ${status.last_indexed_at ?? 'never'})`,
          vectors: `${covered} of ${search.metas.length} notes have ${engine.settings.model} vectors`,
          librarian: librarianLine(lastSweep(engine.db), extractionPaused(engine.db), leaseLine(engine)),
          session: `${identity.serving}; writes journaled as run ${sessionRunId(identity)}`,
          warnings: status.warnings.slice(0, 5),
        },
      };
      return ok(structured);
    },
  });
}

function indexStatusTool(engine: VaultEngine): Tool {
  return defineTool('index_status', {
    title: 'Index status',
    description: 'The `engram status` document: note, block, link, tag and task counts, link resolution, vectors and their sources, skipped files with reasons, and warnings.',
    inputSchema: {},
    outputSchema: {
      vault: z.string(),
      notes: z.number(),
      blocks: z.number(),
      links: z.object({ total: z.number(), resolved: z.number(), unresolved: z.number(), to_attachments: z.number() }),
      tags: z.number(),
      tasks: z.object({ total: z.number(), open: z.number(), done: z.number() }),
      skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
      last_indexed_at: z.string().nullable(),
      indexing: z.string(),
      warnings: z.array(z.string()),
      vectors: z.record(z.string(), z.unknown()),
    },
    annotations: READ_ONLY,
    handler: () => {
      const status = readStatus(engine.db, { vault: engine.vault, stateDir: engine.stateDir });
      const vectors = vectorStatus(engine.db, engine.vault, engine.settings);
      const { state_dir: _stateDir, attachments: _a, words: _w, ...rest } = status;
      return ok({ ...rest, indexing: engine.indexState.state, warnings: [...status.warnings, ...vectors.warnings], vectors: { ...vectors } });
    },
  });
}

function librarianStatusTool(engine: VaultEngine): Tool {
  return defineTool('librarian_status', {
    title: 'Caretaker status',
    description: 'The Librarian\'s last sweep in brief: run id, per-phase summaries, moves, pending proposals (counts and the top few), health counts, errors and cost. Says "no sweep yet" until a sweep has run.',
    inputSchema: {},
    outputSchema: {
      status: z.string(),
      last_run: z.string().nullable(),
      sweep: z
        .object({
          run_id: z.string(),
          kind: z.string(),
          status: z.string(),
          started_at: z.string(),
          finished_at: z.string().nullable(),
          phases: z.array(z.object({ name: z.string(), status: z.string(), summary: z.string() })),
          moves: z.number(),
          pending_proposals: z.object({ organize: z.number(), merges: z.number() }),
          top_proposals: z.array(z.string()),
          health: z.array(z.object({ name: z.string(), count: z.number(), ok: z.boolean() })),
          errors: z.array(z.string()),
          cost_usd: z.number(),
          extraction_paused: z.string().nullable(),
        })
        .nullable(),
    },
    annotations: READ_ONLY,
    handler: () => {
      const sweep = lastSweep(engine.db);
      const line = librarianLine(sweep, extractionPaused(engine.db), leaseLine(engine));
      return ok({ status: line, last_run: sweep?.run_id ?? null, sweep }, sweep ? `${line}\n${sweep.phases.map((p) => `- ${p.name}: ${p.summary}`).join('\n')}` : line);
    },
  });
}

/** Who holds the caretaker lease on a synced vault, when a daemon ever took it. */
function leaseLine(engine: VaultEngine): string | null {
  return describeLease(readLeaseNote(engine.vault, engine.agentRoot));
}

/** One line for onboard and librarian_status. */
function librarianLine(sweep: SweepSummary | null, paused: string | null, lease: string | null): string {
  const tail = `${paused === null ? '' : `; ${paused}`}${lease === null ? '' : `; ${lease}`}`;
  if (!sweep) return `no sweep yet: the Librarian has not run on this vault (engram librarian, or engram daemon on a schedule)${tail}`;
  const pending = sweep.pending_proposals.organize + sweep.pending_proposals.merges;
  return `last sweep ${sweep.run_id} (${sweep.status}, ${sweep.finished_at ?? sweep.started_at}): ${sweep.moves} moves, ${pending} proposals pending, ${sweep.health.filter((check) => !check.ok).length} health findings, ${sweep.errors.length} errors${tail}`;
}
