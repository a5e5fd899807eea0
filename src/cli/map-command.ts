import { UsageError } from '../errors.js';
import { runMap, type MapReport } from '../map/index.js';
import { numberValue, shownArg, type Command } from './command.js';
import { openSession } from './context.js';

export const mapCommand: Command = {
  name: 'map',
  summary:
    'Draw the vault as JSON Canvas files Obsidian opens: Maps/Vault map.canvas in the agent folder lays the notes out by UMAP over their vectors (without vectors, by their links and tags), grouped by cluster, with edges for stated relations; Maps/Entity graph.canvas shows the knowledge graph. Incremental when few notes changed; a canvas you edited is kept and the new one written beside it.',
  options: {
    full: { type: 'boolean', description: 'lay every note out again instead of reusing the cached layout' },
    seed: { type: 'string', value: 'N', description: 'the layout seed, a whole number (default 42): the same vault and seed give the same map' },
  },
  async run(args, { env, io }) {
    const seed = numberValue(args.values.seed);
    if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)) throw new UsageError(`--seed must be a whole number from 0 to 4294967295, not ${shownArg(String(args.values.seed))}`);
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      const report = await session.exclusive('a vault map', () => {
        session.indexNow();
        // Milliseconds: two maps in one second are two runs, each undone on its own.
        const runId = `map-${new Date().toISOString().slice(0, 23)}`;
        const result = runMap({
          db: session.db,
          stateDir: session.stateDir,
          root: session.vault,
          agentRoot: env.agentRoot,
          writer: session.writer(runId),
          model: env.model,
          full: args.values.full === true,
          ...(seed === undefined ? {} : { seed }),
        });
        if (result.touched.length > 0) session.indexWritten(result.touched);
        return { ...result, runId };
      });
      io.out(args.values.json ? JSON.stringify(report, null, 2) : describeMap(report));
      return 0;
    } finally {
      session.close();
    }
  },
};

export function describeMap(report: MapReport & { runId: string }): string {
  const how = { full: 'a new layout', incremental: `the cached layout, ${report.placed} changed notes placed into it`, cached: 'the cached layout (nothing changed)' }[report.mode];
  const lines = [
    `${report.notes} notes laid out from ${report.source === 'vectors' ? 'their vectors' : 'links and tags (no vectors)'} by ${how}; ${report.drawn} drawn${report.unplaced > 0 ? `, ${report.unplaced} related to nothing set apart` : ''}`,
  ];
  for (const canvas of [report.vaultMap, report.entityGraph]) {
    if (!canvas) continue;
    const kept = canvas.keptEdited ? ` — ${canvas.keptEdited} was edited by hand and is kept as it is; the new map is beside it` : '';
    lines.push(`${canvas.outcome === 'written' ? 'wrote' : 'unchanged:'} ${canvas.path}${kept}`);
  }
  lines.push(...report.notices);
  if (report.touched.length > 0) lines.push(`undo with: engram undo ${report.runId}`);
  return lines.join('\n');
}
