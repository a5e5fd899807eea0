/**
 * The vault map as a JSON Canvas: each note a file node where its layout put it, snapped onto a
 * grid so no two overlap (UMAP packs neighbours tightly; Obsidian draws each file node as a card),
 * a group per cluster of the layout named by the folders its notes live in, notes nothing relates
 * in a group of their own, and edges for the strongest stated relations (bounded). Pure.
 */
import { createHash } from 'node:crypto';
import type { Canvas, CanvasEdge, FileNode, GroupNode, Side } from './canvas.js';

export const CANVAS_DEFAULTS = {
  nodeWidth: 260,
  nodeHeight: 60,
  gapX: 40,
  gapY: 30,
  /** Grid cells per note: room between clusters so the map keeps UMAP's shape. */
  spread: 2.5,
  /** Edges drawn at most, and per note: a map with every link is a hairball. */
  maxEdges: 2000,
  edgesPerNote: 3,
  /** Clusters (groups) at most. */
  maxClusters: 24,
  groupPadding: 40,
} as const;

export interface MapNote {
  path: string;
  /** The layout's position, or null when nothing places the note (no vector and no relation). */
  point: readonly [number, number] | null;
}

export interface MapLink {
  from: string;
  to: string;
  kind: string;
}

/** A short stable id from text: the same note keeps its node id from one map to the next. */
export function stableId(prefix: string, text: string): string {
  return `${prefix}${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
}

export function vaultCanvas(notes: readonly MapNote[], links: readonly MapLink[]): Canvas {
  const { nodeWidth: w, nodeHeight: h, gapX, gapY } = CANVAS_DEFAULTS;
  const placedNotes = notes.filter((note) => note.point !== null);
  const cells = snapToGrid(placedNotes.map((note) => note.point!));
  const fileNodes = new Map<string, FileNode>();
  placedNotes.forEach((note, i) => {
    const [cx, cy] = cells[i]!;
    fileNodes.set(note.path, { id: stableId('n', note.path), type: 'file', file: note.path, x: cx * (w + gapX), y: cy * (h + gapY), width: w, height: h });
  });
  const groups = clusterGroups(placedNotes, cells);
  const loose = notes.filter((note) => note.point === null);
  if (loose.length > 0) groups.push(looseGroup(loose, cells, fileNodes));
  const edges = strongEdges(links, fileNodes);
  return { nodes: [...groups, ...fileNodes.values()], edges };
}

/**
 * Grid cells for points: the layout scaled so the grid holds `spread` cells per note, then each
 * point (in input order) takes the nearest free cell, searched in growing rings.
 */
export function snapToGrid(points: readonly (readonly [number, number])[]): [number, number][] {
  if (points.length === 0) return [];
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
  const side = Math.ceil(Math.sqrt(points.length * CANVAS_DEFAULTS.spread));
  const span = Math.max(maxX - minX, maxY - minY, 1e-9);
  // Cells are wider than tall; stretch y so the map's shape survives the card proportions.
  const aspect = (CANVAS_DEFAULTS.nodeWidth + CANVAS_DEFAULTS.gapX) / (CANVAS_DEFAULTS.nodeHeight + CANVAS_DEFAULTS.gapY);
  const taken = new Set<string>();
  return points.map(([x, y]) => {
    const gx = Math.round(((x - minX) / span) * side);
    const gy = Math.round(((y - minY) / span) * side * aspect);
    for (let ring = 0; ; ring++) {
      for (let dx = -ring; dx <= ring; dx++) {
        for (const dy of ring === 0 ? [0] : Math.abs(dx) === ring ? range(-ring, ring) : [-ring, ring]) {
          const key = `${gx + dx},${gy + dy}`;
          if (!taken.has(key)) {
            taken.add(key);
            return [gx + dx, gy + dy];
          }
        }
      }
    }
  });
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** k-means over the grid cells (deterministic: evenly spaced starting centres), one group per non-empty cluster. */
function clusterGroups(notes: readonly MapNote[], cells: readonly [number, number][]): GroupNode[] {
  if (notes.length === 0) return [];
  const k = Math.max(1, Math.min(CANVAS_DEFAULTS.maxClusters, Math.round(Math.sqrt(notes.length / 8))));
  let centres = Array.from({ length: k }, (_, i) => cells[Math.floor((i * cells.length) / k)]!.slice() as [number, number]);
  const member = new Int32Array(cells.length);
  for (let iteration = 0; iteration < 20; iteration++) {
    cells.forEach(([x, y], i) => {
      let best = 0;
      let bestDistance = Infinity;
      centres.forEach(([cx, cy], c) => {
        const distance = (x - cx) ** 2 + (y - cy) ** 2;
        if (distance < bestDistance) [best, bestDistance] = [c, distance];
      });
      member[i] = best;
    });
    const sums = centres.map(() => [0, 0, 0]);
    cells.forEach(([x, y], i) => {
      const sum = sums[member[i]!]!;
      sum[0]! += x;
      sum[1]! += y;
      sum[2]! += 1;
    });
    centres = sums.map((sum, c) => (sum[2]! > 0 ? [sum[0]! / sum[2]!, sum[1]! / sum[2]!] : centres[c]!));
  }
  const groups: GroupNode[] = [];
  for (let c = 0; c < k; c++) {
    const inside = cells.flatMap((cell, i) => (member[i] === c ? [{ cell, path: notes[i]!.path }] : []));
    if (inside.length === 0) continue;
    groups.push(
      groupAround(
        `group-${c + 1}`,
        clusterLabel(inside.map((entry) => entry.path)),
        inside.map((entry) => entry.cell),
        String((c % 6) + 1),
      ),
    );
  }
  return groups;
}

/** A group's label: the top-level folders its notes live in, commonest first (at most three), and its size. */
export function clusterLabel(paths: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const folder = path.includes('/') ? path.slice(0, path.indexOf('/')) : '(vault root)';
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const folders = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = folders.slice(0, 3).map(([folder]) => folder);
  return `${named.join(', ')}${folders.length > 3 ? ', …' : ''} · ${paths.length} note${paths.length === 1 ? '' : 's'}`;
}

function groupAround(id: string, label: string, cells: readonly (readonly [number, number])[], color: string): GroupNode {
  const { nodeWidth: w, nodeHeight: h, gapX, gapY, groupPadding: pad } = CANVAS_DEFAULTS;
  const xs = cells.map(([x]) => x * (w + gapX));
  const ys = cells.map(([, y]) => y * (h + gapY));
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return { id, type: 'group', label, color, x, y, width: Math.max(...xs) + w + pad - x, height: Math.max(...ys) + h + pad - y };
}

/** Notes nothing places: a block of rows below the map, in their own group. */
function looseGroup(loose: readonly MapNote[], cells: readonly [number, number][], fileNodes: Map<string, FileNode>): GroupNode {
  const { nodeWidth: w, nodeHeight: h, gapX, gapY } = CANVAS_DEFAULTS;
  const top = cells.length === 0 ? 0 : Math.max(...cells.map(([, y]) => y)) + 4;
  const left = cells.length === 0 ? 0 : Math.min(...cells.map(([x]) => x));
  const columns = Math.max(1, Math.ceil(Math.sqrt(loose.length * 3)));
  const placed = loose.map((note, i) => {
    const cell: [number, number] = [left + (i % columns), top + Math.floor(i / columns)];
    fileNodes.set(note.path, { id: stableId('n', note.path), type: 'file', file: note.path, x: cell[0] * (w + gapX), y: cell[1] * (h + gapY), width: w, height: h });
    return cell;
  });
  return groupAround('group-unrelated', `Not related to any other note · ${loose.length}`, placed, '#808080');
}

/** Stated relations first (related: entries, then links both ways, then one way), bounded per note and overall. */
function strongEdges(links: readonly MapLink[], nodes: ReadonlyMap<string, FileNode>): CanvasEdge[] {
  const pairs = new Map<string, { from: string; to: string; strength: number }>();
  for (const link of links) {
    if (!nodes.has(link.from) || !nodes.has(link.to) || link.from === link.to) continue;
    const [a, b] = link.from < link.to ? [link.from, link.to] : [link.to, link.from];
    const key = `${a}\n${b}`;
    const strength = link.kind === 'related' ? 3 : 1;
    const seen = pairs.get(key);
    if (seen) seen.strength += strength;
    else pairs.set(key, { from: link.from, to: link.to, strength });
  }
  const ranked = [...pairs.values()].sort((x, y) => y.strength - x.strength || (x.from < y.from ? -1 : x.from > y.from ? 1 : x.to < y.to ? -1 : 1));
  const degree = new Map<string, number>();
  const edges: CanvasEdge[] = [];
  for (const pair of ranked) {
    if (edges.length >= CANVAS_DEFAULTS.maxEdges) break;
    if ((degree.get(pair.from) ?? 0) >= CANVAS_DEFAULTS.edgesPerNote || (degree.get(pair.to) ?? 0) >= CANVAS_DEFAULTS.edgesPerNote) continue;
    degree.set(pair.from, (degree.get(pair.from) ?? 0) + 1);
    degree.set(pair.to, (degree.get(pair.to) ?? 0) + 1);
    const from = nodes.get(pair.from)!;
    const to = nodes.get(pair.to)!;
    edges.push({ id: stableId('e', `${pair.from}\n${pair.to}`), fromNode: from.id, toNode: to.id, ...facingSides(from, to), ...(pair.strength >= 3 ? { label: 'related' } : {}) });
  }
  return edges;
}

/** The sides two cards face each other by: left/right when they are further apart across than down. */
export function facingSides(from: { x: number; y: number }, to: { x: number; y: number }): { fromSide: Side; toSide: Side } {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  if (Math.abs(dx) >= Math.abs(dy) * 2) return dx >= 0 ? { fromSide: 'right', toSide: 'left' } : { fromSide: 'left', toSide: 'right' };
  return dy >= 0 ? { fromSide: 'bottom', toSide: 'top' } : { fromSide: 'top', toSide: 'bottom' };
}
