/**
 * A tool as data: its name, schemas, description and a small handler. Each family file
 * (orient, search, notes, write, edit, graph, organize) makes its tools from a `ToolContext`;
 * `tools/index.ts` lists the families in the order tools/list shows them, and the server
 * registers that table in one loop (see `createServer`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { VaultEngine } from '../engine.js';
import type { ToolResult } from '../results.js';
import type { SessionIdentity } from '../identity.js';

/** What a tool's handler may reach: the vault engine, and the server (to ask the client's human). */
export interface ToolContext {
  engine: VaultEngine;
  server: McpServer;
  /** The calling session (its agent name and run id; how it is served). */
  identity: SessionIdentity;
}

/** A tool's parameters or result fields: name → zod schema. */
export type Shape = Record<string, z.ZodType>;

export interface ToolSpec<In extends Shape> {
  title: string;
  description: string;
  inputSchema: In;
  outputSchema: Shape;
  annotations: ToolAnnotations;
  /** Runs on the validated arguments; a thrown EngramError becomes an `isError` result. */
  handler: (args: z.output<z.ZodObject<In>>) => ToolResult | Promise<ToolResult>;
}

/** A tool in the registration table (its arguments' type checked where it was defined). */
export interface Tool {
  name: string;
  spec: ToolSpec<Shape>;
}

export type ToolFamily = (context: ToolContext) => Tool[];

export function defineTool<In extends Shape>(name: string, spec: ToolSpec<In>): Tool {
  return { name, spec: spec as unknown as ToolSpec<Shape> };
}

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
export const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
