/**
 * A daemon in this process (`startDaemon`, as `engram daemon` runs it: the watcher, the lease,
 * the jobs) on a fixture vault, as one device: its own state home and device name, its own
 * clock for the lease (moved by the test, never waited for). Two on one vault are two devices
 * sharing a synced copy.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { readCliEnv } from '../../src/cli/context.js';
import { openVaultSession, type VaultSession } from '../../src/session/index.js';
import { LIBRARIAN_WORDS } from './librarian.js';
import { writeTinyModel } from './tiny-model.js';
import type { FixtureVault } from './vault.js';

export interface Device {
  name: string;
  daemon: Daemon;
  session: VaultSession;
  log: string[];
  /** This device's own clock (monotonic), moved by the test. */
  clock: { at: number };
  /** The environment of a CLI run on this device. */
  env: Record<string, string>;
}

export async function startDevice(t: TestContext, vault: FixtureVault, name: string): Promise<Device> {
  const modelDir = join(vault.home, '..', 'models');
  if (!existsSync(modelDir)) writeTinyModel(join(modelDir, 'TaylorAI', 'bge-micro-v2'), { words: LIBRARIAN_WORDS });
  const env = { ENGRAM_HOME: join(vault.home, name), ENGRAM_VAULT: vault.root, ENGRAM_MODEL_DIR: modelDir, ENGRAM_EXTRACTOR: 'structural', ENGRAM_OFFLINE: '1', ENGRAM_DEVICE: name };
  const cli = readCliEnv(env);
  const session = openVaultSession({ vault: vault.root, home: cli.home, exclude: cli.exclude, model: cli.model, agentRoot: cli.agentRoot });
  const log: string[] = [];
  const clock = { at: 0 };
  const daemon = await startDaemon({
    vault: session.vault,
    stateDir: session.stateDir,
    db: session.db,
    session,
    device: cli.device,
    settings: { ...cli, golden: undefined },
    schedules: { backlog: '0 0 1 1 *', sweep: '0 0 1 1 *' },
    indexCommand: null,
    log: { err: (text) => log.push(text) },
    lease: { monotonic: () => clock.at },
  });
  let stopped = false;
  const stop = daemon.stop;
  daemon.stop = async () => {
    if (stopped) return;
    stopped = true;
    await stop();
  };
  t.after(async () => {
    await daemon.stop();
    session.close();
  });
  return { name, daemon, session, log, clock, env };
}
