/**
 * Search over an indexed vault: loads the keyword index from the state database, runs the
 * ranking core, and attaches evidence read from the notes themselves. This is the one search
 * path: `engram search`, the MCP `search_brain` tool and `engram eval` all call `search`.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { noteName, readNoteFile } from '../vault/index.js';
import { DEFAULTS as BM25_DEFAULTS, type Bm25Params } from './bm25l.js';
import { findEvidence, type EvidenceBlock } from './evidence.js';
import type { FieldWeights } from './fields.js';
import { compileFilter, folderSegments, type NoteMeta, type SearchFilters } from './filters.js';
import { DEFAULT_FIELD_WEIGHTS, LexicalIndex, type TermExplanation } from './lexical-index.js';
import { loadTermStats } from './lexical-store.js';
import { rankDocuments } from './rank.js';
import { rankSubstring, type SubstringCandidate } from './substring.js';
import { createTokenizer, type Tokenizer, type TokenizerOptions } from './tokenizer.js';

export const LIMITS = {
  /** Results a caller may ask for; eval asks up to 100 (recall@100). */
  maxLimit: 1000,
  defaultLimit: 10,
  /** Longer queries are cut here, with a notice: past this, more words only cost time. */
  maxQueryChars: 4096,
} as const;

export interface SearchEngineOptions {
  tokenizer?: Partial<TokenizerOptions>;
  weights?: FieldWeights;
  params?: Bm25Params;
}

export interface SearchRequest {
  query: string;
  limit?: number;
  filters?: SearchFilters;
  /** Drop keyword hits scoring below this. */
  minScore?: number;
  /** Attach each hit's per-term score parts. */
  explain?: boolean;
}

export interface LaneRank {
  rank: number;
  score: number;
}

export interface SearchHit {
  path: string;
  title: string;
  score: number;
  excerpt: string;
  section: string;
  lines: [number, number] | null;
  tags: string[];
  modified: string;
  lanes: { keyword?: LaneRank; substring?: LaneRank; name?: { match: 'title' | 'alias' } };
  explain?: TermExplanation[];
}

export interface ScopedOut {
  /** Matching notes the filters hid. */
  count: number;
  best: { path: string; score: number };
  better_match_outside_folder: boolean;
  hint: string;
}

export interface SearchResponse {
  query: string;
  mode: 'keyword';
  mode_reason: string;
  results: SearchHit[];
  /** Notes inside the filters that matched, before `limit`. */
  total_matches: number;
  scoped_out?: ScopedOut;
  notices: string[];
}

interface NoteRow {
  id: number;
  path: string;
  title: string;
  aliases: string;
  type: string | null;
  mtime_ms: number;
  tags: string | null;
}

export class VaultSearch {
  private readonly tokenize: Tokenizer;
  private readonly blockQuery: Database.Statement;
  /** Token key → the notes so named: how (`title` or `alias`) and every folded spelling. */
  private readonly names = new Map<string, Map<number, { match: 'title' | 'alias'; spellings: Set<string> }>>();

  private constructor(
    private readonly db: Database.Database,
    private readonly root: string,
    readonly index: LexicalIndex,
    readonly metas: NoteMeta[],
    private readonly noteIds: Int32Array,
    aliases: readonly string[][],
    options: SearchEngineOptions,
  ) {
    this.tokenize = createTokenizer(options.tokenizer);
    // Known-item look-up: a note's title, file name and aliases, as token sequences.
    metas.forEach((meta, doc) => {
      this.addName(meta.title, doc, 'title');
      this.addName(noteName(meta.path), doc, 'title');
      for (const alias of aliases[doc] ?? []) this.addName(alias, doc, 'alias');
    });
    this.blockQuery = db.prepare('SELECT key, heading_path, level, line_start, body_end FROM blocks WHERE note_id = ? ORDER BY ord');
  }

  /** Loads the keyword index of an indexed vault (`root` is the vault's real path). */
  static open(db: Database.Database, root: string, options: SearchEngineOptions = {}): VaultSearch {
    const { vocabulary, notes } = loadTermStats(db);
    const rows = db.prepare(`SELECT n.id, n.path, n.title, n.aliases, n.type, n.mtime_ms, (SELECT group_concat(tag, char(10)) FROM tags WHERE note_id = n.id) AS tags
      FROM notes n`).all() as NoteRow[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    const documents = notes.filter((note) => byId.has(note.noteId)).map((note) => ({ id: note.noteId, stats: note.stats }));
    const metas = documents.map(({ id }) => {
      const row = byId.get(id)!;
      return { path: row.path, title: row.title, folders: folderSegments(row.path), tags: row.tags ? row.tags.split('\n').sort() : [], type: row.type, mtimeMs: row.mtime_ms };
    });
    const aliases = documents.map(({ id }) => JSON.parse(byId.get(id)!.aliases) as string[]);
    const index = new LexicalIndex(documents, vocabulary, options.weights ?? DEFAULT_FIELD_WEIGHTS, options.params ?? BM25_DEFAULTS);
    return new VaultSearch(db, root, index, metas, index.ids, aliases, options);
  }

  search(request: SearchRequest): SearchResponse {
    const notices: string[] = [];
    let query = request.query;
    if (query.length > LIMITS.maxQueryChars) {
      query = query.slice(0, LIMITS.maxQueryChars);
      notices.push(`the query was cut to its first ${LIMITS.maxQueryChars} characters`);
    }
    const limit = Math.min(Math.max(1, Math.trunc(request.limit ?? LIMITS.defaultLimit)), LIMITS.maxLimit);
    const filter = compileFilter(request.filters ?? {});
    const response: SearchResponse = {
      query: request.query,
      mode: 'keyword',
      mode_reason: 'keyword only: this version of Engram has no vector lane yet',
      results: [],
      total_matches: 0,
      notices,
    };
    if (filter.active && !this.metas.some((meta) => filter.test(meta) === null)) {
      notices.push(`no note passes the filters (${describeFilters(request.filters ?? {})}); check the folder, tag or type names`);
    }
    const terms = this.tokenize(query);
    const known = this.index.knownTerms(terms);
    if (terms.length === 0 && query.trim() !== '') notices.push('the query has no searchable words (only stop words or punctuation)');
    const named = this.names.get(terms.join(' ')) ?? new Map<number, { match: 'title' | 'alias'; spellings: Set<string> }>();
    const spelled = foldName(query);
    const tiers = new Map([...named].map(([doc, name]) => [doc, name.spellings.has(spelled) ? 2 : 1]));
    const outcome = rankDocuments(this.index, this.metas, known, {
      limit, filter, named: tiers, ...(request.minScore === undefined ? {} : { minScore: request.minScore }),
    });
    response.total_matches = outcome.matches;

    if (outcome.hits.length > 0) {
      response.results = outcome.hits.map((hit, i) => {
        const name = named.get(hit.doc);
        const result = this.hit(hit.doc, hit.score, known, { keyword: { rank: i + 1, score: round(hit.score) }, ...(name ? { name: { match: name.match } } : {}) });
        if (request.explain) result.explain = this.index.explain(hit.doc, known).map((part) => ({ ...part, idf: round(part.idf), score: round(part.score) }));
        return result;
      });
    } else if (outcome.hidden.count === 0 && query.trim() !== '') {
      response.results = this.substringLane(query, limit, filter);
      response.total_matches = response.results.length;
      if (response.results.length > 0) notices.push('no keyword match; these notes contain the query text as written');
    }

    const best = outcome.hidden.best;
    const top = outcome.hits[0];
    if (best && (!top || best.score > top.score)) {
      const path = this.metas[best.doc]!.path;
      response.scoped_out = {
        count: outcome.hidden.count,
        best: { path, score: round(best.score) },
        better_match_outside_folder: best.reason === 'folder' || best.reason === 'excluded_folder',
        hint: `${outcome.hidden.count} matching note${outcome.hidden.count === 1 ? ' is' : 's are'} outside the filters; the best, ${path}, outranks everything returned — widen or drop the ${best.reason.replace('_', ' ')} filter to see it`,
      };
    }
    return response;
  }

  private addName(name: string, doc: number, match: 'title' | 'alias'): void {
    const key = this.tokenize(name).join(' ');
    if (key === '') return;
    let docs = this.names.get(key);
    if (!docs) this.names.set(key, (docs = new Map()));
    const known = docs.get(doc);
    if (known) known.spellings.add(foldName(name));
    else docs.set(doc, { match, spellings: new Set([foldName(name)]) });
  }

  private hit(doc: number, score: number, terms: readonly string[], lanes: SearchHit['lanes'], line = 0): SearchHit {
    const meta = this.metas[doc]!;
    const read = readNoteFile(join(this.root, meta.path));
    const blocks = (this.blockQuery.all(this.noteIds[doc]) as { key: string; heading_path: string; level: number; line_start: number; body_end: number }[])
      .map((row): EvidenceBlock => ({ key: row.key, headingPath: JSON.parse(row.heading_path) as string[], level: row.level, start: row.line_start, bodyEnd: row.body_end }));
    const evidence = read.ok
      ? line > 0
        ? lineEvidence(read.text, blocks, line)
        : findEvidence(read.text, blocks, terms, (term) => this.index.idf(term), this.tokenize)
      : { excerpt: '', section: '', lines: null };
    return {
      path: meta.path,
      title: meta.title,
      score: round(score),
      excerpt: evidence.excerpt,
      section: evidence.section,
      lines: evidence.lines,
      tags: meta.tags,
      modified: new Date(meta.mtimeMs).toISOString(),
      lanes,
    };
  }

  /** Reads the notes inside the filter and ranks those containing the query text. */
  private substringLane(query: string, limit: number, filter: ReturnType<typeof compileFilter>): SearchHit[] {
    const metas = this.metas;
    const root = this.root;
    function* candidates(): Generator<SubstringCandidate> {
      for (let doc = 0; doc < metas.length; doc++) {
        if (filter.active && filter.test(metas[doc]!) !== null) continue;
        const read = readNoteFile(join(root, metas[doc]!.path));
        if (read.ok) yield { doc, title: metas[doc]!.title, text: read.text };
      }
    }
    return rankSubstring(query, candidates(), limit).map((hit, i) =>
      this.hit(hit.doc, hit.score, [], { substring: { rank: i + 1, score: round(hit.score) } }, Math.max(hit.line, 1)));
  }
}

function lineEvidence(text: string, blocks: readonly EvidenceBlock[], line: number) {
  const lines = text.split('\n');
  const block = [...blocks].reverse().find((candidate) => candidate.key !== '#---frontmatter---' && candidate.start <= line);
  const excerpt = (lines[line - 1] ?? '').trim();
  return {
    excerpt: excerpt.length > 240 ? `${excerpt.slice(0, 239)}…` : excerpt,
    section: block ? block.headingPath.join(' > ') : '',
    lines: block ? ([block.start, block.bodyEnd] as [number, number]) : null,
  };
}

/** Case- and accent-folded, whitespace-collapsed: how a name is compared for the exact tier. */
function foldName(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

function describeFilters(filters: SearchFilters): string {
  const parts: string[] = [];
  if (filters.folders?.length) parts.push(`folder ${filters.folders.join(', ')}`);
  if (filters.excludeFolders?.length) parts.push(`excluding ${filters.excludeFolders.join(', ')}`);
  if (filters.tags?.length) parts.push(`tag ${filters.tags.join(', ')}`);
  if (filters.types?.length) parts.push(`type ${filters.types.join(', ')}`);
  if (filters.modifiedAfter !== undefined || filters.modifiedBefore !== undefined) parts.push('modified dates');
  return parts.join('; ');
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
