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

export interface ExtractorSettings {
  /** anthropic, claude-cli, structural, none, or auto. */
  extractor: string;
  anthropicApiKey?: string | undefined;
  anthropicBaseUrl?: string | undefined;
  /** ENGRAM_EXTRACT_MODEL (for claude-cli, passed as --model). */
  extractModel: string;
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
      if (!settings.anthropicApiKey) throw new EngramError('USAGE', 'ENGRAM_EXTRACTOR=anthropic needs ANTHROPIC_API_KEY; set it, or use ENGRAM_EXTRACTOR=structural');
      return createAnthropicExtractor({ apiKey: settings.anthropicApiKey, model: settings.extractModel, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) });
    case 'claude-cli':
      return createClaudeCliExtractor({ model: settings.extractModel });
    default:
      throw new EngramError('USAGE', `ENGRAM_EXTRACTOR=${settings.extractor} is not one of anthropic, claude-cli, structural, none`);
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
