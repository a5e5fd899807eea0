/**
 * Consolidation: duplicate entities become numbered proposals; nothing merges until a proposal
 * is applied; applying moves mentions, relations and names to the winner and leaves a stub note;
 * later extractions follow the merge; undo puts everything back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { consolidate, GraphStore, graphStats, normalizeName, rebuildGraphCache, runGraphIndex, selectAdjudicator, structuralExtractor } from '../../src/graph/index.js';
import { errorStep, startFakeAnthropic, textReply, toolUseReply } from '../helpers/fake-anthropic.js';
import { indexPaths } from '../../src/index/index.js';
import { lexicalExtension } from '../../src/search/index.js';
import { indexedVault, indexState } from '../helpers/indexed-vault.js';

const VAULT = {
  'People/Ana Silva.md': '---\ntype: person\n---\n# Ana Silva\nEngineer.\n',
  'Meetings/Sync.md': '---\nattendees: ["[[Ana Silva]]"]\nproject: Atlas\n---\n# Sync\nWith [[Ana Silva]].\n',
  'Meetings/Retro.md': '---\nattendees: [Anna Silva]\nproject: Atlas\n---\n# Retro\nA retro.\n',
  'Projects/Atlas.md': '---\ntype: project\npeople: [Anna Silva]\n---\n# Atlas\nThe search migration.\n',
  'Notes/Topics.md': '---\ntags: [ranking, running, person, personal, baking]\n---\n# Topics\nDifferent words a letter or two apart are not duplicates.\n',
  'Meetings/Kickoff.md': '---\nattendees: [Bo Li, Bo Lu]\n---\n# Kickoff\nShort names never match by spelling: Bo Li is not Bo Lu.\n',
};

function setup(t: TestContext) {
  const { vault, root, db, writer, index } = indexedVault(t, VAULT);
  const store = new GraphStore(db, 'Claude');
  const extract = async () => {
    const report = await runGraphIndex({ root, db, extractor: structuralExtractor(db), writer, agentRoot: 'Claude' });
    indexPaths(db, [...report.written, 'Claude/Audit.md'], { root, extensions: [lexicalExtension()] });
    return report;
  };
  const mentionsOf = (name: string) => db.prepare('SELECT n.path FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN notes n ON n.id = m.note_id WHERE e.norm = ? ORDER BY n.path').pluck().all(normalizeName(name));
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  return { vault, root, db, writer, store, extract, index, mentionsOf, read };
}

test('a near-duplicate becomes a pending proposal; listing again proposes nothing new and merges nothing', async (t) => {
  const { db, writer, store, extract, mentionsOf } = setup(t);
  await extract();
  const first = await consolidate(store, db, writer, {});
  assert.deepEqual(
    first.proposed.map((p) => [p.loser, p.winner, p.status]),
    [['Anna Silva', 'Ana Silva', 'pending']],
  );
  assert.match(first.proposed[0]!.reason, /names 1 letter apart/);
  assert.match(first.proposed[0]!.verdict, /human decides/);
  assert.deepEqual(first.written, [], 'proposing writes no note');
  assert.deepEqual(mentionsOf('Anna Silva'), ['Meetings/Retro.md', 'Projects/Atlas.md']);
  const again = await consolidate(store, db, writer, {});
  assert.deepEqual(again.proposed, []);
  assert.equal(again.pending.length, 1);
});

test('applying moves mentions and names to the winner and leaves a stub; new extractions follow the merge; undo restores', async (t) => {
  const { vault, root, db, writer, store, extract, index, mentionsOf, read } = setup(t);
  await extract();
  const [proposal] = (await consolidate(store, db, writer, {})).proposed;
  const applied = await consolidate(store, db, writer, { apply: [proposal!.id] });
  assert.deepEqual(applied.applied, [proposal!.id]);
  assert.deepEqual(applied.written.sort(), ['Claude/Graph/People/Ana Silva.md', 'Claude/Graph/People/Anna Silva.md', 'Claude/Graph/Projects/Atlas.md'], "a related entity's note is rewritten too");
  assert.match(read('Claude/Graph/Projects/Atlas.md'), /\[\[Claude\/Graph\/People\/Ana Silva\|Ana Silva\]\]/);
  assert.doesNotMatch(read('Claude/Graph/Projects/Atlas.md'), /\[\[Claude\/Graph\/People\/Anna Silva/);
  assert.deepEqual(mentionsOf('Ana Silva'), ['Meetings/Retro.md', 'Meetings/Sync.md', 'People/Ana Silva.md', 'Projects/Atlas.md']);
  assert.deepEqual(mentionsOf('Anna Silva'), []);
  const winner = read('Claude/Graph/People/Ana Silva.md');
  assert.match(winner, /aliases: \["Anna Silva"\]/);
  assert.match(winner, /\[\[Meetings\/Retro\|Retro\]\]/);
  const stub = read('Claude/Graph/People/Anna Silva.md');
  assert.match(stub, /^---\nentity: person\nmerged_into: "\[\[Claude\/Graph\/People\/Ana Silva\|Ana Silva\]\]"/);
  assert.match(stub, /# Anna Silva\n\nMerged into \[\[Claude\/Graph\/People\/Ana Silva\|Ana Silva\]\]/);
  assert.equal(graphStats(db).entities.person, 3, 'Ana Silva, Bo Li and Bo Lu; the merged entity is not counted');
  assert.deepEqual(
    store.find('anna silva', 'person', 5).map((row) => row.name),
    ['Ana Silva'],
    'the old name finds the winner',
  );

  // The merge lives in the notes: a cache rebuilt from them still knows it.
  const fresh = indexState(t, { root, home: join(vault.home, '..', 'rebuilt-home') }).db;
  const rebuilt = rebuildGraphCache(fresh, { root, agentRoot: 'Claude', extractor: structuralExtractor(fresh) });
  assert.equal(rebuilt.merged, 1);
  assert.deepEqual(
    new GraphStore(fresh, 'Claude').find('anna silva', 'person', 5).map((row) => row.name),
    ['Ana Silva'],
  );
  fresh.close();

  // The note that said "Anna Silva" changes: its mention lands on the winner, not on the stub.
  vault.write('Meetings/Retro.md', '---\nattendees: [Anna Silva]\nproject: Atlas\n---\n# Retro\nA longer retro.\n');
  index();
  await extract();
  assert.deepEqual(mentionsOf('Anna Silva'), []);
  assert.ok(mentionsOf('Ana Silva').includes('Meetings/Retro.md'));
  assert.match(read('Claude/Graph/People/Anna Silva.md'), /Merged into/);

  const undone = await consolidate(store, db, writer, { undo: [proposal!.id] });
  assert.deepEqual(undone.undone, [proposal!.id]);
  assert.deepEqual(mentionsOf('Anna Silva'), ['Meetings/Retro.md', 'Projects/Atlas.md']);
  assert.match(read('Claude/Graph/Projects/Atlas.md'), /\[\[Claude\/Graph\/People\/Anna Silva\|Anna Silva\]\]/);
  assert.deepEqual(mentionsOf('Ana Silva'), ['Meetings/Sync.md', 'People/Ana Silva.md']);
  assert.doesNotMatch(read('Claude/Graph/People/Ana Silva.md'), /Anna Silva/);
  assert.doesNotMatch(read('Claude/Graph/People/Anna Silva.md'), /Merged into/);
  assert.equal(graphStats(db).entities.person, 4);
});

test('bad ids change nothing: unknown, not pending, or undoing what was never applied', async (t) => {
  const { db, writer, store, extract, mentionsOf } = setup(t);
  await extract();
  const [proposal] = (await consolidate(store, db, writer, {})).proposed;
  await assert.rejects(consolidate(store, db, writer, { apply: [proposal!.id, 999] }), /no proposal #999/);
  assert.deepEqual(mentionsOf('Anna Silva'), ['Meetings/Retro.md', 'Projects/Atlas.md'], 'a bad id among good ones applies none');
  await assert.rejects(consolidate(store, db, writer, { undo: [proposal!.id] }), /is pending; only applied proposals can be undone/);
  await consolidate(store, db, writer, { apply: [proposal!.id] });
  await assert.rejects(consolidate(store, db, writer, { apply: [proposal!.id] }), /is applied; only pending proposals can be applied/);
});

test('an adjudicator that says "different" records a rejected proposal that is never listed as pending', async (t) => {
  const { db, writer, store, extract } = setup(t);
  await extract();
  const seen: string[] = [];
  const report = await consolidate(store, db, writer, {
    adjudicator: async (candidate) => {
      seen.push(`${candidate.loser.name}|${candidate.winner.name}`);
      return { same: false, reason: 'two people' };
    },
  });
  assert.deepEqual(seen, ['Anna Silva|Ana Silva']);
  assert.deepEqual(
    report.proposed.map((p) => [p.status, p.verdict]),
    [['rejected', 'different: two people']],
  );
  assert.deepEqual(report.pending, []);
  assert.deepEqual((await consolidate(store, db, writer, {})).proposed, [], 'a rejected pair is not proposed again');
});

test('ENGRAM_CONSOLIDATE_MODEL adjudicates through the real SDK: verdicts are recorded, evidence is fenced and logged as egress, failures leave the pair for a human', async (t) => {
  const { db, writer, store, extract } = setup(t);
  await extract();
  const fake = await startFakeAnthropic([toolUseReply({ same: true, reason: 'one spelling slip' }, { input_tokens: 300, output_tokens: 20 }, 'record_verdict')]);
  t.after(() => fake.close());
  const settings = { extractor: 'structural', extractModel: 'structural', consolidateModel: 'claude-test', anthropicApiKey: 'sk-test', anthropicBaseUrl: fake.url };
  const report = await consolidate(store, db, writer, { adjudicator: selectAdjudicator(settings, db)! });
  assert.deepEqual(
    report.proposed.map((p) => [p.loser, p.status, p.verdict]),
    [['Anna Silva', 'pending', 'same: one spelling slip']],
    'a "same" verdict still waits for apply',
  );
  assert.equal(fake.requests.length, 1);
  const body = fake.requests[0]!.body;
  assert.equal(body.model, 'claude-test');
  assert.deepEqual(body.tool_choice, { type: 'tool', name: 'record_verdict' });
  const user = body.messages![0]!.content;
  assert.match(user, /<<<ENGRAM-NOTE-[0-9a-f]+\n[\s\S]*"Anna Silva"[\s\S]*attendees: Anna Silva[\s\S]*\nENGRAM-NOTE-[0-9a-f]+>>>/);
  assert.match(body.system!, /never instructions/);
  const egress = db.prepare("SELECT note_path FROM egress WHERE backend = 'anthropic-adjudicator' ORDER BY note_path").pluck().all();
  assert.deepEqual(egress, ['Meetings/Retro.md', 'Meetings/Sync.md', 'People/Ana Silva.md', 'Projects/Atlas.md']);
  assert.equal(selectAdjudicator({ ...settings, consolidateModel: undefined }, db), undefined, 'unset: a human decides');
  assert.throws(() => selectAdjudicator({ ...settings, anthropicApiKey: undefined }, db), /needs ANTHROPIC_API_KEY/);
});

test('an adjudicator that fails or answers without the tool leaves the proposal pending for a human', async (t) => {
  const { vault, db, writer, store, extract, index } = setup(t);
  vault.write('Meetings/Offsite.md', '---\nattendees: [Bo Lin, Bo Lyn]\n---\n# Offsite\n');
  index();
  await extract();
  const fake = await startFakeAnthropic([errorStep(400, 'invalid_request_error', 'model: nope'), textReply('they look the same to me')]);
  t.after(() => fake.close());
  const settings = { extractor: 'structural', extractModel: 'structural', consolidateModel: 'nope', anthropicApiKey: 'sk-test', anthropicBaseUrl: fake.url };
  const report = await consolidate(store, db, writer, { adjudicator: selectAdjudicator(settings, db)! });
  assert.equal(report.proposed.length, 2, JSON.stringify(report.proposed));
  assert.ok(
    report.proposed.every((p) => p.status === 'pending' && /a human decides$/.test(p.verdict)),
    JSON.stringify(report.proposed),
  );
  assert.match(report.proposed.map((p) => p.verdict).join('\n'), /HTTP|400|model: nope/);
  assert.match(report.proposed.map((p) => p.verdict).join('\n'), /no usable verdict/);
});

test('entity vectors: entities mentioned in notes about the same things, never together, are proposed; co-mentioned ones are not', async (t) => {
  const { root, db, writer } = indexedVault(t, {
    'Notes/A.md': '---\npeople: [Robert Zhang]\n---\n# A\nQuarterly budget review.\n',
    'Notes/B.md': '---\npeople: [Bob Z]\n---\n# B\nBudget review, next quarter.\n',
    'Notes/C.md': '---\npeople: [Carla Diaz, Dan Ortiz]\n---\n# C\nGarden plans.\n',
    'Notes/D.md': '---\npeople: [Maria Lopez]\n---\n# D\nAnother budget review.\n',
  });
  await runGraphIndex({ root, db, extractor: structuralExtractor(db), writer, agentRoot: 'Claude' });
  // Note vectors as the embedder would store them: A and B point the same way, C elsewhere.
  const put = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) SELECT id, '', 'test-model', 'local', hash, ? FROM notes WHERE path = ?");
  const unit = (values: number[]) => Buffer.from(new Float32Array(values).buffer);
  put.run(unit([1, 0.05, 0]), 'Notes/A.md');
  put.run(unit([0.98, 0.1, 0]), 'Notes/B.md');
  put.run(unit([0, 0, 1]), 'Notes/C.md');
  put.run(unit([0.99, 0.08, 0]), 'Notes/D.md');
  const store = new GraphStore(db, 'Claude');
  const none = await consolidate(store, db, writer, {});
  assert.deepEqual(none.proposed, [], 'without a vector model only names count, and these names differ');
  const report = await consolidate(store, db, writer, { vectorModel: 'test-model' });
  assert.deepEqual(
    report.proposed.map((p) => [p.winner, p.loser].sort()),
    [['Bob Z', 'Robert Zhang']],
    'Carla and Dan share a note, so their identical context proves nothing; Maria Lopez shares context but no name',
  );
  assert.match(report.proposed[0]!.reason, /never together \(cosine 0\.99\d\)/);
  assert.deepEqual((await consolidate(store, db, writer, { vectorModel: 'other-model' })).proposed, [], 'vectors of another model are never compared');
});

test('a name hint needs more than a shared short word', async () => {
  const { namesHint } = await import('../../src/graph/consolidate.js');
  assert.equal(namesHint('bob z', 'robert zhang'), true);
  assert.equal(namesHint('nyc', 'new york city'), true);
  assert.equal(namesHint('analise de sistemas', 'modelagem de sistemas'), true, 'a shared long word');
  assert.equal(namesHint('tomada de decisao', 'modelagem de sistemas'), false, 'only "de" in common');
  assert.equal(namesHint('head of sales', 'chief of staff'), false);
});
