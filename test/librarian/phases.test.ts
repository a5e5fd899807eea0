/**
 * The sweep phases' plans as pure functions: what each would do and what it would cost, from
 * the counts its reads found. The end-to-end sweep (test/librarian/librarian.test.ts) proves the
 * reads and the acts; these pin the arithmetic and the words the report shows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Candidate, Extractor, Proposal } from '../../src/graph/index.js';
import type { OrganizeProposal } from '../../src/librarian/index.js';
import { cleanupPlan } from '../../src/librarian/phases/cleanup.js';
import { consolidatePlan, sliceLimit } from '../../src/librarian/phases/consolidate.js';
import { embedPlan } from '../../src/librarian/phases/embed.js';
import { extractPlan, noteCap } from '../../src/librarian/phases/extract.js';
import { healthPlan, scoreCheck } from '../../src/librarian/phases/health.js';
import { organizePlan } from '../../src/librarian/phases/organize.js';
import { isSkipped } from '../../src/librarian/phases/phase.js';
import { listedProposals } from '../../src/librarian/phases/report.js';

function extractor(backend: Extractor['backend']): Extractor {
  return { backend, model: 'm', promptVersion: '1', extract: () => Promise.reject(new Error('a plan never extracts')) };
}

test('extract plan: no extractor is a skip that says how to configure one', () => {
  const plan = extractPlan(null, { notes: 10, bytes: 4000 }, {});
  assert.ok(isSkipped(plan));
  assert.equal(plan.skip, 'no extractor (ENGRAM_EXTRACTOR=none)');
});

test('extract plan: a paid extractor is capped at 200 notes, its tokens and cost estimated for that share of the backlog', () => {
  const plan = extractPlan(extractor('anthropic'), { notes: 400, bytes: 800_000 }, {});
  assert.ok(!isSkipped(plan));
  assert.equal(plan.maxNotes, 200);
  // Half the notes, so half the bytes (4 bytes a token), plus the prompt and the answer per note.
  assert.deepEqual(plan.counts, { waiting: 400, planned: 200, inputTokens: 100_000 + 200 * 1500, outputTokens: 200 * 600 });
  assert.equal(plan.estimatedCostUsd, (400_000 * 1 + 120_000 * 5) / 1e6);
  assert.equal(plan.summary, 'anthropic: 200 of 400 waiting notes this sweep, about 400000 input and 120000 output tokens');
  // The spend cap bounds the estimate.
  assert.equal(extractPlan(extractor('anthropic'), { notes: 400, bytes: 800_000 }, { maxExtractCostUsd: 0.25 }).estimatedCostUsd, 0.25);
});

test('extract plan: the structural extractor is local — no cap, no tokens, no cost; claude-cli is capped but not billed', () => {
  const local = extractPlan(extractor('structural'), { notes: 5000, bytes: 1e7 }, {});
  assert.ok(!isSkipped(local));
  assert.equal(local.summary, 'structural: 5000 of 5000 waiting notes this sweep');
  assert.equal(local.estimatedCostUsd, 0);
  const cli = extractPlan(extractor('claude-cli'), { notes: 300, bytes: 0 }, { maxExtractNotes: 50 });
  assert.ok(!isSkipped(cli));
  assert.equal(cli.counts.planned, 50);
  assert.equal(cli.estimatedCostUsd, 0);
  assert.equal(noteCap({}, 'structural'), Number.MAX_SAFE_INTEGER);
  assert.equal(noteCap({}, 'claude-cli'), 200);
  assert.equal(noteCap({ maxExtractNotes: 7 }, 'structural'), 7);
});

test('embed plan: why notes cannot be embedded is said only when some wait', () => {
  assert.equal(embedPlan(3, 'bge', 'model bge is not installed').summary, '3 notes wait for a bge vector (they cannot be embedded here: model bge is not installed)');
  assert.equal(embedPlan(0, 'bge', 'model bge is not installed').summary, '0 notes wait for a bge vector');
});

test('cleanup plan: interrupted moves are mentioned only when there are some', () => {
  assert.equal(cleanupPlan({ toMerged: 2, dirty: 1, orphans: 4, interrupted: 0 }).summary, '2 relations to merged entities, 1 entity notes out of date, 4 orphan entities');
  const plan = cleanupPlan({ toMerged: 0, dirty: 0, orphans: 0, interrupted: 2 });
  assert.match(plan.summary, /, 2 interrupted moves to roll back$/);
  assert.equal(plan.counts.interrupted, 2);
});

test('organize plan: filings counted by kind, and handed to the act whole', () => {
  const filings = [
    { kind: 'move' as const, path: 'Claude/Inbox/A.md', hash: 'h', target: 'Zoo', to: 'Zoo/A.md', share: 0.9, neighbours: [] },
    { kind: 'propose' as const, path: 'Claude/Inbox/B.md', hash: 'h', target: 'Zoo', share: 0.5, reason: 'low', neighbours: [] },
    { kind: 'skip' as const, path: 'Claude/Inbox/C.md', reason: 'no vector' },
    { kind: 'skip' as const, path: 'Claude/Inbox/D.md', reason: 'no vector' },
  ];
  const plan = organizePlan({ candidates: 4, filings });
  assert.deepEqual(plan.counts, { candidates: 4, move: 1, propose: 1, skip: 2 });
  assert.equal(plan.summary, '4 candidates: 1 to move, 1 to propose, 2 skipped');
  assert.equal(plan.organize.filings, filings);
});

test('consolidate plan: a judging model costs per candidate and bounds the slice; a human reviews every changed entity for free', () => {
  const entity = { id: 1, name: 'Walrus', mentions: 1, aliases: [], evidence: [] };
  const candidates: Candidate[] = Array.from({ length: 3 }, () => ({ winner: entity, loser: { ...entity, id: 2 }, type: 'topic', reason: 'same name' }));
  const judgedPlan = consolidatePlan([1, 2, 3, 4], candidates, { isJudged: true });
  assert.equal(judgedPlan.estimatedCostUsd, 3 * 0.006);
  assert.equal(judgedPlan.summary, '4 changed entities to check, 3 candidate pairs to adjudicate');
  const human = consolidatePlan([1, 2, 3, 4], candidates, { isJudged: false });
  assert.equal(human.estimatedCostUsd, 0);
  assert.equal(human.summary, '4 changed entities to check, 3 candidate pairs for a human to review');
  assert.equal(sliceLimit({ adjudicates: true }), 200);
  assert.equal(sliceLimit({}), Number.MAX_SAFE_INTEGER);
  assert.equal(sliceLimit({ consolidateSlice: 10 }), 10);
});

test('health: a golden-set drop of more than 0.02 since the last sweep is a finding; the first measurement never is', () => {
  const score = { metric: 'ndcg@10', value: 0.8, queries: 30, skipped: 0 };
  const first = scoreCheck(score, null);
  assert.equal(first.check.ok, true);
  assert.equal(first.check.examples[0], 'ndcg@10 0.800 over 30 queries (first measurement)');
  assert.deepEqual(first.eval, { metric: 'ndcg@10', value: 0.8, previous: null, delta: null, queries: 30 });
  assert.equal(scoreCheck(score, 0.81).check.ok, true, 'a drop of 0.01 is noise');
  const dropped = scoreCheck({ ...score, skipped: 2 }, 0.85);
  assert.equal(dropped.check.ok, false);
  assert.equal(dropped.check.count, 1);
  assert.equal(dropped.check.examples[0], 'ndcg@10 0.800 over 30 queries (-0.050 since the last sweep); 2 queries skipped (their notes are gone)');
  assert.equal(healthPlan([first.check, dropped.check]).summary, '1 of 2 checks have findings');
  assert.equal(healthPlan([first.check]).summary, 'all 1 checks pass');
});

test('report: the first 20 proposals listed, filings first, the rest counted', () => {
  const filing = (id: number): OrganizeProposal => ({ id, path: `Claude/Inbox/${id}.md`, target: 'Zoo', share: 0.5, reason: 'low', status: 'pending' });
  const merge = (id: number): Proposal => ({ id, winner: 'A', loser: 'B', type: 'topic', reason: 'same', verdict: '', status: 'pending' });
  const some = listedProposals(
    Array.from({ length: 15 }, (_, i) => filing(i)),
    Array.from({ length: 10 }, (_, i) => merge(i)),
  );
  assert.deepEqual([some.organize.length, some.merges.length, some.more], [15, 5, 5]);
  const many = listedProposals(
    Array.from({ length: 25 }, (_, i) => filing(i)),
    [merge(1)],
  );
  assert.deepEqual([many.organize.length, many.merges.length, many.more], [20, 0, 6]);
});
