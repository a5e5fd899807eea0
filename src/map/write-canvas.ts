/**
 * Writing a canvas without ever losing the human's edits: a canvas file is replaced only when it
 * holds exactly what Engram last wrote there (its sha256 is kept in the map state). One the human
 * changed — moved a card, added a note, or wrote the file themselves — stays as it is, and the
 * new canvas goes beside it (`Vault map (new).canvas`, then `(new 2)`, …), which the outcome
 * names. The check runs again inside the writer's lock, on the bytes it is about to replace.
 */
import { readFileSync } from 'node:fs';
import { EngramError } from '../errors.js';
import { resolveNotePath } from '../vault/index.js';
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
export function writeCanvas(writer: VaultWriter, root: string, written: Record<string, string>, path: string, text: string, maxBytes: number): CanvasWrite {
  for (let n = 0; n < 50; n++) {
    const target = n === 0 ? path : besidePath(path, n);
    const current = readVaultFile(root, target);
    if (current === text) {
      written[target] = sha256(text);
      return { path: target, outcome: 'unchanged', ...(n > 0 ? { keptEdited: path } : {}), touched: [] };
    }
    if (current !== null && written[target] !== sha256(current)) continue; // the human's: keep it
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

/** The file's text (line endings as `\n`, no BOM, as the writer hands it to `next`), or null when there is none. */
function readVaultFile(root: string, path: string): string | null {
  const resolved = resolveNotePath(root, path, { allowMissing: true, canvas: true });
  if (!resolved.ok) throw new EngramError('INVALID_INPUT', resolved.reason);
  try {
    return readFileSync(resolved.absolute, 'utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r\n/g, '\n');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
