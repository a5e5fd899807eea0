/**
 * The organizer: files notes waiting in the agent's Inbox (and, only where the owner opted in,
 * loose notes at the vault root) into the human's folders by a k-nearest-neighbour vote over
 * note vectors. Never touches a note already filed. A clear vote with a unique note name moves
 * the note (every link that would break is rewritten, all journaled under one move id); anything
 * less becomes a durable proposal that a human accepts or rejects by id.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import { indexPaths, linkablePaths, vectorFromBlob } from '../index/index.js';
import { lexicalExtension } from '../search/index.js';
import { baseName, folderOf, linkWorlds, rewriteLinksForMove } from '../vault/index.js';
import { ORGANIZER, type Actor, type MoveRequest, type VaultWriter } from '../writes/index.js';

export const ORGANIZE_DEFAULTS = {
  /** Neighbours in the vote. */
  k: 10,
  /** Share of the neighbours' cosine mass a folder needs for a move. */
  threshold: 0.7,
  /** Root files that are never candidates, whatever the configuration. */
  keepAtRoot: ['claude.md', 'agents.md', 'readme.md'] as readonly string[],
} as const;

export interface OrganizeOptions {
  agentRoot: string;
  model: string;
  /** Also file loose notes at the vault root (the owner's opt-in). */
  looseRoot?: boolean;
  k?: number;
  threshold?: number;
}

/** One candidate's outcome in a plan. */
export type Filing =
  | { kind: 'move'; path: string; hash: string; target: string; to: string; share: number; neighbours: string[] }
  | { kind: 'propose'; path: string; hash: string; target: string; share: number; reason: string; neighbours: string[] }
  | { kind: 'skip'; path: string; reason: string };

export interface OrganizePlan {
  candidates: number;
  filings: Filing[];
}

interface Row {
  id: number;
  path: string;
  hash: string;
  name_key: string;
  frontmatter: string | null;
  vector: Buffer | null;
}

/** Decides, for every candidate, move / propose / skip. Reads the index only. */
export function planOrganize(db: Database.Database, options: OrganizeOptions): OrganizePlan {
  const agent = options.agentRoot;
  const inbox = `${agent}/Inbox/`.toLowerCase();
  const rows = db
    .prepare(
      `SELECT n.id, n.path, n.hash, n.name_key, n.frontmatter, v.vector FROM notes n
    LEFT JOIN vectors v ON v.note_id = n.id AND v.block_key = '' AND v.model = ? AND v.content_hash = n.hash AND length(v.vector) > 0`,
    )
    .all(options.model) as Row[];
  const isCandidate = (row: Row) => {
    const lower = row.path.toLowerCase();
    if (lower.startsWith(inbox)) return !lower.endsWith('/readme.md'); // the folder's own description stays

    return options.looseRoot === true && !row.path.includes('/') && !ORGANIZE_DEFAULTS.keepAtRoot.includes(lower);
  };
  const candidates = rows.filter(isCandidate);
  // Labels: notes filed in the human's folders (the agent folder and the root are not a taxonomy).
  const labeled = rows.filter((row) => row.vector !== null && row.path.includes('/') && !row.path.toLowerCase().startsWith(`${agent.toLowerCase()}/`));
  const dims = labeled[0]?.vector ? labeled[0].vector.length / 4 : 0;
  const matrix = new Float32Array(labeled.length * dims);
  labeled.forEach((row, i) => matrix.set(unit(vectorFromBlob(row.vector!)), i * dims));
  const names = new Map<string, number>();
  for (const row of rows) names.set(row.name_key, (names.get(row.name_key) ?? 0) + 1);
  const taken = new Set(rows.map((row) => row.path.toLowerCase()));
  // The owner's decisions stand: a move they undid, or a proposal they rejected, is not made again.
  const declined = new Set([
    ...(db.prepare('SELECT from_path, to_path FROM moves WHERE undone_at IS NOT NULL').all() as { from_path: string; to_path: string }[]).map((move) => `${move.from_path}\u0000${folderOf(move.to_path)}`),
    ...(db.prepare("SELECT path, target FROM organize_proposals WHERE status = 'rejected'").all() as { path: string; target: string }[]).map((proposal) => `${proposal.path}\u0000${proposal.target}`),
  ]);
  const k = options.k ?? ORGANIZE_DEFAULTS.k;
  const threshold = options.threshold ?? ORGANIZE_DEFAULTS.threshold;

  const filings: Filing[] = candidates.map((row): Filing => {
    if (optedOut(row.frontmatter)) return { kind: 'skip', path: row.path, reason: 'organize: false in its frontmatter' };
    if (row.vector === null) return { kind: 'skip', path: row.path, reason: 'no vector yet (it is filed once embedded)' };
    if (labeled.length === 0 || row.vector.length / 4 !== dims) return { kind: 'skip', path: row.path, reason: 'no filed notes with vectors to vote' };
    const votes = vote(unit(vectorFromBlob(row.vector)), { matrix, dims, labeled }, { k });
    if (votes === null) return { kind: 'skip', path: row.path, reason: 'no similar filed notes' };
    const { target, share, neighbours } = votes;
    if (declined.has(`${row.path}\u0000${target}`)) return { kind: 'skip', path: row.path, reason: `you declined filing it into ${target}/ before (an undone move or a rejected proposal)` };
    const to = `${target}/${baseName(row.path)}`;
    if (share < threshold) return { kind: 'propose', path: row.path, hash: row.hash, target, share, neighbours, reason: `low confidence (share ${share.toFixed(2)} < ${threshold})` };
    if ((names.get(row.name_key) ?? 0) > 1) return { kind: 'propose', path: row.path, hash: row.hash, target, share, neighbours, reason: 'another note has the same name: bare links could change meaning' };
    if (taken.has(to.toLowerCase())) return { kind: 'propose', path: row.path, hash: row.hash, target, share, neighbours, reason: `${to} exists already` };
    return { kind: 'move', path: row.path, hash: row.hash, target, to, share, neighbours };
  });
  return { candidates: candidates.length, filings };
}

export interface FiledVectors {
  matrix: Float32Array;
  dims: number;
  labeled: readonly { path: string }[];
}

/** Neighbours in the vote, and the share of their mass a folder needs (ORGANIZE_DEFAULTS otherwise). */
export interface VoteTuning {
  k?: number;
  threshold?: number;
}

/**
 * The k nearest filed notes vote with their cosine for their folder and every folder above it;
 * the deepest folder holding at least the threshold share wins, else the single best folder is
 * what a proposal names. `filed` holds the filed notes' unit vectors, `dims` numbers each, row i
 * for `labeled[i]`. Pure.
 */
export function vote(query: Float32Array, filed: FiledVectors, tuning: VoteTuning = {}): { target: string; share: number; neighbours: string[] } | null {
  const { matrix, dims, labeled } = filed;
  const { k = ORGANIZE_DEFAULTS.k, threshold = ORGANIZE_DEFAULTS.threshold } = tuning;
  const top: { i: number; score: number }[] = [];
  for (let i = 0; i < labeled.length; i++) {
    let dot = 0;
    const base = i * dims;
    for (let d = 0; d < dims; d++) dot += query[d]! * matrix[base + d]!;
    if (dot <= 0) continue;
    if (top.length < k) top.push({ i, score: dot });
    else if (dot > top[top.length - 1]!.score) top[top.length - 1] = { i, score: dot };
    else continue;
    top.sort((a, b) => b.score - a.score);
  }
  if (top.length === 0) return null;
  const mass = new Map<string, number>();
  let total = 0;
  for (const { i, score } of top) {
    total += score;
    let folder = folderOf(labeled[i]!.path);
    while (folder !== '') {
      mass.set(folder, (mass.get(folder) ?? 0) + score);
      folder = folderOf(folder);
    }
  }
  const ranked = [...mass.entries()].map(([folder, m]) => ({ folder, share: m / total, depth: folder.split('/').length }));
  const confident = ranked.filter((entry) => entry.share >= threshold).sort((a, b) => b.depth - a.depth || b.share - a.share || (a.folder < b.folder ? -1 : 1));
  const best = confident[0] ?? ranked.sort((a, b) => b.share - a.share || b.depth - a.depth || (a.folder < b.folder ? -1 : 1))[0]!;
  return { target: best.folder, share: best.share, neighbours: top.slice(0, 3).map(({ i }) => labeled[i]!.path) };
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm);
  if (norm === 0) return vector;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}

function optedOut(frontmatter: string | null): boolean {
  if (frontmatter === null) return false;
  try {
    const data = JSON.parse(frontmatter) as Record<string, unknown>;
    return data.organize === false || data.organize === 'false';
  } catch {
    return false;
  }
}

export interface MoveContext {
  root: string;
  db: Database.Database;
  writer: VaultWriter;
  agentRoot: string;
  exclude: readonly string[];
}

/**
 * A link-safe move as the writer takes it: the note's own relative links and every note linking
 * to it (by the index) rewritten for the note's new place, in every link form.
 */
export function planMove(db: Database.Database, by: Actor, from: string, to: string): MoveRequest {
  const move = { from, to };
  const worlds = linkWorlds(linkablePaths(db), move);
  const linkers = db
    .prepare(
      `SELECT DISTINCT n.path FROM links l JOIN notes n ON n.id = l.note_id
    WHERE l.resolved_path = ? AND n.path != ?`,
    )
    .pluck()
    .all(from, from) as string[];
  return {
    by,
    from,
    to,
    self: (text) => rewriteLinksForMove(text, from, move, worlds).text,
    rewrites: linkers.map((path) => ({ path, next: (text: string) => rewriteLinksForMove(text, path, move, worlds).text })),
  };
}

/**
 * Moves one note and rewrites the links that would break, through the writer (journaled under
 * one move id), then brings the index up to date for every file touched. The organizer's by
 * default; an agent's move (`move_note`) or an issue's archiving passes its own actor.
 */
export function moveNote(context: MoveContext, from: string, to: string, expectHash?: string, by: Actor = ORGANIZER): { moveId: number; rewritten: string[] } {
  const { db } = context;
  const receipt = context.writer.move({ ...planMove(db, by, from, to), ...(expectHash ? { expectHash } : {}) });
  indexPaths(db, [from, to, ...receipt.rewritten, `${context.agentRoot}/Audit.md`], { root: context.root, exclude: [...context.exclude], extensions: [lexicalExtension()] });
  return { moveId: receipt.moveId, rewritten: receipt.rewritten };
}

export interface OrganizeProposal {
  id: number;
  path: string;
  target: string;
  share: number;
  reason: string;
  status: 'pending' | 'applied' | 'rejected' | 'stale';
}

/** Records proposals: one row per (note, target), refreshed on later sweeps, never repeated. */
export function recordProposals(db: Database.Database, filings: readonly Filing[], runId: string, at: string): OrganizeProposal[] {
  const upsert = db
    .prepare(
      `INSERT INTO organize_proposals (path, note_hash, target, share, reason, status, run_id, created, seen)
    VALUES (@path, @hash, @target, @share, @reason, 'pending', @run, @at, @at)
    ON CONFLICT (path, target) DO UPDATE SET note_hash = excluded.note_hash, share = excluded.share, reason = excluded.reason, seen = excluded.seen
    WHERE organize_proposals.status = 'pending'
    RETURNING id`,
    )
    .pluck();
  const out: OrganizeProposal[] = [];
  db.transaction(() => {
    for (const filing of filings) {
      if (filing.kind !== 'propose') continue;
      const id = upsert.get({ path: filing.path, hash: filing.hash, target: filing.target, share: filing.share, reason: filing.reason, run: runId, at }) as number | undefined;
      if (id !== undefined) out.push({ id, path: filing.path, target: filing.target, share: filing.share, reason: filing.reason, status: 'pending' });
    }
    // A proposal whose note moved or went away no longer applies.
    db.prepare(
      `UPDATE organize_proposals SET status = 'stale', decided = ? WHERE status = 'pending'
      AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.path = organize_proposals.path)`,
    ).run(at);
  })();
  return out;
}

export function listOrganizeProposals(db: Database.Database, status: OrganizeProposal['status'] | null = 'pending'): OrganizeProposal[] {
  return db.prepare(`SELECT id, path, target, share, reason, status FROM organize_proposals WHERE (@status IS NULL OR status = @status) ORDER BY id`).all({ status }) as OrganizeProposal[];
}

/** Accepts proposals (each one's move is made exactly as proposed) and rejects others. Ids are checked first. */
export function decideProposals(
  context: MoveContext,
  request: { apply?: readonly number[]; reject?: readonly number[] },
  at: string,
): { applied: { id: number; from: string; to: string; moveId: number; rewritten: string[] }[]; rejected: number[] } {
  const { db } = context;
  const get = db.prepare('SELECT id, path, target, status, note_hash FROM organize_proposals WHERE id = ?');
  const rows = new Map<number, { id: number; path: string; target: string; status: string; note_hash: string }>();
  for (const id of [...(request.apply ?? []), ...(request.reject ?? [])]) {
    const row = get.get(id) as { id: number; path: string; target: string; status: string; note_hash: string } | undefined;
    if (!row) throw new EngramError('NOT_FOUND', `no filing proposal #${id}; call organize_vault without ids to list the pending ones`);
    if (row.status !== 'pending') throw new EngramError('CONFLICT', `filing proposal #${id} is ${row.status}; only pending proposals can be decided`);
    rows.set(id, row);
  }
  const applied: { id: number; from: string; to: string; moveId: number; rewritten: string[] }[] = [];
  for (const id of request.apply ?? []) {
    const row = rows.get(id)!;
    const to = `${row.target}/${baseName(row.path)}`;
    // Exactly what was reviewed: a note edited since its proposal is not moved.
    const moved = moveNote(context, row.path, to, row.note_hash);
    db.prepare("UPDATE organize_proposals SET status = 'applied', decided = ?, move_id = ? WHERE id = ?").run(at, moved.moveId, id);
    applied.push({ id, from: row.path, to, ...moved });
  }
  const reject = db.prepare("UPDATE organize_proposals SET status = 'rejected', decided = ? WHERE id = ?");
  for (const id of request.reject ?? []) reject.run(at, id);
  return { applied, rejected: [...(request.reject ?? [])] };
}
