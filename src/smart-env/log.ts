/**
 * Replaying the source log into the live records. smart-env 3: shards `smart_sources.ajson`,
 * `smart_sources_1.ajson`, … in numeric order (`_10` after `_9`), lines in physical order, last
 * line wins (a full snapshot, never a diff), `null` deletes, a later line resurrects. 2.x: every
 * `multi/*.ajson` file, parsed whole. Records are keyed by the NFC form of their path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemErrorCode } from '../errors.js';
import { forEachLine, parseAjsonLine, parseLegacyAjson, splitAjsonKey } from './ajson.js';
import { isObject } from './model.js';
import { sourceFromLegacy, sourceFromV3, type SourceRecord } from './records.js';

export interface Replay {
  /** NFC path → live record. */
  live: Map<string, SourceRecord>;
  /** `null` lines that deleted a live record (a tombstone for an unknown key changes nothing). */
  tombstonesApplied: number;
  /** Lines (or 2.x files' lines) that were not records: half-written appends, garbage. */
  damagedLines: number;
  /** Files read, for messages. */
  files: string[];
}

const SHARD = /^smart_sources(?:_([1-9][0-9]*))?\.ajson$/;

/** Shard file names under `smart_sources/`, in replay order. Shard 0 must exist (the plugin's rule). */
export function listShards(names: readonly string[]): string[] {
  const shards = names
    .map((name) => ({ name, match: SHARD.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ name, match }) => ({ name, index: match[1] === undefined ? 0 : Number(match[1]) }))
    .sort((a, b) => a.index - b.index);
  return shards[0]?.index === 0 ? shards.map((shard) => shard.name) : [];
}

export function replayShards(folder: string, shards: readonly string[], fingerprint: string): Replay {
  const replay: Replay = { live: new Map(), tombstonesApplied: 0, damagedLines: 0, files: [...shards] };
  for (const shard of shards) {
    forEachLine(join(folder, shard), (line) => {
      if (line.trim() === '') return;
      const entry = parseAjsonLine(line);
      const key = entry ? splitAjsonKey(entry.key) : null;
      if (!entry || !key) {
        replay.damagedLines++;
        return;
      }
      // `smart_blocks:` lines inside a smart-env 3 log are leftovers; blocks live in their source.
      if (key.collection !== 'smart_sources') return;
      const id = key.item.normalize('NFC');
      if (entry.value === null) {
        if (replay.live.delete(id)) replay.tombstonesApplied++;
        return;
      }
      if (!isObject(entry.value)) {
        replay.damagedLines++;
        return;
      }
      replay.live.set(id, sourceFromV3(key.item, entry.value, fingerprint));
    });
  }
  return replay;
}

/** `.ajson` files under `multi/`, sorted by name (temporary copies are not data). */
export function listLegacyFiles(names: readonly string[]): string[] {
  return names.filter((name) => name.endsWith('.ajson')).sort();
}

export function replayLegacy(folder: string, files: readonly string[], modelKey: string): Replay {
  const replay: Replay = { live: new Map(), tombstonesApplied: 0, damagedLines: 0, files: [...files] };
  const sources = new Map<string, { item: string; value: Record<string, unknown> }>();
  const blocks = new Map<string, unknown>();
  for (const file of files) {
    const { entries, damaged } = parseLegacyAjson(readFileSync(join(folder, file), 'utf8'));
    replay.damagedLines += damaged;
    for (const { key: fullKey, value } of entries) {
      const key = splitAjsonKey(fullKey);
      if (!key) {
        replay.damagedLines++;
        continue;
      }
      if (key.collection === 'smart_blocks') {
        if (value === null) blocks.delete(key.item);
        else blocks.set(key.item, value);
        continue;
      }
      if (key.collection !== 'smart_sources') continue;
      const id = key.item.normalize('NFC');
      if (value === null) {
        if (sources.delete(id)) replay.tombstonesApplied++;
      } else if (isObject(value)) {
        sources.set(id, { item: key.item, value });
      } else {
        replay.damagedLines++;
      }
    }
  }
  for (const [id, { item, value }] of sources) replay.live.set(id, sourceFromLegacy(item, value, blocks, modelKey));
  return replay;
}

/** The file names in `folder`, or none when it does not exist. Other errors are thrown. */
export function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
