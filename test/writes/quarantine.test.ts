/**
 * The quarantine as one table: path × actor → free / confirm / refused, case variants included,
 * then the reasons (each names the file and what to do instead).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agent, classifyUndo, classifyWrite, GRAPH, journalActor, journalLabel, LIBRARIAN, ORGANIZER, OWNER, type Actor, type WriteVerdict } from '../../src/writes/index.js';

type Kind = WriteVerdict['kind'];

const TABLE: Array<[path: string, by: Actor, kind: Kind]> = [
  // The agent's territory: free.
  ['Claude/x.md', agent('write_note'), 'free'],
  ['Claude/Inbox/Idea.md', agent('capture'), 'free'],
  ['Claude/Inbox/README.md', agent('write_note'), 'free'], // only the top-level README is the constitution
  ['Claude/Sessions/2026/03/Audit.md', agent('write_note'), 'free'],
  ['Claude/Graph.md', agent('write_note'), 'free'], // a note named Graph, not the Graph/ folder
  ['Claude/Graphs/x.md', agent('write_note'), 'free'],
  ['claude/x.md', agent('write_note'), 'confirm'], // a different folder on a case-sensitive disk
  // Protected files: refused for every tool, whatever the case; the constitution needs confirmation.
  ['Claude/README.md', agent('write_note'), 'confirm'], // the constitution: the human approves
  ['Claude/Librarian.md', agent('write_note'), 'refused'],
  ['Claude/Audit.md', agent('write_note'), 'refused'],
  ['Claude/README.md', GRAPH, 'confirm'],
  ['Claude/Audit.md', GRAPH, 'refused'],
  ['Claude/Librarian.md', agent('capture'), 'refused'],
  ['Claude/readme.md', agent('write_note'), 'confirm'],
  ['claude/readme.md', agent('write_note'), 'confirm'],
  ['Claude/README.MD', agent('write_note'), 'confirm'],
  ['Claude/readme.md', agent('write_note'), 'confirm'],
  ['Claude/LIBRARIAN.md', agent('write_note'), 'refused'],
  ['Claude/audit.MD', agent('write_note'), 'refused'],
  // The graph's entity notes: only the graph tool writes them.
  ['Claude/Graph/People/X.md', agent('write_note'), 'refused'],
  ['Claude/Graph/People/X.md', agent('capture'), 'refused'],
  ['Claude/Graph/People/X.md', GRAPH, 'free'],
  ['Claude/Graph/X.md', GRAPH, 'free'],
  ['Claude/graph/people/x.md', agent('write_note'), 'refused'],
  ['Claude/GRAPH/Projects/Atlas.md', GRAPH, 'free'],
  // The human's territory: needs confirmation.
  ['Projects/x.md', agent('write_note'), 'confirm'],
  ['claude-notes/x.md', agent('write_note'), 'confirm'],
  ['Claude notes/x.md', agent('write_note'), 'confirm'],
  ['ClaudeX/x.md', agent('write_note'), 'confirm'],
  ['Home.md', agent('write_note'), 'confirm'],
  ['Claude.md', agent('write_note'), 'confirm'],
  ['Archive/Claude/x.md', agent('write_note'), 'confirm'],
  ['Projects/Claude/README.md', agent('write_note'), 'confirm'],
  ['Projects/x.md', GRAPH, 'confirm'],
  // Sync conflict copies: the human's to reconcile, anywhere; a numbered name may be a note of its own.
  ['Claude/Plan (conflict 2026-12-01).md', agent('write_note'), 'refused'],
  ['Projects/Plan.sync-conflict-20261201-153012-ABCDEFG.md', agent('write_note'), 'refused'],
  ["Claude/Plan (Ana's conflicted copy 2026-12-01).md", LIBRARIAN, 'refused'],
  ['Claude/Chapter 2.md', agent('write_note'), 'free'],
];

test('quarantine table: free inside Claude/, protected files refused, Graph/ for the graph tool, the rest needs confirmation', () => {
  const wrong: string[] = [];
  for (const [path, by, kind] of TABLE) {
    const verdict = classifyWrite(path, by, { agentRoot: 'Claude' });
    if (verdict.kind !== kind) wrong.push(`${path} (${JSON.stringify(by)}): expected ${kind}, got ${verdict.kind}`);
    if (verdict.kind === 'refused') assert.equal(verdict.code, 'WRITE_REFUSED', path);
    if (verdict.kind !== 'free') assert.ok(verdict.reason.length > 20, `${path}: a reason is given`);
  }
  assert.deepEqual(wrong, []);
});

test('reasons name the protected file or the territory and say what to do', () => {
  const reason = (path: string) => {
    const verdict = classifyWrite(path, agent('write_note'), { agentRoot: 'Claude' });
    assert.notEqual(verdict.kind, 'free', path);
    return verdict.kind === 'free' ? '' : verdict.reason;
  };
  assert.match(reason('Claude/readme.md'), /Claude\/README\.md is the vault's constitution: a change needs the human's confirmation/);
  assert.match(reason('Claude/Librarian.md'), /only the Librarian writes it/);
  assert.match(reason('Claude/Audit.md'), /Engram keeps it itself/);
  assert.match(reason('Claude/Graph/People/X.md'), /graph tools/);
  assert.match(reason('Projects/x.md'), /^Projects\/x\.md is outside Claude\/.*confirmation/);
  assert.match(reason('Claude/Plan (conflict 2026-12-01).md'), /is a sync conflict copy of Claude\/Plan\.md: write to Claude\/Plan\.md/);
});

test('the agent root is configurable and its slashes are ignored', () => {
  for (const agentRoot of ['Agent', '/Agent/']) {
    assert.equal(classifyWrite('Agent/x.md', agent('write_note'), { agentRoot }).kind, 'free', agentRoot);
    assert.equal(classifyWrite('Agent/README.md', agent('write_note'), { agentRoot }).kind, 'confirm', agentRoot);
    assert.equal(classifyWrite('Agent/Librarian.md', agent('write_note'), { agentRoot }).kind, 'refused', agentRoot);
    assert.equal(classifyWrite('Claude/x.md', agent('write_note'), { agentRoot }).kind, 'confirm', agentRoot);
  }
  assert.equal(classifyWrite('AI/Claude/x.md', agent('write_note'), { agentRoot: 'AI/Claude' }).kind, 'free');
  assert.equal(classifyWrite('AI/Claude/Audit.md', agent('write_note'), { agentRoot: 'AI/Claude' }).kind, 'refused');
  assert.equal(classifyWrite('AI/x.md', agent('write_note'), { agentRoot: 'AI/Claude' }).kind, 'confirm');
});

test('each actor kind: authority comes from the kind, never from a tool name that looks like another actor', () => {
  const kindOf = (path: string, by: Actor) => classifyWrite(path, by, { agentRoot: 'Claude' }).kind;
  // An agent: free in its folder, the human's notes need confirmation, Engram's own files are not its to write.
  assert.equal(kindOf('Claude/x.md', agent('write_note')), 'free');
  assert.equal(kindOf('Projects/x.md', agent('write_note')), 'confirm');
  // An MCP tool that happens to carry another actor's name is still an agent.
  for (const tool of ['graph', 'librarian', 'organize', 'provision']) {
    assert.equal(kindOf('Claude/Graph/People/X.md', agent(tool)), 'refused', tool);
    assert.equal(kindOf('Claude/Librarian.md', agent(tool)), 'refused', tool);
    assert.equal(kindOf('Projects/x.md', agent(tool)), 'confirm', tool);
  }
  // The Librarian writes its report (and nothing else protected); its organizer moves no entity notes.
  assert.equal(kindOf('Claude/Librarian.md', LIBRARIAN), 'free');
  assert.equal(kindOf('Claude/Audit.md', LIBRARIAN), 'refused');
  assert.equal(kindOf('Claude/Graph/People/X.md', LIBRARIAN), 'refused');
  assert.equal(kindOf('Claude/Graph/People/X.md', ORGANIZER), 'refused');
  assert.equal(kindOf('Projects/x.md', LIBRARIAN), 'confirm');
  // The graph extractor: entity notes, not the report or the trail.
  assert.equal(kindOf('Claude/Graph/People/X.md', GRAPH), 'free');
  assert.equal(kindOf('Claude/Librarian.md', GRAPH), 'refused');
  assert.equal(kindOf('Claude/Audit.md', GRAPH), 'refused');
  // The owner's own `engram provision`: what they run is their confirmation, anywhere.
  for (const path of ['Claude/README.md', 'Projects/x.md', 'CLAUDE.md', 'Claude/Audit.md']) assert.equal(kindOf(path, OWNER), 'free', path);
});

test('the journal names each actor as before, and reads its labels back to the same actor', () => {
  assert.deepEqual([agent('capture'), LIBRARIAN, ORGANIZER, GRAPH, OWNER].map(journalLabel), ['capture', 'librarian', 'organize', 'graph', 'provision']);
  for (const by of [agent('write_note'), agent('undo_write'), LIBRARIAN, ORGANIZER, GRAPH, OWNER]) assert.deepEqual(journalActor(journalLabel(by)), by);
  assert.equal(journalActor('consolidate'), null, 'a label no actor writes names no one');
});

test('undo verdicts by author: an agent undoes only what an agent wrote; refusals carry WRITE_REFUSED', () => {
  const undo = (tool: string, path = 'Claude/x.md') => classifyUndo({ tool, path, runId: 'run-1', id: 7 }, { agentRoot: 'Claude' });
  assert.equal(undo('capture').kind, 'free');
  assert.equal(undo('write_note', 'Projects/x.md').kind, 'confirm');
  const cases: Array<[tool: string, author: RegExp]> = [
    ['librarian', /made by the Librarian, not by an agent.*undo_run "run-1"/],
    ['organize', /made by a filing move/],
    ['graph', /made by the graph extractor/],
    ['provision', /made by the owner's `engram provision`.*only the owner can undo it/],
    ['consolidate', /made by Engram's own consolidate/],
  ];
  for (const [tool, author] of cases) {
    const verdict = undo(tool);
    assert.equal(verdict.kind, 'refused', tool);
    if (verdict.kind === 'refused') {
      assert.equal(verdict.code, 'WRITE_REFUSED', tool);
      assert.match(verdict.reason, author, tool);
    }
  }
  const protectedFile = undo('write_note', 'Claude/Audit.md');
  assert.ok(protectedFile.kind === 'refused' && /would change a protected file/.test(protectedFile.reason));
});
