/**
 * Obsidian plugin pins (`conventions/plugins.json`) against `.obsidian/plugins/<id>/manifest.json`,
 * and, when asked, installing a pinned release from GitHub: manifest id and version checked,
 * main.js checked against its pinned sha256 when there is one, files written atomically, the id
 * added to `community-plugins.json` (never removing one). Without the network, it says exactly
 * what to do by hand.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { writeFileAtomic } from '../writes/index.js';

export interface PluginPin {
  id: string;
  repo: string;
  version: string;
  sha256?: string;
  why?: string;
}

export interface PluginState {
  id: string;
  pinned: string;
  installed: string | null;
  /** `newer`: the owner installed a later release; it is reported, never downgraded. */
  status: 'ok' | 'missing' | 'drift' | 'newer';
}

export function readPins(file: string): PluginPin[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', `cannot read the plugin pins ${file} (${error instanceof Error ? error.message : String(error)}); restore conventions/plugins.json`);
  }
  const list = (parsed as { plugins?: unknown }).plugins;
  // Ids and versions become folder names and URL segments: only plain ones are accepted.
  const valid = (pin: Record<string, unknown>) =>
    typeof pin.id === 'string' &&
    /^[A-Za-z0-9][\w-]*$/.test(pin.id) &&
    typeof pin.repo === 'string' &&
    /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(pin.repo) &&
    !pin.repo.includes('..') &&
    typeof pin.version === 'string' &&
    /^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(pin.version);
  if (!Array.isArray(list) || list.some((pin) => pin === null || typeof pin !== 'object' || !valid(pin as Record<string, unknown>))) {
    throw new EngramError('CONFIG_INVALID', `${file} must hold {"plugins": [{"id": "plain-id", "repo": "owner/name", "version": "1.2.3"}]}`);
  }
  return list as PluginPin[];
}

export function checkPlugins(vault: string, pins: readonly PluginPin[]): PluginState[] {
  return pins.map((pin) => {
    const installed = installedVersion(vault, pin.id);
    const status = installed === null ? 'missing' : installed === pin.version ? 'ok' : compareVersions(installed, pin.version) > 0 ? 'newer' : 'drift';
    return { id: pin.id, pinned: pin.version, installed, status };
  });
}

function installedVersion(vault: string, id: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(vault, '.obsidian', 'plugins', id, 'manifest.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return null;
  }
}

/** Semantic-version order of `a` and `b` (numbers only; anything unparsable sorts first). */
function compareVersions(a: string, b: string): number {
  const parts = (version: string) => (/^(\d+)\.(\d+)\.(\d+)/.exec(version) ?? [0, -1, -1, -1]).slice(1).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** What to do by hand when a download is not possible. */
export function manualSteps(pin: PluginPin): string {
  return `in Obsidian: Settings → Community plugins → Browse, install "${pin.id}" (version ${pin.version}); or download main.js, manifest.json and styles.css from https://github.com/${pin.repo}/releases/tag/${pin.version} into .obsidian/plugins/${pin.id}/`;
}

/** Downloads and installs one pinned release. Throws an EngramError that says what to do instead. */
export async function installPlugin(vault: string, pin: PluginPin, options: { baseUrl: string; timeoutMs?: number }): Promise<void> {
  const url = (file: string) => `${options.baseUrl.replace(/\/+$/, '')}/${pin.repo}/releases/download/${pin.version}/${file}`;
  const get = async (file: string, { optional }: { optional: boolean }): Promise<Buffer | null> => {
    let response: Response;
    try {
      response = await fetch(url(file), { signal: AbortSignal.timeout(options.timeoutMs ?? 20_000), redirect: 'follow' });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
      throw new EngramError('NETWORK', `could not download ${pin.id} ${pin.version} (${cause}); ${manualSteps(pin)}`);
    }
    if (response.status === 404 && optional) return null;
    if (!response.ok) throw new EngramError('NETWORK', `could not download ${pin.id} ${pin.version}: ${file} answered HTTP ${response.status}; ${manualSteps(pin)}`);
    try {
      return Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw new EngramError('NETWORK', `could not download ${pin.id} ${pin.version} (${error instanceof Error ? error.message : String(error)} while reading ${file}); ${manualSteps(pin)}`);
    }
  };
  const manifestBytes = (await get('manifest.json', { optional: false }))!;
  let manifest: { id?: unknown; version?: unknown };
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as typeof manifest;
  } catch {
    throw new EngramError('NETWORK', `${pin.id} ${pin.version}: the release's manifest.json is not JSON; nothing was installed`);
  }
  if (manifest.id !== pin.id || manifest.version !== pin.version) {
    throw new EngramError('CONFLICT', `${pin.repo} ${pin.version} is "${String(manifest.id)}" ${String(manifest.version)}, not the pinned "${pin.id}" ${pin.version}; fix conventions/plugins.json — nothing was installed`);
  }
  const main = (await get('main.js', { optional: false }))!;
  if (pin.sha256 && createHash('sha256').update(main).digest('hex') !== pin.sha256.toLowerCase()) {
    throw new EngramError('CONFLICT', `${pin.id} ${pin.version}: main.js does not match its pinned sha256; nothing was installed (the release changed, or the download was tampered with)`);
  }
  const styles = await get('styles.css', { optional: true });
  const dir = join(vault, '.obsidian', 'plugins', pin.id);
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(join(dir, 'main.js'), main);
  if (styles) writeFileAtomic(join(dir, 'styles.css'), styles);
  else rmSync(join(dir, 'styles.css'), { force: true }); // an older release's styles do not belong to this one
  // The manifest last: a kill before it leaves the plugin "missing", so the next run retries.
  writeFileAtomic(join(dir, 'manifest.json'), manifestBytes);
  enablePlugin(vault, pin.id);
}

/** Adds the id to `.obsidian/community-plugins.json`, keeping every id already there. */
function enablePlugin(vault: string, id: string): void {
  const path = join(vault, '.obsidian', 'community-plugins.json');
  let ids: string[] = [];
  if (existsSync(path)) {
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      if (Array.isArray(parsed)) ids = parsed.filter((entry): entry is string => typeof entry === 'string');
    } catch {
      throw new EngramError('CONFIG_INVALID', `.obsidian/community-plugins.json is not valid JSON; fix it (Obsidian rewrites it when you toggle a plugin) and run again`);
    }
  }
  if (!ids.includes(id)) writeFileAtomic(path, Buffer.from(JSON.stringify([...ids, id], null, 2)));
}
