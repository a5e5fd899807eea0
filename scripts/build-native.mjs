#!/usr/bin/env node
/**
 * Builds the native launcher and stdio relay (native/*.c → build/engram) at install (postinstall)
 * and with `npm run build`. It is what `engram mcp sync` registers: a session attached to the
 * daemon then costs ~2 MB instead of a Node relay's ~45 MB. Never fails the install: without a
 * C compiler (or on Windows) it says in one line that sessions keep the Node relay, and exits 0.
 *
 * Also builds build/engram-native-check, the test harness for the relay's sha256, state
 * directory and JSON scanner (test/reliability/native-relay.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'build');
const FALLBACK = 'the stdio relay will be the Node one (~45 MB a session instead of ~2 MB)';

/** A C string literal for a value baked in at compile time; null when it holds what a literal should not. */
function literal(text) {
  return /^[^\u0000-\u001f"\\]*$/.test(text) ? `"${text}"` : null;
}

function compile(cc, output, sources, defines) {
  const temp = `${output}.${process.pid}.tmp`;
  const flags = ['-std=c99', '-Wall', '-Wextra', '-Werror', '-O2', ...Object.entries(defines).map(([name, value]) => `-D${name}=${value}`)];
  const result = spawnSync(cc, [...flags, '-o', temp, ...sources.map((source) => join(ROOT, 'native', source))], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    rmSync(temp, { force: true });
    const first = (result.stderr || '').trim().split('\n')[0];
    return result.error ? `${cc} did not run (${result.error.code ?? result.error.message})` : `${cc} failed (exit ${result.status ?? result.signal})${first ? `: ${first}` : ''}`;
  }
  renameSync(temp, output); // in place at once: a relay running the old binary keeps it
  return null;
}

function build() {
  if (process.platform === 'win32') return 'no native relay on Windows';
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const defines = { ENGRAM_VERSION: literal(version), ENGRAM_ENTRY: literal(join(ROOT, 'dist', 'cli', 'engram.js')), ENGRAM_NODE: literal(process.execPath) };
  if (Object.values(defines).includes(null)) return 'the package path or node path holds characters a C string cannot';
  mkdirSync(OUT, { recursive: true });
  const cc = process.env.CC || 'cc';
  const relay = ['relay.c', 'handoff.c', 'attach.c', 'jscan.c', 'sha256.c'];
  return compile(cc, join(OUT, 'engram'), relay, defines) ?? compile(cc, join(OUT, 'engram-native-check'), ['check.c', 'attach.c', 'jscan.c', 'sha256.c'], {});
}

const failed = build();
if (failed) {
  rmSync(join(OUT, 'engram'), { force: true }); // never a stale one
  console.log(`engram: ${failed}; ${FALLBACK}`);
} else console.log(`engram: built the native stdio relay (${join(OUT, 'engram')})`);
