/**
 * Which extractor runs: `ENGRAM_EXTRACTOR` (anthropic, claude-cli, structural, none), or
 * automatically the structural one — the LLM extractors are opt-in, because they send note text
 * off the machine. Settings come in as plain data from the composition roots.
 */
import type Database from 'better-sqlite3';
import { EngramError } from '../errors.js';
import { createAnthropicExtractor } from './extract-anthropic.js';
import { createClaudeCliExtractor } from './extract-claude-cli.js';
import { createStructuralExtractor } from './extract-structural.js';
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

/** The structural extractor, looking linked notes up in the index. */
export function structuralExtractor(db: Database.Database): Extractor {
  const lookup = db.prepare('SELECT path, title, type, aliases FROM notes WHERE path = ?');
  return createStructuralExtractor((path) => {
    const row = lookup.get(path) as { path: string; title: string; type: string | null; aliases: string } | undefined;
    return row ? { path: row.path, title: row.title, type: row.type, aliases: JSON.parse(row.aliases) as string[] } : null;
  });
}
