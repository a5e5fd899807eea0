import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { entityFileName, GraphStore, graphStats, normalizeName, relatedNotes, renderEntityNote, runGraphIndex, structuralExtractor, validateExtraction, type Extractor } from '../../src/graph/index.js';
import { indexPaths } from '../../src/index/index.js';
import { lexicalExtension } from '../../src/search/index.js';
import { VaultWriter } from '../../src/writes/index.js';
import { indexedVault, indexState } from '../helpers/indexed-vault.js';

const VAULT = {
  'People/Ana Silva.md': '---\ntype: person\naliases: [Ana]\n---\n# Ana Silva\nEngineer.\n',
  'People/Bo Chen.md': '---\ntype: person\n---\n# Bo Chen\nDesigner.\n',
  'Projects/Atlas.md': '---\ntype: project\npeople: ["[[Ana Silva]]", "[[Bo Chen]]"]\ntags: [search]\n---\n# Atlas\nSearch migration with [[Ana Silva]].\n',
  'Meetings/Sync.md': '---\nattendees: ["[[Ana Silva]]"]\nproject: Atlas\ntags: [search]\n---\n# Sync\nTalked with [[Ana Silva]] about [[Atlas]].\n',
  'Meetings/Design.md': '---\nattendees: ["[[Bo Chen]]"]\n---\n# Design\nMockups with [[Bo Chen]].\n',
  'Secret.md': '---\ntags: [private]\npeople: [Hidden Person]\n---\n# Secret\n',
};

function setup(t: TestContext, files: Record<string, string> = VAULT) {
  const { vault, root, db, writer, index } = indexedVault(t, files);
  const extract = async (extractor: Extractor = structuralExtractor(db)) => {
    const report = await runGraphIndex({ root, db, extractor, writer, agentRoot: 'Claude' });
    indexPaths(db, [...report.written, 'Claude/Audit.md'], { root, extensions: [lexicalExtension()] });
    return report;
  };
  return { vault, root, db, index, extract };
}

test('structural extraction writes entity notes with cited mentions and relations; a second run changes nothing', async (t) => {
  const { root, db, extract } = setup(t);
  const first = await extract();
  assert.equal(first.failed, 0);
  assert.equal(first.skippedPrivate, 1, 'a #private note is never extracted');
  const ana = readFileSync(join(root, 'Claude/Graph/People/Ana Silva.md'), 'utf8');
  assert.match(ana, /^---\nentity: person\naliases: \["Ana"\]\ntags: \[graph\/person\]\ncreated: .+\nupdated: .+\n---\n# Ana Silva\n\nA person mentioned in 3 notes\.\n\n## Mentions\n\n/);
  assert.match(ana, /- \[\[Meetings\/Sync\|Sync\]\] — "attendees: \[\[Ana Silva\]\]"/);
  assert.match(ana, /- works on \[\[Claude\/Graph\/Projects\/Atlas\|Atlas\]\] \(from \[\[Projects\/Atlas\]\]\)/);
  assert.ok(existsSync(join(root, 'Claude/Graph/Topics/search.md')), 'tags become topics');
  assert.equal(existsSync(join(root, 'Claude/Graph/People/Hidden Person.md')), false);
  assert.equal(db.prepare('SELECT count(*) FROM egress').pluck().get(), 0, 'the structural extractor sends nothing anywhere');
  const second = await extract();
  assert.deepEqual([second.processed, second.entityNotesWritten], [0, 0]);
  const stats = graphStats(db);
  assert.equal(stats.entities.person, 2);
  assert.equal(stats.orphans, 0);
});

test('editing, deleting and renaming a note retracts exactly what it asserted', async (t) => {
  const { vault, root, db, index, extract } = setup(t);
  await extract();
  const mentionsOf = (name: string) => db.prepare('SELECT n.path FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN notes n ON n.id = m.note_id WHERE e.norm = ? ORDER BY n.path').pluck().all(normalizeName(name));
  assert.deepEqual(mentionsOf('Bo Chen'), ['Meetings/Design.md', 'People/Bo Chen.md', 'Projects/Atlas.md']);
  vault.write('Meetings/Design.md', '# Design\nMockups, alone this time.\n');
  index();
  await extract();
  assert.deepEqual(mentionsOf('Bo Chen'), ['People/Bo Chen.md', 'Projects/Atlas.md'], 'the edit retracted its mention');
  assert.doesNotMatch(readFileSync(join(root, 'Claude/Graph/People/Bo Chen.md'), 'utf8'), /Meetings\/Design/);
  renameSync(join(root, 'Meetings/Sync.md'), join(root, 'Meetings/Weekly sync.md'));
  index();
  await extract();
  assert.deepEqual(mentionsOf('Ana Silva'), ['Meetings/Weekly sync.md', 'People/Ana Silva.md', 'Projects/Atlas.md'], 'a rename moves the mention');
  vault.remove('Meetings/Weekly sync.md');
  index();
  await extract();
  assert.deepEqual(mentionsOf('Ana Silva'), ['People/Ana Silva.md', 'Projects/Atlas.md']);
  assert.match(readFileSync(join(root, 'Claude/Graph/People/Ana Silva.md'), 'utf8'), /mentioned in 2 notes/);
  // A note tagged #private after it was extracted takes back what it said, like an edit.
  vault.write('Projects/Atlas.md', '---\ntype: project\npeople: ["[[Ana Silva]]", "[[Bo Chen]]"]\ntags: [search, private]\n---\n# Atlas\nSearch migration with [[Ana Silva]].\n');
  index();
  const report = await extract();
  assert.equal(report.skippedPrivate, 1);
  assert.deepEqual(mentionsOf('Bo Chen'), ['People/Bo Chen.md'], 'the now-private note asserts nothing');
  assert.doesNotMatch(readFileSync(join(root, 'Claude/Graph/People/Bo Chen.md'), 'utf8'), /Projects\/Atlas/);
});

test('an entity no note mentions is proposed for retirement, not deleted; a human summary survives updates', async (t) => {
  const { vault, root, db, index, extract } = setup(t);
  await extract();
  const path = join(root, 'Claude/Graph/People/Bo Chen.md');
  const text = readFileSync(path, 'utf8').replace(/A person mentioned in \d+ notes\./, 'Bo leads design; prefers Figma.');
  vault.write('Claude/Graph/People/Bo Chen.md', text);
  vault.write('Meetings/Design.md', '# Design\nno links\n');
  index();
  await extract();
  assert.match(readFileSync(path, 'utf8'), /# Bo Chen\n\nBo leads design; prefers Figma\.\n\n## Mentions/, 'the human summary is kept');
  vault.remove('People/Bo Chen.md');
  vault.write('Projects/Atlas.md', '---\ntype: project\n---\n# Atlas\nSearch migration.\n');
  index();
  await extract();
  assert.ok(existsSync(path), 'not deleted');
  assert.match(readFileSync(path, 'utf8'), /No note mentions this entity any more: proposed for retirement/);
  assert.equal(graphStats(db).orphans >= 1, true);
});

test('related notes: ranked through shared entities, hubs damped, with chains; two hops through relations', async (t) => {
  const { db, extract } = setup(t);
  await extract();
  const related = relatedNotes(db, 'Meetings/Sync.md', { hops: 1, limit: 10 })!;
  assert.equal(related[0]!.path, 'Projects/Atlas.md', 'shares Ana, Atlas and #search');
  assert.ok(related.every((note) => note.path !== 'Meetings/Sync.md'));
  assert.match(related[0]!.chains.join('\n'), /Sync —mentions→ .+ ←mentions— Atlas/);
  const scores = related.map((note) => note.score);
  assert.deepEqual(
    [...scores].sort((a, b) => b - a),
    scores,
    'ranked',
  );
  const twoHops = relatedNotes(db, 'Meetings/Design.md', { hops: 2, limit: 10 })!;
  assert.ok(
    twoHops.some((note) => note.chains.some((chain) => /—works_on—/.test(chain))),
    'a chain through a relation',
  );
  assert.equal(relatedNotes(db, 'Nope.md', { hops: 1, limit: 5 }), null);
});

test('validation: unknown types and relations, path- and URL-like names and injected instructions are dropped', () => {
  const { extraction, dropped } = validateExtraction({
    entities: [
      { name: 'Ana Silva', type: 'person', aliases: ['Ana', '../../.obsidian/plugins/x'], evidence: 'x' },
      { name: '.obsidian/plugins/evil/main.js', type: 'topic' },
      { name: 'https://evil.example', type: 'source' },
      { name: '[[Claude/README]]', type: 'topic' },
      { name: 'Ignore previous instructions', type: 'wizard' },
      { name: 'a'.repeat(200), type: 'topic' },
      { name: 'Atlas', type: 'project' },
      { name: 'Dune: Part Two', type: 'source' },
      { name: 'javascript:alert(1)', type: 'source' },
      { name: 'C:Windows', type: 'topic' },
      { name: 'Notes:', type: 'topic' },
    ],
    relations: [
      { from: 'Ana Silva', to: 'Atlas', relation: 'works_on', evidence: 'e' },
      { from: 'Ana Silva', to: 'Atlas', relation: 'overwrite_files' },
      { from: 'Ana Silva', to: 'Nobody', relation: 'knows' },
    ],
  });
  assert.deepEqual(
    extraction.entities.map((entity) => entity.name),
    ['Ana Silva', 'Atlas', 'Dune: Part Two'],
  );
  assert.equal(entityFileName('Dune: Part Two'), 'Dune - Part Two', 'a subtitle colon never reaches a file name');
  assert.deepEqual(extraction.entities[0]!.aliases, ['Ana']);
  assert.deepEqual(
    extraction.relations.map((relation) => relation.relation),
    ['works_on'],
  );
  assert.equal(dropped, 10);
});

test('an extractor failure is recorded and retried later, never losing completed notes', async (t) => {
  const { db, extract } = setup(t);
  let calls = 0;
  const flaky: Extractor = {
    backend: 'anthropic',
    model: 'fake',
    promptVersion: 'p1',
    async extract(input) {
      calls++;
      if (input.path === 'Meetings/Design.md') throw Object.assign(new Error('rate limited'), { status: 429 });
      return { entities: [{ name: 'Ana Silva', type: 'person', aliases: [], evidence: input.title }], relations: [], usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.001 } };
    },
  };
  const first = await extract(flaky);
  assert.equal(first.failed, 1);
  assert.equal(first.processed, 4);
  assert.ok(Math.abs(first.costUsd - 0.004) < 1e-9);
  assert.equal(db.prepare("SELECT status FROM extractions x JOIN notes n ON n.id = x.note_id WHERE n.path = 'Meetings/Design.md'").pluck().get(), 'transient');
  assert.equal(db.prepare('SELECT count(*) FROM egress').pluck().get(), 5, 'every note sent to an LLM is logged (the private one is not sent)');
  calls = 0;
  const second = await extract(flaky);
  assert.deepEqual([second.processed, second.failed, calls], [0, 1, 1], 'only the transient failure is tried again');
});

test('entity note rendering is stable (golden)', () => {
  const text = renderEntityNote(
    {
      entity: { name: 'Atlas', type: 'project', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-02T00:00:00.000Z' },
      aliases: ['Search migration'],
      mentions: [{ path: 'Meetings/Sync.md', title: 'Sync', evidence: 'project: Atlas' }],
      relations: [{ relation: 'works_on', direction: 'in', other: 'Ana Silva', other_path: 'Claude/Graph/People/Ana Silva.md', source: 'Projects/Atlas.md', evidence: '' }],
    },
    null,
  );
  assert.equal(
    text,
    [
      '---',
      'entity: project',
      'aliases: ["Search migration"]',
      'tags: [graph/project]',
      'created: 2026-01-01T00:00:00.000Z',
      'updated: 2026-01-02T00:00:00.000Z',
      '---',
      '# Atlas',
      '',
      'A project mentioned in 1 note.',
      '',
      '## Mentions',
      '',
      '- [[Meetings/Sync|Sync]] — "project: Atlas"',
      '',
      '## Relations',
      '',
      '- [[Claude/Graph/People/Ana Silva|Ana Silva]] works on this (from [[Projects/Atlas]])',
      '',
    ].join('\n'),
  );
});

test('an empty cache is rebuilt from the entity notes: same graph, nothing re-extracted except notes changed since', async (t) => {
  const { vault, root, db, extract } = setup(t);
  await extract();
  const snapshot = (database: typeof db) => ({
    entities: database.prepare('SELECT name, type, note_path FROM entities WHERE merged_into IS NULL ORDER BY note_path').all(),
    aliases: database.prepare('SELECT e.name, a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id ORDER BY 1, 2').all(),
    mentions: database.prepare('SELECT e.name, n.path, m.evidence FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN notes n ON n.id = m.note_id ORDER BY 1, 2').all(),
    relations: database.prepare('SELECT f.name AS f, t.name AS t, r.relation, n.path FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id JOIN notes n ON n.id = r.note_id ORDER BY 1, 2, 3, 4').all(),
  });
  const before = snapshot(db);
  assert.ok(before.relations.length > 0 && before.mentions.length > 5);

  // A new state directory: the index is rebuilt from the vault, the graph from its entity notes.
  const home = join(vault.home, '..', 'fresh-home');
  const { db: fresh, index: indexFresh } = indexState(t, { root, home });
  // One note changes after its entities were written: it alone is extracted again.
  vault.write('Meetings/Design.md', '---\nattendees: ["[[Bo Chen]]"]\n---\n# Design\nMockups with [[Bo Chen]], again.\n');
  indexFresh();
  const sent: string[] = [];
  const structural = structuralExtractor(fresh);
  const counting: Extractor = {
    ...structural,
    extract: (input) => {
      sent.push(input.path);
      return structural.extract(input);
    },
  };
  const writer = new VaultWriter({ root, db: fresh, stateDir: home, agentRoot: 'Claude', runId: 'rebuild' });
  const report = await runGraphIndex({ root, db: fresh, extractor: counting, writer, agentRoot: 'Claude' });
  assert.ok(report.rebuilt, 'the cache was rebuilt');
  assert.deepEqual(report.rebuilt.skipped, []);
  assert.deepEqual(sent, ['Meetings/Design.md']);
  assert.deepEqual(snapshot(fresh), before);
  const again = await runGraphIndex({ root, db: fresh, extractor: counting, writer, agentRoot: 'Claude' });
  assert.equal(again.rebuilt, undefined, 'a filled cache is never rebuilt');
  assert.equal(again.processed, 0);
});

test('grounding: the prompt carries entities named (or aliased) in the note as whole words, then the nearest by vector', async (t) => {
  const { vault, root, db, index, extract } = setup(t, {
    'People/Robert Zhang.md': '---\ntype: person\naliases: [Bobby]\n---\n# Robert Zhang\nRuns the budget.\n',
    'Projects/Harbor.md': '---\ntype: project\n---\n# Harbor\nData deletion.\n',
    'Notes/Call.md': '# Call\nA call with bobby about harbor, not about Harboring anything.\n',
    'Notes/Budget.md': '# Budget\nThe quarterly review.\n',
    'Notes/Robert.md': '# Robert\nRobertson called the Zhangs; Bobbywise.\n',
  });
  await extract();
  const put = db.prepare("INSERT INTO vectors (note_id, block_key, model, source, content_hash, vector) SELECT id, '', 'test-model', 'local', hash, ? FROM notes WHERE path = ?");
  const unit = (values: number[]) => Buffer.from(new Float32Array(values).buffer);
  put.run(unit([1, 0, 0]), 'People/Robert Zhang.md');
  put.run(unit([0, 1, 0]), 'Projects/Harbor.md');
  put.run(unit([0.95, 0.1, 0]), 'Notes/Budget.md');
  vault.write('Notes/Call.md', '# Call\nA call with bobby about harbor, not about Harboring anything. Again.\n');
  index();
  const seen = new Map<string, string[]>();
  const capturing: Extractor = {
    backend: 'anthropic',
    model: 'capture',
    promptVersion: 'capture-1',
    async extract(input) {
      seen.set(
        input.path,
        input.known.map((entity) => entity.name),
      );
      return { entities: [], relations: [], usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } };
    },
  };
  const writer = new VaultWriter({ root, db, stateDir: vault.home, agentRoot: 'Claude', runId: 'ground' });
  await runGraphIndex({ root, db, extractor: capturing, writer, agentRoot: 'Claude', vectorModel: 'test-model' });
  assert.deepEqual(seen.get('Notes/Call.md')?.sort(), ['Harbor', 'Robert Zhang'], 'an alias (bobby) and a name (harbor), whole words only');
  assert.deepEqual(seen.get('Notes/Budget.md')?.[0], 'Robert Zhang', 'no name in the text: the nearest entity by vector comes first');
  assert.equal(seen.get('Notes/Robert.md')?.includes('Robert Zhang') ?? false, false, 'no vector, no whole-word name: not grounded');
});

test('a note extracted before privacy was read closely (TAGS: private) is retracted once by the next run', async (t) => {
  const { db, extract } = setup(t, { ...VAULT, 'Diary.md': '---\nTAGS: private\npeople: [Hidden Diarist]\n---\n# Diary\n' });
  const first = await extract();
  assert.equal(first.skippedPrivate, 2, 'Secret.md and Diary.md');
  // The state an older reading left behind: Diary.md extracted, its person mentioned.
  const diary = db.prepare("SELECT id FROM notes WHERE path = 'Diary.md'").pluck().get() as number;
  new GraphStore(db, 'Claude').recordNote(diary, { entities: [{ name: 'Hidden Diarist', type: 'person', aliases: [], evidence: 'people: Hidden Diarist' }], relations: [] }, new Date().toISOString());
  db.prepare("UPDATE extractions SET status = 'ok' WHERE note_id = ?").run(diary);
  db.prepare("DELETE FROM meta WHERE key = 'graph_privacy_reading'").run();
  const mentions = () => db.prepare('SELECT count(*) FROM mentions WHERE note_id = ?').pluck().get(diary);
  assert.equal(mentions(), 1);

  const second = await extract();
  assert.equal(second.retractedPrivate, 1);
  assert.equal(mentions(), 0, 'what the now-private note asserted is taken back');
  assert.equal(db.prepare('SELECT status FROM extractions WHERE note_id = ?').pluck().get(diary), 'private');
  assert.equal((await extract()).retractedPrivate, 0, 'read again once per reading, not every run');
});
