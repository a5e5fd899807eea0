/**
 * The change planner: disk listing × indexed state → what to do. Pure (plain data in, plain
 * data out) and in two stages, because hashing needs I/O in between: stage one decides from
 * mtime and size which files must be read at all; stage two, given their hashes, tells new,
 * modified, moved (same hash, new path), touched (new mtime, same hash) and deleted apart.
 */

export interface ListedFile {
  key: string;
  path: string;
  mtimeMs: number;
  size: number;
}

export interface IndexedFile extends ListedFile {
  id: number;
  hash: string;
}

export interface HashedFile extends ListedFile {
  hash: string;
}

export interface StatPlan<L extends ListedFile> {
  /** Same key, mtime and size as indexed: not read at all. */
  unchanged: L[];
  /** New keys, or changed mtime/size (or everything, for a full run): to be read and hashed. */
  toRead: L[];
  /** Indexed keys no longer on disk. */
  gone: IndexedFile[];
}

export function planStatChanges<L extends ListedFile>(listed: readonly L[], indexed: readonly IndexedFile[], { full = false }: { full?: boolean } = {}): StatPlan<L> {
  const byKey = new Map<string, IndexedFile>();
  for (const file of indexed) byKey.set(file.key, file);
  const unchanged: L[] = [];
  const toRead: L[] = [];
  const seen = new Set<string>();
  for (const file of listed) {
    seen.add(file.key);
    const known = byKey.get(file.key);
    if (!full && known && known.mtimeMs === file.mtimeMs && known.size === file.size && known.path === file.path) unchanged.push(file);
    else toRead.push(file);
  }
  const gone = indexed.filter((file) => !seen.has(file.key));
  return { unchanged, toRead, gone };
}

export interface ChangePlan<H extends HashedFile> {
  added: H[];
  modified: { file: H; id: number }[];
  moved: { from: IndexedFile; to: H }[];
  /** New mtime or size but the same content: only the stat columns change. */
  touched: { file: H; id: number }[];
  /** A full run's notes whose content did not change: re-parsed all the same, but not "modified". */
  rebuilt: { file: H; id: number }[];
  deleted: IndexedFile[];
}

/**
 * Stage two. `read` are the stage-one files that were read successfully, with their hashes;
 * `gone` are the indexed files missing from disk (including any that vanished while being read).
 * A gone file and a new file with the same hash pair up as a move, in key order.
 */
export function planChanges<H extends HashedFile>(read: readonly H[], gone: readonly IndexedFile[], indexed: readonly IndexedFile[], { full = false }: { full?: boolean } = {}): ChangePlan<H> {
  const byKey = new Map<string, IndexedFile>();
  for (const file of indexed) byKey.set(file.key, file);
  const plan: ChangePlan<H> = { added: [], modified: [], moved: [], touched: [], rebuilt: [], deleted: [] };
  const fresh: H[] = [];
  for (const file of read) {
    const known = byKey.get(file.key);
    if (!known) fresh.push(file);
    else if (known.hash === file.hash && known.path === file.path) (full ? plan.rebuilt : plan.touched).push({ file, id: known.id });
    else plan.modified.push({ file, id: known.id });
  }
  const goneByHash = new Map<string, IndexedFile[]>();
  for (const file of [...gone].sort(byKeyOrder)) {
    const list = goneByHash.get(file.hash);
    if (list) list.push(file);
    else goneByHash.set(file.hash, [file]);
  }
  for (const file of [...fresh].sort(byKeyOrder)) {
    const from = goneByHash.get(file.hash)?.shift();
    if (from) plan.moved.push({ from, to: file });
    else plan.added.push(file);
  }
  for (const list of goneByHash.values()) plan.deleted.push(...list);
  plan.deleted.sort(byKeyOrder);
  return plan;
}

function byKeyOrder(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
