/**
 * Consolidation: entities that are probably the same thing (same type; names equal up to word
 * order, one name an alias of the other, or a small edit apart) become durable merge proposals
 * with ids. An adjudicator — a model, or none — may confirm or reject each. Applying a proposal
 * does exactly what was reviewed: the loser's mentions and relations move to the winner, its
 * names become the winner's aliases, and its note becomes a stub pointing to the winner, so no
 * link breaks. Every applied merge can be undone.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import type { EntityType } from './model.js';
import type { GraphStore } from './store.js';
import type { VaultWriter } from '../writes/index.js';
import { writeEntityNotes } from './backlog.js';
import { cosine, entityVectors, type EntityVector } from './entity-vectors.js';

export const CONSOLIDATE_DEFAULTS = {
  /** Candidate pairs examined per call (bounded: no prompt or loop that grows with the graph). */
  maxCandidates: 50,
  /** Names shorter than this never match by edit distance (`Bo` and `Ba` are different people). */
  minFuzzyChars: 6,
  /** Names at least this long may be two edits apart; shorter ones one. */
  twoEditChars: 12,
  /** Entity vectors closer than this (cosine) make a candidate pair. */
  minVectorCosine: 0.92,
  /** Entities per type compared by vector (the most mentioned): bounds the pairwise pass. */
  maxVectorEntities: 2000,
} as const;

export interface CandidateEntity {
  id: number;
  name: string;
  mentions: number;
  aliases: string[];
  /** A few evidence quotes from the notes that mention it (note text: untrusted). */
  evidence: string[];
}

export interface Candidate {
  winner: CandidateEntity;
  loser: CandidateEntity;
  type: EntityType;
  reason: string;
}

/** Decides whether two entities are the same, or says why it could not (then a human decides). */
export type Adjudicator = (candidate: Candidate) => Promise<{ same: boolean; reason: string } | { unavailable: string }>;

export interface Proposal {
  id: number;
  winner: string;
  loser: string;
  type: string;
  reason: string;
  verdict: string;
  status: 'pending' | 'rejected' | 'applied' | 'undone';
}

export interface CandidateOptions {
  limit?: number;
  vectorModel?: string;
  /** Only pairs with at least one of these entities (the Librarian's slice of changed entities). */
  only?: ReadonlySet<number>;
}

/** Candidate pairs not proposed before, found by name and by vector. Reads only. */
export function findMergeCandidates(db: Database.Database, options: CandidateOptions = {}): Candidate[] {
  const entities = db
    .prepare(
      `SELECT e.id, e.name, e.norm, e.type, (SELECT count(*) FROM mentions WHERE entity_id = e.id) AS mentions,
      EXISTS (SELECT 1 FROM mentions m JOIN notes n ON n.id = m.note_id WHERE m.entity_id = e.id AND n.title = e.name) AS own FROM entities e
    WHERE e.merged_into IS NULL ORDER BY e.type, e.id`,
    )
    .all() as { id: number; name: string; norm: string; type: EntityType; mentions: number; own: number }[];
  const aliasNames = db.prepare('SELECT alias FROM entity_aliases WHERE entity_id = ? ORDER BY alias').pluck();
  const evidence = db.prepare("SELECT evidence FROM mentions WHERE entity_id = ? AND evidence != '' LIMIT 5").pluck();
  const side = (entity: { id: number; name: string; mentions: number }): CandidateEntity => ({
    id: entity.id,
    name: entity.name,
    mentions: entity.mentions,
    aliases: aliasNames.all(entity.id) as string[],
    evidence: evidence.all(entity.id) as string[],
  });
  const known = db.prepare("SELECT 1 FROM proposals WHERE kind = 'merge' AND ((winner_id = ? AND loser_id = ?) OR (winner_id = ? AND loser_id = ?))").pluck();
  const candidates: Candidate[] = [];
  const limit = options.limit ?? CONSOLIDATE_DEFAULTS.maxCandidates;
  const aliasMap = new Map<number, string[]>();
  for (const row of db.prepare('SELECT a.entity_id AS id, a.norm FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE e.merged_into IS NULL').all() as { id: number; norm: string }[]) {
    const list = aliasMap.get(row.id);
    if (list) list.push(row.norm);
    else aliasMap.set(row.id, [row.norm]);
  }
  const aliasesOf = (id: number) => aliasMap.get(id) ?? [];
  for (const [i, j] of namePairs(entities, aliasesOf)) {
    if (candidates.length >= limit) break;
    const a = entities[i]!;
    const b = entities[j]!;
    if (options.only && !options.only.has(a.id) && !options.only.has(b.id)) continue;
    const reason = similarity(a, b, aliasesOf(a.id), aliasesOf(b.id));
    if (!reason || known.get(a.id, b.id, b.id, a.id)) continue;
    const [winner, loser] = winsOver(b, a) ? [b, a] : [a, b];
    candidates.push({ winner: side(winner), loser: side(loser), type: a.type, reason });
  }
  if (options.vectorModel && candidates.length < limit) {
    const taken = new Set(candidates.map((c) => pairKey(c.winner.id, c.loser.id)));
    const byId = new Map(entities.map((entity) => [entity.id, entity]));
    for (const pair of vectorPairs(db, options.vectorModel, limit - candidates.length, (a, b) => (!options.only || options.only.has(a) || options.only.has(b)) && !taken.has(pairKey(a, b)) && !known.get(a, b, b, a))) {
      const a = byId.get(pair.a)!;
      const b = byId.get(pair.b)!;
      const bWins = winsOver(b, a);
      const [winner, loser] = bWins ? [b, a] : [a, b];
      candidates.push({ winner: side(winner), loser: side(loser), type: a.type, reason: `mentioned in notes about the same things, never together (cosine ${pair.cosine.toFixed(3)})` });
    }
  }
  return candidates;
}

/**
 * Finds new candidate pairs (or takes those a plan just found: `candidates`), adjudicates them,
 * and stores them as proposals.
 */
export async function proposeMerges(db: Database.Database, options: CandidateOptions & { candidates?: readonly Candidate[]; adjudicator?: Adjudicator; now?: () => number } = {}): Promise<Proposal[]> {
  const now = new Date((options.now ?? Date.now)()).toISOString();
  const candidates = options.candidates ?? findMergeCandidates(db, options);
  const insert = db.prepare(`INSERT INTO proposals (kind, winner_id, loser_id, reason, verdict, status, created) VALUES ('merge', ?, ?, ?, ?, ?, ?)`);
  const proposals: Proposal[] = [];
  for (const candidate of candidates) {
    const verdict = options.adjudicator ? await options.adjudicator(candidate) : { unavailable: 'not adjudicated' };
    // A "same" verdict still waits for apply: a model's opinion never merges anything by itself.
    const status = 'same' in verdict && !verdict.same ? 'rejected' : 'pending';
    const said = 'unavailable' in verdict ? `${verdict.unavailable}: a human decides` : `${verdict.same ? 'same' : 'different'}: ${verdict.reason}`;
    const id = Number(insert.run(candidate.winner.id, candidate.loser.id, candidate.reason, said, status, now).lastInsertRowid);
    proposals.push({ id, winner: candidate.winner.name, loser: candidate.loser.name, type: candidate.type, reason: candidate.reason, verdict: said, status });
  }
  return proposals;
}

export function listProposals(db: Database.Database, status?: Proposal['status']): Proposal[] {
  return db
    .prepare(
      `SELECT p.id, w.name AS winner, l.name AS loser, w.type, p.reason, p.verdict, p.status FROM proposals p
    JOIN entities w ON w.id = p.winner_id JOIN entities l ON l.id = p.loser_id WHERE (@status IS NULL OR p.status = @status) ORDER BY p.id`,
    )
    .all({ status: status ?? null }) as Proposal[];
}

/**
 * Applies a pending proposal in one transaction and returns the entity ids whose notes must be
 * rewritten. What moved is recorded with the proposal, so `undoMerge` can put it back.
 */
export function applyMerge(db: Database.Database, id: number, now: string): number[] {
  return db.transaction(() => {
    const proposal = db.prepare('SELECT winner_id, loser_id, status FROM proposals WHERE id = ?').get(id) as { winner_id: number; loser_id: number; status: string } | undefined;
    if (!proposal) throw new EngramError('NOT_FOUND', `no proposal #${id}; list them with consolidate_graph`);
    if (proposal.status !== 'pending') throw new EngramError('CONFLICT', `proposal #${id} is ${proposal.status}, not pending; only pending proposals are applied`);
    const { winner_id: winner, loser_id: loser } = proposal;
    const mentions = db.prepare('SELECT note_id, evidence FROM mentions WHERE entity_id = ?').all(loser) as { note_id: number; evidence: string }[];
    const outgoing = db.prepare('SELECT to_id, relation, note_id, evidence FROM relations WHERE from_id = ?').all(loser) as { to_id: number; relation: string; note_id: number; evidence: string }[];
    const incoming = db.prepare('SELECT from_id, relation, note_id, evidence FROM relations WHERE to_id = ?').all(loser) as { from_id: number; relation: string; note_id: number; evidence: string }[];
    const loserRow = db.prepare('SELECT name, norm FROM entities WHERE id = ?').get(loser) as { name: string; norm: string };
    const loserAliases = db.prepare('SELECT alias, norm FROM entity_aliases WHERE entity_id = ?').all(loser) as { alias: string; norm: string }[];
    // Only what the winner did not already have is recorded as added, so undo removes exactly that.
    const addMention = db.prepare('INSERT OR IGNORE INTO mentions (entity_id, note_id, evidence) VALUES (?, ?, ?)');
    const addRelation = db.prepare('INSERT OR IGNORE INTO relations (from_id, to_id, relation, note_id, evidence) VALUES (?, ?, ?, ?, ?)');
    const addedMentions = mentions.filter((m) => addMention.run(winner, m.note_id, m.evidence).changes > 0).map((m) => m.note_id);
    const addedRelations: [number, number, string, number][] = [];
    for (const r of outgoing) if (r.to_id !== winner && addRelation.run(winner, r.to_id, r.relation, r.note_id, r.evidence).changes > 0) addedRelations.push([winner, r.to_id, r.relation, r.note_id]);
    for (const r of incoming) if (r.from_id !== winner && addRelation.run(r.from_id, winner, r.relation, r.note_id, r.evidence).changes > 0) addedRelations.push([r.from_id, winner, r.relation, r.note_id]);
    db.prepare('DELETE FROM mentions WHERE entity_id = ?').run(loser);
    db.prepare('DELETE FROM relations WHERE from_id = ? OR to_id = ?').run(loser, loser);
    const addedAliases: string[] = [];
    const addAlias = db.prepare('INSERT OR IGNORE INTO entity_aliases (entity_id, alias, norm) VALUES (?, ?, ?)');
    for (const alias of [{ alias: loserRow.name, norm: loserRow.norm }, ...loserAliases]) {
      if (addAlias.run(winner, alias.alias, alias.norm).changes > 0) addedAliases.push(alias.norm);
    }
    db.prepare('UPDATE entities SET merged_into = ?, dirty = 1, updated = ? WHERE id = ?').run(winner, now, loser);
    db.prepare('UPDATE entities SET dirty = 1, updated = ? WHERE id = ?').run(now, winner);
    // Entities related to the loser link to it from their notes: those lines now name the winner.
    markDirty(db, [...outgoing.map((r) => r.to_id), ...incoming.map((r) => r.from_id)]);
    const undo: MergeUndo = { mentions, outgoing, incoming, addedAliases, addedMentions, addedRelations };
    db.prepare("UPDATE proposals SET status = 'applied', decided = ?, undo = ? WHERE id = ?").run(now, JSON.stringify(undo), id);
    return [winner, loser];
  })();
}

/** What an applied merge moved (to restore the loser) and added (to take back from the winner). */
interface MergeUndo {
  mentions: { note_id: number; evidence: string }[];
  outgoing: { to_id: number; relation: string; note_id: number; evidence: string }[];
  incoming: { from_id: number; relation: string; note_id: number; evidence: string }[];
  addedAliases: string[];
  addedMentions: number[];
  addedRelations: [number, number, string, number][];
}

/** Entities whose notes link to a merged entity: their notes must be re-rendered. */
function markDirty(db: Database.Database, ids: readonly number[]): void {
  const mark = db.prepare('UPDATE entities SET dirty = 1 WHERE id = ?');
  for (const id of new Set(ids)) mark.run(id);
}

/** Reverts an applied merge: the loser gets back its mentions, relations and note. */
export function undoMerge(db: Database.Database, id: number, now: string): number[] {
  return db.transaction(() => {
    const proposal = db.prepare('SELECT winner_id, loser_id, status, undo FROM proposals WHERE id = ?').get(id) as { winner_id: number; loser_id: number; status: string; undo: string | null } | undefined;
    if (!proposal || proposal.status !== 'applied' || !proposal.undo) throw new EngramError(proposal ? 'CONFLICT' : 'NOT_FOUND', proposal ? `proposal #${id} is not an applied merge; nothing to undo` : `no proposal #${id}; nothing to undo`);
    const { winner_id: winner, loser_id: loser } = proposal;
    const undo = JSON.parse(proposal.undo) as MergeUndo;
    const dropMention = db.prepare('DELETE FROM mentions WHERE entity_id = ? AND note_id = ?');
    const dropRelation = db.prepare('DELETE FROM relations WHERE from_id = ? AND to_id = ? AND relation = ? AND note_id = ?');
    const addMention = db.prepare('INSERT OR IGNORE INTO mentions (entity_id, note_id, evidence) VALUES (?, ?, ?)');
    const addRelation = db.prepare('INSERT OR IGNORE INTO relations (from_id, to_id, relation, note_id, evidence) VALUES (?, ?, ?, ?, ?)');
    const dropAlias = db.prepare('DELETE FROM entity_aliases WHERE entity_id = ? AND norm = ?');
    for (const note of undo.addedMentions) dropMention.run(winner, note);
    for (const [from, to, relation, note] of undo.addedRelations) dropRelation.run(from, to, relation, note);
    // A note that still exists gets its mention back; one deleted since stays gone.
    const noteExists = db.prepare('SELECT 1 FROM notes WHERE id = ?').pluck();
    for (const mention of undo.mentions) if (noteExists.get(mention.note_id)) addMention.run(loser, mention.note_id, mention.evidence);
    for (const r of undo.outgoing) if (noteExists.get(r.note_id)) addRelation.run(loser, r.to_id, r.relation, r.note_id, r.evidence);
    for (const r of undo.incoming) if (noteExists.get(r.note_id)) addRelation.run(r.from_id, loser, r.relation, r.note_id, r.evidence);
    for (const norm of undo.addedAliases) dropAlias.run(winner, norm);
    db.prepare('UPDATE entities SET merged_into = NULL, dirty = 1, updated = ? WHERE id = ?').run(now, loser);
    markDirty(db, [...undo.outgoing.map((r) => r.to_id), ...undo.incoming.map((r) => r.from_id)]);
    db.prepare('UPDATE entities SET dirty = 1, updated = ? WHERE id = ?').run(now, winner);
    db.prepare("UPDATE proposals SET status = 'undone', decided = ? WHERE id = ?").run(now, id);
    return [winner, loser];
  })();
}

/**
 * Whether `b` should absorb `a`: the entity with a note of its own in the vault (its title is the
 * human's name for it) wins; then the one more notes mention; then the elder.
 */
function winsOver(b: { mentions: number; own: number }, a: { mentions: number; own: number }): boolean {
  if (b.own !== a.own) return b.own > a.own;
  return b.mentions > a.mentions;
}

function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/**
 * Same-type entity pairs whose vectors — the normalized mean of the current vectors of the notes
 * that mention each — are at least `minVectorCosine` apart, closest first. Pairs mentioned
 * together in any note are skipped: co-mentioned entities (two people at one meeting) share their
 * context by construction, while two names for one thing rarely appear side by side.
 */
function vectorPairs(db: Database.Database, model: string, limit: number, accept: (a: number, b: number) => boolean): { a: number; b: number; cosine: number }[] {
  const byType = new Map<string, EntityVector[]>();
  for (const entity of entityVectors(db, model)) {
    const list = byType.get(entity.type) ?? [];
    list.push(entity);
    byType.set(entity.type, list);
  }
  const pairs: { a: number; b: number; cosine: number }[] = [];
  for (const list of byType.values()) {
    const bounded = list.sort((x, y) => y.notes.size - x.notes.size || x.id - y.id).slice(0, CONSOLIDATE_DEFAULTS.maxVectorEntities);
    for (let i = 0; i < bounded.length; i++) {
      for (let j = i + 1; j < bounded.length; j++) {
        const x = bounded[i]!;
        const y = bounded[j]!;
        if (x.unit.length !== y.unit.length) continue;
        const dot = cosine(x.unit, y.unit);
        if (dot < CONSOLIDATE_DEFAULTS.minVectorCosine) continue;
        let together = false;
        for (const note of x.notes)
          if (y.notes.has(note)) {
            together = true;
            break;
          }
        if (!together && namesHint(x.norm, y.norm) && accept(x.id, y.id)) pairs.push({ a: Math.min(x.id, y.id), b: Math.max(x.id, y.id), cosine: dot });
      }
    }
  }
  return pairs.sort((p, q) => q.cosine - p.cosine).slice(0, limit);
}

/**
 * Whether two names could be one: a word of one begins a word of the other (`Bob Z` /
 * `Robert Zhang`: z…), or one is the other's initials (`NYC` / `New York City`). Context alone
 * is not enough: with a small embedding model, notes on neighbouring subjects sit above 0.92.
 * Particles (`de`, `of`, `the`) say nothing: `tomada de decisao` and `modelagem de sistemas`
 * are not one topic.
 */
export function namesHint(a: string, b: string): boolean {
  const wa = a.split(' ').filter(Boolean);
  const wb = b.split(' ').filter(Boolean);
  const initials = (words: string[]) => words.map((word) => word[0]).join('');
  if ((wa.length === 1 && wb.length > 1 && wa[0] === initials(wb)) || (wb.length === 1 && wa.length > 1 && wb[0] === initials(wa))) return true;
  // The shorter word is an initial (`z`) or a real word (4+ letters), never a particle.
  const begins = (long: string, short: string) => long.startsWith(short) && (short.length === 1 || short.length >= 4);
  return wa.some((x) => wb.some((y) => begins(x, y) || begins(y, x)));
}

/**
 * Index pairs (i < j, same type) that may be one entity, in order, found through keys instead of
 * comparing every pair (10k entities would be 50M comparisons): a name equal to the other's
 * alias, the same words sorted, or a shared deletion variant (two names within edit distance d
 * share a string reached by at most d deletions from each; d = 1, or 2 for long names). Every
 * pair is confirmed by `similarity`. A key shared by more than `MAX_BUCKET` names says nothing.
 */
function namePairs(entities: readonly { id: number; norm: string; type: string }[], aliasesOf: (id: number) => readonly string[]): [number, number][] {
  const MAX_BUCKET = 50;
  const buckets = new Map<string, number[]>();
  const add = (key: string, index: number) => {
    const list = buckets.get(key);
    if (!list) buckets.set(key, [index]);
    else if (list.length <= MAX_BUCKET && list[list.length - 1] !== index) list.push(index);
  };
  entities.forEach((entity, index) => {
    const prefix = `${entity.type}\u0000`;
    add(`${prefix}n${entity.norm}`, index);
    for (const alias of aliasesOf(entity.id)) add(`${prefix}n${alias}`, index);
    add(`${prefix}w${entity.norm.split(' ').sort().join(' ')}`, index);
    if (entity.norm.length >= CONSOLIDATE_DEFAULTS.minFuzzyChars) {
      for (const variant of deletions(entity.norm, entity.norm.length >= CONSOLIDATE_DEFAULTS.twoEditChars ? 2 : 1)) add(`${prefix}d${variant}`, index);
    }
  });
  const pairs = new Map<number, [number, number]>();
  const n = entities.length;
  for (const list of buckets.values()) {
    if (list.length < 2 || list.length > MAX_BUCKET) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const i = Math.min(list[x]!, list[y]!);
        const j = Math.max(list[x]!, list[y]!);
        if (i !== j) pairs.set(i * n + j, [i, j]);
      }
    }
  }
  return [...pairs.values()].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/** Every string reached from `text` by 0 to `depth` character deletions. */
function deletions(text: string, depth: number): Set<string> {
  const out = new Set<string>([text]);
  let frontier = [text];
  for (let level = 0; level < depth; level++) {
    const next: string[] = [];
    for (const word of frontier) {
      for (let k = 0; k < word.length; k++) {
        const variant = word.slice(0, k) + word.slice(k + 1);
        if (!out.has(variant)) {
          out.add(variant);
          next.push(variant);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** Why two same-type entities look like one, or null. */
function similarity(a: { name: string; norm: string }, b: { name: string; norm: string }, aAliases: readonly string[], bAliases: readonly string[]): string | null {
  if (aAliases.includes(b.norm) || bAliases.includes(a.norm)) return `"${b.name}" is an alias of "${a.name}" (or the reverse)`;
  const words = (norm: string) => norm.split(' ').sort().join(' ');
  if (words(a.norm) === words(b.norm)) return `the same words in another order`;
  // One slip in a short name, two in a long one: `ranking`/`running` and `person`/`personal`
  // are different words, `Ana Silva`/`Anna Silva` one slip.
  const short = Math.min(a.norm.length, b.norm.length);
  const allowed = short >= CONSOLIDATE_DEFAULTS.twoEditChars ? 2 : 1;
  if (short >= CONSOLIDATE_DEFAULTS.minFuzzyChars) {
    const distance = editDistance(a.norm, b.norm, allowed);
    if (distance <= allowed) return `names ${distance} letter${distance === 1 ? '' : 's'} apart`;
  }
  return null;
}

/** Levenshtein distance, giving up above `max` (returns max + 1). */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

export interface ConsolidateReport {
  /** New proposals found by this call. */
  proposed: Proposal[];
  /** Every proposal still waiting for a decision. */
  pending: Proposal[];
  applied: number[];
  undone: number[];
  /** Entity notes rewritten (winners, and losers turned into stubs). */
  written: string[];
  errors: string[];
}

/**
 * One consolidation step: apply or undo the proposals named, else look for new ones. Entity notes
 * of every entity touched are rewritten through the write layer in the same call.
 */
export async function consolidate(
  store: GraphStore,
  db: Database.Database,
  writer: VaultWriter,
  request: { apply?: readonly number[]; undo?: readonly number[]; adjudicator?: Adjudicator; now?: () => number; vectorModel?: string },
): Promise<ConsolidateReport> {
  const now = () => new Date((request.now ?? Date.now)()).toISOString();
  const report: ConsolidateReport = { proposed: [], pending: [], applied: [], undone: [], written: [], errors: [] };
  // Every id is checked before anything changes: a typo in the third id applies none.
  const statusOf = db.prepare('SELECT status FROM proposals WHERE id = ?').pluck();
  for (const [ids, wanted, verb] of [
    [request.apply ?? [], 'pending', 'applied'],
    [request.undo ?? [], 'applied', 'undone'],
  ] as const) {
    for (const id of ids) {
      const status = statusOf.get(id) as string | undefined;
      if (status === undefined) throw new EngramError('NOT_FOUND', `no proposal #${id}; call without ids to list the pending proposals`);
      if (status !== wanted) throw new EngramError('CONFLICT', `proposal #${id} is ${status}; only ${wanted} proposals can be ${verb}`);
    }
  }
  for (const id of request.apply ?? []) {
    applyMerge(db, id, now());
    report.applied.push(id);
  }
  for (const id of request.undo ?? []) {
    undoMerge(db, id, now());
    report.undone.push(id);
  }
  if (!request.apply?.length && !request.undo?.length) {
    report.proposed = await proposeMerges(db, {
      ...(request.adjudicator ? { adjudicator: request.adjudicator } : {}),
      ...(request.now ? { now: request.now } : {}),
      ...(request.vectorModel ? { vectorModel: request.vectorModel } : {}),
    });
  }
  const notes = { entityNotesWritten: 0, written: report.written, errors: report.errors };
  writeEntityNotes(store, writer, notes);
  report.pending = listProposals(db, 'pending');
  return report;
}
