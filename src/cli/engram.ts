#!/usr/bin/env node
/**
 * The `engram` executable. `engram serve` over stdio first looks for the vault's daemon and, when
 * one answers, relays the session to it having loaded only node built-ins and `attach/` (a relay
 * is ~45 MB where a whole Engram process is ~95 MB before it opens anything); everything else —
 * and `serve` without a daemon — loads the full command line (`main.ts`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EngramError, UsageError } from '../errors.js';
import { exitCodeOf } from './exit-codes.js';
import { attachToDaemon, continueHandover, relaySession } from './relay-session.js';

/** `serve [--vault PATH] [--no-watch] [--no-index] [--reconnect-wait S]`: its settings, or null when this is not a plain stdio serve. */
function plainServe(argv: readonly string[]): { vault: string | undefined; reconnectMs: number } | null {
  if (argv[0] !== 'serve') return null;
  let vault: string | undefined;
  let reconnect = '10';
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--vault' && i + 1 < argv.length) vault = argv[++i];
    else if (arg.startsWith('--vault=')) vault = arg.slice('--vault='.length);
    else if (arg === '--reconnect-wait' && i + 1 < argv.length) reconnect = argv[++i]!;
    else if (arg.startsWith('--reconnect-wait=')) reconnect = arg.slice('--reconnect-wait='.length);
    else if (arg !== '--no-watch' && arg !== '--no-index') return null; // --http, --spawn-daemon, --help…: the full command
  }
  const seconds = Number(reconnect);
  return seconds > 0 ? { vault, reconnectMs: seconds * 1000 } : null; // a bad value: the full command says so
}

// `serve --resume-relay FILE …` (hidden): the native relay (native/relay.c) hands its session over: its daemon went for good.
const handover = process.argv[2] === 'serve' && process.argv[3] === '--resume-relay' ? (process.argv[4] ?? '') : null;
const argv = handover === null ? process.argv.slice(2) : ['serve', ...process.argv.slice(5)];
const serve = plainServe(argv);
const vault = serve ? (serve.vault ?? process.env.ENGRAM_VAULT) : undefined;
const log = { err: (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`) };
const request = { vault: vault ?? '', home: process.env.ENGRAM_HOME || join(homedir(), '.engram'), reconnectMs: serve?.reconnectMs ?? 10_000, spawnDaemon: false, explain: false, log };
const standalone = async (why: string, sessionId: string) => {
  const [{ standaloneUpstream }, { readCliEnv }] = await Promise.all([import('./serve-command.js'), import('./context.js')]);
  const flags = { vault, 'no-watch': argv.includes('--no-watch'), 'no-index': argv.includes('--no-index') };
  return standaloneUpstream(flags, readCliEnv(process.env), { out: (text) => process.stdout.write(`${text}\n`), ...log, errIsTty: false }, why, sessionId);
};
const attached = vault && handover === null ? await attachToDaemon(request) : null;
if (handover !== null) {
  await resumeHandover(handover);
} else if (attached) {
  await relaySession(attached, request, standalone);
} else {
  const { main } = await import('./main.js');
  process.exitCode = await main(argv, process.env, { out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`), ...log, errIsTty: process.stderr.isTTY === true });
}

/** Carries on the native relay's session; what stops it (no vault, a resume file it cannot use) is one line on stderr and the exit status main.ts would give. */
async function resumeHandover(file: string): Promise<void> {
  try {
    if (!serve) throw new UsageError('serve --resume-relay FILE takes only --vault PATH, --no-watch, --no-index and --reconnect-wait S after FILE');
    if (!vault) throw new UsageError('no vault given to serve --resume-relay: pass --vault PATH or set ENGRAM_VAULT to your vault folder');
    await continueHandover(file, request, standalone);
  } catch (error) {
    if (!(error instanceof EngramError)) throw error; // a bug: its stack, as before
    log.err(`engram: ${error.message}`);
    process.exitCode = exitCodeOf(error);
  }
}
