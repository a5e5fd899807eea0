/**
 * Writing a canvas without ever losing the human's edits: a canvas file is replaced only when it
 * holds exactly what Engram last wrote there (its sha256 is kept in the map state) or another
 * version Engram wrote there (the journal's after-hash: what an undo restored). One the human
 * changed — moved a card, added a note, or wrote the file themselves — stays as it is, and the
 * new canvas goes beside it (`Vault map (new).canvas`, then `(new 2)`, …), which the outcome
 * names. The check runs again inside the writer's lock, on the bytes it is about to replace.
 */
import { readFileSync } from 'node:fs';
import { EngramError } from '../errors.js';
import type Database from 'better-sqlite3';
import { hashContent, resolveNotePath } from '../vault/index.js';
import { LIBRARIAN, type VaultWriter } from '../writes/index.js';
import { sha256 } from './map-state.js';

export interface CanvasWrite {
  /** Where this canvas went. */
  path: string;
  /** written: created or replaced; unchanged: it already held this text. */
  outcome: 'written' | 'unchanged';
  /** Set when `path` is not the usual one: the usual canvas was edited by the human and kept. */
  keptEdited?: string;
  journalId?: number;
  touched: string[];
}

/** The n-th name beside `path`: `Maps/Vault map.canvas` → `Maps/Vault map (new).canvas`, `(new 2)`, … */
export function besidePath(path: string, n: number): string {
  const dot = path.lastIndexOf('.');
  return `${path.slice(0, dot)} (new${n > 1 ? ` ${n}` : ''})${path.slice(dot)}`;
}

/**
 * Writes `text` at `path`, or beside it when the file there is not what Engram last wrote.
 * `written` (path → sha256) is the map state's record, updated here.
 */
export function writeCanvas(db: Database.Database, writer: VaultWriter, root: string, written: Record<string, string>, path: string, text: string, maxBytes: number): CanvasWrite {
  const journaled = db.prepare('SELECT 1 FROM journal WHERE path = ? AND after_hash = ? LIMIT 1').pluck();
  for (let n = 0; n < 50; n++) {
    const target = n === 0 ? path : besidePath(path, n);
    const file = readVaultFile(root, target);
    const current = file?.text ?? null;
    if (current === text) {
      written[target] = sha256(text);
      return { path: target, outcome: 'unchanged', ...(n > 0 ? { keptEdited: path } : {}), touched: [] };
    }
    const engramWrote = file !== null && (written[target] === sha256(file.text) || journaled.get(target, hashContent(file.bytes)) !== undefined);
    if (file !== null && !engramWrote) continue; // the human's: keep it
    try {
      const receipt = writer.write({
        by: LIBRARIAN,
        path: target,
        maxBytes,
        next: (now) => {
          // Edited between the check above and the writer's lock: still the human's.
          if (now !== null && now !== current) throw new EditedMeanwhile();
          return text;
        },
      });
      written[target] = sha256(text);
      return { path: target, outcome: 'written', ...(n > 0 ? { keptEdited: path } : {}), journalId: receipt.journalId, touched: receipt.touched };
    } catch (error) {
      if (!(error instanceof EditedMeanwhile)) throw error;
    }
  }
  throw new EngramError('CONFLICT', `${path} and 49 canvases beside it were all edited by hand; move or delete some of them and map again`);
}

class EditedMeanwhile extends Error {}

/** The file's bytes and its text (line endings as `\n`, no BOM, as the writer hands it to `next`), or null when there is none. */
function readVaultFile(root: string, path: string): { bytes: Buffer; text: string } | null {
  const resolved = resolveNotePath(root, path, { allowMissing: true, canvas: true });
  if (!resolved.ok) throw new EngramError('INVALID_INPUT', resolved.reason);
  try {
    const bytes = readFileSync(resolved.absolute);
    return {
      bytes,
      text: bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .replace(/\r\n/g, '\n'),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
