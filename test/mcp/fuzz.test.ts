/**
 * Fuzzing the MCP surface: thousands of random and hostile argument objects, sent through the
 * real SDK client to every tool the server lists (so a new tool is fuzzed without touching this
 * file). Each call must answer (no throw, except the JSON-RPC error for arguments that are not
 * an object), within a few seconds, with a well-formed result (text content; structured content
 * when it is not an error; never an "internal error" or an output-schema violation), without
 * the planted secret; and the vault must be byte-for-byte and mtime-for-mtime unchanged after.
 *
 * Reproducible: case i draws from `seededRandom(caseSeed(SEED, i))` and goes to tool
 * `i % tools.length`. A failure prints the seed, the case, the tool and the arguments; replay
 * one case with `FUZZ_CASE=i` (and `FUZZ_SEED=…` for another seed).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { seededRandom } from '../../bench/generate-vault.js';
import { ARGUMENTS_REMEDY } from '../../src/mcp/arguments.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

/** Calls in one run: ~270 per tool with 11 tools. */
const CALLS = 3_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_315);
/** Replays one case (its index) instead of the whole run. */
const ONLY_CASE = process.env.FUZZ_CASE === undefined ? null : Number(process.env.FUZZ_CASE);
/**
 * A call slower than this is a hang (not a speed limit: a loaded machine is slow, so it is generous). `Promise.race` catches a call that never answers; a handler
 * that blocks the event loop is caught afterwards by the elapsed time (an endless synchronous
 * loop would stall the whole file: no in-process timer can interrupt it).
 */
const CALL_TIMEOUT_MS = 60_000;
/** Stop early after this many failures: the first ones say enough. */
const MAX_FAILURES = 25;
const SECRET = 'sk-fake-not-a-secret';

type Rng = () => number;
type CaseKind = 'valid' | 'edgy' | 'mutated' | 'junk-keys' | 'random-object' | 'non-object';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
}

const int = (r: Rng, n: number): number => Math.floor(r() * n);
const pick = <T>(r: Rng, items: readonly T[]): T => items[int(r, items.length)]!;
const chance = (r: Rng, p: number): boolean => r() < p;

function caseSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Pools of values. None contains the secret, so an echo of the input can never contain it.

const LONG = {
  x10k: 'x'.repeat(10_000),
  x10k1: 'y'.repeat(10_001),
  words10k: 'tantivy atlas '.repeat(715).slice(0, 10_000),
  accents10k: 'é'.repeat(10_000),
  emoji5k: '🦀'.repeat(2_500),
  path2k: 'a/'.repeat(1_000),
  segment300: `${'n'.repeat(300)}.md`,
  path1024: `${'p/'.repeat(509)}Atlas.md`.slice(0, 1_024),
  path1025: `${'q/'.repeat(510)}Atlas.md`.slice(0, 1_025),
  dots2k: '../'.repeat(667),
};

const UNICODE = [
  '\uD800',
  '\uDFFF',
  'a\uD83Dz',
  '\uDC00\uD800',
  '\u202Egpj.md',
  '\u200F',
  '\u200E',
  '\u061C',
  '\u2066Atlas\u2069',
  'x\u0000y',
  '\u0000',
  '\u0007',
  '\u001b[31mred',
  '🦀🔥',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  'Ａｔｌａｓ',
  'İstanbul',
  'ß',
  'ﬁ',
  '项目 Atlas',
  'Atlas项目',
  'שלום עולם',
  'مرحبا',
  '\u2028',
  '\u2029',
  '\uFEFF',
  '\t\r\n',
  '\r',
  'Ω≈ç√∫',
  '\u{10FFFF}',
  'Atlas\u0000.md',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '\u00A0',
  '\u3000',
  '゛',
];

const NAN_LIKE = ['NaN', 'Infinity', '-Infinity', '1e9', '-1', '0', '-0', '0x10', ' 10 ', '1_000', 'null', 'undefined', 'true', '[]', '{}'];

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  -1.5,
  2,
  10,
  99,
  100,
  101,
  199,
  200,
  201,
  499,
  500,
  501,
  4000,
  10_000,
  20_000,
  50_000,
  50_001,
  200_000,
  200_001,
  1e9,
  -1e9,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  -(2 ** 53),
  2 ** 53 + 2,
  1e308,
  -1e308,
  5e-324,
  // These cross the wire as null, as JSON makes them.
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

const NOTE_PATHS = Object.keys(MCP_VAULT).filter((path) => !path.startsWith('.'));
const VALID_PATHS = [...NOTE_PATHS, 'projects/atlas', 'PROJECTS/ATLAS.MD', 'Glossary', 'People/Lena', 'Projects/Decisions', 'Claude/README'];

/** Paths made at run time (the vault's absolute location) join these. */
const HOSTILE_PATHS = [
  '..',
  '../',
  '../outside.md',
  '../../etc/passwd',
  '../vault/Projects/Atlas.md',
  '../home/state.db',
  '..%2f..%2fetc%2fpasswd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e/%2e%2e/x.md',
  '%2E%2E%2Fx.md',
  '%252e%252e/x.md',
  '%25252e%25252e%25252fx.md',
  '%c0%ae%c0%ae/x.md',
  '..%5c..%5cx.md',
  '..\\..\\x.md',
  'Projects/../../x.md',
  'Projects/%2e%2e/%2e%2e/x.md',
  'Projects/../Glossary.md',
  '/etc/passwd',
  '/',
  '//',
  '/Projects/Atlas.md',
  '~/x.md',
  '~',
  '$HOME/x.md',
  '%HOME%/x.md',
  'C:\\',
  'C:\\Windows\\win.ini',
  'C:/x.md',
  'c:x.md',
  'C:',
  '\\\\server\\share',
  '\\\\server\\share\\x.md',
  '//server/share/x.md',
  '\\\\?\\C:\\x.md',
  'file:///etc/passwd',
  'https://example.com/x.md',
  'obsidian://open?vault=x&file=Atlas',
  '.obsidian/plugins/fake-sync/data.json',
  '.obsidian/plugins/fake-sync/data',
  '.obsidian/plugins/fake-sync/data.json.md',
  '.obsidian%2fplugins%2ffake-sync%2fdata.json',
  '%2eobsidian/plugins/fake-sync/data.json',
  '%252eobsidian/plugins/fake-sync/data.json',
  'Projects/../.obsidian/plugins/fake-sync/data.json',
  './.obsidian/plugins/fake-sync/data.json',
  '.OBSIDIAN/plugins/fake-sync/data.json',
  '.obsidian\\plugins\\fake-sync\\data.json',
  '.obsidian',
  '.obsidian/',
  '.smart-env/smart_env.json',
  '.smart-env/multi/x.ajson',
  '.smart-env',
  '.git/config',
  '.trash/x.md',
  '.md',
  'Projects/.md',
  '.',
  './',
  '...',
  '..../x.md',
  '....//x.md',
  // Symlinks planted in the vault for this test (see `plantSymlinks`).
  'Leak.md',
  'Leak',
  'leak.md',
  'Plugins/fake-sync/data.json',
  'Plugins/fake-sync/data',
  'Plugins/fake-sync/data.json.md',
  'Escape/vault/.obsidian/plugins/fake-sync/data.json',
  'Escape/vault/Projects/Atlas.md',
  'Escape/home/state.db',
  'Escape/home',
  'Escape/../../etc/passwd',
  'Loop.md',
  'Loop',
  'Loop.md/x.md',
  'Dangling.md',
  'Dangling.md/x.md',
  'Projects',
  'Projects/',
  'Projects/Atlas.md/',
  'Projects/Atlas.md/child.md',
  'Projects/Atlas.md:secret',
  'Projects/Atlas.md::$DATA',
  'Projects\\Atlas.md',
  'Projects//Atlas.md',
  './Projects/Atlas.md',
  ' Projects/Atlas.md ',
  'Projects/Atlas.md%00.png',
  'Projects/Atlas.md\u0000',
  'Projects/Atlas.md\n',
  'Projects/Atlas',
  'Projects/Atlas.MD',
  'Projects/Atlas.markdown',
  'Projects/Atlas.md.bak',
  'NUL',
  'CON.md',
  'aux',
  '%',
  '%%',
  '%zz',
  '100% done.md',
  '%2',
  '%%32%65%%32%65/x.md',
  '*',
  '*.md',
  '**/*.md',
  '?',
  '[Atlas]',
  '[[Atlas]]',
  LONG.path2k,
  LONG.segment300,
  LONG.path1024,
  LONG.path1025,
  LONG.dots2k,
  `Projects/${'x'.repeat(2_000)}.md`,
];

const QUERIES = [
  'tantivy',
  'atlas',
  'Tantivy cutover',
  'Lena pgvector',
  'BM25 ranking',
  'search migration',
  'Decisions',
  'project/atlas',
  '#project/atlas',
  '[[Atlas]]',
  'Atlas#Tasks',
  'Claude/Sessions',
  'load test',
  'D1',
  '2026-04-20',
  '⏫',
  '📅',
  'foo-bar',
  'c++',
  'C#',
  'f#',
  '.net',
  '"unbalanced',
  'unbalanced"',
  '"tantivy',
  '"atlas tantivy"',
  'NEAR',
  'NEAR(atlas tantivy)',
  'atlas NEAR/2 tantivy',
  'atlas AND OR NOT',
  'NOT',
  'OR',
  'AND',
  'atlas -tantivy',
  '+atlas',
  '-',
  '*',
  'atl*',
  '*las',
  'title:atlas',
  'path:Projects',
  '^atlas',
  'atlas^2',
  '(atlas',
  'atlas)',
  '(a+)+$',
  '(.*a){20}',
  '.*',
  '[a-z',
  '\\',
  '\\d+\\w*',
  '$^|?',
  '{1,2}',
  '\\b',
  '(?<=a)b',
  '[[:alpha:]]',
  'the of and a',
  'the',
  'a an the',
  'to be or not to be',
  'is it',
  '!!!',
  '...',
  '---',
  '%',
  '%%',
  '→',
  '_',
  "'",
  '’',
  '"',
  '""',
  "''",
  '``',
  ' ',
  '  ',
  '\t',
  '\n',
  '--',
  '-- drop table notes;',
  "'; DROP TABLE notes; --",
  '%_',
  'sk-fake',
  'apiKey',
  'fake-sync',
  'data.json',
  'smart_env',
  '.obsidian',
  'plugins',
  '*:*',
  'MATCH',
  'rank',
  'bm25(notes)',
  'x'.repeat(40),
  'getUserName',
  'snake_case',
  'INC-212',
  "don't",
  'Núñez',
  'ATLAS',
  'aTlAs',
  'atlas atlas atlas atlas',
  '1',
  '0',
  '-1',
  'é',
];

const DATES = [
  '2026-03-12',
  '2000-01-01',
  '1970-01-01',
  '1969-12-31',
  '9999-12-31',
  '0000-00-00',
  '0001-01-01',
  '2026-13-45',
  '2026-02-30',
  '2026-3-1',
  'tomorrow',
  'yesterday',
  'now',
  'today',
  '',
  ' ',
  '2026-03-12T10:00:00Z',
  '2026-03-12T25:00',
  '2026-03-12T10:00:00+14:00',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-14T00:00:00.000Z',
  '275760-09-13',
  '99999-01-01',
  '1',
  '0',
  '-1',
  '1e9',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  '2026-03-12; DROP TABLE notes',
  'Mar 12 2026',
  '12/03/2026',
  '2026-03-12\u0000',
  '２０２６-０３-１２',
  '2026-03-12 ',
  ' 2026-03-12',
  'P1D',
  '@1700000000',
];

const FOLDERS = [
  'Projects',
  'Claude',
  'Claude/Sessions',
  'claude/sessions',
  'CLAUDE',
  'People',
  '/Projects/',
  'Projects/',
  '/',
  '//',
  '',
  ' ',
  '.',
  '..',
  '../..',
  '.obsidian',
  '.obsidian/plugins',
  '.smart-env',
  '*',
  '**',
  'Projects/*',
  '%2e%2e',
  'C:\\',
  '\\\\server\\share',
  'Projects\\',
  'Sessions',
  'Claude//Sessions',
  ' Claude / Sessions ',
  'Nope',
  'Projects/Atlas.md',
];

const FIELDS = [
  'type',
  'status',
  'priority',
  'due',
  'tags',
  'aliases',
  'title',
  'path',
  'modified',
  'created',
  'agent',
  'project',
  'TYPE',
  'Status',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'length',
  'a.b',
  'tags.0',
  'tags[0]',
  '$.type',
  "type'; --",
  'type"',
  '*',
  '%',
  ' ',
];

const TAGS = ['project', 'project/atlas', '#project', '#', '##', 'project/', '/', 'atlas', 'PROJECT', '#project/atlas/', '*', 'nope'];
const TYPES = ['project', 'decision', 'person', 'Project', ' project ', 'nope', ''];

// ---------------------------------------------------------------------------------------------
// Generators.

interface Pools {
  paths: string[];
}

function stringFor(r: Rng, name: string, pools: Pools): string {
  if (chance(r, 0.12)) return genericString(r);
  const lower = name.toLowerCase();
  if (lower.includes('path')) return pathString(r, pools);
  if (lower.includes('query') || lower === 'project') return queryString(r);
  if (/since|after|before|date|due/.test(lower)) return pick(r, DATES);
  if (lower.includes('folder')) return chance(r, 0.8) ? pick(r, FOLDERS) : pathString(r, pools);
  if (lower === 'field' || lower === 'sort') return pick(r, FIELDS);
  if (lower.includes('tag')) return pick(r, TAGS);
  if (lower.includes('type')) return pick(r, TYPES);
  return genericString(r);
}

function pathString(r: Rng, pools: Pools): string {
  const roll = r();
  if (roll < 0.25) return pick(r, VALID_PATHS);
  if (roll < 0.85) return pick(r, pools.paths);
  // A hostile prefix or suffix on a real note.
  const valid = pick(r, VALID_PATHS);
  const hostile = pick(r, pools.paths);
  return chance(r, 0.5) ? `${hostile}/${valid}` : `${valid}${pick(r, ['/', '\\', '', '%2f', '/../'])}${hostile}`;
}

function queryString(r: Rng): string {
  const roll = r();
  if (roll < 0.7) return pick(r, QUERIES);
  if (roll < 0.85) return `${pick(r, QUERIES)} ${pick(r, QUERIES)}`;
  if (roll < 0.95) return `${pick(r, QUERIES)}${pick(r, UNICODE)}${pick(r, QUERIES)}`;
  return pick(r, [LONG.x10k, LONG.x10k1, LONG.words10k, LONG.accents10k, LONG.emoji5k]);
}

function genericString(r: Rng): string {
  const roll = r();
  if (roll < 0.3) return pick(r, UNICODE);
  if (roll < 0.45) return pick(r, NAN_LIKE);
  if (roll < 0.55) return pick(r, ['', ' ', '\t', '\n']);
  if (roll < 0.62) return pick(r, Object.values(LONG));
  if (roll < 0.8) return pick(r, QUERIES);
  return randomString(r, 1 + int(r, 40));
}

/** Random code points from ranges chosen to hit controls, surrogates, marks, RTL and emoji. */
function randomString(r: Rng, length: number): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0x00, 0x1f],
    [0x80, 0x24f],
    [0x300, 0x36f],
    [0x590, 0x6ff],
    [0x2000, 0x206f],
    [0x4e00, 0x4e80],
    [0xd800, 0xdfff],
    [0xfff0, 0xffff],
    [0x1f300, 0x1f64f],
  ];
  let out = '';
  for (let i = 0; i < length; i++) {
    const [lo, hi] = pick(r, ranges);
    const code = lo + int(r, hi - lo + 1);
    // Lone surrogates are one UTF-16 unit; fromCodePoint takes them as they are.
    out += String.fromCodePoint(code);
  }
  return out;
}

function numberFor(r: Rng, schema: JsonSchema): number {
  const { minimum: min, maximum: max } = schema;
  const bounds: number[] = [];
  if (min !== undefined) bounds.push(min, min - 1, min + 1);
  if (max !== undefined) bounds.push(max, max + 1, max - 1);
  if (min !== undefined && max !== undefined && chance(r, 0.4)) {
    const value = min + r() * (max - min);
    return schema.type === 'integer' ? Math.round(value) : value;
  }
  if (bounds.length > 0 && chance(r, 0.5)) return pick(r, bounds);
  return pick(r, NUMBERS);
}

function typesOf(schema: JsonSchema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
}

/**
 * A value shaped by the schema. `valid`: inside every bound the schema states (so the call
 * reaches the handler, where the interesting code is); otherwise mostly right, sometimes at or
 * over its edges.
 */
function fromSchema(r: Rng, schema: JsonSchema, name: string, pools: Pools, valid: boolean, depth = 0): unknown {
  if (schema.enum !== undefined && schema.enum.length > 0) {
    if (valid || chance(r, 0.85)) return pick(r, schema.enum);
    const known = String(pick(r, schema.enum));
    return pick(r, [known.toUpperCase(), ` ${known}`, `${known}\u0000`, '', 'all', 'none', known.slice(1)]);
  }
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) return fromSchema(r, pick(r, schema.anyOf), name, pools, valid, depth);
  const types = typesOf(schema);
  switch (types.length === 0 ? 'any' : pick(r, types)) {
    case 'string': {
      const value = stringFor(r, name, pools);
      if (!valid) return value;
      // Kept inside the length bounds; hostile content, valid shape.
      const clipped = schema.maxLength === undefined ? value : value.slice(0, schema.maxLength);
      return clipped.length >= (schema.minLength ?? 0)
        ? clipped
        : pick(
            r,
            QUERIES.filter((query) => query.length >= (schema.minLength ?? 0)),
          );
    }
    case 'integer':
    case 'number': {
      if (!valid) return numberFor(r, schema);
      const min = schema.minimum ?? -1e6;
      const max = schema.maximum ?? 1e6;
      const value = chance(r, 0.3) ? pick(r, [min, max]) : min + r() * (max - min);
      return schema.type === 'integer' ? Math.round(value) : value;
    }
    case 'boolean':
      return valid || chance(r, 0.9) ? chance(r, 0.5) : pick(r, ['true', 0, 1, null]);
    case 'array': {
      if (depth > 3) return [];
      const max = schema.maxItems;
      let n = !valid && max !== undefined && chance(r, 0.05) ? max + int(r, 2) : pick(r, [0, 1, 1, 2, 3, 5]);
      if (valid && max !== undefined) n = Math.min(n, max);
      return Array.from({ length: n }, () => fromSchema(r, schema.items ?? {}, name, pools, valid, depth + 1));
    }
    case 'object': {
      if (depth > 3) return {};
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || chance(r, valid ? 0.4 : 0.6)) out[key] = fromSchema(r, property, key, pools, valid, depth + 1);
      }
      return out;
    }
    default:
      return valid ? stringFor(r, name, pools) : hostileValue(r, pools, depth);
  }
}

/** Anything at all: wrong types, edges, nesting, hostile strings. */
function hostileValue(r: Rng, pools: Pools, depth = 0): unknown {
  const roll = int(r, depth > 2 ? 10 : 14);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return pick(r, [true, false]);
    case 2:
      return pick(r, NUMBERS);
    case 3:
      return pick(r, NAN_LIKE);
    case 4:
      return genericString(r);
    case 5:
      return pathString(r, pools);
    case 6:
      return queryString(r);
    case 7:
      return pick(r, DATES);
    case 8:
      return pick(r, FIELDS);
    case 9:
      return pick(r, UNICODE);
    case 10:
      return Array.from({ length: int(r, 4) }, () => hostileValue(r, pools, depth + 1));
    case 11: {
      const out: Record<string, unknown> = {};
      for (let i = int(r, 4); i > 0; i--) out[pick(r, [...FIELDS, 'path', 'query', 'op', 'value', 'field'])] = hostileValue(r, pools, depth + 1);
      return out;
    }
    case 12: {
      // Deep nesting.
      let value: unknown = pick(r, QUERIES);
      for (let i = 0; i < 64; i++) value = chance(r, 0.5) ? [value] : { a: value };
      return value;
    }
    default:
      return pick<unknown>(r, [[pick(r, VALID_PATHS)], { 0: 'Projects/Atlas.md', length: 1 }, { toString: 'x', valueOf: 1 }, [[]], [{}], {}, []]);
  }
}

interface Case {
  index: number;
  tool: string;
  kind: CaseKind;
  args: unknown;
}

function generateCase(index: number, tool: Tool, allNames: readonly string[], pools: Pools): Case {
  const r = seededRandom(caseSeed(SEED, index));
  const schema = tool.inputSchema as JsonSchema;
  const properties = Object.keys(schema.properties ?? {});
  const roll = r();
  const kind: CaseKind = roll < 0.35 ? 'valid' : roll < 0.55 ? 'edgy' : roll < 0.8 ? 'mutated' : roll < 0.9 ? 'junk-keys' : roll < 0.96 ? 'random-object' : 'non-object';
  const base = (valid: boolean) => fromSchema(r, { ...schema, type: 'object' }, tool.name, pools, valid) as Record<string, unknown>;
  let args: unknown;
  switch (kind) {
    case 'valid':
    case 'edgy':
      args = base(kind === 'valid');
      break;
    case 'mutated': {
      const out = base(true);
      const keys = properties.length > 0 ? properties : ['path'];
      for (let i = 1 + int(r, 3); i > 0; i--) {
        const key = pick(r, keys);
        if (chance(r, 0.1)) delete out[key];
        else out[key] = hostileValue(r, pools);
      }
      args = out;
      break;
    }
    case 'junk-keys': {
      const out = base(true);
      for (let i = 1 + int(r, 3); i > 0; i--) {
        const key = pick(r, ['__proto__', 'constructor', 'prototype', 'toString', '', ' ', 'path\u0000', '\uD800', 'x'.repeat(1_000), ...properties.map((p) => p.toUpperCase()), ...properties.map((p) => `${p} `)]);
        // An own property even for `__proto__`, as JSON.parse on the server side would make it.
        Object.defineProperty(out, key, { value: hostileValue(r, pools), enumerable: true, configurable: true, writable: true });
      }
      args = out;
      break;
    }
    case 'random-object': {
      const out: Record<string, unknown> = {};
      for (let i = int(r, 7); i > 0; i--) {
        const key = pick(r, allNames);
        out[key] = chance(r, 0.5) ? hostileValue(r, pools) : fromSchema(r, {}, key, pools, false);
      }
      args = out;
      break;
    }
    case 'non-object':
      args = pick(r, [null, [], ['Projects/Atlas.md'], 'Projects/Atlas.md', 42, true, [{ path: 'Projects/Atlas.md' }]]);
      break;
  }
  // What a real client can send: the arguments as JSON (NaN and Infinity become null, lone
  // surrogates survive as escapes, an own `__proto__` key stays an own key).
  return { index, tool: tool.name, kind, args: JSON.parse(JSON.stringify(args)) as unknown };
}

// ---------------------------------------------------------------------------------------------
// The vault on disk, and symlinks planted in it.

function snapshotVault(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const path = rel === '' ? name : `${rel}/${name}`;
      const stat = lstatSync(abs);
      if (stat.isSymbolicLink()) out.push(`${path} -> ${readlinkSync(abs)} mtime=${stat.mtimeMs}`);
      else if (stat.isDirectory()) {
        out.push(`${path}/ mtime=${stat.mtimeMs}`);
        walk(abs, path);
      } else out.push(`${path} size=${stat.size} mtime=${stat.mtimeMs} sha1=${createHash('sha1').update(readFileSync(abs)).digest('hex')}`);
    }
  };
  out.push(`./ mtime=${lstatSync(root).mtimeMs}`);
  walk(root, '');
  return out;
}

/** Symlinks a careless gate would follow: to the secret, into .obsidian, out of the vault, a loop, a dangling one. */
function plantSymlinks(root: string): boolean {
  try {
    symlinkSync('.obsidian/plugins/fake-sync/data.json', join(root, 'Leak.md'));
    symlinkSync('.obsidian/plugins', join(root, 'Plugins'), 'dir');
    symlinkSync('..', join(root, 'Escape'), 'dir');
    symlinkSync('Loop.md', join(root, 'Loop.md'));
    symlinkSync('Nowhere/missing.md', join(root, 'Dangling.md'));
    return true;
  } catch {
    return false; // e.g. Windows without the symlink privilege: the string cases still run
  }
}

// ---------------------------------------------------------------------------------------------
// One call, judged.

type Outcome = { kind: 'result'; value: unknown } | { kind: 'threw'; error: unknown } | { kind: 'timeout' };

function problemsWith(fuzzCase: Case, outcome: Outcome, elapsedMs: number): string[] {
  const problems: string[] = [];
  if (elapsedMs > CALL_TIMEOUT_MS) problems.push(`took ${Math.round(elapsedMs)} ms (limit ${CALL_TIMEOUT_MS} ms)`);
  if (outcome.kind === 'timeout') return [...problems, `no answer within ${CALL_TIMEOUT_MS} ms`];
  if (outcome.kind === 'threw') {
    const { error } = outcome;
    // No JSON-RPC error is expected: even `arguments` that is not an object gets an isError
    // result saying so (the SDK alone answered -32603 with a raw validation dump).
    problems.push(`the client threw: ${error instanceof McpError ? `McpError ${error.code}: ` : ''}${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
    return problems;
  }
  const result = outcome.value as { content?: unknown; structuredContent?: unknown; isError?: unknown } | null;
  let serialized = '';
  try {
    serialized = JSON.stringify(result);
  } catch (error) {
    problems.push(`the result cannot be serialized as JSON: ${String(error)}`);
  }
  if (serialized.includes(SECRET)) problems.push('the result contains the planted secret');
  if (typeof result !== 'object' || result === null) return [...problems, `the result is not an object: ${serialized.slice(0, 200)}`];
  const { content, structuredContent, isError } = result;
  if (!Array.isArray(content) || content.length === 0) problems.push('content is not a non-empty array');
  else {
    for (const item of content as unknown[]) {
      const entry = item as { type?: unknown; text?: unknown } | null;
      if (typeof entry !== 'object' || entry === null || entry.type !== 'text' || typeof entry.text !== 'string') {
        problems.push(`a content item is not {type:'text', text: string}: ${JSON.stringify(item)?.slice(0, 200)}`);
      }
    }
  }
  if (isError !== undefined && typeof isError !== 'boolean') problems.push(`isError is ${typeof isError}, not a boolean`);
  const text = Array.isArray(content) ? (content as { text?: unknown }[]).map((item) => (typeof item?.text === 'string' ? item.text : '')).join('\n') : '';
  if (isError === true) {
    if (text.trim() === '') problems.push('an error with no message');
    // Caught by the tool's guard or the SDK, but still a bug: an unexpected throw, or a
    // structured result that breaks the tool's own output schema.
    if (/^internal error:/.test(text)) problems.push(`the handler threw unexpectedly: ${text.slice(0, 300)}`);
    if (/Output validation error/i.test(text)) problems.push(`the result broke the tool's output schema: ${text.slice(0, 300)}`);
    // Every refusal an agent gets leads with its code: schema failures and unknown fields too.
    else if (!/^\[[A-Z_]+\] /.test(text) && !/^internal error:/.test(text)) problems.push(`an error without a code: ${text.slice(0, 300)}`);
  } else if (typeof structuredContent !== 'object' || structuredContent === null || Array.isArray(structuredContent)) {
    problems.push('a non-error result without a structuredContent object');
  }
  return problems;
}

function preview(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 400 ? `${json.slice(0, 400)}… (${json.length} chars)` : json;
}

test(`fuzz: ${CALLS} random and hostile calls to every tool (seed ${SEED})`, { timeout: 180_000 }, async (t) => {
  const { client, vault } = await connectFixture(t, MCP_VAULT);
  vault.write('.smart-env/smart_env.json', JSON.stringify({ token: SECRET }));
  const symlinks = plantSymlinks(vault.root);
  const pools: Pools = {
    paths: [
      ...HOSTILE_PATHS,
      vault.root,
      `${vault.root}/`,
      join(vault.root, 'Projects/Atlas.md'),
      join(vault.root, '.obsidian/plugins/fake-sync/data.json'),
      join(vault.home, 'state.db'),
      vault.root.replace(/\//g, '\\'),
      `file://${join(vault.root, 'Projects/Atlas.md')}`,
    ],
  };
  const before = snapshotVault(vault.root);

  const { tools } = await client.listTools();
  assert.ok(tools.length > 0, 'the server lists tools');
  const allNames = [...new Set(tools.flatMap((tool) => Object.keys((tool.inputSchema as JsonSchema).properties ?? {})))];

  const failures: string[] = [];
  /** Per tool: calls, calls that passed input validation (reached the handler), isError results, JSON-RPC errors. */
  const stats = new Map<string, { calls: number; handled: number; errors: number; rpcErrors: number; slowestMs: number }>();
  const started = performance.now();
  const indexes = ONLY_CASE === null ? Array.from({ length: CALLS }, (_, i) => i) : [ONLY_CASE];
  for (const index of indexes) {
    const tool = tools[index % tools.length]!;
    const fuzzCase = generateCase(index, tool, allNames, pools);
    assert.ok(!JSON.stringify(fuzzCase.args).includes(SECRET), 'the generators never send the secret');
    if (ONLY_CASE !== null) t.diagnostic(`case ${index}: ${fuzzCase.tool} (${fuzzCase.kind}) ${preview(fuzzCase.args)}`);

    let timer: NodeJS.Timeout | undefined;
    const callStarted = performance.now();
    const call = client.callTool({ name: fuzzCase.tool, arguments: fuzzCase.args as Record<string, unknown> }).then(
      (value): Outcome => ({ kind: 'result', value }),
      (error: unknown): Outcome => ({ kind: 'threw', error }),
    );
    const timeout = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), CALL_TIMEOUT_MS);
    });
    const outcome = await Promise.race([call, timeout]);
    clearTimeout(timer);
    const elapsedMs = performance.now() - callStarted;

    const stat = stats.get(fuzzCase.tool) ?? { calls: 0, handled: 0, errors: 0, rpcErrors: 0, slowestMs: 0 };
    stat.calls++;
    stat.slowestMs = Math.max(stat.slowestMs, elapsedMs);
    if (outcome.kind === 'threw') stat.rpcErrors++;
    if (outcome.kind === 'result') {
      const value = outcome.value as { isError?: boolean; content?: { text?: string }[] };
      if (value.isError === true) stat.errors++;
      // Refused by the schema check (Engram's, before the SDK's): it never reached the handler.
      if (!(value.isError === true && (value.content?.[0]?.text ?? '').endsWith(ARGUMENTS_REMEDY))) stat.handled++;
    }
    stats.set(fuzzCase.tool, stat);

    const problems = problemsWith(fuzzCase, outcome, elapsedMs);
    if (problems.length > 0) {
      failures.push(`seed ${SEED} case ${index} (FUZZ_SEED=${SEED} FUZZ_CASE=${index}) ${fuzzCase.tool} [${fuzzCase.kind}] args=${preview(fuzzCase.args)}\n    ${problems.join('\n    ')}`);
      if (failures.length >= MAX_FAILURES) break;
    }
  }
  const totalMs = performance.now() - started;

  const ran = [...stats.values()].reduce((sum, stat) => sum + stat.calls, 0);
  t.diagnostic(`${ran} calls in ${Math.round(totalMs)} ms; symlinks planted: ${symlinks}`);
  for (const [name, stat] of stats) {
    t.diagnostic(
      `${name}: ${stat.calls} calls, ${stat.handled} past input validation, ${stat.calls - stat.errors - stat.rpcErrors} answered, ${stat.errors} isError, ${stat.rpcErrors} JSON-RPC errors, slowest ${Math.round(stat.slowestMs)} ms`,
    );
  }
  if (ONLY_CASE === null && failures.length < MAX_FAILURES) {
    // The generators must keep reaching the handlers, not only the schema check.
    for (const tool of tools) {
      const stat = stats.get(tool.name);
      assert.ok(stat !== undefined && stat.handled >= stat.calls * 0.25, `${tool.name}: only ${stat?.handled ?? 0} of ${stat?.calls ?? 0} calls got past input validation`);
    }
  }
  assert.deepEqual(failures, [], `${failures.length} failing call(s):\n${failures.join('\n')}`);
  // Write tools may write in the agent folder; nothing else may change — the quarantine, fuzzed.
  const outsideAgentFolder = (entries: string[]) => entries.filter((entry) => !entry.startsWith('Claude/'));
  assert.deepEqual(outsideAgentFolder(snapshotVault(vault.root)), outsideAgentFolder(before), 'nothing outside Claude/ changed');
});
