/**
 * The shape of a CLI command, and the help text made from it, so that every command has
 * `--help` and the help cannot drift from the options it actually parses; and what every
 * command's checks share: how an error repeats a value, and how an option's value is read (an
 * empty or blank one is refused, never read as 0 or as no value).
 */
import { parseArgs } from 'node:util';
import { systemErrorCode, UsageError } from '../errors.js';
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
  json: { type: 'boolean', description: 'print one JSON document instead of text (a failure too: {error, exit_code})' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

type ParseConfig = Record<string, { type: 'string' | 'boolean'; multiple: boolean; short?: string }>;

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const config: ParseConfig = Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, { type: spec.type, multiple: spec.multiple ?? false, ...(spec.short ? { short: spec.short } : {}) }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(parseErrorMessage(command, argv, config, error));
  }
  // `-notes about x` parses as `-n` with the value "otes about x": an option's value glued to a short flag holds no space, a query does.
  const glued = parsed.tokens.find((token) => token.kind === 'option' && token.inlineValue === true && !token.rawName.startsWith('--') && /\s/.test(argv[token.index]!));
  if (glued && command.maxPositionals) throw new UsageError(startsWithDash(command, argv[glued.index]!));
  const extra = parsed.positionals[command.maxPositionals ?? 0];
  if (!parsed.values.help && extra !== undefined) {
    // After `--` every argument is positional, options too: `engram search -- "-paris" -n 3`.
    const afterDashes = argv.includes('--') && extra.startsWith('-') ? ': after --, every argument is read as text, so put options before --' : '';
    throw new UsageError(`unexpected argument ${shownArg(extra)}${afterDashes}; see \`engram ${command.name} --help\``);
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/** `parseArgs`' error as one line that says what to write instead. */
function parseErrorMessage(command: Command, argv: string[], config: ParseConfig, error: unknown): string {
  const help = `see \`engram ${command.name} --help\``;
  const code = systemErrorCode(error);
  // The same arguments read leniently, to find the one the strict reading refused.
  const tokens = parseArgs({ args: argv, options: config, allowPositionals: true, strict: false, tokens: true }).tokens;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const unknown = tokens.find((token) => token.kind === 'option' && !Object.hasOwn(config, token.name));
    if (unknown?.kind === 'option') {
      const raw = argv[unknown.index]!;
      if (command.maxPositionals && looksLikeText(raw)) return startsWithDash(command, raw);
      return `Unknown option '${oneLine(clip(unknown.rawName))}'; ${help}`;
    }
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = tokens.find((token) => token.kind === 'option' && config[token.name]?.type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))));
    if (option?.kind === 'option') {
      const form = `${option.rawName} ${command.options[option.name]?.value ?? COMMON_OPTIONS[option.name]?.value ?? 'VALUE'}`;
      const next = option.value;
      if (next === undefined || isOption(next, config)) return `${option.rawName} needs a value: ${form}`;
      const what = Number.isFinite(Number(next)) ? 'a negative number' : 'a value that starts with -';
      return `${option.rawName} needs a value; ${what} is written --${option.name}=${shellWord(next)}`;
    }
  }
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return `${message.replace(/\. To specify.*$/, '')}; ${help}`;
}

/**
 * An argument the parser refused that is text rather than options: `-` and a space or two or
 * more characters no option spells (`-paris`, `-notes about x`), or `--` and anything but an
 * option's name (`---`, a pasted note's `--- title: …`, `--foo bar`). `-x` and `--verbose` are
 * mistyped options.
 */
export function looksLikeText(raw: string): boolean {
  if (raw.startsWith('--')) return !/^--[a-z0-9][\w-]*(=|$)/i.test(raw);
  return /\s/.test(raw) || raw.length > 2;
}

/** True when `arg` names one of the options (`--tag`, `--tag=x`, `-n`). */
function isOption(arg: string, config: ParseConfig): boolean {
  if (arg.startsWith('--')) return Object.hasOwn(config, arg.slice(2).split('=')[0]!);
  return Object.values(config).some((spec) => spec.short !== undefined && arg.slice(1, 2) === spec.short);
}

/** The usage error for a positional argument (a query such as `-paris lisbon`) that reads as options; a long one is shown by its start. */
function startsWithDash(command: Command, raw: string): string {
  const label = command.positionals && /^[A-Z_]+$/.test(command.positionals) ? command.positionals.toLowerCase() : 'argument';
  const { quoted, example } = afterDashes(command.name, label, raw);
  return `${quoted} reads as an option; put -- before a ${label} that starts with -: ${example}`;
}

/**
 * An argument that starts with `-` as an error message repeats it (its start, quoted), and the
 * command line that reads it as text: `engram search -- "-paris"`, or with a placeholder for the
 * argument (`engram search [options] -- QUERY`) when it is too long to repeat whole.
 */
export function afterDashes(commandName: string, label: string, raw: string): { quoted: string; example: string } {
  const shown = clip(raw);
  const quoted = /["$`\\!]/.test(shown) && !/['\u0000-\u001f]/.test(shown) ? `'${shown}'` : JSON.stringify(shown);
  const example = shown === raw ? `engram ${commandName} -- ${quoted}` : `engram ${commandName} [options] -- ${label.toUpperCase()}`;
  return { quoted, example };
}

/** Most characters of an argument an error message repeats: a pasted note is shown by its start. */
export const ECHO_LIMIT = 40;

/** `raw` cut to ECHO_LIMIT characters, the last an ellipsis, when it is longer. */
export function clip(raw: string): string {
  const chars = Array.from(raw);
  return chars.length <= ECHO_LIMIT ? raw : `${chars.slice(0, ECHO_LIMIT - 1).join('')}…`;
}

/** An argument as an error message repeats it: cut to its start and double-quoted, line breaks escaped, so the message stays one short line. */
export function shownArg(raw: string): string {
  return JSON.stringify(clip(raw));
}

/**
 * A number option's value as `Number` reads it, but NaN for an empty or blank one (`--seed ""`,
 * often a shell variable that was not set), which `Number` reads as 0: so the option's own check
 * refuses it instead of taking 0. Undefined when the option is absent.
 */
export function numberValue(raw: string): number;
export function numberValue(raw: unknown): number | undefined;
export function numberValue(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  return String(raw).trim() === '' ? NaN : Number(raw);
}

/** What a text option's value names, for the message when one names nothing: `give a folder such as --exclude Archive`. */
export interface OptionValue {
  noun: string;
  example: string;
  /** Whether a value names nothing (default: it is empty or blank). */
  empty?: (raw: string) => boolean;
}

/** A comma-separated list of nothing but commas and spaces (`""`, `","`): it names no item. */
export function namesNoItem(raw: string): boolean {
  return raw.split(',').every((item) => item.trim() === '');
}

/**
 * Refuses an option whose value, or one of its values, names nothing (`--exclude ""`, `--weights
 * " "`, often a shell variable that was not set): read as absent, it would change nothing
 * without a word. `given` is the option's value or values as parsed (undefined: not given).
 */
export function refuseEmptyValue(option: string, given: unknown, value: OptionValue): void {
  const empty = value.empty ?? ((raw: string) => raw.trim() === '');
  const found = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String).find(empty);
  if (found === undefined) return;
  const what = found === '' ? 'is empty' : found.trim() === '' ? 'is blank' : `${shownArg(found)} names no ${value.noun}`;
  throw new UsageError(`--${option} ${what}: give a ${value.noun} such as --${option} ${value.example}, or leave --${option} out`);
}

/** Control characters (a line break in a pasted note) written as escapes, so a message stays one line. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f]/g, (char) => JSON.stringify(char).slice(1, -1));
}

/** A value as a shell word in a suggested command: as it is when short and plain (`-1`), else shown quoted. */
export function shellWord(raw: string): string {
  return raw.length <= ECHO_LIMIT && /^[\w@%+=:,./-]+$/.test(raw) ? raw : shownArg(raw);
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
