/**
 * Where a vault's state lives: `ENGRAM_HOME/<vault-id>/`, with the vault id derived from the
 * vault's real path so that two spellings of one folder share one state directory.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new EngramError('STATE_DIR_UNWRITABLE', `cannot create the state directory ${dir} (${systemErrorCode(error) ?? String(error)}); set ENGRAM_HOME to a writable folder`);
  }
  return dir;
}
