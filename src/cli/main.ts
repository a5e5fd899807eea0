#!/usr/bin/env node
/**
 * The `engram` command line: the composition root that reads the environment, picks the
 * command, and turns errors into one line and an exit code (the table in exit-codes.ts: 0 ok,
 * 1 failure, 2 bad usage, 75 try again later).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EngramError, UsageError } from '../errors.js';
import { afterDashes, commandHelp, looksLikeText, parseCommandArgs, shownArg, type Command } from './command.js';
import { readCliEnv, type Output } from './context.js';
import { indexCommand } from './index-command.js';
import { daemonCommand } from './daemon-command.js';
import { contextCommand, mcpCommand, provisionCommand, skillsCommand } from './use-commands.js';
import { librarianCommand, undoCommand } from './librarian-command.js';
import { evalCommand } from './eval-command.js';
import { graphCommand } from './graph-command.js';
import { lsCommand } from './ls-command.js';
import { mapCommand } from './map-command.js';
import { relatedCommand } from './related-command.js';
import { relateCommand } from './relate-command.js';
import { searchCommand } from './search-command.js';
import { serveCommand } from './serve-command.js';
import { statusCommand } from './status-command.js';
import { verifyCommand } from './verify-command.js';
import { exitCodeOf } from './exit-codes.js';
import { modelCommand } from './model-command.js';

export const COMMANDS: readonly Command[] = [
  indexCommand,
  statusCommand,
  searchCommand,
  relatedCommand,
  lsCommand,
  relateCommand,
  mapCommand,
  graphCommand,
  serveCommand,
  daemonCommand,
  librarianCommand,
  undoCommand,
  evalCommand,
  verifyCommand,
  modelCommand,
  provisionCommand,
  mcpCommand,
  skillsCommand,
  contextCommand,
];

export function mainHelp(): string {
  const rows = COMMANDS.map((command) => `  ${command.name.padEnd(10)} ${command.summary.split('. ')[0]!.replace(/\.$/, '')}`);
  return [
    'engram — an Obsidian vault as a persistent, shared memory for AI agents',
    '',
    'Usage: engram COMMAND [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Every command takes --vault PATH (or $ENGRAM_VAULT), --json and --help.',
    'State lives in $ENGRAM_HOME (default ~/.engram), outside the vault.',
    '',
  ].join('\n');
}

/** Runs one command line (among `commands`, the real ones unless a test brings its own); returns the exit code. Never throws. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, io: Output, commands: readonly Command[] = COMMANDS): Promise<number> {
  const [name, ...rest] = withJsonAfterName(argv);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((command) => command.name === rest[0]) : undefined;
    io.out(topic ? commandHelp(topic) : mainHelp());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  try {
    if (!command) throw new UsageError(unknownCommand(name, rest, commands));
    const args = parseCommandArgs(command, rest);
    if (args.values.help) {
      io.out(commandHelp(command));
      return 0;
    }
    return await command.run(args, { env: readCliEnv(env), io });
  } catch (error) {
    const debug = Boolean(env.ENGRAM_DEBUG);
    const message = failureMessage(error, { debug });
    const code = exitCodeOf(error);
    const stack = debug && !(error instanceof EngramError) ? `\n${(error as Error).stack ?? ''}` : '';
    io.err(`engram: ${message}${stack}`);
    // An agent reading stdout as JSON gets the failure there too; the line on stderr stays for people.
    if (asksForJson(argv)) io.out(JSON.stringify({ error: message, exit_code: code }, null, 2));
    return code;
  }
}

/** A failure's one line (without `engram: `): an expected one's message, else `unexpected error:` and how to see the stack. */
function failureMessage(error: unknown, { debug }: { debug: boolean }): string {
  if (error instanceof EngramError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `unexpected error: ${message.split('\n')[0]}${debug ? '' : ' (set ENGRAM_DEBUG=1 to see the stack)'}`;
}

/**
 * The command line with `--json` given before the command name (`engram --json search x`) moved
 * after it, where the command's own parser reads it: the same as `engram search --json x`.
 */
function withJsonAfterName(argv: readonly string[]): string[] {
  let start = 0;
  while (argv[start] === '--json') start += 1;
  if (start === 0 || start === argv.length) return [...argv];
  return [argv[start]!, ...argv.slice(0, start), ...argv.slice(start + 1)];
}

/**
 * The usage error for a word that names no command, repeated by its start on one line. One that
 * starts with `-` is an option put before the command name (`--vault`), or text meant to be
 * searched for (`-paris`, a pasted note's `---`): each message says what to write instead.
 */
function unknownCommand(name: string, rest: readonly string[], commands: readonly Command[]): string {
  const list = 'run `engram --help` for the list';
  if (!name.startsWith('-') || name === '--') return `unknown command ${shownArg(name)}; ${list}`;
  if (!looksLikeText(name)) {
    const after = commands.find((command) => rest.includes(command.name))?.name ?? 'COMMAND';
    return `unknown command ${shownArg(name)}: options go after the command name (engram ${after} [options]); ${list}`;
  }
  const { quoted, example } = afterDashes('search', 'query', name);
  return `unknown command ${quoted}; to search for text that starts with -, put it after --: ${example}`;
}

/** Whether a command line asks for JSON: `--json` among the words before `--`, the command name's place included (read from the words, so a command line that does not parse is answered in JSON too). */
function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const io: Output = {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    errIsTty: process.stderr.isTTY === true,
  };
  process.exitCode = await main(process.argv.slice(2), process.env, io);
}
