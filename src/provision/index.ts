/** Provisioning a vault: the conventions, Smart Connections' model pin, Obsidian plugin pins. */
export { provisionVault, checkVault, type ProvisionOptions, type ProvisionReport, type CheckReport } from './provision.js';
export { conventionFiles, compareConventions, type ConventionFile, type ConventionState } from './conventions.js';
export { readPins, checkPlugins, installPlugin, manualSteps, type PluginPin, type PluginState } from './plugins.js';
export { seedSmartEnv, checkSmartEnvModel } from './smart-env-seed.js';
