/**
 * Search over an indexed vault: loads the keyword index from the state database, runs the
 * ranking core, and attaches evidence read from the notes themselves. This is the one search
 * path: `engram search`, the MCP `search_brain` tool and `engram eval` all call `search`.
 */
import type Database from 'better-sqlite3';
import { sep } from 'node:path';
import { noteName, parseNote, readNoteText } from '../vault/index.js';
import { NoteTexts } from './note-texts.js';
import { notePositions } from './positions.js';
import { BM25_DEFAULTS, type Bm25Params } from './bm25l.js';
import { findEvidence, passageEvidence, passageScorer, scoreNotes, type Evidence, type EvidenceBlock, type PassageNote, type PassageScore } from './evidence.js';
import { FIELDS, type FieldWeights } from './fields.js';
import { compileFilter, excludingNotes, folderSegments, scopedBy, type CompiledFilter, type NoteMeta, type QueryScope, type SearchFilters } from './filters.js';
import { holdsPhrase, notesHolding, parseQuerySyntax, PHRASE_CHECKS, phraseWords, wordMatcher, type PhraseSources } from './phrases.js';
import { DEFAULT_FIELD_WEIGHTS, LexicalIndex, type PooledFrequencies, type TermExplanation } from './lexical-index.js';
import { loadLanguages, loadTermStats, vaultTokenizer } from './lexical-store.js';
import { rankDocuments, type RankOutcome } from './rank.js';
import { rankSubstring, type SubstringCandidate } from './substring.js';
import { FUSION_DEFAULTS, fuseRrf, type FusionOptions } from './fusion.js';
import { VectorIndex, type VectorHit, type VectorScope, type VectorSource } from './vector-index.js';
import { foldToken, isJoinedWord, spellingGroups, type Tokenizer, type TokenizerOptions } from './tokenizer.js';
import { NameIndex } from './names.js';
import { FuzzyNames, fuzzyMerge, fuzzyQueryWords } from './fuzzy-titles.js';
import { analyzeQuery, functionWordLanguage, isQuestionWord, type AnalyzedQuery } from './query.js';
import { asksAloneOnly, dayOfValue, impossibleDates, isoDay, localDay, MAX_SPAN_DAYS, newestAsked, NoteDates, queryDateRanges, relativeDateRanges, type DateBoost, type DateRange, type SpanNotes } from './dates.js';
import { correctQuery, nearestWritten, SPELLING_DEFAULTS, SpellingIndex, WrittenWords, type WordCorrection, type WrittenNear } from './spelling.js';
import { isTaskNoun, openAsked, OpenTasks } from './open-tasks.js';
import { isRequestWord } from './requests.js';
import { stopWordsOf, type Language } from './language.js';
import { phrasesSaid, quotedPhrases } from './asked.js';

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
  /** The embedding model whose vectors the semantic lane uses (default TaylorAI/bge-micro-v2). */
  model?: string;
  fusion?: FusionOptions;
  /**
   * The words the vault's notes write (`WrittenWords`), kept by whoever reopens engines as the
   * index changes (the MCP server): each engine adds only the notes changed since, on its first
   * misspelt word no term is near, instead of reading every note again (about 1.6 s at 10,381 notes).
   */
  written?: WrittenWords;
}

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

/** How much a name sharing the query's words adds, in units of their idf × the share of the name (tuned on the dev sets, not on one query). */
const NAME_WEIGHT = 1;

/**
 * How many of the keyword lane's best notes are re-scored by their best passage (each is read
 * from disk, as the evidence of a returned hit is), and how much the passage adds. 15, not the
 * earlier 30: every dev set scores the same or better at 15 (LoCoMo open-domain MRR +0.001),
 * and the stage costs half; at 10 LoCoMo loses 0.002 s@5.
 */
export const PASSAGE_DEPTH = 15;
const PASSAGE_WEIGHT = 1;
/**
 * Notes whose term positions one search may derive (`NoteTexts.positionsOf`); the others scan,
 * as before, and derive in a later search. Early in an engine's life a derivation meets words
 * new to it (each tokenized and stemmed once, up to about 0.4 ms a note), so this bounds what
 * warming up adds to one search.
 */
const DERIVATIONS_PER_SEARCH = 4;
/** How many misspelt words a search reads as a word one edit away (`nearestWritten`), at most. */
const WRITTEN_PER_SEARCH = 8;

/** A named note's tier counts above any number of quoted phrases held (see `readQuery`). */
const NAME_TIER = 100;

/** A note read for its passage score: kept for its evidence, so it is read once per search. */
/**
 * Where a result's excerpt comes from: the keyword lane's passage (or, without one, the query
 * terms' best section), the block a semantic match came from, or a line (the substring lane).
 */
type EvidenceAnchor =
  { kind: 'keyword'; terms: readonly string[]; passage: Passage | null } | { kind: 'block'; key: string; terms: readonly string[] } | { kind: 'line'; line: number } | { kind: 'task'; path: string; terms: readonly string[] };

type NamedNotes = Map<number, { match: 'title' | 'alias' | 'path'; spellings: Set<string> }>;

/** A search request as read: the query, its analysis, filter and names (`VaultSearch.readQuery`). */
interface ReadQuery {
  query: string;
  limit: number;
  filter: CompiledFilter;
  notices: string[];
  analyzed: AnalyzedQuery;
  known: string[];
  /** Misspelt words searched as their nearest indexed term. */
  corrected: WordCorrection[];
  named: NamedNotes;
  tiers: Map<number, number>;
  /** Whether the query wrote operators (`tag:`, `path:`, `file:`), its own or inherited. */
  scoped: boolean;
  /** Every word of the query is a stop word of its own language: none is searched (`onlyOwnStopWords`). */
  stopsOnly: boolean;
  /** The query's quoted phrases each note holds (notes holding more rank first). */
  phrases: Map<number, string[]>;
  boosts: Boosts;
  /** Document frequencies a query word's spellings in the vault's languages share. */
  pooled: PooledFrequencies;
  /** The query asks for the newest of its matches: the words that asked, and each re-scored note's bonus (`rerankByPassages` fills it). */
  newest: Asked | null;
  /** The query asks what is still open ("still open", "pending items"), when some note holds an open task: its words, and each re-scored note's bonus (`rerankByPassages` fills it). */
  open: Asked | null;
}

/** A query's asking words (the first five, and how many more), and the bonus each re-scored note got for them (`rerankByPassages` fills it). */
interface Asked {
  text: string;
  more: number;
  bonuses: Map<number, number>;
  /** The query asks only this ("what's still open?"): the notes it answers with are brought in by their bonus alone. */
  only?: boolean;
  /** Then, what the reading was taken as, for the notices. */
  said?: string;
}

/** The bonuses a query gives notes before BM25 ranks them: names sharing its words, dates it names. */
interface Boosts {
  /** Their sum per note, as ranking adds it. */
  scores: Map<number, number>;
  /** The note's best name sharing the query's words: its shared terms and bonus. */
  names: Map<number, { terms: readonly string[]; score: number }>;
  dates: Map<number, DateBoost>;
  /** Notes a relative date brings in ("yesterday"): ranked by their bonus when no query term matches them. */
  brought: Set<number>;
}

/** What `resultOf` needs from the search that ranked the note. */
interface ResultContext {
  mode: SearchMode;
  read: ReadQuery;
  keyword: RankOutcome;
  semantic: readonly VectorHit[];
  passages: ReadonlyMap<number, Passage>;
  explain: boolean;
}

interface Passage {
  text: string;
  blocks: StoredBlock[];
  score: PassageScore;
}

/** A note as the passage scorer reads it, with the engine's block rows. */
type StoredNote = PassageNote & { blocks: StoredBlock[] };

/** Lane depth fused by RRF: the top 50 of each lane. */
const LANE_DEPTH = 50;

export interface SearchRequest {
  query: string;
  limit?: number;
  filters?: SearchFilters;
  /** Words and phrases no returned note may hold, besides the query's own `-word`s (the query's, for its rephrasings). */
  exclude?: readonly string[];
  /** Operators (`tag:`, `path:`, `file:`) besides the query's own (the query's, for its rephrasings). */
  scopes?: readonly QueryScope[];
  /** Drop keyword hits scoring below this; in semantic mode, where cosine is the only score, hits below this cosine. */
  minScore?: number;
  /** Drop semantic-lane hits whose cosine similarity is below this, in any mode (default: `minScore` in semantic mode, else none). */
  minSimilarity?: number;
  /** Which vectors the semantic lane compares: notes' own, their sections', or both (default). */
  scope?: VectorScope;
  /** Attach each hit's per-term score parts. */
  explain?: boolean;
  /** `hybrid` (default) fuses keyword and semantic lanes when a query vector and note vectors exist. */
  mode?: SearchMode;
  /** The day relative dates ("yesterday", "last week") are read against, `YYYY-MM-DD` (default: the local date now). */
  today?: string;
  /** The query embedded with the configured model; the caller makes it (off the main thread). */
  queryVector?: Float32Array;
  /** Why there is no query vector, in plain words (reported as the mode's reason). */
  vectorUnavailable?: string;
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
  /** In a section longer than a paragraph (a conversation log), the lines of its best window: where the answer is. */
  passage_lines?: [number, number];
  tags: string[];
  modified: string;
  lanes: {
    keyword?: LaneRank;
    semantic?: LaneRank & { source: VectorSource; block: string | null };
    substring?: LaneRank;
    /** A query of operators only (`tag:travel`): the notes they let through, newest first (score 0: there are no words to rank by). */
    scope?: LaneRank;
    /** A name close to a query word no note contains (a typo, a partial name): which name, and how each word was read. */
    fuzzy?: LaneRank & { name: string; read_as: { token: string; as: string }[] };
    /** The query is the note's title, file name or an alias — or its path (`Projects/Atlas/Overview.md`, `[[Atlas/Migration plan]]`). */
    name?: { match: 'title' | 'alias' | 'path' };
    /** With alternatives: which wordings found the note (0 is the query) and at what rank. */
    wordings?: { wording: number; rank: number }[];
  };
  explain?: TermExplanation[];
  /** With explain: what was added to the keyword score besides the terms, and why. */
  boosts?: (
    | { kind: 'name'; terms: readonly string[]; score: number }
    | { kind: 'date'; terms: readonly string[]; score: number }
    /** The query asked for the newest ("latest"): the later the note is dated among the best matches, the more. */
    | { kind: 'newest'; terms: readonly string[]; score: number }
    /** The query asked what is still open: the note holds unfinished tasks (`- [ ]`). */
    | { kind: 'open'; terms: readonly string[]; score: number }
    | { kind: 'passage'; terms: readonly string[]; score: number; proximity: number }
    /** The quoted phrases the note holds: it ranks before notes holding fewer (no score: an order). */
    | { kind: 'phrase'; terms: readonly string[]; score: 0 }
  )[];
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
  mode: SearchMode;
  mode_reason: string;
  results: SearchHit[];
  /** Notes inside the filters that matched, before `limit`. */
  total_matches: number;
  scoped_out?: ScopedOut;
  notices: string[];
  /** With explain: the query's ranked terms, the words left out (a question's or request's function words, a statement's pronouns of the asker, a date's words read as days) and the language of the first, and misspelt words searched as their nearest indexed term. */
  analysis?: {
    terms: string[];
    ignored: string[];
    language: string | null;
    /** `spelled`: the word the vault writes that `to` was taken from, when the word was read as one a typo away (`chnage` → "change"). */
    corrected: { word: string; from: string; to: string; spelled?: string }[];
    /** The query word each term or left-out token came from, where it reads otherwise (`melani` ← `Melanie`, `whi` ← `which`). */
    written: Record<string, string>;
  };
}

interface NoteRow {
  id: number;
  path: string;
  title: string;
  aliases: string;
  type: string | null;
  mtime_ms: number;
  tags: string | null;
  /** Frontmatter `date`, as stored. */
  dated: string | number | null;
  /** Unfinished tasks (`- [ ]`, `- [/]`). */
  open_tasks: number;
}

const BODY = FIELDS.indexOf('body');

/**
 * A reading of the query's asking words over its re-scored best notes (`head`): each note's
 * bonus from `bonusesOf` added to its score and kept for `--explain`, and a notice of what was
 * read — what it did, or that no note of them qualified.
 */
function applyReading(head: { doc: number; score: number }[], asked: Asked, bonusesOf: (docs: number[]) => Map<number, number>, notices: string[], say: { acted: string; idle: string }): void {
  const bonuses = bonusesOf(head.map(({ doc }) => doc));
  for (const entry of head) entry.score += bonuses.get(entry.doc) ?? 0;
  asked.bonuses = bonuses;
  notices.push(`read ${quotedPhrases(asked)} as ${bonuses.size > 0 ? say.acted : say.idle}`);
}

/** Notes whose block rows a search engine keeps at most (a few MB). */
const BLOCK_CACHE_NOTES = 4096;

/** The most notices a query's dates get; the rest are counted in one more. */
const DATE_NOTICES = 5;

/** Adds the first `DATE_NOTICES` of what the dates were read as to `notices`, and one notice counting the rest. */
function sayDates(notices: string[], said: ReadonlySet<string>): void {
  let count = 0;
  for (const notice of said) if (count++ < DATE_NOTICES) notices.push(notice);
  if (said.size > DATE_NOTICES) notices.push(`… and ${said.size - DATE_NOTICES} more dates read, not listed`);
}

/** Token → the query word it came from, for the tokens that do not read as their word (a stem, a part of a compound). */
function writtenAs(analyzed: AnalyzedQuery, tokens: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    tokens.flatMap((token) => {
      const word = analyzed.words[analyzed.wordOf.get(token) ?? -1];
      return word === undefined || foldToken(word) === token ? [] : [[token, word]];
    }),
  );
}

/**
 * The query without the tokens of the words `spoken` spans, `words[first..last]` (a date's, a
 * span's, "latest"): they are read, not searched. A token another word of the query also yields
 * stays (`last week harbor week`), as does one the query quotes (`last week "week"`).
 */
function leaveOut(analyzed: AnalyzedQuery, spoken: readonly { first: number; last: number }[]): AnalyzedQuery {
  if (spoken.length === 0) return analyzed;
  const isSpoken = (token: string): boolean => {
    if (analyzed.quotedTerms.has(token)) return false;
    const from = analyzed.termWords.get(token) ?? [analyzed.wordOf.get(token) ?? -1];
    return from.every((at) => spoken.some(({ first, last }) => first <= at && at <= last));
  };
  const content = analyzed.content.filter((token) => !isSpoken(token));
  const ignored = [...new Set([...analyzed.ignored, ...analyzed.content.filter(isSpoken)])];
  return { ...analyzed, content, ignored };
}

/** Each of `languages`' stop words, folded, with the number of the vault's notes in it (`languages` come most notes first). */
function stopListsOf(db: Database.Database, languages: readonly Language[]): { language: string; stops: ReadonlySet<string>; notes: number }[] {
  const notes = new Map(db.prepare('SELECT language, count(*) FROM note_languages GROUP BY language').raw().all() as [string, number][]);
  return languages.map((language) => ({ language, stops: new Set(stopWordsOf(language).map(foldToken)), notes: notes.get(language) ?? 0 }));
}

/**
 * For each searched word of a query, whether a text's tokens hold it: by any of its spellings in
 * the vault's languages, and a joined word (`tenant-deletion`, `getUserName`) by all its parts or
 * whole, never by one part alone.
 */
function taskWordMatchers(analyzed: AnalyzedQuery, tokenize: Tokenizer): ((held: ReadonlySet<string>) => boolean)[] {
  const tokensOf = new Map<number, string[]>();
  for (const term of new Set(analyzed.content)) {
    for (const at of analyzed.termWords.get(term) ?? [analyzed.wordOf.get(term) ?? -1]) {
      const tokens = tokensOf.get(at);
      if (tokens === undefined) tokensOf.set(at, [term]);
      else tokens.push(term);
    }
  }
  return [...tokensOf].map(([at, tokens]) => {
    const word = analyzed.words[at] ?? '';
    const groups = spellingGroups(tokenize, [word], tokens);
    const any = (group: readonly string[]) => (held: ReadonlySet<string>) => group.some((term) => held.has(term));
    // Spellings the languages gave unaligned (one stopped a part): any of the word's tokens, as before.
    if (groups.reduce((sum, group) => sum + group.length, 0) !== tokens.length) return any(tokens);
    if (groups.length > 1 && isJoinedWord(word)) {
      const parts = groups.slice(0, -1).map(any);
      const whole = any(groups[groups.length - 1]!);
      return (held) => whole(held) || parts.every((part) => part(held));
    }
    const all = groups.map(any);
    return (held) => all.every((group) => group(held));
  });
}

/**
 * The query without the words `asked` spans, and whether it asks nothing else: what is left, if
 * anything, only frames the request (`frames`: "list of open tasks", "give me the latest",
 * "which tasks are still open?"), and goes too.
 */
function withoutAsked(
  analyzed: AnalyzedQuery,
  asked: readonly { first: number; last: number }[],
  frames: (word: string) => boolean,
  /** Words another reading asks with ("open tasks" beside "latest"): they frame too, and stay for that reading. */
  keep: readonly { first: number; last: number }[] = [],
): { analyzed: AnalyzedQuery; only: boolean } {
  const within = (spans: readonly { first: number; last: number }[], at: number) => spans.some(({ first, last }) => first <= at && at <= last);
  const without = leaveOut(analyzed, asked);
  if (without.content.length === 0) return { analyzed: without, only: true };
  const left = new Set<number>();
  for (const term of without.content) for (const at of without.termWords.get(term) ?? []) if (!within(asked, at)) left.add(at);
  if (left.size === 0 || ![...left].every((at) => within(keep, at) || (!without.quoted.has(at) && frames(without.words[at]!)))) return { analyzed: without, only: false };
  const framing = [...left].filter((at) => !within(keep, at)).map((at) => ({ first: at, last: at }));
  return { analyzed: leaveOut(analyzed, [...asked, ...framing]), only: true };
}

/**
 * The query with the words `asked` spans taken as written, as quoted ones are: in a vault with
 * nothing they could ask for they are searched, never as the nearest spelling nor a note's name.
 */
function asWritten(analyzed: AnalyzedQuery, asked: readonly { first: number; last: number }[]): AnalyzedQuery {
  const quoted = new Set(analyzed.quoted);
  for (const { first, last } of asked) for (let at = first; at <= last; at++) quoted.add(at);
  const quotedTerms = new Set(analyzed.quotedTerms);
  for (const [term, from] of analyzed.termWords) if (from.some((at) => quoted.has(at))) quotedTerms.add(term);
  return { ...analyzed, quoted, quotedTerms };
}

/** Stands for a quoted word where the query's readings look: no date, phrase or number is it. */
const QUOTED_WORD = '\u0000';

/**
 * The query's words as its readings (dates, asking for the newest or what is open) read them:
 * a quoted word is a word to search, so it is masked where they look, by index, and no reading
 * takes it or reaches across it ("still open" in `"still" open items` is no reading; "open
 * items" still is).
 */
/**
 * A query of nothing but markup and common punctuation (`-` of `---`, `#`, `*`, `[[`, `.`)
 * matches every note's formatting, not what a note says: the substring lane is not asked, and
 * the notice that the query has no searchable words stands alone. `%`, `→`, `€` or an emoji are
 * looked for as written.
 */
const MARKUP_ONLY = /^[\s\-*#[\]>`|_=~.,:;!?'"(){}<>+/\\]*$/u;

function readable(analyzed: AnalyzedQuery): readonly string[] {
  return analyzed.quoted.size === 0 ? analyzed.words : analyzed.words.map((word, at) => (analyzed.quoted.has(at) ? QUOTED_WORD : word));
}

/** A span of days as a notice writes it: `2026-12-01`, or `2026-06-01 to 2026-06-30`. */
function spanText(range: { from: number; to: number; until?: true }): string {
  if (range.until) return `up to ${isoDay(range.to)}`;
  return range.from === range.to ? isoDay(range.from) : `${isoDay(range.from)} to ${isoDay(range.to)}`;
}

/**
 * The text's first `max` characters, without the word the cut would split: half a word (`atla`
 * of `atlas`) is in no note, and spelling correction would search its nearest term (`aula`). A
 * text with no space in its last 64 characters (one long token, CJK) is cut where it stands.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (/\s/u.test(text.charAt(max)) || /\s/u.test(text.charAt(max - 1))) return text.slice(0, max);
  const from = Math.max(0, max - 64);
  const space = text.slice(from, max).search(/\s\S*$/u);
  return space === -1 ? text.slice(0, max) : text.slice(0, from + space);
}

export class VaultSearch {
  private readonly tokenize: Tokenizer;
  private readonly blockQuery: Database.Statement;
  private readonly blocks = new Map<number, StoredBlock[]>();
  /** The text of notes read for passages and evidence, while their files are unchanged. */
  private readonly texts = new NoteTexts();
  /** Token key → the notes so named: how (`title` or `alias`) and every folded spelling. */
  private readonly names = new Map<string, Map<number, { match: 'title' | 'alias'; spellings: Set<string> }>>();
  /** Names (title, file name, aliases) by their content tokens, for coverage by a longer query. */
  private readonly covering: NameIndex;
  /** Each note's path as `notesAtPath` compares it (NFC, lower case, no `.md`), made on the first query holding a `/`. */
  private foldedPaths: string[] | null = null;
  /** Indexed terms by spelling, made on the first misspelt query. */
  private spelling: SpellingIndex | null = null;
  /** The words the notes write, read on the first misspelt word no indexed term is near. */
  private written: WrittenWords | null = null;
  /** The same names, read approximately when a query word is in no note (`fuzzy-titles.ts`). */
  private readonly fuzzy: FuzzyNames;
  /** Each note's date (file name, else frontmatter `date:`), for queries that name one (`dates.ts`). */
  private readonly dates: NoteDates;
  /** Each note's unfinished tasks, for queries asking what is still open (`open-tasks.ts`). */
  private readonly openTasks: OpenTasks;
  /** The language all the vault's notes are in, when they are in one. */
  private readonly onlyLanguage: string | null;
  /** The vault's languages, most notes first. */
  private readonly languages: readonly Language[];
  /** In a vault of several languages, each one's stop words (folded) and how many notes are in it, most notes first: `pooledFrequencies`. */
  private readonly stoppedIn: readonly { language: string; stops: ReadonlySet<string>; notes: number }[];

  private constructor(
    private readonly db: Database.Database,
    root: string,
    readonly index: LexicalIndex,
    readonly metas: NoteMeta[],
    private readonly noteIds: Int32Array,
    aliases: readonly string[][],
    /** Each note's frontmatter date, if any (the file name's date comes first). */
    dated: readonly (string | null)[],
    /** Each note's open tasks (`- [ ]`, `- [/]`), and its body's length. */
    openTasks: { counts: ArrayLike<number>; lengths: ArrayLike<number> },
    readonly vectors: VectorIndex,
    private readonly options: SearchEngineOptions,
    /** How long loading took: the keyword index, then the vectors (ms). */
    readonly loadTimings: { keywordMs: number; vectorsMs: number },
  ) {
    this.tokenize = vaultTokenizer(db, options.tokenizer);
    const languages = loadLanguages(db);
    this.covering = new NameIndex(this.tokenize, languages);
    this.fuzzy = new FuzzyNames(this.covering);
    this.dates = new NoteDates(
      metas.map((meta) => meta.path),
      dated,
    );
    this.openTasks = new OpenTasks(openTasks.counts, openTasks.lengths);
    this.languages = languages;
    this.onlyLanguage = languages.length === 1 ? languages[0]! : null;
    this.stoppedIn = languages.length < 2 ? [] : stopListsOf(db, languages);
    // Known-item look-up: a note's title, file name and aliases, as token sequences.
    metas.forEach((meta, doc) => {
      for (const [name, match] of [[meta.title, 'title'], [noteName(meta.path), 'title'], ...(aliases[doc] ?? []).map((alias) => [alias, 'alias'])] as [string, 'title' | 'alias'][]) {
        this.addName(name, doc, match);
        this.covering.add(doc, name);
      }
    });
    this.blockQuery = db.prepare('SELECT key, heading_path, level, line_start, body_end, link_list FROM blocks WHERE note_id = ? ORDER BY ord').raw();
    this.rootPrefix = root.endsWith(sep) ? root : root + sep;
  }

  /** Indexed paths are normalized and vault-relative: no `join` (it rebuilt each path piece by piece). */
  private readonly rootPrefix: string;

  private absolute(path: string): string {
    return this.rootPrefix + path;
  }

  /** Loads the keyword index of an indexed vault (`root` is the vault's real path). */
  static open(db: Database.Database, root: string, options: SearchEngineOptions = {}): VaultSearch {
    const started = performance.now();
    const { vocabulary, notes } = loadTermStats(db);
    const rows = db
      .prepare(
        `SELECT n.id, n.path, n.title, n.aliases, n.type, n.mtime_ms, (SELECT group_concat(tag, char(10)) FROM tags WHERE note_id = n.id) AS tags,
        CASE WHEN json_valid(n.frontmatter) THEN json_extract(n.frontmatter, '$.date') END AS dated,
        (SELECT count(*) FROM tasks WHERE note_id = n.id AND status IN (' ', '/')) AS open_tasks
      FROM notes n`,
      )
      .all() as NoteRow[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    const documents = notes.filter((note) => byId.has(note.noteId)).map((note) => ({ id: note.noteId, stats: note.stats }));
    const metas = documents.map(({ id }) => {
      const row = byId.get(id)!;
      return { path: row.path, title: row.title, folders: folderSegments(row.path), tags: row.tags ? row.tags.split('\n').sort() : [], type: row.type, mtimeMs: row.mtime_ms };
    });
    const aliases = documents.map(({ id }) => JSON.parse(byId.get(id)!.aliases) as string[]);
    const dated = documents.map(({ id }) => {
      const value = byId.get(id)!.dated;
      return value === null ? null : String(value);
    });
    const openTasks = { counts: Uint32Array.from(documents, ({ id }) => byId.get(id)!.open_tasks), lengths: Uint32Array.from(documents, ({ stats }) => stats.fieldLengths[BODY]!) };
    const index = new LexicalIndex(documents, vocabulary, options.weights ?? DEFAULT_FIELD_WEIGHTS, options.params ?? BM25_DEFAULTS);
    const keywordDone = performance.now();
    const vectors = loadVectors(db, options.model ?? DEFAULT_MODEL, index.ids);
    const timings = { keywordMs: keywordDone - started, vectorsMs: performance.now() - keywordDone };
    return new VaultSearch(db, root, index, metas, index.ids, aliases, dated, openTasks, vectors, options, timings);
  }

  search(request: SearchRequest): SearchResponse {
    const read = this.readQuery(request);
    const only = read.open?.only === true || read.newest?.only === true;
    // Asking only for open tasks or the newest is a listing the keyword lane makes: a vector of "what's still open?" finds nothing of it.
    const { mode, reason } =
      only && request.mode !== 'semantic' ? { mode: 'keyword' as const, reason: 'keyword only: the query asks only for notes holding open tasks or the newest notes, which the keyword lane lists' } : this.modeOf(request);
    if (mode !== 'semantic') for (const said of [read.open?.said, read.newest?.said]) if (said !== undefined) read.notices.push(said);
    const response: SearchResponse = {
      query: request.query,
      mode,
      mode_reason: reason,
      results: [],
      total_matches: 0,
      notices: read.notices,
      ...(request.explain
        ? {
            analysis: {
              terms: read.known,
              ignored: read.analyzed.ignored,
              language: read.analyzed.language,
              corrected: read.corrected.map(({ word, from, to, spelled }) => ({ word, from, to, ...(spelled === undefined ? {} : { spelled }) })),
              written: writtenAs(read.analyzed, [...read.known, ...read.analyzed.ignored]),
            },
          }
        : {}),
    };
    const ranked = rankDocuments(this.index, this.metas, read.known, {
      limit: Math.max(read.limit, mode === 'keyword' ? PASSAGE_DEPTH : LANE_DEPTH),
      filter: read.filter,
      named: read.tiers,
      boost: read.boosts.scores,
      pooled: read.pooled,
      brought: read.boosts.brought,
      ...(request.minScore === undefined ? {} : { minScore: request.minScore }),
    });
    const passages = new Map<number, Passage>();
    const keyword = mode === 'semantic' ? ranked : this.rerankByPassages(ranked, read, passages, mode === 'keyword' ? read.limit : Math.max(read.limit, LANE_DEPTH));
    const semantic = mode === 'keyword' ? [] : this.semanticLane(request, mode === 'semantic' ? Math.max(read.limit, LANE_DEPTH) : LANE_DEPTH, read.filter);
    if ((mode === 'semantic' ? 0 : keyword.hits.length) + semantic.length > 0) {
      const ordered = this.order(mode, keyword, semantic, read.tiers);
      response.total_matches = mode === 'keyword' ? keyword.matches : ordered.length;
      response.results = ordered.slice(0, read.limit).map(({ doc, score }) => this.resultOf(doc, score, { mode, read, keyword, semantic, passages, explain: request.explain === true }));
    } else if ((read.query === '' || read.stopsOnly) && read.scoped) {
      const listed = this.scopeLane(read.limit, read.filter);
      response.results = listed.hits;
      response.total_matches = listed.total;
      read.notices.push('the query has only operators and no words to rank by: the notes they let through, newest first');
    } else if (keyword.belowMinimum > 0) {
      read.notices.push(`${keyword.belowMinimum} note${keyword.belowMinimum === 1 ? '' : 's'} matched but scored below min_score ${request.minScore}; lower it or leave it out`);
    } else if (keyword.hidden.count === 0 && read.query.trim() !== '' && !MARKUP_ONLY.test(read.query) && !only) {
      response.results = this.substringLane(read.query, read.limit, read.filter);
      response.total_matches = response.results.length;
      if (response.results.length > 0) read.notices.push('no keyword match; these notes contain the query text as written');
    }
    if (mode !== 'semantic') this.fuzzyLane(response, read);
    // A listing asked for alone is the filter's own: the notes outside it were brought in, not found.
    const scopedOut = mode === 'semantic' || only ? null : scopedOutOf(keyword, this.metas);
    if (scopedOut) response.scoped_out = scopedOut;
    if (only && mode !== 'semantic' && response.results.length === 0) read.notices.push(`none of the notes the filters let through ${read.open?.only === true ? 'holds an unfinished task (- [ ])' : 'is dated'}`);
    return response;
  }

  /**
   * When a query word is in no note (the keyword lane found only notes with the other words, or
   * none), the notes whose names come close (`FuzzyNames`) are listed after exact matches (a
   * name the query spells, the query's text as written) and before partial keyword matches.
   */
  private fuzzyLane(response: SearchResponse, read: ReadQuery): void {
    // A word the spelling correction read as an indexed term is searched by the keyword lane already.
    const queryWords = fuzzyQueryWords(read.query, this.tokenize, read.analyzed.content, read.known);
    const words = read.corrected.length === 0 ? queryWords : queryWords.map((word) => (read.corrected.some(({ word: written }) => written === word.word) ? { ...word, known: true } : word));
    if (words.every((word) => word.known)) return;
    // A word some vault language stops (`with` is a term to Portuguese) is not worth a mention.
    const missing = [...new Set(words.filter((word) => !word.known && !this.tokenize.isStopWord(word.word)).map((word) => `"${word.word}"`))].join(', ');
    // A quoted word is taken as written: never read as a name it comes close to.
    const quoted = read.analyzed.quotedTerms;
    const matchable = quoted.size === 0 ? words : words.map((word) => (word.tokens.every((token) => quoted.has(token)) ? { ...word, known: true } : word));
    const found = matchable.every((word) => word.known) ? [] : this.fuzzy.match(matchable, (doc) => !read.filter.active || read.filter.test(this.metas[doc]!) === null);
    if (found.length === 0) {
      if (missing === '') return;
      // Said, so an agent can search again in the vault's own words (`alternatives`).
      const without = words.some((word) => word.known) ? `, so the search went on without ${missing.includes(',') ? 'them' : 'it'}` : '';
      read.notices.push(`no note contains ${missing}${without}; the vault may use other words (try alternatives)`);
      return;
    }
    let added = 0;
    const fuzzy = found.map((hit, i) => {
      const lane = { rank: i + 1, score: round(hit.score), name: hit.name, read_as: hit.readAs };
      const listed = response.results.find((result) => result.path === this.metas[hit.doc]!.path);
      if (listed) return { ...listed, lanes: { ...listed.lanes, fuzzy: lane } };
      added++;
      return this.hit(hit.doc, hit.score, { fuzzy: lane }, { kind: 'keyword', terms: [...read.known, ...hit.readAs.map(({ as }) => as)], passage: null });
    });
    response.results = fuzzyMerge(response.results, fuzzy, read.limit);
    response.total_matches += added;
    read.notices.push(`${missing === '' ? '' : `no note contains ${missing}; `}notes whose name is close to the query are listed after exact matches (lane "fuzzy")`);
  }

  /** The request read: the query (cut to the limit, its syntax read out), its analysis, the filter, the names and phrases it matches, and the notices so far. */
  private readQuery(request: SearchRequest): ReadQuery {
    const notices: string[] = [];
    let written = request.query;
    if (written.length > LIMITS.maxQueryChars) {
      written = cutAtWord(written, LIMITS.maxQueryChars);
      notices.push(`the query was cut to its first ${written.length} characters, at a word (at most ${LIMITS.maxQueryChars} are read)`);
    }
    const syntax = parseQuerySyntax(written);
    const query = syntax.text;
    if (syntax.empty) notices.push(`${syntax.empty.map((operator) => `"${operator}"`).join(', ')} has no value, so it was left out; give it one (tag:travel, path:"Daily notes", file:draft)`);
    const limit = Math.min(Math.max(1, Math.trunc(request.limit ?? LIMITS.defaultLimit)), LIMITS.maxLimit);
    const scopes = [...syntax.scopes, ...(request.scopes ?? [])];
    let filter = scopedBy(compileFilter(request.filters ?? {}), scopes);
    if (filter.active && !this.metas.some((meta) => filter.test(meta) === null)) {
      const described = [describeFilters(request.filters ?? {}), ...scopes.map(({ key, value, negated }) => `${negated ? '-' : ''}${key}:${value}`)].filter(Boolean).join('; ');
      notices.push(`no note passes the filters (${described}); check the folder, tag or type names`);
    }
    filter = this.excluding(filter, [...syntax.excluded, ...(request.exclude ?? [])], notices);
    const dated = this.readDates(analyzeQuery(query, this.tokenize, { quoted: syntax.quoted, languages: this.languages }), request.today, notices);
    const newestRead = this.readNewest(dated.analyzed, dated.read);
    const { analyzed, open } = this.readOpen(newestRead.analyzed);
    // Asking for both ("latest open tasks", "what's the latest still open?"): the notes holding open tasks, the newest of them first.
    const both = open?.only === true && newestRead.newest !== null;
    const newest = both ? { ...newestRead.newest!, bonuses: this.dates.newest([...open.bonuses.keys()]), only: true } : newestRead.newest;
    const dates = dated.dates;
    const known = this.index.knownTerms(analyzed.content);
    // Every word one the tokenizer drops, or one its own language stops ("the of and", "o que é"):
    // that language's notes never index them, and another's spelling ("and" to Portuguese) finds only noise.
    const stopsOnly = analyzed.all.length === 0 ? analyzed.words.length > 0 && analyzed.words.every((word) => this.tokenize.isStopWord(word)) : this.onlyOwnStopWords(analyzed);
    if (stopsOnly) {
      known.length = 0;
      // Beside operators ("the tag:filosofia") the words add nothing: the operators list their notes.
      if (scopes.length === 0 && analyzed.all.length > 0) notices.push('the query has only stop words, which the keyword lane does not search; add the words that say what you are looking for');
    }
    const corrected = this.correctSpelling(analyzed, known, filter.active ? (doc) => filter.test(this.metas[doc]!) === null : null);
    // Left with only the own language's stop words ("not a secret", "not-a-secret" where `secret` is
    // in no note): another language's spelling of them (Portuguese `not` of `notas`) finds only
    // noise. Quoted, they are taken as written.
    if (!stopsOnly && known.length > 0 && analyzed.quoted.size === 0 && this.onlyOwnStopTerms(analyzed.words, known)) known.length = 0;
    for (const { word, to, spelled } of corrected) notices.push(`no note contains "${word}"; searched ${spelled === undefined ? `the nearest indexed word ("${to}") instead` : `"${spelled}" instead, a word the vault uses one typo away`}`);
    if (analyzed.all.length === 0 && written.trim() !== '' && !((query === '' || stopsOnly) && (scopes.length > 0 || syntax.empty !== undefined)))
      notices.push(query === '' && syntax.excluded.length > 0 ? 'the query only leaves words out; add the words to search for' : 'the query has no searchable words (only stop words, punctuation or symbols)');
    const named: NamedNotes = new Map(this.names.get(analyzed.all.join(' ')));
    const spelled = foldName(query);
    for (const doc of this.notesAtPath(query)) named.set(doc, { match: 'path', spellings: new Set() });
    const phrases = this.phrasesHeld(syntax.phrases, notices);
    // Named notes first (3: the query is its path, 2: spelled as the query, 1: the same tokens), then by the phrases held.
    const tiers = new Map([...phrases].map(([doc, held]) => [doc, held.length]));
    for (const [doc, name] of named) tiers.set(doc, (name.match === 'path' ? 3 : name.spellings.has(spelled) ? 2 : 1) * NAME_TIER + (tiers.get(doc) ?? 0));
    const pooled = this.pooledFrequencies(analyzed.words, known);
    const boosts = this.boostsOf(known, dates, pooled);
    // A note the query names ("Todo", "Pending items", a pasted path) is found even when a reading took its words.
    for (const doc of named.keys()) boosts.brought.add(doc);
    for (const [asked, answer] of [
      [open, 'what is still open, and nothing else: the notes holding unfinished tasks (- [ ]), the most first'],
      [newest, both ? 'for the newest of them: a note dated later (by its name or date:) ranks higher' : 'for the newest, and nothing else: the notes dated (by their name or date:), the latest first'],
    ] as const) {
      if (asked?.only !== true) continue;
      for (const [doc, bonus] of asked.bonuses) {
        boosts.scores.set(doc, (boosts.scores.get(doc) ?? 0) + bonus);
        boosts.brought.add(doc);
      }
      // Said where it acts: `search` gives it unless semantic mode was asked for.
      asked.said = `read ${quotedPhrases(asked)} as asking ${answer}`;
    }
    return { query, limit, filter, notices, analyzed, known, corrected, named, tiers, scoped: scopes.length > 0, stopsOnly, phrases, boosts, pooled, newest, open };
  }

  /**
   * The dates a query names, and its relative ones read against `today` (default: the local
   * date now), as each note's date bonus (`NoteDates.boosts`). A relative date ("yesterday",
   * "last week", "há 3 dias") stands for days, not for its words: no note says "yesterday" about
   * itself. So its words leave the query when some note is dated in the span (by its name or
   * `date:`) or mentions one of its days (`2026-12-01` in its text, a `created:` or `updated:`),
   * and those notes are ranked by their date bonus even when no other word matches them;
   * when none is, its words stay words and a notice says the vault has nothing from then.
   */
  private readDates(analyzed: AnalyzedQuery, today: string | undefined, notices: string[]): { analyzed: AnalyzedQuery; dates: Map<number, DateBoost>; read: boolean } {
    const day = today === undefined ? localDay(Date.now()) : dayOfValue(today);
    const all = queryDateRanges(readable(analyzed), day);
    // A span ("between April 1 and April 30", "since June 1") stands for days as a relative date does.
    const named = all.filter((range) => !range.span);
    // What each date was read as, said once per reading and at most `DATE_NOTICES` times (a pasted text full of dates).
    const said = new Set<string>();
    for (const range of named) if (range.yearless) said.add(`read "${range.text}" as ${spanText(range)}: no year was given, so the latest one begun by today`);
    for (const text of impossibleDates(readable(analyzed))) said.add(`"${text}" is no calendar day, so no date was read and its words were searched as words`);
    // Beside a date named in full a relative one is relative to it, not to today ("what did Joanna
    // finish last Friday on 23 January, 2022?"): the named date answers, the words stay words. A
    // date named without a year is itself read from today, and leaves "yesterday" as it is.
    const spans = all.filter((range) => range.span);
    const fromToday = day === -1 || all.some((range) => !range.yearless) ? [] : relativeDateRanges(readable(analyzed), day, () => functionWordLanguage(analyzed.words));
    // "today" in "from May 1 to today" is the span's end, not a day of its own.
    const relative = [...spans, ...fromToday.filter((range) => !spans.some((span) => span.first <= range.first && range.last <= span.last))];
    if (relative.length === 0) {
      sayDates(notices, said);
      return { analyzed, dates: this.dates.boosts(named), read: named.length > 0 };
    }
    const spoken: DateRange[] = [];
    const found: SpanNotes[] = [];
    // Each span is looked up once however often the query names it (a pasted text full of "today").
    const held = new Map<string, boolean>();
    for (const range of relative) {
      const key = `${range.from}:${range.to}`;
      if (!held.has(key)) {
        const when = `${spanText(range)}${range.span && range.yearless ? ` (no year was given: ${range.until ? "this year's" : 'the latest such span'})` : ''}`;
        const notes = this.dates.notesIn(range, this.mentioning(range));
        const dated = notes.dated.length;
        held.set(key, dated + notes.mentioning.length > 0);
        if (!held.get(key)) said.add(`read "${range.text}" as ${when}; no note is dated then or mentions a day of it, so its words were searched as words`);
        else {
          said.add(`read "${range.text}" as ${when}: ${dated} note${dated === 1 ? '' : 's'} dated then, ${notes.mentioning.length} mentioning a day of it`);
          found.push(notes);
        }
      }
      if (held.get(key)) spoken.push(range);
    }
    sayDates(notices, said);
    const dates = this.dates.bonuses([...this.dates.spansOf(named), ...found]);
    // Searched as words, they are still a date: taken as written, never as the nearest spelling ("ayer" is no typo of "layer").
    const kept = relative.filter((range) => !spoken.includes(range));
    return { analyzed: asWritten(leaveOut(analyzed, spoken), kept), dates, read: true };
  }

  /**
   * A query asking for the newest of its matches ("the latest 1:1 with Priya", "when was the last
   * search sync?", `newestAsked`) when it names no date and some note is dated: its asking words
   * leave the query (no note says "latest" of itself), and `rerankByPassages` ranks the dated ones
   * among the best matches by day (`NoteDates.newest`) and says so. Asking only that ("the
   * latest") brings in every dated note, the newest first (`only`: `readQuery` says so).
   */
  private readNewest(analyzed: AnalyzedQuery, datesRead: boolean): { analyzed: AnalyzedQuery; newest: Asked | null } {
    if (datesRead) return { analyzed, newest: null };
    const asked = newestAsked(readable(analyzed), () => this.languageOf(analyzed.words));
    if (asked.length === 0) return { analyzed, newest: null };
    // No note is dated: the words are searched, as written ("latest" is no misspelt "latent").
    if (!this.dates.anyDated) return { analyzed: asWritten(analyzed, asked), newest: null };
    const said = phrasesSaid(asked);
    // The words asking what is open frame it too ("latest open tasks", "open tasks recently"): `readOpen` reads them next.
    const open = this.openTasks.any ? openAsked(readable(analyzed), () => this.languageOf(analyzed.words)) : [];
    const { analyzed: without, only } = withoutAsked(analyzed, asked, (word) => this.frames(word, analyzed.language) || (open.length > 0 && isTaskNoun(word)), open);
    // Asking only that ("the latest", "most recent"): the newest dated notes are the answer.
    if (only) return { analyzed: without, newest: { ...said, bonuses: this.dates.newestOfAll(), only: true } };
    // "what did Melanie paint recently?": the adverb is the asker's memory of when, and a word of the note, searched as written.
    if (asked.every((phrase) => asksAloneOnly(analyzed.words, phrase))) return { analyzed: asWritten(analyzed, asked), newest: null };
    return { analyzed: without, newest: { ...said, bonuses: new Map() } };
  }

  /**
   * Whether a word left beside the words asking for the newest or for what is open only frames
   * the request: a request word ("list", "notes"), a stop word of some vault language (`of` is
   * a term to Portuguese), or a function word of the query's language ("what did I write
   * recently?", whose words are all content to the analysis when nothing else is there).
   */
  private frames(word: string, language: string | null): boolean {
    return isRequestWord(word) || this.tokenize.isStopWord(word) || (language !== null && isQuestionWord(language, word));
  }

  /**
   * The language a query asking for the newest or for what is open is read in, to refuse a false
   * friend (German `Last` is a load, Spanish `todo` is "all"): its function words' language, else
   * the vault's when all its notes are in one ("todo incluido" over a Spanish vault). Else none,
   * and the word is read: in a vault of several languages "migration todo" may well be English,
   * and the majority of the notes says nothing of it. Relative dates are not read through this:
   * "Besprechung gestern" over an English vault is still yesterday.
   */
  private languageOf(words: readonly string[]): string | null {
    return functionWordLanguage(words) ?? this.onlyLanguage;
  }

  /**
   * A query asking what is still open ("what's still open on Harbor?", "pending items", `openAsked`)
   * when some note holds an open task: `rerankByPassages` gives the best matches holding them a
   * bonus (`OpenTasks.among`) and says so. Its words leave the query, as the newest's do (a note
   * saying "still open" is not what was asked: `open-tasks` MRR 0.703 → 0.825). Asking only that
   * ("what's still open?", "offene Punkte") brings in the notes holding open tasks, the most first.
   */
  private readOpen(analyzed: AnalyzedQuery): { analyzed: AnalyzedQuery; open: Asked | null } {
    const asked = openAsked(readable(analyzed), () => this.languageOf(analyzed.words));
    if (asked.length === 0) return { analyzed, open: null };
    // No note holds an open task: the words are searched, as written ("offene" is no misspelt "offer").
    if (!this.openTasks.any) return { analyzed: asWritten(analyzed, asked), open: null };
    const { analyzed: without, only } = withoutAsked(analyzed, asked, (word) => isTaskNoun(word) || this.frames(word, analyzed.language));
    // Asking only that ("what's still open?", "which tasks are still open?"): the notes holding open tasks are the answer, the most first.
    if (only) return { analyzed: without, open: { ...phrasesSaid(asked), bonuses: this.openTasks.among([...this.metas.keys()]), only: true } };
    return { analyzed: without, open: { ...phrasesSaid(asked), bonuses: new Map() } };
  }

  /**
   * A query that is a note's path, as an agent copies it from a result or a link (any case, with
   * or without `.md`, `[[…]]`, `|alias` or `#heading`): that note, or the notes whose path ends
   * with it (`Atlas/Migration plan`). Only queries with a `/`: a bare name is the name tier's.
   */
  private notesAtPath(query: string): number[] {
    const link = query.trim().replace(/^\[\[/, '').replace(/\]\]$/, '').split('|')[0]!.split('#')[0]!.trim();
    if (!link.includes('/')) return [];
    const wanted = link.replace(/\.md$/i, '').replace(/^\/+/, '').normalize('NFC').toLowerCase();
    this.foldedPaths ??= this.metas.map((meta) => meta.path.normalize('NFC').toLowerCase().replace(/\.md$/, ''));
    const found: number[] = [];
    this.foldedPaths.forEach((path, doc) => {
      if (path === wanted || path.endsWith(`/${wanted}`)) found.push(doc);
    });
    return found;
  }

  /** How `notesHolding` reads the index and the notes. */
  private get phraseSources(): PhraseSources {
    return {
      tokenize: this.tokenize,
      index: this.index,
      textOf: (doc) => {
        const meta = this.metas[doc]!;
        const read = this.texts.read(this.absolute(meta.path));
        return read.ok ? `${meta.title}\n${noteName(meta.path)}\n${read.text}` : null;
      },
    };
  }

  /** Each note holding one of the quoted phrases, with the phrases it holds. */
  private phrasesHeld(phrases: readonly string[], notices: string[]): Map<number, string[]> {
    const held = new Map<number, string[]>();
    for (const phrase of phrases) {
      const { docs, capped } = notesHolding(phrase, this.phraseSources);
      for (const doc of docs) held.set(doc, [...(held.get(doc) ?? []), phrase]);
      if (capped) notices.push(`"${phrase}": only the first ${PHRASE_CHECKS} notes holding its words were read for the phrase`);
      else if (docs.size === 0) notices.push(`no note holds the phrase "${phrase}"; ranked by its words`);
    }
    return held;
  }

  /** `filter`, also hiding the notes that hold a word or phrase the query leaves out (`-paris`). */
  private excluding(filter: CompiledFilter, excluded: readonly string[], notices: string[]): CompiledFilter {
    if (excluded.length === 0) return filter;
    const notes = new Set<NoteMeta>();
    for (const entry of new Set(excluded)) {
      // Every candidate is read (no cap): an exclusion must not miss a note.
      const { docs } = notesHolding(entry, this.phraseSources, Number.POSITIVE_INFINITY);
      for (const doc of docs) notes.add(this.metas[doc]!);
      if (docs.size > 0) notices.push(`left out ${docs.size} note${docs.size === 1 ? '' : 's'} holding "${entry}"`);
    }
    return excludingNotes(filter, notes);
  }

  /**
   * Whether a term shares a note with one of `others`, inside the search's filter when there is
   * one: the notes holding them gathered once, each term's postings checked against them.
   */
  private sharesANoteWith(others: readonly string[], inFilter: ((doc: number) => boolean) | null): (term: string) => boolean {
    const holders = new Set<number>();
    for (const other of others) this.index.forEachDocumentWith(other, (doc) => (inFilter === null || inFilter(doc)) && holders.add(doc));
    // The other words are all outside the filter: no context there, only a note inside it to hold the term.
    if (holders.size === 0 && inFilter !== null) return this.heldBy(inFilter);
    return this.heldBy((doc) => holders.has(doc));
  }

  /** Whether some note `wanted` accepts holds the term. */
  private heldBy(wanted: (doc: number) => boolean): (term: string) => boolean {
    return (term) => {
      let held = false;
      this.index.forEachDocumentWith(term, (doc) => {
        held ||= wanted(doc);
      });
      return held;
    };
  }

  /**
   * Misspelt query words (no note contains any of their terms) searched as the nearest indexed
   * term: added to `known`, in the word's place for proximity (`correctQuery`). Under a filter
   * the correction is a term some note inside it holds: another term would rank nothing there,
   * and the notice would name a word the searched notes do not have (`Carolina` → `carolin`,
   * Caroline's stem, from another conversation's sessions).
   */
  private correctSpelling(analyzed: AnalyzedQuery, known: string[], inFilter: ((doc: number) => boolean) | null): WordCorrection[] {
    // Most queries: every word is in some note, and nothing is allocated to find that out.
    if (analyzed.content.every((term) => this.index.documentFrequency(term) > 0)) return [];
    this.spelling ??= new SpellingIndex(this.index.vocabulary(), (term) => this.index.documentFrequency(term), this.index.documentCount);
    let budget = WRITTEN_PER_SEARCH;
    const isKnown = (term: string) => this.index.documentFrequency(term) > 0;
    const corrected = correctQuery(
      analyzed,
      {
        isKnown,
        isStopWord: (word) => this.tokenize.isStopWord(word),
        contextOf: (others) => this.sharesANoteWith(others, inFilter),
        ...(inFilter ? { held: this.heldBy(inFilter) } : {}),
        // Bounded per search: a pasted text of made-up words costs no more than a few slips.
        written: (word, fits) => (budget-- > 0 ? nearestWritten(word, this.writtenNear(), fits) : null),
        // The start of a name ("Harb", "Lant") is for the fuzzy lane to list, not a misspelt word.
        beginsAName: (term) => this.fuzzy.beginsAName(term),
        isFunctionWord: (word) => this.languages.some((language) => isQuestionWord(language, word)),
      },
      this.spelling,
    );
    for (const { from, to } of corrected) {
      if (known.includes(to)) continue;
      known.push(to);
      analyzed.wordOf.set(to, analyzed.wordOf.get(from)!);
    }
    return corrected;
  }

  /**
   * What `nearestWritten` asks of the vault: the words its notes write (`WrittenWords`, read from
   * every note on the first misspelt word no term is near, as the trigram table is built on the
   * first misspelt query; from the notes changed since when `options.written` is carried from an
   * earlier engine), a spelling's terms (`tokensOf`: the tokenizer's cache of the vault's
   * words is no place for a query's made-up ones) and their frequencies.
   */
  private writtenNear(): WrittenNear {
    if (this.written === null) {
      this.written = this.options.written ?? new WrittenWords();
      // Stamped by the index's content hash: a note changed within its modification time's resolution is still read again.
      const notes = (this.db.prepare('SELECT path, hash FROM notes').raw().all() as [string, string][]).map(([path, stamp]) => ({ path, stamp }));
      this.written.update(notes, (path) => {
        const read = readNoteText(this.absolute(path));
        return read.ok ? read.text : null;
      });
    }
    const words = this.written;
    return {
      spellingOf: (folded) => words.spellingOf(folded),
      termsOf: (spelling) => this.tokenize.tokensOf(spelling),
      frequencyOf: (term) => this.index.documentFrequency(term),
      maxFrequency: this.index.documentCount * SPELLING_DEFAULTS.maxShare,
    };
  }

  /** The lanes a request gets, and why: semantic needs a query vector and note vectors. */
  private modeOf(request: SearchRequest): { mode: SearchMode; reason: string } {
    const wanted = request.mode ?? 'hybrid';
    const noSemantic = this.semanticUnavailable(request);
    if (wanted === 'keyword') return { mode: 'keyword', reason: 'keyword mode was asked for' };
    if (noSemantic !== null) return { mode: 'keyword', reason: `keyword only: ${noSemantic}` };
    if (wanted === 'semantic') return { mode: 'semantic', reason: `semantic only: ${this.describeVectors()}` };
    return {
      mode: 'hybrid',
      reason: `keyword and semantic lanes fused by reciprocal rank (k = ${this.fusion.k}; weights keyword ${this.fusion.weights.keyword ?? 1}, semantic ${this.fusion.weights.semantic ?? 1}); ${this.describeVectors()}`,
    };
  }

  /** The final order: the keyword lane as ranked, or both lanes fused by RRF with named notes first. */
  private order(mode: SearchMode, keyword: RankOutcome, semantic: readonly VectorHit[], tiers: ReadonlyMap<number, number>): { doc: number; score: number }[] {
    if (mode === 'keyword') return keyword.hits.map((hit) => ({ doc: hit.doc, score: hit.score }));
    const lanes = { keyword: mode === 'semantic' ? [] : keyword.hits.map((hit) => hit.doc), semantic: semantic.map((hit) => hit.doc) };
    return fuseRrf(lanes, this.fusion).sort((a, b) => (tiers.get(b.doc) ?? 0) - (tiers.get(a.doc) ?? 0) || b.score - a.score || a.doc - b.doc);
  }

  /** One result: its lanes, its evidence (the keyword passage, else the semantic block) and, asked for, how its score was made. */
  private resultOf(doc: number, score: number, at: ResultContext): SearchHit {
    const { mode, read, passages } = at;
    // In semantic mode the keyword ranking still anchors the excerpt of a note it also found; it is not a lane.
    const k = at.keyword.hits.findIndex((hit) => hit.doc === doc);
    const v = at.semantic.findIndex((hit) => hit.doc === doc);
    const vector = v === -1 ? undefined : at.semantic[v]!;
    const name = read.named.get(doc);
    const lanes: SearchHit['lanes'] = {
      ...(k !== -1 && mode !== 'semantic' ? { keyword: { rank: k + 1, score: round(at.keyword.hits[k]!.score) } } : {}),
      ...(vector ? { semantic: { rank: v + 1, score: round(vector.score), source: vector.source, block: vector.blockKey === '' ? null : vector.blockKey } } : {}),
      ...(name ? { name: { match: name.match } } : {}),
    };
    // A note listed for its open tasks alone ("what's still open?") shows the first of them.
    const anchor: EvidenceAnchor =
      read.open?.only === true && read.open.bonuses.has(doc)
        ? { kind: 'task', path: this.metas[doc]!.path, terms: read.known }
        : k !== -1 || !vector || vector.blockKey === ''
          ? { kind: 'keyword', terms: read.known, passage: passages.get(doc) ?? null }
          : { kind: 'block', key: vector.blockKey, terms: read.known };
    const result = this.hit(doc, score, lanes, anchor);
    if (at.explain && k !== -1) {
      result.explain = this.index.explain(doc, read.known, read.pooled).map((part) => ({ ...part, tf: round(part.tf), idf: round(part.idf), score: round(part.score) }));
      const named = read.boosts.names.get(doc);
      const dated = read.boosts.dates.get(doc);
      const newest = read.newest?.bonuses.get(doc);
      const open = read.open?.bonuses.get(doc);
      const passage = passages.get(doc)?.score;
      const phrases = read.phrases.get(doc);
      result.boosts = [
        ...(phrases ? [{ kind: 'phrase' as const, terms: phrases, score: 0 as const }] : []),
        ...(named ? [{ kind: 'name' as const, terms: named.terms, score: round(named.score) }] : []),
        ...(dated ? [{ kind: 'date' as const, terms: [dated.text], score: round(dated.score) }] : []),
        ...(newest ? [{ kind: 'newest' as const, terms: [read.newest!.text], score: round(newest) }] : []),
        ...(open ? [{ kind: 'open' as const, terms: [read.open!.text], score: round(open) }] : []),
        ...(passage && passage.score > 0 ? [{ kind: 'passage' as const, terms: [passage.block?.headingPath.join(' > ') ?? ''], score: round(PASSAGE_WEIGHT * passage.score), proximity: round(PASSAGE_WEIGHT * passage.proximity) }] : []),
      ];
    }
    return result;
  }

  /**
   * Whether a text holds every word of `query` as this vault's search reads words (stemmed in
   * each of its languages, stop and question words left out, quoted words kept; a word matches by
   * any of its spellings) and none of its `-word`s or `-"phrases"`, for texts outside the index: a
   * task's line. Refused, saying why, when the query has no word to look for or uses `tag:`,
   * `path:` or `file:`, which narrow notes, not lines.
   */
  wordsMatcher(query: string): { matches: (text: string) => boolean } | { refused: string } {
    const syntax = parseQuerySyntax(query);
    if (syntax.scopes.length > 0) return { refused: 'tag:, path: and file: narrow a search of notes, not a task query; give the folder argument instead' };
    const analyzed = analyzeQuery(syntax.text, this.tokenize, { quoted: syntax.quoted, languages: this.languages });
    // Asking what is open or the newest ("still open on Harbor", "latest harbor") is asking for
    // the tasks themselves: those words are not the tasks' own.
    const languageOf = () => this.languageOf(analyzed.words);
    const asked = [...openAsked(readable(analyzed), languageOf), ...newestAsked(readable(analyzed), languageOf)];
    const words = taskWordMatchers(leaveOut(analyzed, asked), this.tokenize);
    // An excluded word or phrase, held as search holds a phrase: its words side by side.
    const excluded = syntax.excluded
      .map(phraseWords)
      .filter((inner) => inner.length > 0)
      .map((inner) => ({ inner, same: wordMatcher(inner, this.tokenize) }));
    if (words.length === 0 && asked.length === 0) {
      return { refused: excluded.length > 0 ? 'the query only leaves words out; add the words the tasks are about' : 'the query has no searchable words (only stop or question words); name what the tasks are about, e.g. a project' };
    }
    return {
      matches: (text) => {
        const held = new Set(this.tokenize(text));
        return words.every((matches) => matches(held)) && !excluded.some(({ inner, same }) => holdsPhrase(text, inner, same));
      },
    };
  }

  /**
   * Notes nearest to a note by vector (its own vector, or its best section's when it has only
   * those), with the section that matched, among the notes `filters` let through (e.g. a folder).
   * Null when the note has no vector.
   */
  related(path: string, limit: number, filters: SearchFilters = {}): SearchHit[] | null {
    const doc = this.metas.findIndex((meta) => meta.path.normalize('NFC') === path.normalize('NFC'));
    if (doc === -1) return null;
    const own = this.vectors.vectorsOf(doc);
    const anchor = own.find((entry) => entry.blockKey === '') ?? own[0];
    if (!anchor) return null;
    const filter = compileFilter(filters);
    return this.vectors
      .nearest(anchor.vector, limit, (other) => other !== doc && (!filter.active || filter.test(this.metas[other]!) === null))
      .map((hit, i) =>
        this.hit(
          hit.doc,
          hit.score,
          { semantic: { rank: i + 1, score: round(hit.score), source: hit.source, block: hit.blockKey === '' ? null : hit.blockKey } },
          hit.blockKey === '' ? { kind: 'keyword', terms: [], passage: null } : { kind: 'block', key: hit.blockKey, terms: [] },
        ),
      );
  }

  /** The notes whose text holds one of a span's days (`2026-12-01` in the body, a `created:` or `updated:`), at most its latest year of them. */
  private mentioning(range: DateRange): Set<number> {
    const docs = new Set<number>();
    // The latest year of a longer span ("since 2024-01-01"): its newest days.
    for (let at = range.to; at >= range.from && range.to - at < MAX_SPAN_DAYS; at--) this.index.forEachDocumentWith(isoDay(at), (doc) => docs.add(doc));
    return docs;
  }

  /**
   * A bounded bonus for each note with a name sharing the query's words (`NameIndex.shared`):
   * the shared words' idf times the share of the name they make up, times `NAME_WEIGHT`. At most
   * the query's own idf mass, so it lifts a note named for what was asked among notes that only
   * mention it, and cannot lift a name of common words over a note matching the query's rare ones.
   */
  private boostsOf(terms: readonly string[], dates: Map<number, DateBoost>, pooled: PooledFrequencies): Boosts {
    const scores = new Map<number, number>();
    const names = new Map<number, { terms: readonly string[]; score: number }>();
    if (terms.length > 0) {
      for (const { doc, terms: shared, score } of this.covering.shared(terms, (term) => this.index.idf(term, pooled))) {
        names.set(doc, { terms: shared, score: score * NAME_WEIGHT });
        scores.set(doc, score * NAME_WEIGHT);
      }
    }
    const brought = new Set<number>();
    for (const [doc, { score, relative }] of dates) {
      scores.set(doc, (scores.get(doc) ?? 0) + score);
      if (relative) brought.add(doc);
    }
    return { scores, names, dates, brought };
  }

  /**
   * The query's language by its stop words: the vault language whose stop list holds most of its
   * words (English on a tie, as for function words, then the vault's main one); none when no
   * list holds any.
   */
  private ownStopList(words: readonly string[]): (typeof this.stoppedIn)[number] | undefined {
    if (this.stoppedIn.length === 0) return undefined;
    const folded = [...new Set(words)].map(foldToken);
    let own: (typeof this.stoppedIn)[number] | undefined;
    let most = 0;
    for (const entry of this.stoppedIn) {
      const count = folded.filter((word) => entry.stops.has(word)).length;
      if (count > most || (count === most && count > 0 && entry.language === 'en')) [own, most] = [entry, count];
    }
    return own;
  }

  /**
   * Whether every one of `terms` is a token of a word (or of a joined word's part: `not` of
   * `not-a-secret`) that the query's own language stops, in a vault of several languages.
   */
  private onlyOwnStopTerms(words: readonly string[], terms: readonly string[]): boolean {
    const parts = words.flatMap((word) => (isJoinedWord(word) ? word.split(/[_\-.'’]+/).filter(Boolean) : [word]));
    const own = this.ownStopList(parts);
    if (own === undefined) return false;
    const stopped = new Set(parts.filter((part) => own.stops.has(foldToken(part))).flatMap((part) => this.tokenize.expand(part)));
    return terms.every((term) => stopped.has(term));
  }

  /** Whether every word of the query, none quoted, is one its own language (`ownStopList`) stops. */
  private onlyOwnStopWords(analyzed: AnalyzedQuery): boolean {
    if (analyzed.words.length === 0 || analyzed.quoted.size > 0) return false;
    const own = this.ownStopList(analyzed.words);
    return own !== undefined && analyzed.words.every((word) => own.stops.has(foldToken(word)));
  }

  /**
   * A query word's spellings in the vault's languages share the word's document frequency
   * (`PooledFrequencies`). A word the query's own language stops (the one whose stop list holds
   * most of its words) counts as in every note of that language too: there it is written
   * but not indexed. Else English `and`, indexed only by the few Portuguese notes that quote an
   * English title, was the rarest word of "salt and pepper". Only the query's language: German
   * stops `war` and Spanish `son`, which "the war crimes trial" and "the son of the party" mean.
   */
  private pooledFrequencies(words: readonly string[], known: readonly string[]): PooledFrequencies {
    const pooled = new Map<string, number>();
    if (this.tokenize.variants === undefined || known.length < 2) return pooled;
    for (const spellings of spellingGroups(this.tokenize, [...new Set(words)], known)) {
      if (spellings.length < 2) continue;
      let df = 0;
      for (const term of spellings) df += this.index.documentFrequency(term);
      for (const term of spellings) pooled.set(term, Math.min(df, this.index.documentCount));
    }
    const own = this.ownStopList(words);
    if (own === undefined) return pooled;
    const wanted = new Set(known);
    for (const word of new Set(words)) {
      if (!own.stops.has(foldToken(word))) continue;
      const stopped = own.notes;
      for (const term of this.tokenize.expand(word)) {
        if (wanted.has(term)) pooled.set(term, Math.min((pooled.get(term) ?? this.index.documentFrequency(term)) + stopped, this.index.documentCount));
      }
    }
    return pooled;
  }

  /**
   * Re-scores the keyword lane's best `PASSAGE_DEPTH` notes by their best passage (`scorePassages`:
   * a heading section's own BM25 plus term proximity), added to the note's score with
   * `PASSAGE_WEIGHT`, and keeps the passages for the evidence. The filter's hidden best is
   * re-scored the same way, so `scoped_out` compares like with like. Named tiers stay first.
   */
  private rerankByPassages(ranked: RankOutcome, read: ReadQuery, passages: Map<number, Passage>, keep: number): RankOutcome {
    const { known: terms, tiers, pooled } = read;
    const wordOf = read.analyzed.wordOf;
    if (terms.length === 0) return { ...ranked, hits: ranked.hits.slice(0, keep) };
    const scorer = passageScorer(terms, (term) => this.index.idf(term, pooled), this.tokenize, { wordOf: (term) => wordOf.get(term) ?? -1 });
    const budget = { derivations: DERIVATIONS_PER_SEARCH };
    const rescored = (doc: number, score: number, note: StoredNote, passage: PassageScore): number => {
      passages.set(doc, { text: note.text, blocks: note.blocks, score: passage });
      return score + PASSAGE_WEIGHT * passage.score;
    };
    // Every note read, then all scored together (`scoreNotes` reads their memory ahead).
    const notes = ranked.hits.slice(0, PASSAGE_DEPTH).map((hit) => ({ hit, note: this.passageNoteOf(hit.doc, budget) }));
    const readable = notes.flatMap(({ note }) => (note === null ? [] : [note]));
    const scores = scoreNotes(scorer, readable);
    let next = 0;
    const head = notes.map(({ hit, note }) => ({ doc: hit.doc, score: note === null ? hit.score : rescored(hit.doc, hit.score, note, scores[next++]!) }));
    // Said here, where they act: not in semantic mode, nor when no term is known.
    if (read.open !== null)
      applyReading(head, read.open, (docs) => this.openTasks.among(docs), read.notices, {
        acted: 'asking what is still open: among the best matches, notes holding unfinished tasks (- [ ]) rank higher',
        idle: 'asking what is still open, but none of the best matches holds an unfinished task (- [ ])',
      });
    if (read.newest !== null)
      applyReading(head, read.newest, (docs) => this.dates.newest(docs), read.notices, {
        acted: 'asking for the newest: among the best matches, a note dated later (by its name or date:) ranks higher',
        idle: 'asking for the newest, but none of the best matches is dated (by its name or date:)',
      });
    head.sort((a, b) => (tiers.get(b.doc) ?? 0) - (tiers.get(a.doc) ?? 0) || b.score - a.score || (this.metas[a.doc]!.path < this.metas[b.doc]!.path ? -1 : 1));
    const hits = [...head, ...ranked.hits.slice(PASSAGE_DEPTH)].slice(0, keep);
    const hidden = ranked.hidden.best;
    const note = hidden ? this.passageNoteOf(hidden.doc, budget) : null;
    const best = hidden && { ...hidden, score: note ? rescored(hidden.doc, hidden.score, note, scorer(note.text, note.blocks, note.context, note.positions)) : hidden.score };
    return { ...ranked, hits, hidden: { ...ranked.hidden, best } };
  }

  /** A note as the passage scorer reads it (null when it cannot be read). */
  private passageNoteOf(doc: number, budget: { derivations: number }): StoredNote | null {
    const meta = this.metas[doc]!;
    const abs = this.absolute(meta.path);
    const read = this.texts.read(abs);
    if (!read.ok) return null;
    const blocks = this.blocksOf(doc);
    const context = `${meta.title}\n${noteName(meta.path)}`;
    const positions = this.texts.positionsOf(abs, read.text, (text) => (budget.derivations-- > 0 ? notePositions(text, this.tokenize, context) : undefined));
    return { text: read.text, blocks, context, positions };
  }

  /**
   * The semantic lane: nearest notes by cosine, inside the filters, at or above the similarity
   * floor. A semantic-only search lists as deep as its limit asks; fused, each lane gives 50.
   */
  private semanticLane(request: SearchRequest, depth: number, filter: CompiledFilter): VectorHit[] {
    const floor = request.minSimilarity ?? (request.mode === 'semantic' ? request.minScore : undefined);
    const hits = this.vectors.nearest(request.queryVector!, depth, (doc) => !filter.active || filter.test(this.metas[doc]!) === null, request.scope ?? 'all');
    return floor === undefined ? hits : hits.filter((hit) => hit.score >= floor);
  }

  /** Why the semantic lane cannot run for this request, or null when it can. */
  semanticUnavailable(request: SearchRequest): string | null {
    const model = this.options.model ?? DEFAULT_MODEL;
    // Not just "run engram index": without the model that would fail the same way, so name how to get it.
    if (this.vectors.size === 0)
      return `no note has a ${model} vector yet; \`engram index\` embeds the vault once the model is installed (\`engram model status\` checks it; \`engram model pull\` or \`engram model install PATH\` installs it)`;
    if (!request.queryVector) return request.vectorUnavailable ?? `no query vector (the ${model} model was not loaded)`;
    if (request.queryVector.length !== this.vectors.dims) return `the query vector has ${request.queryVector.length} dimensions, the note vectors ${this.vectors.dims}: they come from different models`;
    return null;
  }

  private describeVectors(): string {
    const covered = this.vectors.coveredDocuments().size;
    return `${this.vectors.size} vectors of ${this.options.model ?? DEFAULT_MODEL} cover ${covered} of ${this.metas.length} notes`;
  }

  private get fusion(): FusionOptions {
    return this.options.fusion ?? FUSION_DEFAULTS;
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

  /**
   * A note's blocks, remembered for the life of this engine (which is rebuilt when the index
   * changes, so they stay those of the loaded index): the same notes answer many searches, and
   * reading their rows was a tenth of a busy server's time. Bounded by dropping all at a cap.
   */
  private blocksOf(doc: number): StoredBlock[] {
    let blocks = this.blocks.get(doc);
    if (blocks === undefined) {
      // A heading path is parsed only for the block that becomes the evidence (notes have dozens).
      blocks = (this.blockQuery.all(this.noteIds[doc]) as [string, string, number, number, number, number][]).map((row) => new StoredBlock(row));
      if (this.blocks.size >= BLOCK_CACHE_NOTES) this.blocks.clear();
      this.blocks.set(doc, blocks);
    }
    return blocks;
  }

  /** A result with its evidence, found where `anchor` says (see `EvidenceAnchor`). */
  private hit(doc: number, score: number, lanes: SearchHit['lanes'], anchor: EvidenceAnchor): SearchHit {
    const meta = this.metas[doc]!;
    const passage = anchor.kind === 'keyword' ? anchor.passage : null;
    const read = passage ? ({ ok: true, text: passage.text } as const) : this.texts.read(this.absolute(meta.path));
    const blocks = this.blocksOf(doc);
    const evidence = !read.ok ? { excerpt: '', section: '', lines: null } : this.evidenceOf(read.text, blocks, anchor);
    return {
      path: meta.path,
      title: meta.title,
      score: round(score),
      excerpt: evidence.excerpt,
      section: evidence.section,
      lines: evidence.lines,
      ...(evidence.passage ? { passage_lines: evidence.passage } : {}),
      tags: meta.tags,
      modified: new Date(meta.mtimeMs).toISOString(),
      lanes,
    };
  }

  private evidenceOf(text: string, blocks: readonly StoredBlock[], anchor: EvidenceAnchor): Evidence {
    switch (anchor.kind) {
      case 'line':
        return lineEvidence(text, blocks, anchor.line);
      case 'task': {
        // Read as the index reads tasks (never in code), from the note as it is now.
        const task = parseNote(anchor.path, text).tasks.find(({ status }) => status === ' ' || status === '/');
        return task ? lineEvidence(text, blocks, task.line) : findEvidence(text, blocks, anchor.terms, (term) => this.index.idf(term), this.tokenize);
      }
      case 'block': {
        const block = blocks.find((candidate) => candidate.key === anchor.key);
        return block ? lineEvidence(text, blocks, firstTextLine(text, block)) : findEvidence(text, blocks, anchor.terms, (term) => this.index.idf(term), this.tokenize);
      }
      case 'keyword':
        return anchor.passage ? passageEvidence(text, anchor.passage.score, blocks) : findEvidence(text, blocks, anchor.terms, (term) => this.index.idf(term), this.tokenize);
    }
  }

  /** Reads the notes inside the filter and ranks those containing the query text. */
  private scopeLane(limit: number, filter: CompiledFilter): { hits: SearchHit[]; total: number } {
    const docs: number[] = [];
    this.metas.forEach((meta, doc) => {
      if (filter.test(meta) === null) docs.push(doc);
    });
    docs.sort((a, b) => this.metas[b]!.mtimeMs - this.metas[a]!.mtimeMs || (this.metas[a]!.path < this.metas[b]!.path ? -1 : 1));
    const hits = docs.slice(0, limit).map((doc, i) => this.hit(doc, 0, { scope: { rank: i + 1, score: 0 } }, { kind: 'keyword', terms: [], passage: null }));
    return { hits, total: docs.length };
  }

  private substringLane(query: string, limit: number, filter: ReturnType<typeof compileFilter>): SearchHit[] {
    const metas = this.metas;
    const prefix = this.rootPrefix;
    function* candidates(): Generator<SubstringCandidate> {
      for (let doc = 0; doc < metas.length; doc++) {
        if (filter.active && filter.test(metas[doc]!) !== null) continue;
        const read = readNoteText(prefix + metas[doc]!.path);
        if (read.ok) yield { doc, title: metas[doc]!.title, text: read.text };
      }
    }
    return rankSubstring(query, candidates(), limit).map((hit, i) => this.hit(hit.doc, hit.score, { substring: { rank: i + 1, score: round(hit.score) } }, { kind: 'line', line: Math.max(hit.line, 1) }));
  }
}

export const DEFAULT_MODEL = 'TaylorAI/bge-micro-v2';

/**
 * The configured model's vectors whose note is unchanged since they were made, copied straight
 * from SQLite into one preallocated Float32Array (no object per vector). Row order does not
 * matter: the cosine lane breaks ties by document.
 */
function loadVectors(db: Database.Database, model: string, ids: Int32Array): VectorIndex {
  const docOf = new Map<number, number>();
  ids.forEach((id, doc) => docOf.set(id, doc));
  const hashOf = new Map(db.prepare('SELECT id, hash FROM notes').raw().all() as [number, string][]);
  // Empty vectors mark notes with nothing to embed; they are not vectors.
  const first = db.prepare('SELECT length(vector) FROM vectors WHERE model = ? AND length(vector) > 0 LIMIT 1').pluck().get(model) as number | undefined;
  if (first === undefined) return VectorIndex.fromEntries(0, [], ids.length);
  const dims = first / 4;
  const capacity = db.prepare('SELECT count(*) FROM vectors WHERE model = ?').pluck().get(model) as number;
  const columns = VectorIndex.allocate(dims, capacity);
  const bytes = new Uint8Array(columns.data.buffer, columns.data.byteOffset, columns.data.byteLength);
  let rows = 0;
  // One pass over the table; staleness (note hash changed since) is checked here, not by a join.
  const iterate = db.prepare('SELECT note_id, block_key, source, content_hash, vector FROM vectors WHERE model = ?').raw().iterate(model) as IterableIterator<[number, string, VectorSource, string, Buffer]>;
  for (const [noteId, blockKey, source, contentHash, blob] of iterate) {
    const doc = docOf.get(noteId);
    // A vector of another width (another model's space) never mixes in.
    if (doc === undefined || blob.byteLength !== dims * 4 || hashOf.get(noteId) !== contentHash) continue;
    bytes.set(blob, rows * dims * 4);
    columns.owners[rows] = doc;
    columns.blockKeys[rows] = blockKey;
    columns.sources[rows] = source;
    rows++;
  }
  return new VectorIndex(dims, columns, rows, ids.length);
}

/** The block's first non-blank line below its heading (a blank line often follows one), else its first line. */
function firstTextLine(text: string, block: EvidenceBlock): number {
  const lines = text.split('\n');
  for (let line = block.level > 0 ? block.start + 1 : block.start; line <= Math.min(block.bodyEnd, lines.length); line++) {
    if ((lines[line - 1] ?? '').trim() !== '') return line;
  }
  return block.start;
}

/**
 * The text `include_text` attaches to a hit: the matched block's own lines for a block-level
 * semantic hit, else the start of the note; at most `max` characters (cut with "…").
 */
export function matchedText(noteText: string, hit: Pick<SearchHit, 'lines' | 'lanes'>, max: number): string {
  const text =
    hit.lanes.semantic?.block && hit.lines
      ? noteText
          .split('\n')
          .slice(hit.lines[0] - 1, hit.lines[1])
          .join('\n')
      : noteText;
  return text.length > max ? `${text.slice(0, max)}…` : text;
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

/** A block row as evidence; its heading path (JSON) is parsed only if it is asked for. */
class StoredBlock implements EvidenceBlock {
  readonly key: string;
  readonly level: number;
  readonly start: number;
  readonly bodyEnd: number;
  readonly linkList: boolean;
  private readonly headingJson: string;
  private parsed: string[] | null = null;

  constructor(row: readonly [string, string, number, number, number, number]) {
    [this.key, this.headingJson, this.level, this.start, this.bodyEnd] = row;
    this.linkList = row[5] === 1;
  }

  get headingPath(): string[] {
    return (this.parsed ??= JSON.parse(this.headingJson) as string[]);
  }
}

/** The best match the filters hid, when it outranks everything returned: `scoped_out`. */
function scopedOutOf(keyword: RankOutcome, metas: readonly NoteMeta[]): SearchResponse['scoped_out'] | null {
  const best = keyword.hidden.best;
  const top = keyword.hits[0];
  if (!best || (top && best.score <= top.score)) return null;
  const path = metas[best.doc]!.path;
  return {
    count: keyword.hidden.count,
    best: { path, score: round(best.score) },
    better_match_outside_folder: best.reason === 'folder' || best.reason === 'excluded_folder',
    hint: `${keyword.hidden.count} matching note${keyword.hidden.count === 1 ? ' is' : 's are'} outside the filters; the best, ${path}, outranks everything returned — widen or drop the ${best.reason.replace('_', ' ')} filter to see it`,
  };
}
