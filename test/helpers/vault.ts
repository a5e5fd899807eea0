/**
 * Fixture vaults: literal files written by the test into a fresh temporary folder, plus a
 * fresh state home, removed when the test ends.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';

export interface FixtureVault {
  root: string;
  home: string;
  write(path: string, content: string | Uint8Array): void;
  remove(path: string): void;
}

export function makeVault(t: TestContext, files: Record<string, string | Uint8Array> = {}): FixtureVault {
  const base = mkdtempSync(join(tmpdir(), 'engram-test-'));
  // Retried: a process the test started may still be writing its last file into the folder.
  t.after(() => rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
  const root = join(base, 'vault');
  const home = join(base, 'home');
  mkdirSync(root, { recursive: true });
  const write = (path: string, content: string | Uint8Array): void => {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  return { root, home, write, remove: (path) => rmSync(join(root, path), { recursive: true, force: true }) };
}
