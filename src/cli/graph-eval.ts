/**
 * `engram eval --graph GOLD`: the configured extractor over the gold notes, scored. The notes
 * reach the extractor as extraction gives them (text, frontmatter, tags, resolved links), with
 * no known entities, so each note is judged on its own. Notes sent to an LLM are logged in the
 * egress table as extraction logs them.
 */
import { dirname, join, resolve } from 'node:path';
import { EngramError, UsageError } from '../errors.js';
import { describeGraphEval, loadGraphGold, runGraphEval, type GoldNote } from '../eval/index.js';
import { selectExtractor, type ExtractionInput } from '../graph/index.js';
import type { VaultSession } from '../session/index.js';
import { parseNote, readNoteFile } from '../vault/index.js';
import { numberValue, shownArg, type CommandContext } from './command.js';
import { openSession } from './context.js';

export async function graphEval(file: string, values: Record<string, unknown>, { env, io }: CommandContext): Promise<number> {
  const floors = graphFloors(values);
  const gold = loadGraphGold(file);
  const vault = (values.vault as string | undefined) ?? (gold.vault !== null ? resolve(dirname(file), gold.vault) : undefined);
  const session = openSession(vault, env);
  try {
    const refreshed = await session.refreshIndex();
    if (refreshed.status === 'locked') throw new EngramError('LOCKED', refreshed.reason);
    const extractor = selectExtractor(env, session.db);
    if (extractor === null) throw new EngramError('CONFIG_INVALID', 'no extractor to evaluate (ENGRAM_EXTRACTOR=none); set ENGRAM_EXTRACTOR to structural, anthropic or claude-cli');
    const notes = inputs(session, gold.notes);
    const egress = session.db.prepare('INSERT INTO egress (note_path, backend, model, bytes, redacted, at) VALUES (?, ?, ?, ?, ?, ?)');
    const sends = extractor.backend === 'anthropic' || extractor.backend === 'claude-cli';
    const report = await runGraphEval(notes, extractor, sends ? { onSend: (input) => egress.run(input.path, extractor.backend, extractor.model, Buffer.byteLength(input.text), null, new Date().toISOString()) } : {});
    io.out(values.json ? JSON.stringify(report, null, 2) : describeGraphEval(report));
    if (report.stopped !== undefined) {
      io.err(`eval: extraction paused — ${report.stopped}`);
      return 1;
    }
    const below = [
      ...(floors.entities !== undefined && report.score.entities.f1 < floors.entities ? [`entity F1 ${report.score.entities.f1} is below ${floors.entities}`] : []),
      ...(floors.relations !== undefined && report.score.relations.f1 < floors.relations ? [`relation F1 ${report.score.relations.f1} is below ${floors.relations}`] : []),
    ];
    for (const line of below) io.err(`below floor: ${line}`);
    return below.length > 0 ? 1 : 0;
  } finally {
    session.close();
  }
}

/** `--min-entity-f1` and `--min-relation-f1`, each a number from 0 to 1, or undefined when absent. */
export function graphFloors(values: Record<string, unknown>): { entities: number | undefined; relations: number | undefined } {
  return { entities: floor(values, 'min-entity-f1'), relations: floor(values, 'min-relation-f1') };
}

function floor(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name] as string | undefined;
  if (raw === undefined) return undefined;
  const value = numberValue(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`--${name} must be a number between 0 and 1, not ${shownArg(raw)}`);
  return value;
}

/** Each gold note as the extractor would get it; a path the vault does not have is refused, naming a few. */
function inputs(session: VaultSession, notes: readonly GoldNote[]): { gold: GoldNote; input: ExtractionInput }[] {
  const { db } = session;
  const row = db.prepare('SELECT id, title FROM notes WHERE path = ?');
  const tags = db.prepare('SELECT tag FROM tags WHERE note_id = ?').pluck();
  const links = db.prepare("SELECT DISTINCT resolved_path FROM links WHERE note_id = ? AND resolved_kind = 'note' AND resolved_path IS NOT NULL").pluck();
  const missing = notes.filter((note) => row.get(note.path) === undefined).map((note) => note.path);
  if (missing.length > 0)
    throw new EngramError('INVALID_INPUT', `the graph gold file names notes that are not in the vault (${missing.slice(0, 3).join('; ')}${missing.length > 3 ? `; and ${missing.length - 3} more` : ''}); fix the paths or the --vault`);
  return notes.map((gold) => {
    const { id, title } = row.get(gold.path) as { id: number; title: string };
    const read = readNoteFile(join(session.vault, gold.path));
    if (!read.ok) throw new EngramError('INVALID_INPUT', `cannot read ${gold.path} from the vault: ${read.reason}`);
    const input: ExtractionInput = { path: gold.path, title, text: read.text, frontmatter: parseNote(gold.path, read.text).frontmatter, tags: tags.all(id) as string[], links: links.all(id) as string[], known: [] };
    return { gold, input };
  });
}
