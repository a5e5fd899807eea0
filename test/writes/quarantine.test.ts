/**
 * The quarantine as one table: path × tool → free / confirm / refused, case variants included,
 * then the reasons (each names the file and what to do instead).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyWrite, type WriteVerdict } from '../../src/writes/index.js';

type Kind = WriteVerdict['kind'];

const TABLE: Array<[path: string, tool: string, kind: Kind]> = [
  // The agent's territory: free.
  ['Claude/x.md', 'write_note', 'free'],
  ['Claude/Inbox/Idea.md', 'capture', 'free'],
  ['Claude/Inbox/README.md', 'write_note', 'free'], // only the top-level README is the constitution
  ['Claude/Sessions/2026/03/Audit.md', 'write_note', 'free'],
  ['Claude/Graph.md', 'write_note', 'free'], // a note named Graph, not the Graph/ folder
  ['Claude/Graphs/x.md', 'write_note', 'free'],
  ['claude/x.md', 'write_note', 'confirm'], // a different folder on a case-sensitive disk
  // Protected files: refused for every tool, whatever the case; the constitution needs confirmation.
  ['Claude/README.md', 'write_note', 'confirm'], // the constitution: the human approves
  ['Claude/Librarian.md', 'write_note', 'refused'],
  ['Claude/Audit.md', 'write_note', 'refused'],
  ['Claude/README.md', 'graph', 'confirm'],
  ['Claude/Audit.md', 'graph', 'refused'],
  ['Claude/Librarian.md', 'capture', 'refused'],
  ['Claude/readme.md', 'write_note', 'confirm'],
  ['claude/readme.md', 'write_note', 'confirm'],
  ['Claude/README.MD', 'write_note', 'confirm'],
  ['Claude/readme.md', 'write_note', 'confirm'],
  ['Claude/LIBRARIAN.md', 'write_note', 'refused'],
  ['Claude/audit.MD', 'write_note', 'refused'],
  // The graph's entity notes: only the graph tool writes them.
  ['Claude/Graph/People/X.md', 'write_note', 'refused'],
  ['Claude/Graph/People/X.md', 'capture', 'refused'],
  ['Claude/Graph/People/X.md', 'graph', 'free'],
  ['Claude/Graph/X.md', 'graph', 'free'],
  ['Claude/graph/people/x.md', 'write_note', 'refused'],
  ['Claude/GRAPH/Projects/Atlas.md', 'graph', 'free'],
  // The human's territory: needs confirmation.
  ['Projects/x.md', 'write_note', 'confirm'],
  ['claude-notes/x.md', 'write_note', 'confirm'],
  ['Claude notes/x.md', 'write_note', 'confirm'],
  ['ClaudeX/x.md', 'write_note', 'confirm'],
  ['Home.md', 'write_note', 'confirm'],
  ['Claude.md', 'write_note', 'confirm'],
  ['Archive/Claude/x.md', 'write_note', 'confirm'],
  ['Projects/Claude/README.md', 'write_note', 'confirm'],
  ['Projects/x.md', 'graph', 'confirm'],
];

test('quarantine table: free inside Claude/, protected files refused, Graph/ for the graph tool, the rest needs confirmation', () => {
  const wrong: string[] = [];
  for (const [path, tool, kind] of TABLE) {
    const verdict = classifyWrite(path, tool, { agentRoot: 'Claude' });
    if (verdict.kind !== kind) wrong.push(`${path} (${tool}): expected ${kind}, got ${verdict.kind}`);
    if (verdict.kind !== 'free') assert.ok(verdict.reason.length > 20, `${path}: a reason is given`);
  }
  assert.deepEqual(wrong, []);
});

test('reasons name the protected file or the territory and say what to do', () => {
  const reason = (path: string, tool = 'write_note') => {
    const verdict = classifyWrite(path, tool, { agentRoot: 'Claude' });
    assert.notEqual(verdict.kind, 'free', path);
    return verdict.kind === 'free' ? '' : verdict.reason;
  };
  assert.match(reason('Claude/readme.md'), /Claude\/README\.md is the vault's constitution: a change needs the human's confirmation/);
  assert.match(reason('Claude/Librarian.md'), /only the Librarian writes it/);
  assert.match(reason('Claude/Audit.md'), /Engram keeps it itself/);
  assert.match(reason('Claude/Graph/People/X.md'), /graph tools/);
  assert.match(reason('Projects/x.md'), /^Projects\/x\.md is outside Claude\/.*confirmation/);
});

test('the agent root is configurable and its slashes are ignored', () => {
  for (const agentRoot of ['Agent', '/Agent/']) {
    assert.equal(classifyWrite('Agent/x.md', 'write_note', { agentRoot }).kind, 'free', agentRoot);
    assert.equal(classifyWrite('Agent/README.md', 'write_note', { agentRoot }).kind, 'confirm', agentRoot);
    assert.equal(classifyWrite('Agent/Librarian.md', 'write_note', { agentRoot }).kind, 'refused', agentRoot);
    assert.equal(classifyWrite('Claude/x.md', 'write_note', { agentRoot }).kind, 'confirm', agentRoot);
  }
  assert.equal(classifyWrite('AI/Claude/x.md', 'write_note', { agentRoot: 'AI/Claude' }).kind, 'free');
  assert.equal(classifyWrite('AI/Claude/Audit.md', 'write_note', { agentRoot: 'AI/Claude' }).kind, 'refused');
  assert.equal(classifyWrite('AI/x.md', 'write_note', { agentRoot: 'AI/Claude' }).kind, 'confirm');
});
