/**
 * Does `context_bundle` hand an agent the words that answer? Over LoCoMo-format conversation
 * logs (one note per session, as `engram eval --locomo` writes them), each question of
 * categories 1–4 is asked through the real MCP tool (the SDK client in memory), scoped to its
 * conversation with `path:`, and the bundle's text is checked for the question's evidence turns
 * (LoCoMo's `dia_id`s). Prints the share of questions one of whose top 5 `search_brain` excerpts
 * quotes an evidence turn, then, per budget, the share whose bundle holds one of its evidence
 * turns, and all of them. A measurement, not a test:
 *
 *   node --import tsx bench/bundle-evidence.ts <locomo.json or folder> [budget tokens …]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { convertLocomo, readLocomo, writeLocomoVault } from '../src/eval/index.js';
import { openStateDb, runIndex } from '../src/index/index.js';
import { connectServer, createServer, VaultEngine } from '../src/mcp/index.js';
import { lexicalExtension } from '../src/search/index.js';

interface Question {
  folder: string;
  question: string;
  turns: string[];
}

/** Each scored question with the text of its evidence turns, as the session notes write them. */
function questionsOf(conversations: unknown[]): Question[] {
  const out: Question[] = [];
  for (const sample of conversations as { sample_id: string; conversation: Record<string, unknown>; qa: { question: string; evidence?: string[]; category: number }[] }[]) {
    const turns = new Map<string, string>();
    for (const [key, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const turn of value as { dia_id?: string; text?: string }[]) if (turn.dia_id && turn.text) turns.set(turn.dia_id, turn.text.trim());
    }
    for (const qa of sample.qa) {
      if (qa.category < 1 || qa.category > 4) continue;
      const evidence = (qa.evidence ?? []).flatMap((id) => id.split(/[;,\s]+/)).flatMap((id) => (turns.has(id) ? [turns.get(id)!] : []));
      if (evidence.length > 0) out.push({ folder: sample.sample_id, question: qa.question, turns: evidence });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const [data, ...budgetArgs] = process.argv.slice(2);
  if (!data) throw new Error('usage: bench/bundle-evidence.ts <locomo.json or folder> [budget tokens …]');
  const budgets = budgetArgs.length > 0 ? budgetArgs.map(Number) : [1000, 4000];
  const scratch = mkdtempSync(join(tmpdir(), 'engram-bundle-'));
  try {
    const vault = join(scratch, 'vault');
    const conversations = readLocomo(data);
    writeLocomoVault(vault, convertLocomo(conversations, data));
    mkdirSync(join(scratch, 'home'));
    const state = openStateDb(join(scratch, 'home'));
    runIndex(state.db, { root: vault, extensions: [lexicalExtension()] });
    const engine = new VaultEngine({
      vault,
      stateDir: join(scratch, 'home'),
      db: state.db,
      settings: { model: 'TaylorAI/bge-micro-v2', modelDir: join(scratch, 'no-models'), offline: true, exclude: [] },
      log: { err: () => {} },
      indexCommand: null,
      watch: false,
      debounceMs: 50,
    });
    engine.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createServer(engine);
    await connectServer(server, serverSide);
    const client = new Client({ name: 'bundle-evidence', version: '0' });
    await client.connect(clientSide);
    const questions = questionsOf(conversations);
    // search_brain's excerpts: does one of the top 5 quote an evidence turn (its first 60 characters)?
    let quoted = 0;
    for (const q of questions) {
      const result = (await client.callTool({ name: 'search_brain', arguments: { query: `path:${q.folder} ${q.question}`, limit: 5 } })) as { structuredContent?: { results: { excerpt: string }[] } };
      const starts = q.turns.map((turn) => turn.slice(0, 60));
      if ((result.structuredContent?.results ?? []).some((hit) => starts.some((start) => hit.excerpt.includes(start)))) quoted++;
    }
    process.stdout.write(`${questions.length} questions; an excerpt of search_brain's top 5 quotes an evidence turn: ${(quoted / questions.length).toFixed(3)}\n`);
    for (const budget of budgets) {
      let some = 0;
      let all = 0;
      let used = 0;
      for (const q of questions) {
        const result = (await client.callTool({ name: 'context_bundle', arguments: { query: `path:${q.folder} ${q.question}`, max_tokens: budget } })) as { structuredContent?: { hits: { text: string }[]; used_tokens: number } };
        const bundle = (result.structuredContent?.hits ?? []).map((hit) => hit.text).join('\n');
        const held = q.turns.filter((turn) => bundle.includes(turn)).length;
        if (held > 0) some++;
        if (held === q.turns.length) all++;
        used += result.structuredContent?.used_tokens ?? 0;
      }
      const share = (n: number) => (n / questions.length).toFixed(3);
      process.stdout.write(`budget ${budget} tokens: bundle holds an evidence turn ${share(some)}, every evidence turn ${share(all)}; mean tokens used ${Math.round(used / questions.length)}\n`);
    }
    await client.close();
    await server.close();
    await engine.close();
    state.db.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
