/**
 * The local page's JSON API: what the page shows (status, sweeps, proposals, search with its
 * explanation, the canvas maps, a note's excerpt on hover) and the one change it makes — deciding
 * a proposal, through the same code as a tick in `Librarian.md` (`decideProposal`), under the
 * index lock, journaled and undoable. Each handler returns a status and a JSON body; the router
 * in `web.ts` has already checked Host, Origin, token and (for a POST) the write guard.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { EngramError } from '../errors.js';
import { decideProposal, lastSweep, markDecidedElsewhere, listOrganizeProposals, pendingProposals, proposalStatus, tickProblem, type ProposalKind } from '../librarian/index.js';
import { listProposals } from '../graph/index.js';
import { searchVault } from '../search/index.js';
import { readNoteText } from '../vault/index.js';
import { LIBRARIAN } from '../writes/index.js';
import type { VaultEngine } from './engine.js';

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** The largest canvas file the page reads (a 50k-note map is a few MB). */
const MAX_CANVAS_BYTES = 64 * 1024 * 1024;
const MAX_REPORT_CHARS = 200_000;
const EXCERPT_CHARS = 280;

const ok = (body: unknown): ApiAnswer => ({ status: 200, body });
const refuse = (status: number, error: string): ApiAnswer => ({ status, body: { error } });

export function statusView(engine: VaultEngine, health: Record<string, unknown>): ApiAnswer {
  const count = (sql: string) => engine.db.prepare(sql).pluck().get() as number;
  return ok({
    vault: engine.vault,
    vault_name: basename(engine.vault),
    agent_root: engine.agentRoot,
    indexing: engine.indexState,
    notes: count('SELECT count(*) FROM notes'),
    notes_with_vectors: count('SELECT count(DISTINCT note_id) FROM vectors'),
    last_sweep: lastSweep(engine.db, 'any'),
    ...health,
  });
}

export function sweepsView(engine: VaultEngine): ApiAnswer {
  const rows = engine.db.prepare("SELECT id, kind, status, started_at, finished_at, report FROM runs WHERE kind IN ('sweep', 'backlog') ORDER BY started_at DESC, rowid DESC LIMIT 10").all() as {
    id: string;
    kind: string;
    status: string;
    started_at: string;
    finished_at: string | null;
    report: string | null;
  }[];
  const runs = rows.map(({ report, ...run }) => {
    const parsed = report ? (JSON.parse(report) as { phases?: { name: string; status: string; summary: string; error?: string }[]; errors?: string[] }) : null;
    return { ...run, phases: (parsed?.phases ?? []).map((phase) => ({ name: phase.name, status: phase.status, summary: phase.status === 'failed' ? `failed: ${phase.error ?? ''}` : phase.summary })), errors: (parsed?.errors ?? []).length };
  });
  const path = `${engine.agentRoot}/Librarian.md`;
  const read = readNoteText(join(engine.vault, path));
  return ok({ runs, report: { path, text: read.ok ? read.text.slice(0, MAX_REPORT_CHARS) : null } });
}

export function proposalsView(engine: VaultEngine): ApiAnswer {
  const subjects = new Map(pendingProposals(engine.db).map((p) => [`${p.kind}#${p.id}`, p.subject]));
  const filings = listOrganizeProposals(engine.db).map((p) => ({ kind: 'filing', id: p.id, subject: subjects.get(`filing#${p.id}`), path: p.path, target: p.target, detail: `share ${p.share.toFixed(2)}; ${p.reason}` }));
  const merges = listProposals(engine.db, 'pending').map((p) => ({ kind: 'merge', id: p.id, subject: subjects.get(`merge#${p.id}`), loser: p.loser, winner: p.winner, detail: `${p.type}; ${p.reason}; ${p.verdict}` }));
  return ok({ proposals: [...filings, ...merges] });
}

/** What a decide request must carry: the proposal, the decision, and the subject the human saw. */
function decisionOf(body: unknown): { kind: ProposalKind; id: number; decision: 'approve' | 'reject'; subject: string } | string {
  if (body === null || typeof body !== 'object') return 'send {"kind", "id", "decision", "subject"}';
  const { kind, id, decision, subject } = body as Record<string, unknown>;
  if (kind !== 'filing' && kind !== 'merge') return 'kind must be "filing" or "merge"';
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return 'id must be a proposal id (a positive integer)';
  if (decision !== 'approve' && decision !== 'reject') return 'decision must be "approve" or "reject"';
  if (typeof subject !== 'string') return 'subject must be the proposal as shown (what was reviewed)';
  return { kind, id, decision, subject };
}

/**
 * Decides a proposal the page showed. Refused, and nothing changes, when it is unknown, decided
 * already (a second click, another tab, a tick) or no longer what the page showed.
 */
export async function decide(engine: VaultEngine, body: unknown): Promise<ApiAnswer> {
  const request = decisionOf(body);
  if (typeof request === 'string') return refuse(400, request);
  try {
    const decided = await engine.change(
      'a decision from the page',
      async () => {
        const tick = { kind: request.kind, id: request.id, text: request.subject };
        const problem = tickProblem(tick, pendingProposals(engine.db), (kind, id) => proposalStatus(engine.db, kind, id));
        if (problem !== null) throw new EngramError(proposalStatus(engine.db, request.kind, request.id) === null ? 'NOT_FOUND' : 'CONFLICT', `${request.kind} #${request.id} was not decided: ${problem}`);
        const place = { root: engine.vault, db: engine.db, writer: engine.writer(), agentRoot: engine.agentRoot, exclude: engine.settings.exclude, model: engine.settings.model, now: Date.now };
        const at = new Date();
        const result = await decideProposal(place, request, at.toISOString());
        return { ...result, written: [...result.written, ...markReport(engine, request, result.outcome, at)] };
      },
      (result) => result.written,
    );
    return ok({ kind: request.kind, id: request.id, outcome: decided.outcome, undo: decided.undo });
  } catch (error) {
    if (!(error instanceof EngramError)) throw error;
    return refuse(error.code === 'NOT_FOUND' ? 404 : error.code === 'LOCKED' || error.code === 'CONFLICT' ? 409 : 400, error.message);
  }
}

/**
 * The report's lines for the proposal take the decision and its outcome (when there is a
 * report), so a tick on them later is not a second decision and the report tells what happened.
 */
function markReport(engine: VaultEngine, request: { kind: ProposalKind; id: number; decision: 'approve' | 'reject' }, outcome: string, at: Date): string[] {
  const path = `${engine.agentRoot}/Librarian.md`;
  const read = readNoteText(join(engine.vault, path));
  if (!read.ok) return [];
  const stamp = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const mark = (text: string) => markDecidedElsewhere(text, { ...request, outcome, where: 'on the local page' }, stamp);
  if (mark(read.text) === read.text) return []; // not listed: nothing to write, nothing journaled
  const receipt = engine.writer().write({ by: LIBRARIAN, path, next: (current) => mark(current ?? '') });
  return [receipt.path];
}

export async function search(engine: VaultEngine, params: URLSearchParams): Promise<ApiAnswer> {
  const query = (params.get('q') ?? '').trim();
  if (query === '' || query.length > 10_000) return refuse(400, 'give a query: /api/search?q=words (up to 10,000 characters)');
  const limit = Math.min(Math.max(Number(params.get('limit') ?? 10) || 10, 1), 50);
  try {
    const response = await searchVault(engine.search(), { query, limit, mode: 'hybrid', explain: true }, (text) => engine.queryVector(text));
    if (engine.indexBehind()) response.notices.unshift('the vault is still being indexed in the background; results may be incomplete');
    return ok(response);
  } catch (error) {
    if (error instanceof EngramError) return refuse(400, error.message);
    throw error;
  }
}

/** The canvas files under `<agent root>/Maps/` (regular files only: a symlink is not followed). */
function canvasFiles(engine: VaultEngine): string[] {
  try {
    return readdirSync(join(engine.vault, engine.agentRoot, 'Maps'), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.canvas') && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

export function mapsView(engine: VaultEngine): ApiAnswer {
  return ok({ folder: `${engine.agentRoot}/Maps`, maps: canvasFiles(engine) });
}

/** One canvas, by a name from the listing (any other name is 404: nothing else is read). */
export function mapView(engine: VaultEngine, params: URLSearchParams): ApiAnswer {
  const name = params.get('name') ?? '';
  if (!canvasFiles(engine).includes(name)) return refuse(404, `no canvas "${name}" in ${engine.agentRoot}/Maps/ (engram map writes them)`);
  const path = join(engine.vault, engine.agentRoot, 'Maps', name);
  // Checked before reading: a 50k-note map is a few MB, and readNoteText's own limit is a note's.
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size > MAX_CANVAS_BYTES) return refuse(413, `${name} is over ${MAX_CANVAS_BYTES / 1024 / 1024} MB; open it in Obsidian`);
  const read = readNoteText(path, MAX_CANVAS_BYTES);
  if (!read.ok) return refuse(404, `${name} ${read.reason}`);
  let canvas: unknown;
  try {
    canvas = JSON.parse(read.text);
  } catch {
    return refuse(422, `${name} is not JSON: is it a canvas file?`);
  }
  const { nodes, edges } = (canvas ?? {}) as { nodes?: unknown; edges?: unknown };
  if (!Array.isArray(nodes) || (edges !== undefined && !Array.isArray(edges))) return refuse(422, `${name} is not a JSON Canvas file (no "nodes" list)`);
  return ok({ name, vault_name: basename(engine.vault), nodes, edges: edges ?? [] });
}

/** An indexed note's title and opening words, for a map node's hover. Only indexed notes are read. */
export function noteView(engine: VaultEngine, params: URLSearchParams): ApiAnswer {
  const path = params.get('path') ?? '';
  const row = engine.db.prepare('SELECT path, title FROM notes WHERE path = ?').get(path) as { path: string; title: string } | undefined;
  if (!row) return refuse(404, `no indexed note "${path}"`);
  const read = readNoteText(join(engine.vault, row.path));
  return ok({ path: row.path, title: row.title, excerpt: read.ok ? excerpt(read.text) : '' });
}

/** The first words of a note's body: frontmatter, the opening title heading and heading marks left out. */
export function excerpt(text: string): string {
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '').replace(/^\s*# .*\r?\n/, '');
  const words = body
    .split('\n')
    .map((line) => line.replace(/^#+\s+/, '').trim())
    .filter(Boolean)
    .join(' ');
  return words.length > EXCERPT_CHARS ? `${words.slice(0, EXCERPT_CHARS - 1)}…` : words;
}
