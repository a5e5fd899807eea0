import { MAX_ALTERNATIVES, searchVault, type SearchHit, type SearchMode, type SearchResponse } from '../search/index.js';
import { UsageError } from '../errors.js';
import { numberValue, refuseEmptyValue, shownArg, type Command } from './command.js';
import { embedQuery } from '../embed/index.js';
import { openSession } from './context.js';
import { FILTER_OPTIONS, filtersFrom, integerOption, TODAY_OPTION, todayOption } from './filter-options.js';

export const searchCommand: Command = {
  name: 'search',
  summary: 'Search the vault. Brings the index up to date first, then ranks notes by BM25L over title, aliases, headings, tags and body.',
  positionals: 'QUERY',
  maxPositionals: 1,
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: 'how many results, 1–100 (default 10)' },
    ...FILTER_OPTIONS,
    mode: { type: 'string', value: 'MODE', description: 'hybrid, keyword or semantic (default hybrid; without vectors it answers by keyword and says so)' },
    'min-score': { type: 'string', value: 'X', description: 'drop keyword hits scoring below X (in --mode semantic: hits below cosine X)' },
    'min-similarity': { type: 'string', value: 'X', description: 'drop semantic hits below cosine similarity X (0–1), in any mode' },
    also: { type: 'string', multiple: true, value: 'WORDING', description: `another wording of the same need, fused with the query (up to ${MAX_ALTERNATIVES})` },
    explain: { type: 'boolean', description: 'show how each score was made' },
    today: TODAY_OPTION,
    'no-refresh': { type: 'boolean', description: 'search the index as it is, without bringing it up to date first' },
  },
  async run(args, { env, io }) {
    const query = args.positionals[0];
    // A blank query finds nothing, filters or not: listing notes by folder, tag or date is `engram ls`, or operators (`tag:travel`).
    if (query === undefined || query.trim() === '') throw new UsageError('no query given: engram search "what you are looking for" (to list notes by folder, tag or date: engram ls)');
    const values = args.values;
    const alternatives = (values.also as string[] | undefined) ?? [];
    // Checked here too, so that too many is bad usage (exit 2); the pipeline's own check answers the MCP tools.
    if (alternatives.length > MAX_ALTERNATIVES) throw new UsageError(`--also at most ${MAX_ALTERNATIVES} times, not ${alternatives.length}: keep the two or three wordings most unlike the query`);
    refuseEmptyValue('also', alternatives, { noun: 'wording', example: '"weekly sync notes"' });
    const limit = values.limit === undefined ? 10 : integerOption('--limit', values.limit as string, 1, 100);
    const mode = ((values.mode as string | undefined) ?? 'hybrid') as SearchMode;
    if (!['hybrid', 'keyword', 'semantic'].includes(mode)) throw new UsageError(`--mode must be hybrid, keyword or semantic, not ${shownArg(mode)}`);

    const filters = filtersFrom(values);
    const today = todayOption(values.today as string | undefined);
    const minScore = numberValue(values['min-score']);
    if (minScore !== undefined && !Number.isFinite(minScore)) throw new UsageError(`--min-score must be a number, not ${shownArg(String(values['min-score']))}`);
    const minSimilarity = numberValue(values['min-similarity']);
    if (minSimilarity !== undefined && !(minSimilarity >= -1 && minSimilarity <= 1)) throw new UsageError(`--min-similarity must be a cosine similarity from -1 to 1, not ${shownArg(String(values['min-similarity']))}`);

    const session = openSession(values.vault as string | undefined, env);
    try {
      const notices: string[] = [];
      if (!values['no-refresh']) {
        const refreshed = await session.refreshIndex();
        if (refreshed.status === 'locked') notices.push('another index run is in progress; searched the index as it is');
      }
      const response = await searchVault(
        session.search(),
        {
          query,
          limit,
          filters,
          mode,
          explain: values.explain === true,
          alternatives,
          ...today,
          ...(minScore === undefined ? {} : { minScore }),
          ...(minSimilarity === undefined ? {} : { minSimilarity }),
        },
        (text) => embedQuery(text, env, io),
      );
      response.notices.unshift(...notices);
      io.out(values.json ? JSON.stringify(response, null, 2) : describeResponse(response, { explain: values.explain === true }));
      return 0;
    } finally {
      session.close();
    }
  },
};

export function describeResponse(response: SearchResponse, { explain = false }: { explain?: boolean } = {}): string {
  const lines: string[] = [];
  for (const notice of response.notices) lines.push(`note: ${notice}`);
  if (explain && response.analysis) {
    const { terms, ignored, language, corrected, written } = response.analysis;
    // A stem with the word it came from: `melani (Melanie)`, `whi (which)`.
    const shown = (tokens: readonly string[]): string => tokens.map((token) => (Object.hasOwn(written, token) ? `${token} (${written[token]})` : token)).join(' ');
    lines.push(
      `query terms: ${shown(terms) || '(none the index knows)'}${ignored.length ? `; left out (the asker's words: question, request and function words, pronouns, dates read as days, asks for the newest${language === null ? '' : `; language ${language}`}): ${shown(ignored)}` : ''}${corrected.length ? `; spelling: ${corrected.map(({ from, to, spelled }) => `${from} → ${to}${spelled === undefined ? '' : ` ("${spelled}")`}`).join(', ')}` : ''}`,
    );
  }
  if (response.results.length === 0) lines.push(`no results for "${response.query}" (${response.mode})`);
  response.results.forEach((hit, i) => {
    const lane =
      Object.keys(hit.lanes)
        .filter((name) => name !== 'name' && name !== 'wordings')
        .join('+') + (hit.lanes.wordings ? `; found by ${hit.lanes.wordings.map(({ wording }) => (wording === 0 ? 'the query' : `--also ${wording}`)).join(', ')}` : '');
    lines.push(`${i + 1}. ${hit.path}${hit.title && !hit.path.endsWith(`${hit.title}.md`) ? ` — ${hit.title}` : ''}  (${hit.score}, ${lane})`);
    const where = [hit.section ? `§ ${hit.section}` : '', hit.lines ? `lines ${hit.lines[0]}–${hit.lines[1]}` : ''].filter(Boolean).join(', ');
    if (where) lines.push(`   ${where}`);
    if (hit.excerpt) lines.push(`   ${hit.excerpt}`);
    if (explain && hit.lanes.fuzzy) {
      const { name, read_as: readAs, score } = hit.lanes.fuzzy;
      lines.push(`     ~ fuzzy: the name "${name}", reading ${readAs.map(({ token, as }) => `${token} as ${as}`).join(', ')} → ${score}`);
    }
    if (explain && hit.explain) {
      for (const part of hit.explain) lines.push(`     ${part.term}: tf ${part.tf} df ${part.df} idf ${part.idf} → ${part.score}`);
      for (const boost of hit.boosts ?? []) lines.push(`     + ${boostLine(boost)}`);
    }
  });
  if (response.scoped_out) lines.push(`note: ${response.scoped_out.hint}`);
  lines.push(`mode: ${response.mode} (${response.mode_reason}); ${response.total_matches} matching note${response.total_matches === 1 ? '' : 's'}`);
  return lines.join('\n');
}

/** One boost of a result's `--explain`, in words. */
function boostLine(boost: NonNullable<SearchHit['boosts']>[number]): string {
  switch (boost.kind) {
    case 'name':
      return `the query covers the name "${boost.terms.join(' ')}" → ${boost.score}`;
    case 'date':
      return `the note is dated in "${boost.terms.join('')}" → ${boost.score}`;
    case 'newest':
      return `asked for the newest ("${boost.terms.join('')}"): ranked by its date among the best matches → ${boost.score}`;
    case 'open':
      return `asked what is still open ("${boost.terms.join('')}"): the note holds unfinished tasks → ${boost.score}`;
    case 'phrase':
      return `holds the phrase ${boost.terms.map((phrase) => `"${phrase}"`).join(', ')} (ranked before notes that do not)`;
    case 'passage':
      return `best passage "${boost.terms.join('') || '(top of the note)'}" → ${boost.score} (proximity ${boost.proximity})`;
  }
}
