import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test, type TestContext } from 'node:test';
import { normalizeName, runGraphIndex, structuralExtractor } from '../../src/graph/index.js';
import { parseNote } from '../../src/vault/index.js';
import { indexVault } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

async function graphOf(t: TestContext, files: Record<string, string>, copyFrom?: string) {
  const vault = makeVault(t, files);
  if (copyFrom) cpSync(copyFrom, vault.root, { recursive: true, filter: (path) => !relative(copyFrom, path).startsWith(join('Claude', 'Graph')) });
  const { root, db, writer } = indexVault(t, vault);
  const report = await runGraphIndex({ root, db, extractor: structuralExtractor(db), writer, agentRoot: 'Claude' });
  assert.equal(report.failed, 0);
  const entities = db.prepare('SELECT name, type FROM entities ORDER BY type, name').all() as { name: string; type: string }[];
  const relations = db
    .prepare('SELECT a.name AS from_name, r.relation, b.name AS to_name FROM relations r JOIN entities a ON a.id = r.from_id JOIN entities b ON b.id = r.to_id')
    .all()
    .map((row) => {
      const { from_name: from, relation, to_name: to } = row as Record<string, string>;
      return `${from} ${relation} ${to}`;
    });
  const mentions = (path: string) =>
    db
      .prepare('SELECT e.name, m.evidence FROM mentions m JOIN entities e ON e.id = m.entity_id JOIN notes n ON n.id = m.note_id WHERE n.path = ? ORDER BY e.name')
      .all(path)
      .map((row) => {
        const { name, evidence } = row as Record<string, string>;
        return `${name} ← ${evidence}`;
      });
  return { root, entities, relations, mentions, has: (name: string, type: string) => entities.some((entity) => normalizeName(entity.name) === normalizeName(name) && entity.type === type) };
}

const VAULT = {
  'People/Ana Silva.md': '---\ncompany: "[[Acme]]"\n---\n# Ana Silva\nEngineer.\n',
  'People/Bo.md': '# Bo\nDesigner.\n',
  'People/People.md': '# People\nThe team.\n',
  'Companies/Acme.md': '# Acme\nA client.\n',
  'Projects/Atlas/Overview.md': '---\ntitle: Atlas — Search Migration\naliases: [Atlas]\ntype: project\n---\nMoving search.\n',
  'Projects/Beacon.md': '---\ntype: project\nrelated: ["[[Projects/Atlas/Overview|Atlas]]"]\n---\n# Beacon\nOn-call.\n',
  'Meetings/Kickoff.md': '---\ntype: meeting\nproject: atlas\nrequested_by: "[[Ana Silva]]"\nnotes_by: "[[Bo]]"\ntags: [meeting, project/atlas]\n---\n# Kickoff\nWe met.\n',
  'Docs/Tags.md': ['# Tags', 'Write `#inline` to tag; a span may run on: `#spanned', '#alsospanned` and', '```', '#fenced', '```', 'A real one: #real'].join('\n'),
};

test('the structural graph: notes that are entities by type or folder, what their frontmatter names, related:, and no tags from code', async (t) => {
  const { entities, relations, mentions, has } = await graphOf(t, VAULT);
  assert.ok(has('Ana Silva', 'person') && has('Bo', 'person'), 'People/ makes people of notes that name no type');
  assert.ok(has('Acme', 'organization'), 'Companies/ makes organizations');
  assert.ok(!has('People', 'person'), "a folder's own note is not an entity");
  assert.ok(has('Atlas — Search Migration', 'project'));
  assert.ok(!has('atlas', 'project'), '`project: atlas` and `#project/atlas` name the Atlas note, not a second project');
  assert.deepEqual(mentions('Meetings/Kickoff.md'), ['Ana Silva ← requested_by: [[Ana Silva]]', 'Atlas — Search Migration ← project: atlas', 'Bo ← notes_by: [[Bo]]']);
  assert.ok(relations.includes('Ana Silva works_at Acme'), relations.join('\n'));
  assert.ok(relations.includes('Beacon related_to Atlas — Search Migration'), 'related: becomes a relation');
  for (const name of ['inline', 'spanned', 'alsospanned', 'fenced']) assert.ok(!has(name, 'topic'), `#${name} is code, not a topic`);
  assert.ok(has('real', 'topic'));
  assert.ok(!has('meeting', 'topic'), '#meeting on a meeting note restates its type');
  assert.equal(entities.filter((entity) => entity.type === 'topic').length, 1);
});

/** Frontmatter fields of `evals/vault` that name people, and the notes that set `project:`. */
function namedInFrontmatter(root: string): { people: Set<string>; projects: Map<string, string> } {
  const people = new Set<string>();
  const projects = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) {
        const note = parseNote(relative(root, path), readFileSync(path, 'utf8'));
        for (const key of ['attendees', 'people', 'owner', 'author', 'requested_by', 'note_author', 'presenter']) {
          const value = note.frontmatter?.[key];
          for (const item of (Array.isArray(value) ? value : value === undefined ? [] : [value]) as string[]) people.add(String(item).replace(/^\[\[|\]\]$/g, ''));
        }
        const project = note.frontmatter?.project;
        if (typeof project === 'string') projects.set(note.path, project);
      }
    }
  };
  walk(root);
  return { people, projects };
}

test('on the sample vault, every person and project its notes name in frontmatter is an entity', async (t) => {
  const sample = join(import.meta.dirname, '../../evals/vault');
  const { has, mentions, entities } = await graphOf(t, {}, sample);
  const { people, projects } = namedInFrontmatter(sample);
  assert.ok(people.size > 20 && projects.size > 30);
  const missing = [...people].filter((name) => !has(name, 'person'));
  assert.deepEqual(missing, [], 'every person named');
  for (const [path, project] of projects) {
    assert.ok(
      mentions(path).some((mention) => mention.endsWith(`project: ${project}`)),
      `${path} mentions its project ${project}`,
    );
  }
  const projectNames = entities.filter((entity) => entity.type === 'project').map((entity) => entity.name);
  for (const name of ['atlas', 'billing', 'harbor', 'lantern', 'keystone', 'beacon']) {
    assert.ok(!projectNames.includes(name), `project: ${name} is the project note's entity, not a bare "${name}" (${projectNames.join(', ')})`);
  }
});
