/** An Engram MCP server over a fixture vault, reached by the real SDK client in memory. */
import { mkdirSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openStateDb, runIndex } from '../../src/index/index.js';
import { connectServer, createServer, VaultEngine } from '../../src/mcp/index.js';
import { lexicalExtension } from '../../src/search/index.js';
import { makeVault, type FixtureVault } from './vault.js';

export interface McpFixture {
  vault: FixtureVault;
  engine: VaultEngine;
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] }>;
}

export async function connectFixture(
  t: TestContext,
  files: Record<string, string | Uint8Array>,
  options: { watch?: boolean; indexCommand?: { command: string; args: string[] }; beforeStart?: (vault: FixtureVault) => void } = {},
): Promise<McpFixture> {
  const vault = makeVault(t, files);
  mkdirSync(vault.home, { recursive: true });
  const state = openStateDb(vault.home);
  runIndex(state.db, { root: vault.root, extensions: [lexicalExtension()] });
  options.beforeStart?.(vault);
  const engine = new VaultEngine({
    vault: vault.root,
    stateDir: vault.home,
    db: state.db,
    settings: { model: 'TaylorAI/bge-micro-v2', modelDir: `${vault.home}/no-models`, offline: true, exclude: [] },
    log: { err: () => {} },
    indexCommand: options.indexCommand ?? null,
    watch: options.watch ?? false,
    debounceMs: 50,
  });
  const { client, call } = await connectClient(t, engine, () => state.db.close());
  return { vault, engine, client, call };
}

/** Starts an engine and reaches it with the real SDK client in memory; closes all (then `close`) after the test. */
export async function connectClient(t: TestContext, engine: VaultEngine, close: () => void = () => {}): Promise<Pick<McpFixture, 'client' | 'call'>> {
  engine.start();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = createServer(engine);
  await connectServer(server, serverTransport);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientTransport);
  t.after(async () => {
    await client.close();
    await server.close();
    await engine.close();
    close();
  });
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Awaited<ReturnType<McpFixture['call']>>;
  return { client, call };
}

export const MCP_VAULT: Record<string, string> = {
  'Claude/README.md': '# Constitution\nAgents write under Claude/ only.\n',
  'Claude/Sessions/2026-03-12 Review.md': '---\ncreated: 2026-03-12\nagent: claude\nproject: atlas\n---\n# Review\nReviewed the Atlas cutover with Tantivy.\n',
  'Claude/Inbox/2026-03-15.md': '- 09:12 capture: ask Lena about pgvector pricing\n',
  'Projects/Atlas.md':
    '---\ntitle: Atlas\ntype: project\nstatus: active\npriority: 2\ndue: 2026-05-01\ntags: [project/atlas]\naliases: [Search migration]\n---\n# Atlas\nMove search to Tantivy. See [[Decisions]] and [[Glossary]].\n## Tasks\n- [ ] Load test ⏫ 📅 2026-04-20\n- [x] Kickoff ✅ 2026-02-24\n',
  'Projects/Decisions.md': '---\ntype: decision\nstatus: done\npriority: 1\n---\n# Decisions\nD1: Tantivy over Elasticsearch. Back to [[Atlas]] and ![[Atlas#Tasks]].\n',
  'Glossary.md': '# Glossary\nBM25: a ranking function for words in documents.\n',
  'People/Lena.md': '---\ntype: person\nstatus: external\n---\n# Lena\nVendor contact at Tessellate. [Atlas](../Projects/Atlas.md)\n',
  '.obsidian/plugins/fake-sync/data.json': '{"apiKey":"sk-fake-not-a-secret"}',
};
