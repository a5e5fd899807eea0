/**
 * The shape of a CLI command, and the help text made from it, so that every command has
 * `--help` and the help cannot drift from the options it actually parses.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import type { CliEnv, Output } from './context.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** Shown in help; for strings, name the value (`--vault PATH`). */
  value?: string;
  description: string;
}

export interface CommandContext {
  env: CliEnv;
  io: Output;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  summary: string;
  /** Positional arguments for the usage line, e.g. `QUERY`. */
  positionals?: string;
  /** Most positionals accepted. */
  maxPositionals?: number;
  options: Record<string, OptionSpec>;
  run(args: ParsedArgs, context: CommandContext): Promise<number> | number;
}

/** Options every command takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  vault: { type: 'string', value: 'PATH', description: 'the vault folder (default: $ENGRAM_VAULT)' },
  json: { type: 'boolean', description: 'print one JSON document instead of text' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const config = Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, { type: spec.type, multiple: spec.multiple ?? false, ...(spec.short ? { short: spec.short } : {}) }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new UsageError(`${message.replace(/\. To specify.*$/, '')}; see \`engram ${command.name} --help\``);
  }
  if (!parsed.values.help && parsed.positionals.length > (command.maxPositionals ?? 0)) {
    throw new UsageError(`unexpected argument "${parsed.positionals[command.maxPositionals ?? 0]}"; see \`engram ${command.name} --help\``);
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

export function commandHelp(command: Command): string {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    return `  ${flag.padEnd(28)} ${spec.description}${spec.multiple ? ' (repeatable)' : ''}`;
  });
  const positionals = command.positionals ? ` ${command.positionals}` : '';
  return [`engram ${command.name}${positionals} [options]`, '', command.summary, '', 'Options:', ...rows, ''].join('\n');
}
