import { join } from 'node:path';
import { EngramError, UsageError } from '../errors.js';
import { blockEmbedInput, openConfiguredEmbedder, readSmartConnections, sourceEmbedInput, type LogSink } from '../embed/index.js';
import { readNoteFile } from '../vault/index.js';
import { numberValue, shownArg, type Command } from './command.js';
import { openSession, type CliEnv } from './context.js';

/** Below this median cosine the two vector spaces disagree: Smart Connections' vectors and ours are not comparable. */
const AGREEMENT_FLOOR = 0.95;

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'Check that local vectors share the Smart Connections vector space: re-embed a sample of its fresh items and compare.',
  options: {
    sample: { type: 'string', value: 'N', description: 'how many fresh Smart Connections items to re-embed (default 20)' },
    seed: { type: 'string', value: 'N', description: 'sample seed, for a repeatable sample (default 1)' },
  },
  async run(args, { env, io }) {
    const sample = numberValue(args.values.sample) ?? 20;
    const seed = numberValue(args.values.seed) ?? 1;
    if (!Number.isInteger(sample) || sample < 1 || sample > 10_000) throw new UsageError(`--sample must be a whole number from 1 to 10000, not ${shownArg(String(args.values.sample))}`);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, not ${shownArg(String(args.values.seed))}`);
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      const result = await checkAgreement(session.vault, env, io, sample, seed);
      if (result === null) throw new EngramError('NOT_FOUND', `no Smart Connections data in ${session.vault}/.smart-env; there is nothing to verify against`);
      const worstItem = result.worst_item;
      io.out(
        args.values.json
          ? JSON.stringify(result, null, 2)
          : [
              `re-embedded ${result.sampled} of ${result.fresh_available} fresh Smart Connections items with ${env.model}`,
              `cosine median ${result.median}, worst ${result.worst} (${worstItem.path}${worstItem.key})`,
              result.agrees ? 'the vector spaces agree' : `the vector spaces DISAGREE (median below ${AGREEMENT_FLOOR}): check that ENGRAM_EMBED_MODEL is the plugin's model`,
            ].join('\n'),
      );
      return result.agrees ? 0 : 1;
    } finally {
      session.close();
    }
  },
};

export interface Agreement {
  model: string;
  sampled: number;
  fresh_available: number;
  median: number;
  worst: number;
  worst_item: { path: string; key: string; cosine: number };
  floor: number;
  agrees: boolean;
}

/**
 * Re-embeds a sample of the vault's fresh Smart Connections items with the configured model and
 * compares: the check behind `engram verify` and `engram model status`. Null when the vault has
 * no Smart Connections data; throws when it has no fresh vectors or the model cannot load.
 */
export async function checkAgreement(vault: string, env: CliEnv, io: LogSink, sample: number, seed: number): Promise<Agreement | null> {
  const smart = readSmartConnections(vault, env);
  if (!smart.report.detected) return null;
  const fresh = smart.vectors.filter((vector) => vector.fresh);
  if (fresh.length === 0) throw new EngramError('NOT_FOUND', `Smart Connections has no fresh ${env.model} vectors in this vault${smart.report.modelMatches ? '' : ` (it now embeds with ${smart.report.activeModel ?? 'another model'})`}`);
  const chosen = pick(fresh, sample, seed);
  const inputs = chosen.map((item) => {
    const read = readNoteFile(join(vault, item.path));
    if (!read.ok) return '';
    if (item.kind === 'source' || !item.lines) return sourceEmbedInput(item.path, read.text);
    const text = read.text
      .split('\n')
      .slice(item.lines[0] - 1, item.lines[1])
      .join('\n');
    return blockEmbedInput(item.path, item.key, text);
  });
  const embedder = await openConfiguredEmbedder(env, io);
  if ('reason' in embedder) throw new EngramError('EMBEDDER_FAILED', `cannot verify: ${embedder.reason}`);
  let local: Float32Array[];
  try {
    local = await embedder.embedder.embed(inputs);
  } finally {
    await embedder.embedder.close();
  }
  const cosines = chosen.map((item, i) => ({ path: item.path, key: item.key, cosine: cosine(item.vector, local[i]!) }));
  const sorted = cosines.map((entry) => entry.cosine).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const worst = sorted[0]!;
  const worstItem = cosines.find((entry) => entry.cosine === worst)!;
  return { model: env.model, sampled: chosen.length, fresh_available: fresh.length, median: round(median), worst: round(worst), worst_item: worstItem, floor: AGREEMENT_FLOOR, agrees: median >= AGREEMENT_FLOOR };
}

function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A repeatable sample without replacement (a seeded partial Fisher–Yates). */
function pick<T>(items: readonly T[], count: number, seed: number): T[] {
  const copy = [...items];
  let state = seed >>> 0 || 1;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(next() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
