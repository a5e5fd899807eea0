/**
 * The few settings the reader needs. `smart_env.json` can hold provider API keys in plain text,
 * so it is parsed here and only two fields leave this function; nothing from it is logged,
 * returned or quoted in a warning (not even a JSON parser message, which echoes the input).
 */
import { readFileSync } from 'node:fs';
import { systemErrorCode } from '../errors.js';
import { forEachLine, parseAjsonLine, splitAjsonKey } from './ajson.js';
import { isObject, toModelRecord, type ModelRecord } from './model.js';

export interface SmartEnvSettings {
  /** `embedding_models.default_model_key`: the active model record's key (smart-env 3). */
  defaultModelKey: string | null;
  /** The 2.x model setting (`smart_sources.embed_model`), not updated on a model switch in 3.x. */
  legacyModelKey: string | null;
}

export const SMART_SETTINGS_DEFAULTS = {
  /** A settings file larger than this is not read (a real one is a few KB). */
  maxSettingsBytes: 4 * 1024 * 1024,
} as const;

const NO_SETTINGS: SmartEnvSettings = { defaultModelKey: null, legacyModelKey: null };

/** Reads `smart_env.json`; a missing file gives empty settings, a bad one a warning. */
export function readSettings(path: string, warnings: string[]): SmartEnvSettings {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code !== 'ENOENT') warnings.push(`Smart Connections settings (smart_env.json) cannot be read (${code ?? 'error'}); the active model is unknown.`);
    return { ...NO_SETTINGS };
  }
  if (raw.length > SMART_SETTINGS_DEFAULTS.maxSettingsBytes) {
    warnings.push('Smart Connections settings (smart_env.json) are unusually large and were not read; the active model is unknown.');
    return { ...NO_SETTINGS };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    warnings.push('Smart Connections settings (smart_env.json) are not valid JSON; the active model is unknown. Open Smart Connections once to rewrite them.');
    return { ...NO_SETTINGS };
  }
  return pickSettings(parsed);
}

/** The two fields, from a parsed settings object. Pure. */
export function pickSettings(parsed: unknown): SmartEnvSettings {
  if (!isObject(parsed)) return { ...NO_SETTINGS };
  const models = parsed.embedding_models;
  const defaultModelKey = isObject(models) && typeof models.default_model_key === 'string' && models.default_model_key !== '' ? models.default_model_key : null;
  const sources = isObject(parsed.smart_sources) ? parsed.smart_sources : {};
  return { defaultModelKey, legacyModelKey: legacyModelOf(sources.embed_model) };
}

/** `{adapter, <adapter>: {model_key}}` (late 2.x) or `{model_key}` (early 2.x). */
function legacyModelOf(embedModel: unknown): string | null {
  if (!isObject(embedModel)) return null;
  const adapter = typeof embedModel.adapter === 'string' ? embedModel[embedModel.adapter] : undefined;
  if (isObject(adapter) && typeof adapter.model_key === 'string' && adapter.model_key !== '') return adapter.model_key;
  return typeof embedModel.model_key === 'string' && embedModel.model_key !== '' ? embedModel.model_key : null;
}

/** The `embedding_models` collection: last line wins, `null` deletes. Missing file → none. */
export function readModelRecords(path: string): { records: ModelRecord[]; damaged: number } {
  const byKey = new Map<string, ModelRecord>();
  let damaged = 0;
  try {
    forEachLine(path, (line) => {
      if (line.trim() === '') return;
      const entry = parseAjsonLine(line);
      const key = entry ? splitAjsonKey(entry.key) : null;
      if (!entry || !key) {
        damaged++;
        return;
      }
      if (key.collection !== 'embedding_models') return;
      const record = entry.value === null ? null : toModelRecord(key.item, entry.value);
      if (record) byKey.set(key.item, record);
      else byKey.delete(key.item);
    });
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT') throw error;
  }
  return { records: [...byKey.values()], damaged };
}
