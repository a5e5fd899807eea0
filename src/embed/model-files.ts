/**
 * Where a model's files are and which weights to load, checked before a worker starts, so an
 * absent model is a plain sentence ("not in <dir> and downloads are off") rather than a stack
 * from deep inside transformers.js.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { REQUIRED_FILES, WEIGHTS } from './model-catalog.js';
import type { ModelDtype } from './protocol.js';

/** `auto` prefers the quantized weights when present (what the plugin runs on CPU), else fp32. */
export type DtypeChoice = ModelDtype | 'auto';

export type ModelLocation = { ok: true; folder: string; dtype: ModelDtype; local: boolean } | { ok: false; reason: string };

/** The model's folder: `model` itself when absolute, else `<modelDir>/<model>` (hub ids are `org/name`). */
export function modelFolder(model: string, modelDir: string): string {
  return isAbsolute(model) ? model : join(modelDir, ...model.split('/'));
}

export function locateModel(model: string, modelDir: string, dtype: DtypeChoice, { allowDownload }: { allowDownload: boolean }): ModelLocation {
  const folder = modelFolder(model, modelDir);
  const has = (file: string) => existsSync(join(folder, file));
  const chosen: ModelDtype = dtype !== 'auto' ? dtype : has(WEIGHTS.q8) || !has(WEIGHTS.fp32) ? 'q8' : 'fp32';
  const missing = [...REQUIRED_FILES, WEIGHTS[chosen]].filter((file) => !has(file));
  if (missing.length === 0) return { ok: true, folder, dtype: chosen, local: true };
  if (allowDownload && !isAbsolute(model)) return { ok: true, folder, dtype: chosen, local: false };
  const where = isAbsolute(model) ? `the folder ${folder}` : modelDir;
  const what = missing.length === REQUIRED_FILES.length + 1 ? '' : ` (missing ${missing.join(', ')})`;
  const why = isAbsolute(model) ? 'a model given as a folder is never downloaded' : 'downloads are off';
  return { ok: false, reason: `model ${model} is not in ${where}${what} and ${why}` };
}
