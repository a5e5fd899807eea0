/**
 * Smart Connections reader: the vectors the Obsidian plugin already computed (`.smart-env/`),
 * for the configured model only, each flagged fresh or stale against the note as it is now.
 * Read-only; never writes to the vault. Format notes: research/smart-connections-format.md.
 */
export { readSmartEnv, readActiveModel, isIndexedByDefault, SMART_ENV_DEFAULTS, type SmartEnvOptions, type SmartEnvRead, type ScVector, type ScReport } from './read.js';
export { murmurHash32Alphanumeric, murmurHash32 } from './murmur.js';
export { modelFingerprint, resolveModelSpec, KNOWN_MODELS, type ModelSpec, type ModelRecord } from './model.js';
export { decodeFloat32LE } from './vector-file.js';
