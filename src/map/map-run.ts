/**
 * `engram map` and the sweep's map phase: lay the notes out (from their vectors, else from the
 * model-free signals), reusing the cached layout when few notes changed, and write the vault map
 * and the entity graph as JSON Canvas files in the agent folder's `Maps/`, through the writer
 * (journaled, undoable with the run). A canvas the human edited since Engram wrote it is never
 * replaced: the new map goes beside it, and the outcome says so.
 */
import type Database from 'better-sqlite3';
import { VectorIndex } from '../search/index.js';
import type { VaultWriter } from '../writes/index.js';
import { entityCanvas, readEntityGraph } from './entity-canvas.js';
import { layoutSignalGraph, layoutVectors, LAYOUT_DEFAULTS, placeNear } from './layout.js';
import { MAP_STATE_VERSION, readMapState, writeMapState, type MapState } from './map-state.js';
import { readSignals, signalGraph, type SignalRows } from './signals.js';
import { writeCanvas, type CanvasWrite } from './write-canvas.js';
import { renderCanvas } from './canvas.js';
import { vaultCanvas } from './vault-canvas.js';
import { onMap, readMapNotes, type MapNoteRow } from './map-notes.js';

export const MAP_DEFAULTS = {
  /** Changed notes (added, edited, removed) up to this share of the map are placed into the cached layout; more → a new layout. */
  incrementalShare: 0.1,
  /** Notes drawn on the canvas at most (the most linked); the layout covers every note. */
  maxDrawn: 10_000,
  /** Largest canvas file written (a 10k-note map is ~2 MB). */
  maxCanvasBytes: 32 * 1024 * 1024,
  /** The sweep redraws the map when at least this many notes changed since the last one (or the share below). */
  sweepMinChanged: 20,
  sweepShare: 0.05,
} as const;

export interface MapOptions {
  db: Database.Database;
  stateDir: string;
  root: string;
  agentRoot: string;
  writer: VaultWriter;
  /** The embedding model whose stored vectors lay the map out. */
  model: string;
  seed?: number;
  /** Lay everything out again even when the cache could be reused. */
  full?: boolean;
}

export interface MapReport {
  notes: number;
  drawn: number;
  /** What the layout came from. */
  source: 'vectors' | 'signals';
  /** full: a new layout; incremental: changed notes placed into the cached one; cached: nothing changed. */
  mode: 'full' | 'incremental' | 'cached';
  /** Notes placed (all of them in a full layout; the changed ones otherwise). */
  placed: number;
  unplaced: number;
  vaultMap: CanvasWrite;
  entityGraph: CanvasWrite | null;
  notices: string[];
  /** Vault paths written (canvases and the audit note), for the caller to index. */
  touched: string[];
}

export function mapPaths(agentRoot: string): { vault: string; entities: string } {
  return { vault: `${agentRoot}/Maps/Vault map.canvas`, entities: `${agentRoot}/Maps/Entity graph.canvas` };
}

export function runMap(options: MapOptions): MapReport {
  const seed = options.seed ?? LAYOUT_DEFAULTS.seed;
  const notes = readMapNotes(options.db, options.agentRoot, options.model);
  const signals = readSignals(options.db);
  const withVectors = notes.filter((note) => note.vector !== null).length;
  // Vectors when most notes have one; the few without are placed by their links and tags.
  const source = withVectors >= 3 && withVectors * 2 >= notes.length ? 'vectors' : 'signals';
  const sourceKey = source === 'vectors' ? `vectors:${options.model}` : 'signals';
  const cached = readMapState(options.stateDir);
  const reusable = !options.full && cached !== null && cached.seed === seed && cached.source === sourceKey ? cached : null;
  const changed = reusable ? changedPaths(notes, reusable) : null;
  const notices: string[] = [];
  let layout: { points: Map<string, [number, number] | null>; placed: number; mode: MapReport['mode'] };
  if (reusable && changed && changed.count <= Math.max(1, Math.floor(MAP_DEFAULTS.incrementalShare * notes.length))) {
    layout = { ...placeChanged(notes, reusable, changed.paths, signals, source), mode: changed.count === 0 ? 'cached' : 'incremental' };
  } else {
    layout = { ...fullLayout(notes, signals, source, seed), mode: 'full' };
  }
  const { drawn, hidden } = chooseDrawn(notes, signals);
  if (hidden > 0) notices.push(`${hidden} of ${notes.length} notes are laid out but not drawn: the canvas holds the ${MAP_DEFAULTS.maxDrawn} most linked, the most Obsidian draws smoothly`);
  if (notes.length === 0) notices.push('the vault has no indexed notes yet: the map is empty (run `engram index`)');
  const canvas = vaultCanvas(
    drawn.map((note) => ({ path: note.path, point: layout.points.get(note.path) ?? null })),
    signals.links,
  );
  const state: MapState = { version: MAP_STATE_VERSION, seed, source: sourceKey, points: {}, written: { ...(cached?.written ?? {}) }, graph: graphFingerprint(options.db) };
  for (const note of notes) {
    const point = layout.points.get(note.path) ?? null;
    state.points[note.path] = [point?.[0] ?? null, point?.[1] ?? null, note.hash];
  }
  const paths = mapPaths(options.agentRoot);
  const vaultMap = writeCanvas(options.db, options.writer, options.root, state.written, paths.vault, renderCanvas(canvas), MAP_DEFAULTS.maxCanvasBytes);
  const entityGraph = writeEntityGraph(options, state, paths.entities, notices);
  writeMapState(options.stateDir, state);
  const unplaced = [...layout.points.values()].filter((point) => point === null).length;
  const touched = [...new Set([...vaultMap.touched, ...(entityGraph?.touched ?? [])])];
  return { notes: notes.length, drawn: drawn.length, source, mode: layout.mode, placed: layout.placed, unplaced, vaultMap, entityGraph, notices, touched };
}

/** What the sweep compares to tell whether the entity graph changed: counts and the latest update. */
export function graphFingerprint(db: Database.Database): string {
  return JSON.stringify(db.prepare('SELECT (SELECT count(*) FROM entities WHERE merged_into IS NULL), (SELECT count(*) FROM relations), (SELECT max(updated) FROM entities)').raw().get());
}

/**
 * What changed since the last map, read cheaply (note paths and hashes, three graph counts):
 * the sweep's map phase decides from this whether to redraw.
 */
export function mapChanges(db: Database.Database, stateDir: string, agentRoot: string): { first: boolean; notes: number; changed: number; graphChanged: boolean } {
  const state = readMapState(stateDir);
  const notes = (db.prepare('SELECT path, hash FROM notes').all() as { path: string; hash: string }[]).filter((note) => onMap(note.path, agentRoot));
  if (state === null) return { first: true, notes: notes.length, changed: notes.length, graphChanged: false };
  const changed = changedPaths(
    notes.map((note) => ({ ...note, vector: null })),
    state,
  ).count;
  return { first: false, notes: notes.length, changed, graphChanged: state.graph !== graphFingerprint(db) };
}

/** The entity canvas, or null (with a notice) when there is no knowledge graph yet. */
function writeEntityGraph(options: MapOptions, state: MapState, path: string, notices: string[]): CanvasWrite | null {
  const graph = readEntityGraph(options.db);
  if (graph.total === 0) {
    notices.push('no knowledge graph yet, so no entity canvas: run `engram graph index` (or let the Librarian extract) and map again');
    return null;
  }
  if (graph.total > graph.entities.length) notices.push(`the entity canvas shows the ${graph.entities.length} most-mentioned of ${graph.total} entities`);
  return writeCanvas(options.db, options.writer, options.root, state.written, path, renderCanvas(entityCanvas(graph.entities, graph.relations)), MAP_DEFAULTS.maxCanvasBytes);
}

/** Notes added or edited since the cached layout (their hash differs), and how many were removed. */
export function changedPaths(notes: readonly MapNoteRow[], state: MapState): { paths: Set<string>; count: number } {
  const paths = new Set(notes.filter((note) => state.points[note.path]?.[2] !== note.hash).map((note) => note.path));
  const present = new Set(notes.map((note) => note.path));
  const removed = Object.keys(state.points).filter((path) => !present.has(path)).length;
  return { paths, count: paths.size + removed };
}

function fullLayout(notes: readonly MapNoteRow[], signals: SignalRows, source: 'vectors' | 'signals', seed: number): { points: Map<string, [number, number] | null>; placed: number } {
  const points = new Map<string, [number, number] | null>();
  if (source === 'vectors') {
    const withVector = notes.filter((note) => note.vector !== null);
    const placed = layoutVectors(
      withVector.map((note) => note.vector!),
      { seed },
    );
    withVector.forEach((note, i) => points.set(note.path, placed[i]!));
    const rest = new Set(notes.filter((note) => note.vector === null).map((note) => note.path));
    placeBySignals(notes, rest, points, signals);
    return { points, placed: notes.length };
  }
  const graph = signalGraph(
    notes.map((note) => note.path),
    signals,
    LAYOUT_DEFAULTS.neighbours,
  );
  layoutSignalGraph(graph, { seed }).forEach((point, i) => points.set(notes[i]!.path, point));
  return { points, placed: notes.length };
}

/** The cached layout with the changed notes placed near their nearest unchanged ones (by vector, else by links and tags). */
function placeChanged(notes: readonly MapNoteRow[], state: MapState, changed: ReadonlySet<string>, signals: SignalRows, source: 'vectors' | 'signals'): { points: Map<string, [number, number] | null>; placed: number } {
  const points = new Map<string, [number, number] | null>();
  for (const note of notes) {
    if (changed.has(note.path)) continue;
    const [x, y] = state.points[note.path]!;
    points.set(note.path, x === null || y === null ? null : [x, y]);
  }
  const pending = new Set(changed);
  if (source === 'vectors') {
    const anchors = notes.filter((note) => note.vector !== null && points.get(note.path));
    if (anchors.length > 0) {
      const index = VectorIndex.fromEntries(
        anchors[0]!.vector!.length,
        anchors.map((note, doc) => ({ doc, blockKey: '', source: 'local' as const, vector: note.vector! })),
        anchors.length,
      );
      for (const note of notes) {
        if (!pending.has(note.path) || note.vector === null) continue;
        const near = index.nearest(note.vector, LAYOUT_DEFAULTS.placeBy).map((hit) => ({ x: points.get(anchors[hit.doc]!.path)![0], y: points.get(anchors[hit.doc]!.path)![1], weight: Math.max(hit.score, 0) ** 4 }));
        const point = placeNear(near);
        if (point) {
          points.set(note.path, point);
          pending.delete(note.path);
        }
      }
    }
  }
  placeBySignals(notes, pending, points, signals);
  return { points, placed: changed.size };
}

/** Places each of `pending` near its placed signal neighbours; one with none stays unplaced (null). */
function placeBySignals(notes: readonly MapNoteRow[], pending: ReadonlySet<string>, points: Map<string, [number, number] | null>, signals: SignalRows): void {
  if (pending.size === 0) return;
  const paths = notes.map((note) => note.path);
  const graph = signalGraph(paths, signals, LAYOUT_DEFAULTS.neighbours);
  paths.forEach((path, i) => {
    if (!pending.has(path)) return;
    const near = graph[i]!.flatMap((other) => {
      const point = points.get(paths[other.index]!);
      return point ? [{ x: point[0], y: point[1], weight: 1 / other.distance - 1 }] : [];
    });
    points.set(path, placeNear(near));
  });
}

/** Every note, or the `maxDrawn` most linked ones (links in and out), in path order. */
function chooseDrawn(notes: readonly MapNoteRow[], signals: SignalRows): { drawn: MapNoteRow[]; hidden: number } {
  if (notes.length <= MAP_DEFAULTS.maxDrawn) return { drawn: [...notes], hidden: 0 };
  const degree = new Map<string, number>();
  for (const link of signals.links) for (const end of [link.from, link.to]) degree.set(end, (degree.get(end) ?? 0) + 1);
  const kept = new Set(
    [...notes]
      .sort((a, b) => (degree.get(b.path) ?? 0) - (degree.get(a.path) ?? 0) || (a.path < b.path ? -1 : 1))
      .slice(0, MAP_DEFAULTS.maxDrawn)
      .map((note) => note.path),
  );
  return { drawn: notes.filter((note) => kept.has(note.path)), hidden: notes.length - kept.size };
}
