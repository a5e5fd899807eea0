/**
 * Rewrites the generated parts of docs/: the CLI reference from the commands' own definitions
 * (the objects `engram --help` prints) and the MCP tool reference from the schemas the server
 * registers, listed by a real MCP client. Only the text between markers such as
 * `<!-- generated:cli:index -->` … `<!-- /generated:cli:index -->` is replaced; the prose around
 * them is hand-written. test/docs.test.ts fails when a generated part is stale.
 *
 *   npm run docs:gen            rewrite docs/cli.md and docs/mcp-tools.md
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { COMMON_OPTIONS, type Command, type OptionSpec } from '../src/cli/command.js';
import { EXIT_CODES } from '../src/cli/exit-codes.js';
import { ERROR_CODES, type ErrorCode } from '../src/errors.js';
import { COMMANDS } from '../src/cli/main.js';
import { openStateDb } from '../src/index/index.js';
import { connectServer, createServer, VaultEngine } from '../src/mcp/index.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DOC = 'docs/cli.md';
export const TOOLS_DOC = 'docs/mcp-tools.md';

/** A markdown table cell: pipes escaped, line breaks folded, so the row stays one row. */
function cell(text: string): string {
  return text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function flag(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
  return spec.short ? `\`${long}\`, \`-${spec.short}\`` : `\`${long}\``;
}

function optionRows(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, spec]) => `| ${flag(name, spec)} | ${cell(spec.description)}${spec.multiple ? ' (repeatable)' : ''} |`);
}

export function renderCommand(command: Command): string {
  const usage = `engram ${command.name}${command.positionals ? ` ${command.positionals}` : ''} [options]`;
  const lines = [`\`${usage}\``, '', cell(command.summary), ''];
  const own = optionRows(command.options);
  if (own.length === 0) lines.push('No options of its own beyond the common ones.');
  else lines.push('| option | meaning |', '|---|---|', ...own);
  return lines.join('\n');
}

export function renderCommonOptions(): string {
  return ['| option | meaning |', '|---|---|', ...optionRows(COMMON_OPTIONS)].join('\n');
}

/** The exit status of each error code, from the CLI's own table. */
export function renderExitStatus(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => `| \`${code}\` | ${EXIT_CODES[code]} | ${cell(ERROR_CODES[code])} |`);
  return ['| code | exit status | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The codes an MCP `isError` result can lead with. */
export function renderErrorCodes(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => code !== 'USAGE').map((code) => `| \`${code}\` | ${cell(ERROR_CODES[code])} |`);
  return ['| code | meaning |', '|---|---|', ...rows].join('\n');
}

export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, unknown>; required?: string[] };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

/** A JSON schema's type in a few characters: `string`, `integer`, `string[]`, `a \| b`, `{field, op}[]`. */
function schemaType(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  const variants = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(variants)) return variants.map(schemaType).join(' \\| ');
  if (schema.type === 'array') return `${schemaType((schema.items ?? {}) as Record<string, unknown>)}[]`;
  if (schema.type === 'object' && schema.properties) return `{${Object.keys(schema.properties).join(', ')}}`;
  if (Array.isArray(schema.type)) return schema.type.join(' \\| ');
  return typeof schema.type === 'string' ? schema.type : 'any';
}

export function renderTool(tool: ToolInfo): string {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const hints = readOnly ? 'read-only' : tool.annotations?.destructiveHint ? 'writes; destructive' : 'writes';
  const lines = [`${cell(tool.description ?? '')}`, '', `Hints: ${hints}.`, ''];
  const required = new Set(tool.inputSchema.required ?? []);
  const properties = Object.entries(tool.inputSchema.properties ?? {}) as [string, Record<string, unknown>][];
  if (properties.length === 0) lines.push('No parameters.');
  else {
    lines.push('| parameter | type | required | meaning |', '|---|---|---|---|');
    for (const [name, schema] of properties) {
      lines.push(`| \`${name}\` | ${schemaType(schema)} | ${required.has(name) ? 'yes' : ''} | ${cell(String(schema.description ?? ''))} |`);
    }
  }
  return lines.join('\n');
}

/** The tools as a client sees them: a real server over an empty vault, listed in memory. */
export async function listTools(): Promise<ToolInfo[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-docs-'));
  const vault = join(dir, 'vault');
  const home = join(dir, 'home');
  mkdirSync(vault);
  mkdirSync(home);
  const state = openStateDb(home);
  const engine = new VaultEngine({
    vault,
    stateDir: home,
    db: state.db,
    settings: { model: 'TaylorAI/bge-micro-v2', modelDir: join(home, 'no-models'), offline: true, exclude: [] },
    log: { err: () => {} },
    indexCommand: null,
    watch: false,
  });
  const server = createServer(engine);
  const client = new Client({ name: 'gen-docs', version: '0' });
  try {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await connectServer(server, serverTransport);
    await client.connect(clientTransport);
    return (await client.listTools()).tools as ToolInfo[];
  } finally {
    await client.close();
    await server.close();
    await engine.close();
    state.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const MARKER = /<!-- generated:([a-z]+):([a-z_-]+) -->\n[\s\S]*?<!-- \/generated:\1:\2 -->/g;

/** The keys (`cli:index`, `tool:search_brain`) of every generated part in a document. */
export function generatedKeys(text: string): string[] {
  return [...text.matchAll(MARKER)].map((match) => `${match[1]}:${match[2]}`);
}

/**
 * Replaces each generated part with its new body. A key with no marker yet gets a section of its
 * own at the end (`heading`), so a new command or tool cannot be left out; a marker whose key no
 * longer exists is an error, because its hand-written prose needs a person.
 */
export function fillGenerated(text: string, bodies: Map<string, { heading: string; body: string }>): string {
  const stale = generatedKeys(text).filter((key) => !bodies.has(key));
  if (stale.length > 0) throw new Error(`generated sections with nothing to generate: ${stale.join(', ')}; remove them by hand`);
  let out = text.replace(MARKER, (_all, kind: string, name: string) => `<!-- generated:${kind}:${name} -->\n${bodies.get(`${kind}:${name}`)!.body}\n<!-- /generated:${kind}:${name} -->`);
  const present = new Set(generatedKeys(out));
  for (const [key, { heading, body }] of bodies) {
    if (present.has(key)) continue;
    out = `${out.trimEnd()}\n\n${heading}\n\n<!-- generated:${key} -->\n${body}\n<!-- /generated:${key} -->\n`;
  }
  return out;
}

/** Every generated document as it should be: repository-relative path → full text. */
export async function generatedDocs(root = REPO): Promise<Map<string, string>> {
  const cli = new Map<string, { heading: string; body: string }>([
    ['cli:common', { heading: '## Options every command takes', body: renderCommonOptions() }],
    ...COMMANDS.map((command) => [`cli:${command.name}`, { heading: `## \`engram ${command.name}\``, body: renderCommand(command) }] as const),
    ['cli:exit-status', { heading: '## Exit status', body: renderExitStatus() }],
  ]);
  const tools = new Map([...(await listTools()).map((tool) => [`tool:${tool.name}`, { heading: `### \`${tool.name}\``, body: renderTool(tool) }] as const), ['errors:codes', { heading: '## Error codes', body: renderErrorCodes() }]]);
  return new Map([
    [CLI_DOC, fillGenerated(readFileSync(join(root, CLI_DOC), 'utf8'), cli)],
    [TOOLS_DOC, fillGenerated(readFileSync(join(root, TOOLS_DOC), 'utf8'), tools)],
  ]);
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  for (const [path, text] of await generatedDocs()) {
    const abs = join(REPO, path);
    if (readFileSync(abs, 'utf8') === text) continue;
    writeFileSync(abs, text);
    process.stdout.write(`rewrote ${path}\n`);
  }
}
