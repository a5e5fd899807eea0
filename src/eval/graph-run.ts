/**
 * Runs an extractor over the gold notes and scores it: the table `engram eval --graph` prints,
 * with what it cost and how long it took. An environment failure (not logged in, a bad key)
 * stops the run at once, as it does extraction; a note's own failure scores that note as empty.
 */
import { failureKind, ENTITY_TYPES, ExtractorError, type ExtractionInput, type Extractor } from '../graph/index.js';
import { countNote, scoreGraph, type GoldNote, type GraphScore, type NoteCounts, type Prf } from './graph.js';

export interface GraphEvalReport {
  extractor: string;
  model: string;
  notes: number;
  failed: { path: string; error: string }[];
  score: GraphScore;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  /** Set when the extractor's environment failed: what is wrong and what to do. Nothing is scored then. */
  stopped?: string;
}

export const GRAPH_EVAL_DEFAULTS = {
  /** Notes extracted at once by the LLM extractors (the local one runs one at a time). */
  concurrency: 4,
} as const;

export async function runGraphEval(
  notes: readonly { gold: GoldNote; input: ExtractionInput }[],
  extractor: Extractor,
  options: { concurrency?: number; now?: () => number; onSend?: (input: ExtractionInput) => void } = {},
): Promise<GraphEvalReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const counts: NoteCounts[] = [];
  const report: GraphEvalReport = { extractor: extractor.backend, model: extractor.model, notes: notes.length, failed: [], score: scoreGraph([]), costUsd: 0, inputTokens: 0, outputTokens: 0, durationMs: 0 };
  let next = 0;
  const worker = async (limit: number) => {
    while (report.stopped === undefined && next < notes.length && counts.length < limit) {
      const { gold, input } = notes[next++]!;
      try {
        options.onSend?.(input);
        const extraction = await extractor.extract(input);
        report.costUsd += extraction.usage.costUsd;
        report.inputTokens += extraction.usage.inputTokens;
        report.outputTokens += extraction.usage.outputTokens;
        counts.push(countNote(gold, extraction));
      } catch (error) {
        const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        if (failureKind(error) === 'environment') report.stopped ??= error instanceof ExtractorError && error.remedy !== undefined ? error.remedy : message;
        else {
          report.failed.push({ path: gold.path, error: message });
          counts.push(countNote(gold, { entities: [], relations: [] }));
        }
      }
    }
  };
  // As in extraction: the first note alone, so a logged-out CLI costs one call.
  await worker(1);
  const concurrency = extractor.backend === 'structural' ? 1 : (options.concurrency ?? GRAPH_EVAL_DEFAULTS.concurrency);
  await Promise.all(Array.from({ length: concurrency }, () => worker(Infinity)));
  report.score = scoreGraph(counts);
  report.durationMs = Math.round(now() - started);
  return report;
}

/** The table: P, R, F1 with the counts behind them; then cost, tokens and time. */
export function describeGraphEval(report: GraphEvalReport): string {
  const head = `graph eval: ${report.notes} notes, extractor ${report.extractor}${report.model !== report.extractor ? ` (${report.model})` : ''}${report.failed.length > 0 ? `; ${report.failed.length} notes failed (scored empty)` : ''}`;
  if (report.stopped !== undefined) return `${head}\nstopped: ${report.stopped}`;
  const row = (label: string, value: Prf) =>
    `${label.padEnd(26)}${String(value.gold).padStart(6)}${String(value.predicted).padStart(11)}${String(value.matched).padStart(9)}${fixed(value.precision, value.predicted)}${fixed(value.recall, value.gold)}${fixed(value.f1, value.gold + value.predicted)}`;
  const { score } = report;
  const perNote = report.notes === 0 ? 0 : report.durationMs / report.notes;
  return [
    head,
    `${''.padEnd(26)}${'gold'.padStart(6)}${'predicted'.padStart(11)}${'matched'.padStart(9)}${'P'.padStart(8)}${'R'.padStart(8)}${'F1'.padStart(8)}`,
    row('entities (name + type)', score.entities),
    ...ENTITY_TYPES.map((type) => row(`  ${type}`, score.byType[type])),
    row('entities (name only)', score.names),
    row('relations (label + dir.)', score.relations),
    row('relations (ends only)', score.relationsAnyLabel),
    `cost $${report.costUsd.toFixed(4)} · tokens ${report.inputTokens} in, ${report.outputTokens} out · ${(report.durationMs / 1000).toFixed(1)} s (${Math.round(perNote)} ms a note)`,
    ...report.failed.slice(0, 5).map((failure) => `failed: ${failure.path}: ${failure.error}`),
  ].join('\n');
}

function fixed(value: number, denominator: number): string {
  return (denominator === 0 ? '—' : value.toFixed(3)).padStart(8);
}
