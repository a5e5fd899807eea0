/**
 * The map's cache in the state directory (`map.json`): every note's position with the content
 * hash it was placed for, what the layout was computed from, and the hash of each canvas Engram
 * last wrote — which is how a canvas the human edited is told from one Engram may replace.
 * Derived data like the rest of the state: deleting it costs one full layout.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../writes/index.js';

export const MAP_STATE_VERSION = 1;

export interface MapState {
  version: number;
  seed: number;
  /** `vectors:<model>` or `signals`: a layout from one is not extended with the other. */
  source: string;
  /** Path → [x, y, content hash]; x and y null for a note nothing placed. */
  points: Record<string, [number | null, number | null, string]>;
  /** Canvas path → sha256 of the text Engram last wrote there. */
  written: Record<string, string>;
  /** Entity-graph fingerprint of the last entity canvas (entity and relation counts, latest update). */
  graph?: string;
}

export function mapStatePath(stateDir: string): string {
  return join(stateDir, 'map.json');
}

/** The cached state, or null when there is none or it is unreadable (a fresh layout replaces it). */
export function readMapState(stateDir: string): MapState | null {
  const path = mapStatePath(stateDir);
  if (!existsSync(path)) return null;
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as MapState;
    return state.version === MAP_STATE_VERSION && typeof state.points === 'object' && typeof state.written === 'object' ? state : null;
  } catch {
    return null;
  }
}

export function writeMapState(stateDir: string, state: MapState): void {
  writeFileAtomic(mapStatePath(stateDir), Buffer.from(JSON.stringify(state)));
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
