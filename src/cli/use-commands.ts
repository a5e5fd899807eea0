/**
 * Setting Engram up for everyday use: `engram provision VAULT`, `engram mcp sync`, `engram
 * skills sync`, and `engram context` (the SessionStart hook's briefing).
 */

import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { DB_FILE, resolveVaultRoot, stateDirFor } from '../index/index.js';
import { accessSync, constants, existsSync } from 'node:fs';
import { briefing, recallBundle } from '../librarian/index.js';
import { checkVault, provisionVault } from '../provision/index.js';
import { compareServers, desktopSnippet, findExecutable, loadServers, projectScoped, readClaudeServers, registerServers, shellLine, syncSkills } from '../sync/index.js';
import { readNoteFile } from '../vault/index.js';
import { namesNoItem, refuseEmptyValue, type Command } from './command.js';
import { openSession, positiveNumber, type CliEnv } from './context.js';

/** The folder holding `conventions/`, `skills/` and `mcp-servers.json` (from src/cli or dist/cli). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const provisionCommand: Command = {
  name: 'provision',
  summary:
    "Set a vault up for Engram: install the conventions (the constitution Claude/README.md, the agent folders, CLAUDE.md and AGENTS.md) where absent, never over a file you changed; pin the embedding model in Smart Connections' settings when it has none; check the Obsidian plugin pins. `--check` reports drift and exits 1 when there is any.",
  positionals: 'VAULT',
  maxPositionals: 1,
  options: {
    check: { type: 'boolean', description: 'report missing or changed convention files (with a diff), plugin version drift and the model pin; change nothing' },
    'install-plugins': { type: 'boolean', description: 'download missing or drifted pinned plugins from GitHub releases into .obsidian/plugins (needs the network)' },
  },
  async run(args, { env, io }) {
    const given = args.positionals[0] ?? (args.values.vault as string | undefined) ?? env.vault;
    if (!given) throw new UsageError('say which vault: engram provision PATH (or --vault PATH, or ENGRAM_VAULT)');
    const where = { templateDir: join(PACKAGE_ROOT, 'conventions', 'vault'), pinsFile: join(PACKAGE_ROOT, 'conventions', 'plugins.json') };
    if (args.values.check) {
      const vault = resolveVaultRoot(resolve(given));
      const report = checkVault({ vault, agentRoot: env.agentRoot, model: env.model, ...where });
      if (args.values.json) io.out(JSON.stringify(report, null, 2));
      else {
        const lines: string[] = [];
        for (const state of report.conventions) {
          if (state.state === 'missing') lines.push(`missing   ${state.path}`);
          else if (state.state === 'changed') lines.push(`changed   ${state.path} (yours is kept; - shipped, + yours)`, ...state.diff.split('\n').map((line) => `          ${line}`));
        }
        for (const plugin of report.plugins) {
          if (plugin.status !== 'ok') lines.push(`plugin    ${plugin.id}: ${plugin.status === 'missing' ? 'not installed' : `${plugin.installed} installed${plugin.status === 'newer' ? ' (newer)' : ''}`}, pinned ${plugin.pinned}`);
        }
        if (!report.smartEnv.matches) lines.push(`model     Smart Connections ${report.smartEnv.active ? `embeds with ${report.smartEnv.active}` : 'has no model set'}; Engram uses ${report.smartEnv.pinned}`);
        io.out(report.drift ? lines.join('\n') : 'no drift: conventions, plugins and the model pin match');
      }
      return report.drift ? 1 : 0;
    }
    const session = openSession(given, env);
    try {
      const report = await provisionVault({
        vault: session.vault,
        db: session.db,
        stateDir: session.stateDir,
        agentRoot: env.agentRoot,
        model: env.model,
        ...where,
        runId: `provision-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '')}`,
        installPlugins: args.values['install-plugins'] ? { baseUrl: env.pluginBaseUrl } : undefined,
      });
      if (args.values.json) io.out(JSON.stringify(report, null, 2));
      else {
        const lines = [
          `provisioned ${session.vault} (run ${report.runId}; \`engram undo ${report.runId}\` removes what it added)`,
          ...report.installed.map((path) => `  added   ${path}`),
          ...report.kept.map((kept) => `  kept    ${kept.path} (differs from the shipped one; \`engram provision --check\` shows how)`),
          ...report.errors.map((error) => `  FAILED  ${error}`),
          `  ${report.smartEnv === 'seeded' ? `Smart Connections settings seeded with ${env.model}` : 'Smart Connections settings present (left as they are)'}`,
          ...report.plugins.map((plugin) => `  plugin  ${plugin.id} ${plugin.installedNow ? `${plugin.pinned} installed` : plugin.status === 'ok' ? `${plugin.pinned} ok` : plugin.error ? 'NOT installed' : plugin.status}`),
          ...(report.next.length > 0 ? ['next:', ...report.next.map((step) => `  - ${step}`)] : []),
        ];
        io.out(lines.join('\n'));
      }
      return report.plugins.some((plugin) => plugin.error) || report.errors.length > 0 ? 1 : 0;
    } finally {
      session.close();
    }
  },
};

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The native launcher and stdio relay (native/, built at install into build/engram; never on Windows). */
const NATIVE_LAUNCHER = join(PACKAGE_ROOT, 'build', 'engram');

/**
 * How to start engram on this machine, best first: the native launcher when this install built
 * it (a session attached to the daemon then costs ~2 MB instead of a Node relay's ~45 MB; it runs
 * node for everything else), else `engram` when it is on PATH, else node and this package's built
 * entry. The others start the same Engram, so a server registered with one of them is present,
 * not drift — `--check` only notes what registering again would bring.
 */
function engramInvocations(env: CliEnv): { command: string; args: string[]; note?: string }[] {
  const native = process.platform !== 'win32' && isExecutable(NATIVE_LAUNCHER);
  const onPath = { command: 'engram', args: [] };
  const node = { command: process.execPath, args: [join(PACKAGE_ROOT, 'dist', 'cli', 'engram.js')] };
  const viaNode = [...(findExecutable('engram', env.path) ? [onPath, node] : [node, onPath])];
  if (!native) return viaNode;
  const note = 'a Node relay per session (~45 MB); `claude mcp remove --scope user engram && engram mcp sync` registers the native one (~2 MB)';
  return [{ command: NATIVE_LAUNCHER, args: [] }, ...viaNode.map((other) => ({ ...other, note }))];
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary:
    'Register Engram (and, with --with, optional companion servers from mcp-servers.json) in Claude Code, additively: `engram mcp sync` runs `claude mcp add --scope user` for missing servers (or prints the commands when the claude CLI is absent); `--check` reports missing and drifted ones; drift is never changed.',
  positionals: 'sync',
  maxPositionals: 1,
  options: {
    check: { type: 'boolean', description: 'report missing and drifted servers; exit 1 when there are any; change nothing' },
    with: { type: 'string', value: 'NAMES', description: 'also the optional servers named (comma-separated, e.g. fetch,arxiv)' },
    desktop: { type: 'boolean', description: 'print the servers as a Claude Desktop claude_desktop_config.json fragment instead' },
  },
  async run(args, { env, io }) {
    if (args.positionals[0] !== 'sync') throw new UsageError('say what to do: engram mcp sync [--check] [--with NAMES] [--desktop]');
    refuseEmptyValue('with', args.values.with, { noun: 'server name', example: 'fetch', empty: namesNoItem });
    const given = (args.values.vault as string | undefined) ?? env.vault;
    if (!given) throw new UsageError('say which vault the server serves: --vault PATH or ENGRAM_VAULT');
    const vault = resolveVaultRoot(resolve(given));
    const withOptional = String(args.values.with ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const [engram, ...engramEquivalents] = engramInvocations(env);
    const servers = loadServers(join(PACKAGE_ROOT, 'mcp-servers.json'), { vault, engram: engram!, engramEquivalents }, withOptional);
    if (args.values.desktop) {
      io.out(desktopSnippet(servers));
      io.err('merge this into claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\), then restart Claude Desktop');
      return 0;
    }
    const states = compareServers(servers, readClaudeServers(env.claudeConfig));
    const drift = states.filter((state) => state.status === 'drift');
    const missing = states.filter((state) => state.status === 'missing');
    const lines = states.map((state) => `${state.status.padEnd(8)} ${state.name}${state.difference || state.note ? ` (${state.difference ?? state.note})` : ''}`);
    const again = shellLine(['engram', 'mcp', 'sync', '--vault', vault, ...(withOptional.length > 0 ? ['--with', withOptional.join(',')] : [])]);
    for (const state of drift) lines.push(`  to replace ${state.name}: claude mcp remove --scope user ${state.name} && ${again}`);
    for (const shadow of projectScoped(
      env.claudeConfig,
      servers.map((server) => server.name),
    ))
      lines.push(`  note: ${shadow.name} is also registered for ${shadow.project} (local scope), which takes precedence there`);
    if (args.values.check || missing.length === 0) {
      io.out(args.values.json ? JSON.stringify({ servers: states }, null, 2) : lines.join('\n'));
      return drift.length + (args.values.check ? missing.length : 0) > 0 ? 1 : 0;
    }
    const claude = findExecutable('claude', env.path);
    if (!claude) {
      io.out(args.values.json ? JSON.stringify({ servers: states, registered: false }, null, 2) : [...lines, 'the claude CLI is not on PATH; register with:', ...missing.map((state) => `  ${shellLine(state.add)}`)].join('\n'));
      return 1;
    }
    // The CLI sees the user's environment as it is (CLAUDE_CONFIG_DIR only if they set it).
    const failures = registerServers(claude, states, env.processEnv);
    const registered = missing.filter((state) => !failures.some((failure) => failure.startsWith(`${state.name}:`)));
    if (args.values.json) io.out(JSON.stringify({ servers: states, registered: registered.map((state) => state.name), failures }, null, 2));
    else io.out([...lines, ...registered.map((state) => `registered ${state.name}`), ...failures.map((failure) => `failed   ${failure}`)].join('\n'));
    return failures.length + drift.length > 0 ? 1 : 0;
  },
};

export const skillsCommand: Command = {
  name: 'skills',
  summary: "Install Engram's Claude Code skills (/recall, /digest, /resume, /connections, …) into ~/.claude/skills, additively: `engram skills sync`; `--check` reports missing and drifted skills; `--force` overwrites skills you changed.",
  positionals: 'sync',
  maxPositionals: 1,
  options: {
    check: { type: 'boolean', description: 'report missing and drifted skills; exit 1 when there are any; change nothing' },
    force: { type: 'boolean', description: 'overwrite installed skills that differ from the shipped ones' },
  },
  run(args, { env, io }) {
    if (args.positionals[0] !== 'sync') throw new UsageError('say what to do: engram skills sync [--check] [--force]');
    const target = join(env.claudeDir, 'skills');
    const states = syncSkills(join(PACKAGE_ROOT, 'skills'), target, { check: args.values.check === true, force: args.values.force === true });
    const drift = states.filter((state) => state.status === 'drift' || state.status === 'missing');
    if (args.values.json) io.out(JSON.stringify({ target, skills: states }, null, 2));
    else {
      io.out(
        [
          ...states.map((state) => `${state.status.padEnd(9)} ${state.name}${state.differing.length > 0 ? ` (${state.differing.join(', ')})` : ''}`),
          ...(drift.some((state) => state.status === 'drift') && !args.values.check ? ['changed skills were kept; --force overwrites them with the shipped ones'] : []),
        ].join('\n'),
      );
    }
    return args.values.check && drift.length > 0 ? 1 : 0;
  },
};

export const contextCommand: Command = {
  name: 'context',
  summary: "A compact briefing (at most 2,000 characters) for a Claude Code SessionStart hook: the project's latest sessions, open tasks and decisions, from the index as it is.",
  options: {
    project: { type: 'string', value: 'NAME', description: 'the project (matched in paths, titles, tags, frontmatter); default: everything' },
    days: { type: 'string', value: 'N', description: 'look back this many days (default 30)' },
  },
  run(args, { env, io }) {
    const days = positiveNumber(args.values.days, '--days') ?? 30;
    // A hook must never create state or fail a session: an unindexed vault says so and exits 0.
    const given = (args.values.vault as string | undefined) ?? env.vault;
    if (!given) throw new UsageError('say which vault: --vault PATH or ENGRAM_VAULT');
    const vault = resolveVaultRoot(resolve(given));
    if (!existsSync(join(stateDirFor(resolve(env.home), vault), DB_FILE))) {
      io.out(`Engram: ${vault} is not indexed yet; run \`engram index --vault ${vault}\` (or start \`engram daemon\`).`);
      return 0;
    }
    const session = openSession(vault, env);
    try {
      const bundle = recallBundle(session.db, { agentRoot: env.agentRoot, mode: 'resume', project: (args.values.project as string | undefined) ?? null, sinceMs: Date.now() - days * 86_400_000, limit: 10 });
      const read = (path: string) => {
        const outcome = readNoteFile(join(session.vault, path));
        return outcome.ok ? outcome.text : null;
      };
      io.out(args.values.json ? JSON.stringify(bundle, null, 2) : briefing(bundle, read));
      return 0;
    } finally {
      session.close();
    }
  },
};
