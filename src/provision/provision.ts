/**
 * `engram provision`: the conventions installed where absent (never over a file the owner
 * changed), Smart Connections' settings seeded when absent, plugin pins checked (and installed
 * when asked); `--check` reports every kind of drift. Convention files go through the write layer
 * (journaled under the run id, so `engram undo` takes them back).
 */
import type Database from 'better-sqlite3';
import { OWNER } from '../writes/index.js';
import { vaultWriter } from '../session/index.js';
import { compareConventions, conventionFiles, type ConventionState } from './conventions.js';
import { checkPlugins, installPlugin, manualSteps, readPins, type PluginState } from './plugins.js';
import { checkSmartEnvModel, seedSmartEnv, type SeedOutcome } from './smart-env-seed.js';

export interface ProvisionOptions {
  vault: string;
  db: Database.Database;
  stateDir: string;
  agentRoot: string;
  /** The embedding model to pin in Smart Connections' settings (ENGRAM_EMBED_MODEL). */
  model: string;
  /** `conventions/vault/` and `conventions/plugins.json` of this Engram. */
  templateDir: string;
  pinsFile: string;
  runId: string;
  installPlugins?: { baseUrl: string } | undefined;
}

export interface ProvisionReport {
  runId: string;
  installed: string[];
  kept: { path: string; diff: string }[];
  present: string[];
  smartEnv: SeedOutcome;
  plugins: (PluginState & { installedNow?: boolean; error?: string })[];
  /** Next steps for the owner. */
  next: string[];
  /** Convention files that could not be installed, with why. */
  errors: string[];
}

export async function provisionVault(options: ProvisionOptions): Promise<ProvisionReport> {
  const files = conventionFiles(options.templateDir, options.agentRoot);
  const states = compareConventions(options.vault, files);
  const writer = vaultWriter({ root: options.vault, db: options.db, stateDir: options.stateDir, agentRoot: options.agentRoot }, options.runId);
  const report: ProvisionReport = { runId: options.runId, installed: [], kept: [], present: [], smartEnv: 'present', plugins: [], next: [], errors: [] };
  for (const state of states) {
    if (state.state === 'missing') {
      // One file that cannot be written (a folder in the way, a refused path) stops only itself.
      try {
        writer.write({ by: OWNER, path: state.path, next: () => state.text, create: true });
        report.installed.push(state.path);
      } catch (error) {
        report.errors.push(`${state.path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    } else if (state.state === 'changed') {
      report.kept.push({ path: state.path, diff: state.diff });
    } else {
      report.present.push(state.path);
    }
  }
  report.smartEnv = seedSmartEnv(options.vault, options.model);
  const pins = readPins(options.pinsFile);
  for (const plugin of checkPlugins(options.vault, pins)) {
    const pin = pins.find((candidate) => candidate.id === plugin.id)!;
    if (plugin.status === 'ok' || plugin.status === 'newer' || !options.installPlugins) {
      report.plugins.push(plugin);
      if (plugin.status === 'newer') report.next.push(`plugin ${plugin.id} ${plugin.installed} is newer than the pin ${plugin.pinned}; it is left as it is (update conventions/plugins.json if it should stay)`);
      else if (plugin.status !== 'ok') report.next.push(`plugin ${plugin.id} ${plugin.status === 'missing' ? 'is not installed' : `is ${plugin.installed}, pinned ${plugin.pinned}`}: run with --install-plugins, or ${manualSteps(pin)}`);
      continue;
    }
    try {
      await installPlugin(options.vault, pin, options.installPlugins);
      report.plugins.push({ ...plugin, installed: pin.version, status: 'ok', installedNow: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report.plugins.push({ ...plugin, error: message });
      report.next.push(message);
    }
  }
  if (report.plugins.some((plugin) => plugin.installedNow)) report.next.push('open the vault in Obsidian and trust its plugins (Settings → Community plugins → turn off Restricted mode)');
  return report;
}

export interface CheckReport {
  conventions: ConventionState[];
  plugins: PluginState[];
  smartEnv: { active: string | null; matches: boolean; pinned: string };
  drift: boolean;
}

/** Drift, read only: missing or changed convention files (with diffs), plugin versions, the model pin. */
export function checkVault(options: Pick<ProvisionOptions, 'vault' | 'agentRoot' | 'model' | 'templateDir' | 'pinsFile'>): CheckReport {
  const conventions = compareConventions(options.vault, conventionFiles(options.templateDir, options.agentRoot));
  const plugins = checkPlugins(options.vault, readPins(options.pinsFile));
  const model = checkSmartEnvModel(options.vault, options.model);
  const drift = conventions.some((state) => state.state !== 'same') || plugins.some((plugin) => plugin.status !== 'ok') || !model.matches;
  return { conventions, plugins, smartEnv: { ...model, pinned: options.model }, drift };
}
