/**
 * A cheap fingerprint of every Smart Connections input file (size, mtime, ctime, inode), taken
 * before and after a read. The plugin rewrites vector files through `.tmp`/`.bak` renames,
 * compacts logs the same way, and Sync or git can deliver vectors and logs apart; when the two
 * snapshots differ the read is thrown away and done again.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { systemErrorCode } from '../errors.js';

export type Snapshot = Map<string, string>;

/** Subfolders of the data dir whose files are inputs (all of them, temporary ones included). */
export const INPUT_FOLDERS = ['smart_sources', 'smart_blocks', 'embedding_models', 'multi'] as const;

export function snapshotInputs(dataDir: string): Snapshot {
  const snapshot: Snapshot = new Map();
  snapshot.set('smart_env.json', stamp(join(dataDir, 'smart_env.json')));
  for (const folder of INPUT_FOLDERS) {
    let names: string[];
    try {
      names = readdirSync(join(dataDir, folder));
    } catch (error) {
      if (!isGone(error)) throw error;
      continue;
    }
    for (const name of names.sort()) snapshot.set(`${folder}/${name}`, stamp(join(dataDir, folder, name)));
  }
  return snapshot;
}

export function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  if (a.size !== b.size) return false;
  for (const [path, value] of a) if (b.get(path) !== value) return false;
  return true;
}

function stamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
  } catch (error) {
    if (!isGone(error)) throw error;
    return 'absent';
  }
}

function isGone(error: unknown): boolean {
  const code = systemErrorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
