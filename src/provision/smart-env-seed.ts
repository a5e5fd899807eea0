/**
 * Seeding Smart Connections' settings in a vault that has none, so the plugin embeds with the
 * model Engram is configured for (ENGRAM_EMBED_MODEL) and its vectors can be reused: the
 * smart-env 3 default model record and the 2.x setting, both naming the model. Existing settings
 * are never touched; `--check` compares the active model with Engram's.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_MODELS, readActiveModel } from '../smart-env/index.js';
import { writeFileAtomic } from '../writes/index.js';

export type SeedOutcome = 'seeded' | 'present';

export function seedSmartEnv(vault: string, model: string, now = Date.now()): SeedOutcome {
  const dir = join(vault, '.smart-env');
  const settings = join(dir, 'smart_env.json');
  if (existsSync(settings)) return 'present';
  const key = `transformers#${now}`;
  mkdirSync(join(dir, 'embedding_models'), { recursive: true });
  const records = join(dir, 'embedding_models', 'embedding_models.ajson');
  const known = KNOWN_MODELS.find((spec) => spec.model_key === model);
  const record = { provider_key: 'transformers', model_key: model, ...(known ? { dims: known.dims, max_tokens: known.max_tokens } : {}), class_name: 'EmbeddingModel', created_at: now, key };
  // The plugin's log format: `"<collection>:<key>": <record>,` lines joined by newlines, none at
  // the end. Records already there (another model) stay; ours is appended and made the default.
  const line = `${JSON.stringify(`embedding_models:${key}`)}: ${JSON.stringify(record)},`;
  const existing = existsSync(records) ? readFileSync(records, 'utf8') : '';
  writeFileAtomic(records, Buffer.from(existing.trim() === '' ? line : `${existing.replace(/\n+$/, '')}\n${line}`));
  const body = {
    embedding_models: { default_model_key: key },
    smart_sources: { embed_model: { adapter: 'transformers', transformers: { model_key: model } } },
  };
  writeFileAtomic(settings, Buffer.from(JSON.stringify(body, null, 2)));
  return 'seeded';
}

/** The model Smart Connections embeds with, and whether it is Engram's. */
export function checkSmartEnvModel(vault: string, model: string): { active: string | null; matches: boolean } {
  const { model: active } = readActiveModel(join(vault, '.smart-env'));
  return { active, matches: active === model };
}
