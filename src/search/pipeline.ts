/**
 * The one search pipeline: `engram search` and the MCP tools call `searchVault`, `engram eval`
 * its synchronous half `searchWordings` with vectors made up front. It makes the query vector
 * only when the semantic lane can use it, runs the
 * query and any rephrasings the caller wrote (`alternatives`) through the same engine with the
 * same filters, and fuses the wordings by reciprocal rank. Embedding is passed in, so this
 * layer does not depend on the embedder.
 */
import { parseQuerySyntax } from './phrases.js';
import { EngramError } from '../errors.js';
import { fuseRrf, type FusionOptions } from './fusion.js';
import { LIMITS, type SearchHit, type SearchRequest, type SearchResponse, type VaultSearch } from './vault-search.js';

/** Makes a query vector with the configured model, or says why it cannot. */
export type QueryVectorSource = (text: string) => Promise<{ vector: Float32Array } | { reason: string }>;

export interface PipelineRequest extends Omit<SearchRequest, 'queryVector' | 'vectorUnavailable'> {
  /** Other wordings of the same need (at most `MAX_ALTERNATIVES`), fused with the query by RRF. */
  alternatives?: readonly string[];
}

export const MAX_ALTERNATIVES = 4;

/** Each wording contributes its top 50, as each lane does in hybrid fusion. */
export const WORDING_DEPTH = 50;

/**
 * How wordings are fused: reciprocal rank with k = 2, not the k = 60 that fuses the keyword and
 * semantic lanes. Each wording is a whole ranking by the same engine, and its first hits are its
 * surest; at k = 60 rank 1 and rank 5 differ by 6 %, so a note every wording put midway beat the
 * note one wording put first, and an agent's rephrasings made some sets worse than the query
 * alone. Measured with rephrasings written by an agent that saw only the questions (decision
 * 020): at k = 60 MRR fell on four of six dev sets (LoCoMo 0.852 → 0.813); at k = 2 it rose or
 * held on all but LoCoMo (−0.005, s@5 +0.007) — help blind 0.759 → 0.955. k = 2 and 3 score
 * alike, k = 1 too but on PKM (0.928); a heavier weight for the query itself bought nothing.
 */
export const WORDING_FUSION: FusionOptions = { k: 2, weights: {} };

export async function searchVault(search: VaultSearch, request: PipelineRequest, embed: QueryVectorSource): Promise<SearchResponse> {
  const vectors = new Map<string, QueryVector>();
  for (const text of wordingTexts(request)) if (!vectors.has(text)) vectors.set(text, await vectorFor(search, request, text, embed));
  return searchWordings(search, request, (text) => vectors.get(text) ?? {});
}

/** What a wording's search is given for the semantic lane: its vector, or why there is none (nothing in keyword mode). */
export type QueryVector = Pick<SearchRequest, 'queryVector' | 'vectorUnavailable'>;

/** The text each wording is embedded as (without its syntax: quotes are not meaning), query first. */
export function wordingTexts(request: PipelineRequest): string[] {
  return planWordings(request.query, request.alternatives ?? []).wordings.map((wording) => parseQuerySyntax(wording).text);
}

/**
 * `searchVault` once the wordings' vectors are made (`vectorOf`, by `wordingTexts`' text): each
 * wording through the engine with the query's filters, fused by reciprocal rank. Synchronous, so
 * `engram eval` runs a set's queries through it with vectors embedded up front.
 */
export function searchWordings(search: VaultSearch, request: PipelineRequest, vectorOf: (text: string) => QueryVector): SearchResponse {
  const { wordings, notices } = planWordings(request.query, request.alternatives ?? []);
  const limit = Math.min(Math.max(1, Math.trunc(request.limit ?? LIMITS.defaultLimit)), LIMITS.maxLimit);
  const depth = wordings.length > 1 ? Math.max(limit, WORDING_DEPTH) : limit;
  // The query's `-word`s and operators hold for its rephrasings too: "lisbon -paris" with "lisboa trip" still leaves Paris out.
  const syntaxes = wordings.map(parseQuerySyntax);
  const { excluded, scopes } = syntaxes[0]!;
  const requests = wordings.map((wording, i): SearchRequest => {
    const inherited = i === 0 ? {} : { exclude: [...(request.exclude ?? []), ...excluded], scopes: [...(request.scopes ?? []), ...scopes] };
    return { ...request, query: wording, limit: depth, ...inherited, ...vectorOf(syntaxes[i]!.text) };
  });
  // The engine's own typed reason, not its sentence parsed back.
  const noSemantic = request.mode === 'semantic' ? search.semanticUnavailable(requests[0]!) : null;
  if (noSemantic !== null) throw new EngramError('INVALID_INPUT', `semantic search is not possible: ${noSemantic}; use mode "hybrid" or "keyword"`);
  const responses = requests.map((one) => search.search(one));
  const main = responses[0]!;
  if (responses.length === 1) return main;
  return { ...fuseWordings(responses, limit), notices: [...notices, ...new Set(responses.flatMap((response) => response.notices))] };
}

/** The query first, then each distinct, non-empty alternative; what was dropped is said. */
export function planWordings(query: string, alternatives: readonly string[]): { wordings: string[]; notices: string[] } {
  if (alternatives.length > MAX_ALTERNATIVES) {
    throw new EngramError('INVALID_INPUT', `at most ${MAX_ALTERNATIVES} alternatives, not ${alternatives.length}: keep the two or three wordings most unlike the query`);
  }
  const wordings = [query];
  const seen = new Set([fold(query)]);
  const notices: string[] = [];
  for (const alternative of alternatives) {
    const key = fold(alternative);
    if (key === '') notices.push('an empty alternative was ignored');
    else if (seen.has(key)) notices.push(`the alternative "${clip(alternative)}" repeats another wording and was ignored`);
    else {
      seen.add(key);
      wordings.push(alternative);
    }
  }
  return { wordings, notices };
}

async function vectorFor(search: VaultSearch, request: PipelineRequest, text: string, embed: QueryVectorSource): Promise<QueryVector> {
  if (request.mode === 'keyword' || search.vectors.size === 0) return {};
  // Embedded without its syntax: quotes are not meaning, and a word left out must not pull notes toward it.
  if (text === '') return { vectorUnavailable: 'the query has no words to embed, only words to leave out' };
  const embedded = await embed(text);
  return 'vector' in embedded ? { queryVector: embedded.vector } : { vectorUnavailable: embedded.reason };
}

/**
 * Reciprocal rank fusion over the wordings' result lists. A note keeps the hit (excerpt,
 * section, lanes) of the wording that ranked it best, and `lanes.wordings` says which wordings
 * found it (0 is the query). Notes named by a wording (title or alias) stay first, as in one
 * wording's ranking.
 */
export function fuseWordings(responses: readonly SearchResponse[], limit: number): Omit<SearchResponse, 'notices'> {
  const byPath = new Map<string, { hit: SearchHit; rank: number; wordings: { wording: number; rank: number }[] }>();
  const docs = new Map<string, number>();
  const lanes: Record<string, number[]> = {};
  responses.forEach((response, wording) => {
    lanes[`w${wording}`] = response.results.map((hit, i) => {
      let doc = docs.get(hit.path);
      if (doc === undefined) docs.set(hit.path, (doc = docs.size));
      const known = byPath.get(hit.path);
      if (!known) byPath.set(hit.path, { hit, rank: i + 1, wordings: [{ wording, rank: i + 1 }] });
      else {
        known.wordings.push({ wording, rank: i + 1 });
        if (i + 1 < known.rank) Object.assign(known, { hit, rank: i + 1 });
      }
      return doc;
    });
  });
  const paths = [...docs.keys()];
  const named = (path: string) => (byPath.get(path)!.hit.lanes.name ? 1 : 0);
  const fused = fuseRrf(lanes, WORDING_FUSION).sort((a, b) => named(paths[b.doc]!) - named(paths[a.doc]!) || b.score - a.score || a.doc - b.doc);
  const main = responses[0]!;
  return {
    query: main.query,
    mode: main.mode,
    mode_reason: `${main.mode_reason}; ${responses.length} wordings fused by reciprocal rank (k = ${WORDING_FUSION.k})`,
    results: fused.slice(0, limit).map(({ doc, score }) => {
      const entry = byPath.get(paths[doc]!)!;
      return { ...entry.hit, score: Math.round(score * 10000) / 10000, lanes: { ...entry.hit.lanes, wordings: entry.wordings } };
    }),
    total_matches: Math.max(fused.length, ...responses.map((response) => response.total_matches)),
    ...(main.scoped_out ? { scoped_out: main.scoped_out } : {}),
    ...(main.analysis ? { analysis: main.analysis } : {}),
  };
}

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
