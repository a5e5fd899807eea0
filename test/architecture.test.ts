/**
 * The layering rule (ARCHITECTURE.md): a module imports from its own capability, or from a
 * capability in a lower layer through that capability's `index.ts`. Only composition roots read
 * the environment. The checker runs on src/ and, to prove it can fail, on a bad example.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { REPO } from './helpers/cli.js';

/** Lowest first. The shared kernel (`errors.ts`, `pid.ts`) is what every layer may use. */
const KERNEL = new Set(['errors.ts', 'pid.ts']);
const LAYERS: Record<string, number> = {
  'errors.ts': 0,
  'pid.ts': 0,
  vault: 1,
  'smart-env': 1,
  attach: 1,
  index: 2,
  writes: 3,
  search: 4,
  embed: 4,
  graph: 4,
  session: 5,
  map: 5,
  librarian: 6,
  eval: 6,
  provision: 6,
  sync: 6,
  mcp: 7,
  'daemon.ts': 8,
  cli: 9,
};
const COMPOSITION_ROOTS = new Set(['cli/main.ts', 'cli/engram.ts', 'daemon.ts', 'mcp/server.ts']);

type Sources = Map<string, string>; // path under src/ → text

function capabilityOf(path: string): string {
  return path.includes('/') ? path.split('/')[0]! : path;
}

export function importViolations(sources: Sources): string[] {
  const violations: string[] = [];
  for (const [path, text] of sources) {
    const from = capabilityOf(path);
    const fromLayer = LAYERS[from];
    if (fromLayer === undefined) {
      violations.push(`${path}: capability "${from}" has no layer; add it to ARCHITECTURE.md and this test`);
      continue;
    }
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
      const target = normalize(join(dirname(path), match[1]!))
        .replace(/\\/g, '/')
        .replace(/\.js$/, '.ts');
      const to = capabilityOf(target);
      if (to === from) continue;
      const toLayer = LAYERS[to];
      if (toLayer === undefined || toLayer > fromLayer || (toLayer === fromLayer && !KERNEL.has(to))) {
        violations.push(`${path} imports ${target}: ${from} (layer ${fromLayer}) may not depend on ${to} (layer ${toLayer ?? '?'})`);
      } else if (!KERNEL.has(to) && to !== 'daemon.ts' && target !== `${to}/index.ts`) {
        violations.push(`${path} imports ${target}: go through ${to}/index.ts, the capability's public face`);
      }
    }
    if (!COMPOSITION_ROOTS.has(path) && /process\.env\b/.test(text)) {
      violations.push(`${path} reads process.env: only composition roots (${[...COMPOSITION_ROOTS].join(', ')}) read configuration`);
    }
  }
  return violations;
}

function readSources(dir: string, root = dir, out: Sources = new Map()): Sources {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) readSources(abs, root, out);
    else if (entry.name.endsWith('.ts')) out.set(relative(root, abs).replace(/\\/g, '/'), readFileSync(abs, 'utf8'));
  }
  return out;
}

test('src/ has no import that points the wrong way', () => {
  const sources = readSources(join(REPO, 'src'));
  assert.ok(sources.size > 10, 'the walker found the sources');
  assert.deepEqual(importViolations(sources), []);
});

test('the checker catches upward imports, back doors and stray configuration reads', () => {
  const bad: Sources = new Map([
    ['vault/parse.ts', "import { x } from '../index/index.js';\n"],
    ['index/db.ts', "import { y } from '../vault/links.js';\nconst v = process.env.X;\n"],
    ['weird/a.ts', ''],
  ]);
  const found = importViolations(bad).join('\n');
  assert.match(found, /vault\/parse\.ts imports index\/index\.ts: vault \(layer 1\) may not depend on index \(layer 2\)/);
  assert.match(found, /index\/db\.ts imports vault\/links\.ts: go through vault\/index\.ts/);
  assert.match(found, /index\/db\.ts reads process\.env/);
  assert.match(found, /capability "weird" has no layer/);
});
