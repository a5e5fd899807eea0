/**
 * Map: redraw the vault map and the entity graph when enough changed since the last map (or
 * there is none yet). The plan costs one scan of the notes' hashes and three counts on the graph,
 * so a sweep with nothing new skips it cheaply; the act is `engram map`'s own code, under the
 * sweep's run id (undone with the sweep).
 */
import { mapChanges, runMap, MAP_DEFAULTS } from '../../map/index.js';
import { reindex, type Phase, type Plan } from './phase.js';

export interface MapPlan extends Plan {
  reason: string;
}

export const mapPhase: Phase<MapPlan> = {
  name: 'map',
  plan(ctx) {
    const changes = mapChanges(ctx.db, ctx.session.stateDir, ctx.agentRoot);
    const threshold = Math.max(MAP_DEFAULTS.sweepMinChanged, Math.ceil(MAP_DEFAULTS.sweepShare * changes.notes));
    const counts = { notes: changes.notes, changed: changes.changed };
    if (changes.first) return { summary: `no map yet: draw ${changes.notes} notes`, counts, estimatedCostUsd: 0, reason: 'first' };
    if (changes.changed >= threshold) return { summary: `${changes.changed} notes changed since the last map: redraw it`, counts, estimatedCostUsd: 0, reason: 'notes' };
    if (changes.graphChanged) return { summary: 'the knowledge graph changed since the last map: redraw it', counts, estimatedCostUsd: 0, reason: 'graph' };
    return { summary: '', counts, estimatedCostUsd: 0, skip: `${changes.changed} notes changed since the last map; the sweep redraws it from ${threshold}` };
  },
  async act(_plan, ctx) {
    const report = runMap({ db: ctx.db, stateDir: ctx.session.stateDir, root: ctx.root, agentRoot: ctx.agentRoot, writer: ctx.options.writer, model: ctx.model });
    reindex(ctx, report.touched);
    const kept = [report.vaultMap, report.entityGraph].flatMap((canvas) => (canvas?.keptEdited ? [` (${canvas.keptEdited} was edited by hand: the new map is ${canvas.path})`] : []));
    return {
      summary: `${report.notes} notes mapped (${report.mode}) into ${report.vaultMap.path}${report.entityGraph ? ` and ${report.entityGraph.path}` : ''}${kept.join('')}`,
      counts: { notes: report.notes, placed: report.placed, drawn: report.drawn },
      costUsd: 0,
    };
  },
};
