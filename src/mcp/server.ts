/**
 * The MCP server: Engram's tools, registered by group, over whatever transport the caller
 * connects (stdio for Claude Code, Streamable HTTP on 127.0.0.1 for other clients).
 */
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { VaultEngine } from './engine.js';
import { registerOrientTools } from './orient-tools.js';
import { registerRetrieveTools } from './retrieve-tools.js';
import { registerWriteTools } from './write-tools.js';
import { registerGraphTools } from './graph-tools.js';
import { registerOrganizeTools } from './organize-tools.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

export const SERVER_INSTRUCTIONS = [
  'Engram is the persistent memory of this Obsidian vault, shared by every session.',
  'Call `onboard` first: it returns the vault\'s rules (where agents may write), a guide to the tools, and the index status.',
  'Find with `search_brain` (or `context_bundle` to answer a question), read with `read_note`, and cite notes by path and lines.',
  'Write back what you learn under Claude/ (log_session, capture, upsert_concept, add_task); anything else is the human\'s and is only previewed until they approve.',
].join(' ');

export function createServer(engine: VaultEngine): McpServer {
  const server = new McpServer({ name: 'engram', version }, { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } });
  registerOrientTools(server, engine);
  registerRetrieveTools(server, engine);
  registerWriteTools(server, engine);
  registerGraphTools(server, engine);
  registerOrganizeTools(server, engine);
  return server;
}
