/**
 * Where a vault's state lives: `ENGRAM_HOME/<vault-id>/`, with the vault id derived from the
 * vault's real path so that two spellings of one folder share one state directory.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EngramError, systemErrorCode } from '../errors.js';

/** First 12 hex characters of sha256 of the vault's real path. */
export function vaultId(realVaultPath: string): string {
  return createHash('sha256').update(realVaultPath).digest('hex').slice(0, 12);
}

/** Checks that `vault` is an existing directory and returns its real path. */
export function resolveVaultRoot(vault: string): string {
  let real: string;
  try {
    real = realpathSync(vault);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') {
      throw new EngramError('VAULT_NOT_FOUND', `vault not found: ${vault} does not exist; pass --vault PATH or set ENGRAM_VAULT to your vault folder`);
    }
    throw new EngramError('VAULT_NOT_FOUND', `vault cannot be opened: ${vault} (${systemErrorCode(error) ?? String(error)})`);
  }
  if (!statSync(real).isDirectory()) {
    throw new EngramError('VAULT_NOT_DIRECTORY', `vault is not a folder: ${vault} is a file; pass the folder that contains your notes`);
  }
  return real;
}

/** Where a vault's state directory is (not created). */
export function stateDirFor(home: string, realVaultPath: string): string {
  return join(home, vaultId(realVaultPath));
}

/** Creates (if needed) and returns the state directory for a vault. */
export function ensureStateDir(home: string, realVaultPath: string): string {
  const dir = stateDirFor(home, realVaultPath);
  try {
    makeDirs(dir);
  } catch (error) {
    throw new EngramError('STATE_DIR_UNWRITABLE', `cannot create the state directory ${dir} (${systemErrorCode(error) ?? String(error)}); set ENGRAM_HOME to a writable folder`);
  }
  return dir;
}

/**
 * `mkdir -p`, one level at a time from the nearest existing folder. Node's recursive mkdirSync
 * loops forever at full CPU on a path it can never create (under /proc, where mkdir answers
 * ENOENT even for root); creating each level ourselves turns that into the error it is.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let level = dir; !existsSync(level); level = dirname(level)) {
    missing.unshift(level);
    if (dirname(level) === level) break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') throw error;
    }
  }
}
