/**
 * Which extractor runs: `ENGRAM_EXTRACTOR` (anthropic, claude-cli, structural, none), or
 * automatically the structural one — the LLM extractors are opt-in, because they send note text
 * off the machine. Settings come in as plain data from the composition roots.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import { createAnthropicExtractor } from './extract-anthropic.js';
import { createClaudeCliExtractor } from './extract-claude-cli.js';
import { createStructuralExtractor, noteEntityType, type LinkedNote } from './extract-structural.js';
import { normalizeName } from './model.js';
import { noteName } from '../vault/index.js';
import type { Extractor } from './model.js';
import type { Adjudicator } from './consolidate.js';
import { createAnthropicAdjudicator, redactCandidate } from './adjudicate-anthropic.js';

export interface ExtractorSettings {
  /** anthropic, claude-cli, structural, none, or auto. */
  extractor: string;
  anthropicApiKey?: string | undefined;
  anthropicBaseUrl?: string | undefined;
  /** ENGRAM_EXTRACT_MODEL (for claude-cli, passed as --model). */
  extractModel: string;
  /** ENGRAM_CONSOLIDATE_MODEL: the model that adjudicates merge candidates; unset, a human does. */
  consolidateModel?: string | undefined;
}

/**
 * The merge adjudicator: the Anthropic model named by ENGRAM_CONSOLIDATE_MODEL, or none. The
 * evidence quotes it sends are note text, so secrets are redacted from them and each call is
 * logged in the egress table under the notes the quotes came from, with what was redacted.
 */
export function selectAdjudicator(settings: ExtractorSettings, db: Database.Database): Adjudicator | undefined {
  if (!settings.consolidateModel) return undefined;
  if (!settings.anthropicApiKey) throw new EngramError('CONFIG_INVALID', 'ENGRAM_CONSOLIDATE_MODEL needs ANTHROPIC_API_KEY; set it, or unset ENGRAM_CONSOLIDATE_MODEL to review proposals yourself');
  const model = settings.consolidateModel;
  const adjudicate = createAnthropicAdjudicator({ apiKey: settings.anthropicApiKey, model, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) });
  const egress = db.prepare('INSERT INTO egress (note_path, backend, model, bytes, redacted, at) VALUES (?, ?, ?, ?, ?, ?)');
  const sources = db.prepare("SELECT n.path FROM mentions m JOIN notes n ON n.id = m.note_id WHERE m.entity_id IN (?, ?) AND m.evidence != '' LIMIT 10").pluck();
  return async (raw) => {
    const at = new Date().toISOString();
    const { candidate, redacted } = redactCandidate(raw);
    const bytes = Buffer.byteLength([...candidate.winner.evidence, ...candidate.loser.evidence].join('\n'));
    for (const path of sources.all(candidate.winner.id, candidate.loser.id) as string[]) egress.run(path, 'anthropic-adjudicator', model, bytes, JSON.stringify(redacted), at);
    return adjudicate(candidate);
  };
}

/**
 * `auto` is the structural extractor: an LLM extractor runs only when named, since it sends
 * note text to a service (every note sent is logged in the egress table).
 */
export function selectExtractor(settings: ExtractorSettings, db: Database.Database): Extractor | null {
  switch (settings.extractor) {
    case 'none':
      return null;
    case 'auto':
    case 'structural':
      return structuralExtractor(db);
    case 'anthropic':
      if (!settings.anthropicApiKey) throw new EngramError('CONFIG_INVALID', 'ENGRAM_EXTRACTOR=anthropic needs ANTHROPIC_API_KEY; set it, or use ENGRAM_EXTRACTOR=structural');
      return createAnthropicExtractor({ apiKey: settings.anthropicApiKey, model: settings.extractModel, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) });
    case 'claude-cli':
      return createClaudeCliExtractor({ model: settings.extractModel });
    default:
      throw new EngramError('CONFIG_INVALID', `ENGRAM_EXTRACTOR=${settings.extractor} is not one of anthropic, claude-cli, structural, none`);
  }
}

/** The structural extractor, looking notes up in the index. */
export function structuralExtractor(db: Database.Database): Extractor {
  const lookup = db.prepare('SELECT path, title, type, aliases FROM notes WHERE path = ?');
  let named: Map<string, LinkedNote | null> | null = null;
  return createStructuralExtractor({
    byPath(path) {
      const row = lookup.get(path) as NoteRow | undefined;
      return row ? linkedNote(row) : null;
    },
    entityNamed(name) {
      return (named ??= entityNames(db)).get(normalizeName(name)) ?? null;
    },
  });
}

interface NoteRow {
  path: string;
  title: string;
  type: string | null;
  aliases: string;
}

function linkedNote(row: NoteRow): LinkedNote {
  return { path: row.path, title: row.title, type: row.type, aliases: JSON.parse(row.aliases) as string[] };
}

/**
 * Entity notes by normalized title, file name and alias, read once per extractor (one pass over
 * the notes table). A folder's own note (`Projects/Billing/Overview.md`) also answers to the
 * folder's name, as `project: billing` means it. A name two notes answer to is kept only when
 * both are the same entity; otherwise it names none.
 */
function entityNames(db: Database.Database): Map<string, LinkedNote | null> {
  const names = new Map<string, LinkedNote | null>();
  // Engram's own entity notes (frontmatter `entity:`) are what this builds, not what it reads.
  const rows = db.prepare("SELECT path, title, type, aliases FROM notes WHERE frontmatter IS NULL OR json_extract(frontmatter, '$.entity') IS NULL").iterate() as IterableIterator<NoteRow>;
  for (const row of rows) {
    const type = noteEntityType(row.path, row.type);
    if (!type) continue;
    const note = linkedNote(row);
    for (const name of [note.title, noteName(note.path), ...note.aliases, ...folderName(note.path)]) {
      const key = normalizeName(String(name));
      if (key === '') continue;
      const known = names.get(key);
      if (known === undefined) names.set(key, note);
      else if (known !== null && (normalizeName(known.title) !== normalizeName(note.title) || noteEntityType(known.path, known.type) !== type)) names.set(key, null);
    }
  }
  return names;
}

/** The folder a folder note stands for: `Billing` for `Projects/Billing/Overview.md` (or `index`, `README`, `Billing/Billing.md`). */
function folderName(path: string): string[] {
  const segments = path.split('/');
  if (segments.length < 2) return [];
  const folder = segments[segments.length - 2]!;
  const name = noteName(path).toLowerCase();
  return name === 'overview' || name === 'index' || name === 'readme' || name === folder.toLowerCase() ? [folder] : [];
}
