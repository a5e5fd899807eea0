/**
 * What several tool families share: argument schemas, the path gate against the indexed notes,
 * reading an indexed note, and the answer a write tool gives.
 */
import { z } from 'zod';
import { readNoteFile, resolveNotePath } from '../../vault/index.js';
import type { IndexedReceipt, VaultEngine } from '../engine.js';
import { ok, type ToolResult } from '../results.js';

export const folderArg = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe('folder path(s): whole segments, case-insensitive, any depth (e.g. "Claude/Sessions")');
export const dateArg = (what: string) => z.string().optional().describe(`${what}: YYYY-MM-DD or an ISO time`);

/**
 * A `folder` (or `exclude_folders`) argument as a list, each with `/` for a backslash: no note
 * name holds one (Obsidian refuses it), and the path gate reads `Projects\\Atlas` as
 * `Projects/Atlas`, so a folder written the Windows way matches what it names.
 */
export function folderList(folder: string | readonly string[] | undefined): string[] {
  const list = folder === undefined ? [] : typeof folder === 'string' ? [folder] : folder;
  return list.map((entry) => entry.replace(/\\/g, '/'));
}

/** Folders to match against lower-cased paths: lower-cased, without edge slashes. */
export function folderKeys(folder: string | readonly string[] | undefined): string[] {
  return folderList(folder).map((entry) => entry.toLowerCase().replace(/^\/+|\/+$/g, ''));
}

/** Whether a path lies inside one of the folders (any depth); true when none are given. */
export function insideFolders(path: string, folders: readonly string[]): boolean {
  return folders.length === 0 || folders.some((folder) => `/${path.toLowerCase()}`.includes(`/${folder}/`));
}

/** A note path from a tool, through the path gate (refuses traversal, dot-folders and non-notes). */
export function resolvePath(engine: VaultEngine, path: string) {
  return resolveNotePath(engine.vault, path, { known: engine.knownPaths() });
}

/** Reads an indexed note through the path gate (a note may have become a symlink since). */
export function readIndexed(engine: VaultEngine, path: string) {
  const resolved = resolvePath(engine, path);
  return resolved.ok ? readNoteFile(resolved.absolute) : ({ ok: false, vanished: false, reason: resolved.reason } as const);
}

export function noteText(engine: VaultEngine, path: string, max: number): string {
  const read = readIndexed(engine, path);
  if (!read.ok) return '';
  return read.text.length > max ? `${read.text.slice(0, max)}…` : read.text;
}

export const receiptSchema = { path: z.string(), journal_id: z.number(), created: z.boolean(), index_warning: z.string().optional() };

/** A write tool's answer: the receipt, anything the tool adds, and the index warning when indexing failed. */
export function done(receipt: IndexedReceipt, extra: Record<string, unknown> = {}, text?: string): ToolResult {
  const warning = receipt.indexWarning ? { index_warning: receipt.indexWarning } : {};
  const said = text ?? `${receipt.created ? 'created' : 'updated'} ${receipt.path} (write #${receipt.journalId}; undo_write can revert it)`;
  return ok({ path: receipt.path, journal_id: receipt.journalId, created: receipt.created, ...extra, ...warning }, receipt.indexWarning ? `${said}; warning: ${receipt.indexWarning}` : said);
}
