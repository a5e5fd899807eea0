/**
 * From live records to vectors: keep the records whose note is indexed and still on disk,
 * resolve the configured model's pointers (or 2.x inline vectors), and flag each vector fresh
 * or stale by hashing the note as it is now. Notes are read only when they own a vector.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Replay } from './log.js';
import { contentHash, matchText, readNoteText, sliceLines, type NoteFiles } from './note-files.js';
import type { BlockRecord, SourceRecord, VectorOrigin } from './records.js';
import type { ScVector } from './read.js';
import { isVectorFileName, VectorFiles, type RowResult } from './vector-file.js';

export interface ResolveInput {
  replay: Replay;
  dataDir: string;
  /** Vault-relative folder of the plugin's vault (`''` or `docs/`), prefixed to every record path. */
  prefix: string;
  isIndexed: (path: string) => boolean;
  notes: NoteFiles;
  /** The configured model's dims; null for a 2.x vault whose model is unknown (taken from its vectors). */
  dims: number | null;
}

export interface Tally {
  vectors: ScVector[];
  dims: number | null;
  sources: { records: number; withVector: number; fresh: number; stale: number };
  blocks: { withVector: number; fresh: number; stale: number };
  missingOnDisk: number;
  unresolvable: number;
  /** Kept records with vectors for other models only. */
  otherModelsOnly: number;
  warnings: string[];
  /** A pointed-to vector file is missing while its `.tmp`/`.bak` twin exists: a rewrite in progress. */
  unstable: boolean;
}

interface Pending {
  /** null for the source's own vector. */
  block: (BlockRecord & { lines: [number, number] }) | null;
  hash: string | null;
  vector: Float32Array;
}

/** Why vectors were not resolved: `reason\0collection/file` → count. */
type Problems = Map<string, number>;

export function resolveVectors(input: ResolveInput): Tally {
  const dims = input.dims ?? inlineDims(input.replay);
  const tally: Tally = {
    vectors: [],
    dims,
    missingOnDisk: 0,
    unresolvable: 0,
    otherModelsOnly: 0,
    warnings: [],
    unstable: false,
    sources: { records: 0, withVector: 0, fresh: 0, stale: 0 },
    blocks: { withVector: 0, fresh: 0, stale: 0 },
  };
  const problems: Problems = new Map();
  const files = dims === null ? null : new VectorFiles(input.dataDir, dims);
  let unreadable = 0;
  try {
    const ordered = [...input.replay.live.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [id, record] of ordered) {
      const path = `${input.prefix}${id}`.normalize('NFC');
      if (!input.isIndexed(path)) continue;
      const abs = input.notes.locate(`${input.prefix}${record.item}`);
      if (abs === null) {
        tally.missingOnDisk++;
        continue;
      }
      tally.sources.records++;
      if (record.otherModelsOnly) tally.otherModelsOnly++;
      const pending = files === null || dims === null ? [] : collect(record, files, dims, problems);
      if (pending.length === 0) continue;
      const note = readNoteText(abs);
      if (!note.ok) unreadable++;
      tally.vectors.push(...judge(path, record, pending, note.ok ? note.text : null, tally));
    }
  } finally {
    files?.close();
  }
  if (unreadable > 0) tally.warnings.push(`${unreadable} note(s) could not be read to check their Smart Connections vectors; those vectors count as stale.`);
  for (const id of files?.partial ?? []) tally.warnings.push(`${id} ends in a partial row (an interrupted write); its complete rows are used.`);
  for (const [problem, count] of problems) {
    const [reason, file] = problem.split('\u0000') as [string, string];
    tally.unresolvable += count;
    if (reason === 'missing-file' && twinExists(input.dataDir, file)) tally.unstable = true;
    tally.warnings.push(problemSentence(reason, file, count));
  }
  return tally;
}

/** The record's resolvable vectors; every failure is counted in `problems`. */
function collect(record: SourceRecord, files: VectorFiles, dims: number, problems: Problems): Pending[] {
  const pending: Pending[] = [];
  const note = (reason: string, file: string) => problems.set(`${reason}\u0000${file}`, (problems.get(`${reason}\u0000${file}`) ?? 0) + 1);
  const resolve = (origin: VectorOrigin, collection: string): Float32Array | null => {
    const result: RowResult =
      origin.kind === 'pointer' ? files.read(collection, origin.file, origin.row) : origin.values !== null && origin.values.length === dims ? { ok: true, vector: origin.values } : { ok: false, reason: 'bad-pointer' };
    if (result.ok) return result.vector;
    // Only a well-formed file name is quoted back; anything else in a log line stays there.
    const name = origin.kind === 'inline' ? 'inline' : isVectorFileName(origin.file) ? origin.file : '(malformed name)';
    note(result.reason, `${collection}/${name}`);
    return null;
  };
  if (record.vector !== null) {
    const vector = resolve(record.vector, 'smart_sources');
    if (vector) pending.push({ block: null, hash: record.vector.hash, vector });
  }
  for (const block of record.blocks) {
    if (block.vector === null) continue;
    if (block.lines === null) {
      // A block vector without a line range can be neither placed in its note nor checked.
      note('no-range', `smart_blocks/${record.item}`);
      continue;
    }
    const vector = resolve(block.vector, 'smart_blocks');
    if (vector) pending.push({ block: { ...block, lines: block.lines }, hash: block.vector.hash, vector });
  }
  return pending;
}

/**
 * Fresh when the pointer's hash equals the record's and the current text's: the whole note for
 * a source, its line slice for a block (null text: the note could not be read → stale).
 */
function judge(path: string, record: SourceRecord, pending: readonly Pending[], text: string | null, tally: Tally): ScVector[] {
  const matched = text === null ? null : matchText(text, record.readHash, record.hashKind);
  const sourceFresh = matched?.matches === true;
  let lines: string[] | null = null;
  return pending.map(({ block, hash, vector }): ScVector => {
    if (block === null) {
      const fresh = sourceFresh && hash === record.readHash;
      count(tally.sources, fresh);
      return { path, kind: 'source', key: '', lines: null, fresh, vector };
    }
    let fresh = false;
    if (matched !== null) {
      lines ??= matched.text.split('\n');
      const slice = sliceLines(lines, block.lines);
      fresh = slice !== null && (block.hashKind === 'inherit' ? sourceFresh : block.readHash !== null && hash === block.readHash && contentHash(slice, 'murmur') === block.readHash);
    }
    count(tally.blocks, fresh);
    return { path, kind: 'block', key: block.key, lines: [block.lines[0], block.lines[1]], fresh, vector };
  });
}

function count(counts: { withVector: number; fresh: number; stale: number }, fresh: boolean): void {
  counts.withVector++;
  if (fresh) counts.fresh++;
  else counts.stale++;
}

/** 2.x vaults name their model only by key: the vectors' own length is the dimension. */
function inlineDims(replay: Replay): number | null {
  for (const record of replay.live.values()) {
    for (const origin of [record.vector, ...record.blocks.map((block) => block.vector)]) {
      if (origin?.kind === 'inline' && origin.values !== null) return origin.values.length;
    }
  }
  return null;
}

function twinExists(dataDir: string, id: string): boolean {
  const slash = id.indexOf('/');
  const file = id.slice(slash + 1);
  try {
    return readdirSync(join(dataDir, id.slice(0, slash))).some((name) => name.startsWith(`${file}.`) && /\.(tmp|bak)$/.test(name));
  } catch {
    return false;
  }
}

function problemSentence(reason: string, file: string, count: number): string {
  switch (reason) {
    case 'missing-file':
      return `${count} Smart Connections vector pointer(s) lead to ${file}, which does not exist; those notes will be embedded locally.`;
    case 'past-eof':
      return `${count} Smart Connections vector pointer(s) lead past the end of ${file} (truncated or partly synced); those notes will be embedded locally.`;
    case 'bad-file':
      return `${file} is not a whole number of float32 values (damaged); its ${count} vector(s) are not used and those notes will be embedded locally.`;
    case 'not-finite':
      return `${count} vector(s) in ${file} hold non-numeric values (NaN or infinity) and are not used.`;
    case 'no-range':
      return `${count} block vector(s) of ${file.slice('smart_blocks/'.length)} have no line range and are not used.`;
    default:
      return file.endsWith('/inline')
        ? `${count} inline Smart Connections vector(s) have the wrong length or non-numeric values and are not used.`
        : `${count} Smart Connections vector pointer(s) into ${file} are malformed (bad file name or row) and are not used.`;
  }
}
