/**
 * The MCP server: Engram's tools, registered by group, over whatever transport the caller
 * connects (stdio for Claude Code, Streamable HTTP on 127.0.0.1 for other clients).
 */
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { argumentsProblem, nearestName } from './arguments.js';
import type { VaultEngine } from './engine.js';
import { ERROR_META_KEY, guarded } from './results.js';
import { TOOL_FAMILIES, type ToolContext } from './tools/index.js';
import { newIdentity, runAs, type SessionIdentity } from './identity.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

export const SERVER_INSTRUCTIONS = [
  'Engram is the persistent memory of this Obsidian vault, shared by every session.',
  "Call `onboard` first: it returns the vault's rules (where agents may write), a guide to the tools, and the index status.",
  'Find with `search_brain` (or `context_bundle` to answer a question), read with `read_note`, and cite notes by path and lines.',
  "Write back what you learn under Claude/ (log_session, capture, upsert_concept, add_task); anything else is the human's and is only previewed until they approve.",
].join(' ');

export interface SessionOptions {
  /** How the session is served, as `onboard` says it. */
  serving?: string;
  /** The session's id when the client side chose it (a relay keeps one across daemon restarts). */
  sessionId?: string | undefined;
  /** Told once the client has initialized (its name is then known). */
  onInitialized?: (identity: SessionIdentity) => void;
}

/** Each server's tools' argument schemas, for `connectServer`'s check before the SDK's. */
const TOOL_SCHEMAS = new WeakMap<McpServer, ReadonlyMap<string, z.ZodObject>>();

/** A server for one MCP session, with its own identity (see identity.ts) over a shared engine. */
export function createServer(engine: VaultEngine, options: SessionOptions = {}): McpServer {
  const server = new McpServer({ name: 'engram', version }, { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } });
  const identity = newIdentity(options.serving ?? 'served directly by this Engram process', options.sessionId);
  server.server.oninitialized = () => {
    identity.agent ??= server.server.getClientVersion()?.name?.trim() || null;
    options.onInitialized?.(identity);
  };
  const context: ToolContext = { engine, server, identity };
  const schemas = new Map<string, z.ZodObject>();
  for (const tool of TOOL_FAMILIES.flatMap((family) => family(context))) {
    const { handler, inputSchema, ...config } = tool.spec;
    // Strict: a field the tool does not have is refused (tools/list says additionalProperties: false).
    const schema = z.strictObject(lenientNumbers(inputSchema));
    schemas.set(tool.name, schema);
    // A handler's error becomes an `isError` result that says what to do, never a crash.
    server.registerTool(tool.name, { ...config, inputSchema: schema }, (args: Record<string, unknown>) => guarded(() => runAs(identity, () => handler(args))));
  }
  TOOL_SCHEMAS.set(server, schemas);
  return server;
}

/**
 * Connects a server to a transport, answering a `tools/call` the SDK would refuse without a code
 * with a coded tool error that says what to do: `arguments` that is not an object, a tool that
 * does not exist, arguments the tool's schema refuses (a wrong value, an unknown field). The SDK
 * answers those with a raw validation dump and no code, and drops an unknown field silently.
 */
export async function connectServer(server: McpServer, transport: Transport): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage;
  const schemas = TOOL_SCHEMAS.get(server) ?? new Map<string, z.ZodObject>();
  transport.onmessage = (message, extra) => {
    const refusal = screenToolCall(message, schemas);
    if (refusal) void transport.send(refusal);
    else deliver?.(message, extra);
  };
}

function screenToolCall(message: JSONRPCMessage, schemas: ReadonlyMap<string, z.ZodObject>): JSONRPCMessage | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = message.params as Record<string, unknown> | undefined;
  if (params === undefined || params === null || typeof params !== 'object' || typeof params.name !== 'string') {
    return { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'tools/call needs params.name, the name of a tool from tools/list, and params.arguments, an object of its parameters' } };
  }
  const refused = (code: 'INVALID_INPUT' | 'NOT_FOUND', text: string): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id: message.id,
    result: { content: [{ type: 'text', text: `[${code}] ${text}` }], isError: true, _meta: { [ERROR_META_KEY]: code } },
  });
  const name = params.name;
  const schema = schemas.get(name);
  if (schema === undefined) {
    if (schemas.size === 0) return null; // a server createServer did not make: the SDK answers
    const near = nearestName(name, [...schemas.keys()]);
    return refused('NOT_FOUND', `there is no tool "${name.slice(0, 80)}"${near ? ` (did you mean "${near}"?)` : ''}; tools/list names every tool`);
  }
  const args = params.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    const got = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
    return refused('INVALID_INPUT', `${name}: arguments must be an object of named parameters, like {"path": "Notes/A.md"}, not ${got}; tools/list shows each tool's parameters`);
  }
  const problem = argumentsProblem(name, schema, args);
  return problem === null ? null : refused('INVALID_INPUT', problem);
}

/**
 * A tool's parameters with numeric strings accepted wherever a number is: generic clients (the
 * MCP Inspector's forms among them) send `"2"` for a number field. The advertised JSON schema is
 * unchanged (a preprocess shows its inner schema); anything but a plain decimal string is left
 * for the schema to refuse.
 */
export function lenientNumbers(shape: Record<string, z.ZodType>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, acceptsNumber(field) ? z.preprocess(numericString, field) : field]));
}

function numericString(value: unknown): unknown {
  return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

function acceptsNumber(schema: z.ZodType): boolean {
  const def = schema.def as { type: string; innerType?: z.ZodType; options?: z.ZodType[]; values?: unknown[] };
  switch (def.type) {
    case 'number':
      return true;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return def.innerType !== undefined && acceptsNumber(def.innerType);
    case 'union':
      return (def.options ?? []).some(acceptsNumber);
    case 'literal':
      return (def.values ?? []).some((value) => typeof value === 'number');
    default:
      return false;
  }
}
