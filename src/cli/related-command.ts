import { isAbsolute, relative } from 'node:path';
import { EngramError, UsageError } from '../errors.js';
import { relatedLane, RELATED_DEFAULTS, RELATED_SIGNALS, type RelatedLaneOutcome, type RelatedSignal } from '../session/index.js';
import type { VaultSearch } from '../search/index.js';
import { namesNoItem, numberValue, refuseEmptyValue, shownArg, type Command } from './command.js';
import { openSession } from './context.js';
import { refuseEmptyFilters } from './filter-options.js';
import { describeResponse } from './search-command.js';

export const relatedCommand: Command = {
  name: 'related',
  summary:
    'Notes related to a note, with no model needed: its related: entries, links 1–3 hops away, shared tags, its distinctive terms, shared entities and vectors when present, fused; each result says which signals found it and how much each added. --by vectors: nearest by meaning only.',
  positionals: 'PATH',
  maxPositionals: 1,
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: 'how many notes, 1–100 (default 10)' },
    folder: { type: 'string', multiple: true, value: 'PATH', description: 'only notes in this folder (and below)' },
    by: { type: 'string', value: 'MODE', description: 'all: every signal (default); vectors: nearest by vector only, each with the section that matched' },
    weights: { type: 'string', value: 'SIGNAL=W,…', description: `weights per signal, 0 leaves one out (${RELATED_SIGNALS.map((signal) => `${signal}=${RELATED_DEFAULTS.weights[signal]}`).join(',')})` },
  },
  run(args, { env, io }) {
    const given = args.positionals[0];
    if (given === undefined) throw new UsageError('no note given: engram related "Folder/Note.md"');
    const limit = numberValue(args.values.limit) ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError(`--limit must be a whole number from 1 to 100, not ${shownArg(String(args.values.limit))}`);
    const by = (args.values.by as string | undefined) ?? 'all';
    if (by !== 'all' && by !== 'vectors') throw new UsageError(`--by must be all or vectors, not ${shownArg(by)}`);
    const weights = parseWeights(args.values.weights as string | undefined);
    refuseEmptyFilters(args.values, ['folder']);
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      const engine = session.search();
      const path = notePath(session.vault, engine, given);
      const folders = (args.values.folder as string[] | undefined) ?? [];
      if (by === 'all') {
        const lane = relatedLane(session.db, engine, path, { limit, weights, folders })!;
        io.out(args.values.json ? JSON.stringify({ path, related: lane.results, notices: lane.notices }, null, 2) : describeLane(path, lane));
        return 0;
      }
      const hits = engine.related(path, limit, { folders });
      if (hits === null) {
        throw new EngramError('NOT_FOUND', `"${path}" has no ${env.model} vector yet; run \`engram index\` with the model installed (engram status shows why it is missing), or drop --by vectors`);
      }
      const response = { query: path, mode: 'semantic' as const, mode_reason: `nearest notes to ${path} by ${env.model} vectors`, results: hits, total_matches: hits.length, notices: [] };
      io.out(args.values.json ? JSON.stringify(response, null, 2) : describeResponse(response));
      return 0;
    } finally {
      session.close();
    }
  },
};

/** The vault-relative path of an indexed note; an absolute path must lie inside the vault. */
export function notePath(vault: string, engine: VaultSearch, given: string): string {
  const path = isAbsolute(given) ? relative(vault, given).replace(/\\/g, '/') : given.replace(/\\/g, '/').replace(/^\.\//, '');
  if (path.startsWith('..')) throw new UsageError(`${shownArg(given)} is outside the vault ${vault}`);
  const found = engine.metas.find((meta) => meta.path.normalize('NFC') === path.normalize('NFC'));
  if (!found) throw new EngramError('NOT_FOUND', `no indexed note at ${shownArg(path)}; give a vault-relative path such as Projects/Atlas.md (run \`engram index\` if it is new)`);
  return found.path;
}

/** `terms=1,tags=0.5` → weights; anything else, an empty value too, is a usage error naming the signals. */
export function parseWeights(raw: string | undefined): Partial<Record<RelatedSignal, number>> {
  if (raw === undefined) return {};
  refuseEmptyValue('weights', raw, { noun: 'SIGNAL=W pair', example: 'tags=0.5', empty: namesNoItem });
  const weights: Partial<Record<RelatedSignal, number>> = {};
  for (const part of raw.split(',').filter((piece) => piece.trim() !== '')) {
    const [name, value] = part.split('=').map((piece) => piece.trim());
    const weight = Number(value);
    if (!(RELATED_SIGNALS as readonly string[]).includes(name ?? '') || value === undefined || value === '' || !Number.isFinite(weight) || weight < 0 || weight > 10) {
      throw new UsageError(`--weights takes SIGNAL=W pairs with W from 0 to 10 and SIGNAL one of ${RELATED_SIGNALS.join(', ')}; ${shownArg(part)} is not one`);
    }
    weights[name as RelatedSignal] = weight;
  }
  return weights;
}

function describeLane(path: string, lane: RelatedLaneOutcome): string {
  const lines = lane.results.length === 0 ? [`no related notes for ${path}: it has no related: entries, links, tags or distinctive terms shared with another note`] : [];
  lane.results.forEach((result, i) => {
    const added = result.signals.map((signal) => `${signal} +${result.contributions[signal]}`).join(', ');
    lines.push(`${i + 1}. ${result.path}  ${result.score}  (${added})`);
    for (const chain of result.chains) lines.push(`     ${chain}`);
  });
  for (const notice of lane.notices) lines.push(`note: ${notice}`);
  return lines.join('\n');
}
