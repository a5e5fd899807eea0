/**
 * The contract, frozen: every MCP tool with its parameters (required ones marked) and hints,
 * and every CLI command with its options. Changing what clients see must change this test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMANDS } from '../../src/cli/main.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

const TOOLS: Record<string, string[]> = {
  context_bundle: ['alternatives', 'max_tokens', 'path', 'query'],
  get_backlinks: ['limit', 'path*'],
  index_status: [],
  librarian_status: [],
  list_recent: ['folder', 'limit', 'since'],
  list_tasks: ['due_after', 'due_before', 'folder', 'limit', 'query', 'status'],
  onboard: [],
  query_notes: ['limit', 'order', 'sort', 'where'],
  read_note: ['lines', 'max_chars', 'path*'],
  recall_bundle: ['limit', 'mode', 'project', 'since'],
  search_brain: ['alternatives', 'exclude_folders', 'folder', 'include_text', 'limit', 'min_score', 'min_similarity', 'mode', 'modified_after', 'modified_before', 'query*', 'scope', 'tag_mode', 'tags', 'types'],
  log_session: ['agent', 'body*', 'project', 'tags', 'title*'],
  capture: ['text*'],
  upsert_concept: ['body*', 'name*'],
  add_task: ['due', 'priority', 'text*'],
  append_note: ['content', 'heading', 'path', 'position', 'token'],
  write_note: ['content', 'overwrite', 'path', 'token'],
  undo_write: ['id*', 'token'],
  update_note: ['content', 'heading', 'mode', 'path', 'token'],
  move_note: ['from', 'to', 'token'],
  create_project: ['archive_after_days', 'goal', 'links', 'name', 'root', 'token'],
  create_issue: ['assignee', 'body', 'labels', 'priority', 'project', 'title', 'token'],
  update_issue: ['assignee', 'author', 'comment', 'id', 'labels', 'priority', 'project', 'status', 'token'],
  list_issues: ['assignee', 'cursor', 'label', 'limit', 'project', 'status', 'text'],
  list_notes: ['cursor', 'exclude_folders', 'folder', 'limit', 'modified_after', 'modified_before', 'tag_mode', 'tags', 'types'],
  index_brain: ['max_notes'],
  find_entity: ['limit', 'name*', 'type'],
  related_notes: ['by', 'folder', 'hops', 'limit', 'path*', 'weights'],
  suggest_relations: ['apply', 'limit', 'path', 'targets', 'token'],
  graph_stats: [],
  consolidate_graph: ['apply', 'undo'],
  organize_vault: ['apply', 'reject'],
  undo_move: ['move_id*'],
  undo_run: ['run_id*'],
};

const WRITE_TOOLS = new Set([
  'log_session',
  'capture',
  'upsert_concept',
  'add_task',
  'append_note',
  'write_note',
  'undo_write',
  'update_note',
  'move_note',
  'create_project',
  'create_issue',
  'update_issue',
  'index_brain',
  'consolidate_graph',
  'organize_vault',
  'suggest_relations',
  'undo_move',
  'undo_run',
]);
const DESTRUCTIVE = new Set(['write_note', 'undo_write', 'update_note', 'undo_move', 'undo_run']);

const CLI: Record<string, string[]> = {
  index: ['batch-size', 'embed-budget', 'exclude', 'full', 'no-embed', 'quiet'],
  status: [],
  search: ['all-tags', 'also', 'exclude-folder', 'explain', 'folder', 'limit', 'min-score', 'min-similarity', 'mode', 'modified-after', 'modified-before', 'no-refresh', 'tag', 'today', 'type'],
  related: ['by', 'folder', 'limit', 'weights'],
  relate: ['apply', 'limit', 'target'],
  map: ['full', 'seed'],
  ls: ['all-tags', 'cursor', 'exclude-folder', 'folder', 'limit', 'modified-after', 'modified-before', 'tag', 'type'],
  graph: ['apply', 'max-cost', 'max-notes', 'retry-failed', 'undo'],
  serve: ['http', 'no-index', 'no-watch', 'reconnect-wait', 'spawn-daemon'],
  daemon: ['http', 'no-index', 'sweep-now'],
  librarian: ['apply-ticked', 'dry-run', 'phases'],
  undo: [],
  eval: [
    'also',
    'b',
    'baseline',
    'beir',
    'delta',
    'golden',
    'graph',
    'k1',
    'known-items',
    'locomo',
    'min-entity-f1',
    'min-mrr',
    'min-ndcg10',
    'min-recall10',
    'min-relation-f1',
    'min-success10',
    'min-success5',
    'mode',
    'no-history',
    'split',
    'title-weight',
    'today',
  ],
  verify: ['sample', 'seed'],
  model: ['dtype', 'sample', 'timeout'],
  provision: ['check', 'install-plugins'],
  mcp: ['check', 'desktop', 'with'],
  skills: ['check', 'force'],
  context: ['days', 'project'],
};

test('MCP tools and their parameters', async (t) => {
  const { client } = await connectFixture(t, MCP_VAULT);
  const { tools } = await client.listTools();
  const actual = Object.fromEntries(
    tools.map((tool) => {
      const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
      const required = new Set(schema.required ?? []);
      return [
        tool.name,
        Object.keys(schema.properties ?? {})
          .sort()
          .map((name) => (required.has(name) ? `${name}*` : name)),
      ];
    }),
  );
  assert.deepEqual(actual, TOOLS);
  for (const tool of tools) {
    assert.ok(tool.description && tool.description.length > 40, `${tool.name} has a description`);
    assert.equal(tool.annotations?.readOnlyHint, !WRITE_TOOLS.has(tool.name), `${tool.name} read-only hint`);
    assert.equal(tool.annotations?.destructiveHint, DESTRUCTIVE.has(tool.name), `${tool.name} destructive hint`);
    assert.ok(tool.outputSchema, `${tool.name} declares its output`);
    for (const [name, property] of Object.entries((tool.inputSchema as { properties?: Record<string, { description?: string }> }).properties ?? {})) {
      assert.ok(property.description, `${tool.name}.${name} has a description`);
    }
  }
});

test('CLI commands and their options', () => {
  const actual = Object.fromEntries(COMMANDS.map((command) => [command.name, Object.keys(command.options).sort()]));
  assert.deepEqual(actual, CLI);
});
