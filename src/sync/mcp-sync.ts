/**
 * The curated MCP server set (`mcp-servers.json`) against Claude Code's user configuration:
 * each server present, drifted (another command, arguments or environment) or missing. Missing
 * ones are registered additively with `claude mcp add --scope user`, or printed as commands when
 * the `claude` CLI is absent; drift is reported, never changed.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EngramError, UsageError } from '../errors.js';

export interface ServerSpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  why: string;
  optional: boolean;
  /** Other command lines that start the same server (another launcher of this Engram): registered, they are not drift. */
  equivalent?: { command: string; args: string[]; note?: string }[];
}

export interface ServerState {
  name: string;
  status: 'present' | 'drift' | 'missing';
  /** The `claude mcp add` command line that registers it (for missing ones). */
  add: string[];
  /** What differs, for drifted ones. */
  difference?: string;
  /** For a present one registered with an equivalent command line: what registering again would bring. */
  note?: string;
}

/** Reads the manifest, keeps the wanted servers (required ones plus `with`), and substitutes `{VAULT}` and `{ENGRAM}`. */
export function loadServers(
  file: string,
  substitutions: { vault: string; engram: { command: string; args: string[] }; engramEquivalents?: { command: string; args: string[]; note?: string }[] },
  withOptional: readonly string[] = [],
): ServerSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', `cannot read ${file} (${error instanceof Error ? error.message : String(error)}); restore mcp-servers.json`);
  }
  const list = (parsed as { servers?: unknown }).servers;
  if (!Array.isArray(list)) throw new EngramError('CONFIG_INVALID', `${file} must hold {"servers": [{"name", "command", "args", "env"}]}`);
  const servers = list.map((raw: Record<string, unknown>): ServerSpec => {
    if (typeof raw.name !== 'string' || typeof raw.command !== 'string') throw new EngramError('CONFIG_INVALID', `${file}: every server needs a name and a command`);
    return {
      name: raw.name,
      command: raw.command,
      why: typeof raw.why === 'string' ? raw.why : '',
      optional: raw.optional === true,
      args: Array.isArray(raw.args) ? raw.args.map(String) : [],
      env: raw.env && typeof raw.env === 'object' ? Object.fromEntries(Object.entries(raw.env).map(([key, value]) => [key, String(value)])) : {},
    };
  });
  const unknown = withOptional.filter((name) => !servers.some((server) => server.name === name && server.optional));
  if (unknown.length > 0)
    throw new UsageError(
      `no optional server "${unknown[0]}" in mcp-servers.json; the optional ones are ${
        servers
          .filter((server) => server.optional)
          .map((server) => server.name)
          .join(', ') || 'none'
      }`,
    );
  const substitute = (value: string) => value.replaceAll('{VAULT}', substitutions.vault);
  return servers
    .filter((server) => !server.optional || withOptional.includes(server.name))
    .map((server) => {
      const engram = server.command === '{ENGRAM}';
      const args = server.args.map(substitute);
      return {
        ...server,
        command: engram ? substitutions.engram.command : substitute(server.command),
        args: [...(engram ? substitutions.engram.args : []), ...args],
        env: Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, substitute(value)])),
        ...(engram && substitutions.engramEquivalents ? { equivalent: substitutions.engramEquivalents.map((other) => ({ ...other, args: [...other.args, ...args] })) } : {}),
      };
    });
}

/** Claude Code's user-scope servers (`mcpServers` in its config file); none when the file is absent. */
export function readClaudeServers(configFile: string): Record<string, { command?: string; args?: string[]; env?: Record<string, string> }> {
  if (!existsSync(configFile)) return {};
  try {
    const parsed = JSON.parse(readFileSync(configFile, 'utf8')) as { mcpServers?: Record<string, { command?: string; args?: string[]; env?: Record<string, string> }> } | null;
    return parsed?.mcpServers ?? {};
  } catch {
    throw new EngramError('CONFIG_INVALID', `${configFile} is not valid JSON; nothing was changed — fix it (or let Claude Code rewrite it) and run again`);
  }
}

/** Servers of these names that Claude Code also has for single projects (`projects.<dir>.mcpServers`). */
export function projectScoped(configFile: string, names: readonly string[]): { name: string; project: string }[] {
  if (!existsSync(configFile)) return [];
  try {
    const parsed = JSON.parse(readFileSync(configFile, 'utf8')) as { projects?: Record<string, { mcpServers?: Record<string, unknown> }> } | null;
    return Object.entries(parsed?.projects ?? {}).flatMap(([project, entry]) => names.filter((name) => entry?.mcpServers?.[name]).map((name) => ({ name, project })));
  } catch {
    return [];
  }
}

export function compareServers(wanted: readonly ServerSpec[], registered: ReturnType<typeof readClaudeServers>): ServerState[] {
  return wanted.map((server) => {
    const add = addCommand(server);
    const current = registered[server.name];
    if (!current) return { name: server.name, status: 'missing', add };
    const same = (command: string, args: string[]) => current.command === command && JSON.stringify(current.args ?? []) === JSON.stringify(args);
    // Registered with another launcher of the same server (equivalent): present, with its note.
    const equivalent = same(server.command, server.args) ? null : server.equivalent?.find((other) => same(other.command, other.args));
    const differences: string[] = [];
    if (equivalent === undefined && current.command !== server.command) differences.push(`command ${JSON.stringify(current.command)} ≠ ${JSON.stringify(server.command)}`);
    if (equivalent === undefined && JSON.stringify(current.args ?? []) !== JSON.stringify(server.args)) differences.push(`args ${JSON.stringify(current.args ?? [])} ≠ ${JSON.stringify(server.args)}`);
    if (JSON.stringify(sorted(current.env ?? {})) !== JSON.stringify(sorted(server.env))) differences.push('env differs');
    if (differences.length > 0) return { name: server.name, status: 'drift', add, difference: differences.join('; ') };
    return { name: server.name, status: 'present', add, ...(equivalent?.note ? { note: equivalent.note } : {}) };
  });
}

export function addCommand(server: ServerSpec): string[] {
  return ['claude', 'mcp', 'add', '--scope', 'user', server.name, ...Object.entries(server.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]), '--', server.command, ...server.args];
}

/** A command line for a shell, quoted where needed. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** An executable on `path` (a PATH string), or null. */
export function findExecutable(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Runs `claude mcp add …` for each missing server; returns the failures (empty when all registered). */
export function registerServers(claude: string, states: readonly ServerState[], env: NodeJS.ProcessEnv): string[] {
  const failures: string[] = [];
  for (const state of states) {
    if (state.status !== 'missing') continue;
    const result = spawnSync(claude, state.add.slice(1), { env, encoding: 'utf8', timeout: 30_000 });
    if (result.status !== 0) failures.push(`${state.name}: claude mcp add exited ${result.status ?? result.signal}: ${(result.stderr || result.stdout || '').trim().split('\n')[0] ?? ''}`);
  }
  return failures;
}

/** The same servers as a Claude Desktop `claude_desktop_config.json` fragment. */
export function desktopSnippet(servers: readonly ServerSpec[]): string {
  return JSON.stringify({ mcpServers: Object.fromEntries(servers.map((server) => [server.name, { command: server.command, args: server.args, ...(Object.keys(server.env).length > 0 ? { env: server.env } : {}) }])) }, null, 2);
}

function sorted(env: Record<string, string>): [string, string][] {
  return Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
