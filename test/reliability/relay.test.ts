/**
 * `engram serve` attached to `engram daemon` through the Node relay (src/attach/relay.ts), as
 * `node dist/cli/engram.js serve` runs it: the scenarios in relay-scenarios.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveVaultRoot, vaultId } from '../../src/index/index.js';
import { locateState } from '../../src/attach/index.js';
import { REPO } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';
import { relayScenarios } from './relay-scenarios.js';

test('the relay finds the state directory the index layer derives', (t) => {
  const vault = makeVault(t, {});
  assert.deepEqual(locateState(vault.home, vault.root), { vault: resolveVaultRoot(vault.root), stateDir: join(vault.home, vaultId(resolveVaultRoot(vault.root))) });
});

relayScenarios({ name: 'node relay', command: process.execPath, args: ['--import', 'tsx', join(REPO, 'src/cli/engram.ts')], env: {} });
