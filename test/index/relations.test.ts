/**
 * A vault in Smart Relations' format: UUID ids, simple and rich related: entries. Every
 * relation resolves, before and after a note is renamed; get_backlinks shows each with its type;
 * bad ids and entries are reported by health and status, and the rest is indexed.
 */
import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import { readStatus } from '../../src/index/index.js';
import { runHealthChecks } from '../../src/librarian/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { connectFixture } from '../helpers/mcp.js';
import { makeVault } from '../helpers/vault.js';

const A = '550e8400-e29b-41d4-a716-446655440000';
const B = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const C = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';

/** Seed 002's formats: `id` first, `kind`, simple related (UUIDs) and rich (id, rel, auto). */
export const SMART_RELATIONS_VAULT: Record<string, string> = {
  'Research/Attention.md': `---\nid: "${A}"\nkind: knowledge\ntags: [topic-ai]\nrelated:\n  - "${B}"\n  - "${C}"\nsummary: "Attention in transformers."\n---\n# Attention\nSelf-attention weighs tokens.\n`,
  'Research/Transformers.md': `---\nid: "${B}"\nkind: knowledge\ntags: [topic-ai]\nrelated:\n  - id: "${A}"\n    rel: "references"\n    auto: true\n  - id: "${C}"\n    rel: "supports"\n    auto: false\n---\n# Transformers\nStacks of attention layers.\n`,
  'Notes/Scaling.md': `---\nid: "${C}"\nkind: knowledge\ntags: [topic-ai, scaling]\nrelated: []\n---\n# Scaling\nBigger models, more data.\n`,
  'Notes/Plain.md': `---\nrelated:\n  - "[[Scaling]]"\n  - Research/Attention.md\n---\n# Plain\nNo id of its own.\n`,
};

function resolved(db: Database.Database) {
  return db.prepare(`SELECT n.path AS source, l.target, l.resolved_path AS resolved, l.rel_type AS type FROM links l JOIN notes n ON n.id = l.note_id WHERE l.kind = 'related' ORDER BY n.path, l.ord`).all() as {
    source: string;
    target: string;
    resolved: string | null;
    type: string | null;
  }[];
}

test('every Smart Relations relation resolves before and after renames, by id and by path', (t) => {
  const vault = makeVault(t, SMART_RELATIONS_VAULT);
  const { db, index } = indexState(t, vault);
  const before = resolved(db);
  assert.equal(before.length, 6);
  assert.ok(
    before.every((row) => row.resolved !== null),
    JSON.stringify(before),
  );
  assert.deepEqual(
    before.filter((row) => row.source === 'Research/Transformers.md').map((row) => [row.resolved, row.type]),
    [
      ['Research/Attention.md', 'references'],
      ['Notes/Scaling.md', 'supports'],
    ],
  );
  // Renamed outside Obsidian (no link rewriting): entries by id follow the note.
  renameSync(join(vault.root, 'Notes/Scaling.md'), join(vault.root, 'Notes/Scaling laws.md'));
  renameSync(join(vault.root, 'Research/Transformers.md'), join(vault.root, 'Archive-Transformers.md'));
  index();
  const after = resolved(db);
  const byId = after.filter((row) => row.source !== 'Notes/Plain.md');
  assert.ok(
    byId.every((row) => row.resolved !== null),
    JSON.stringify(after),
  );
  assert.deepEqual(
    after.filter((row) => row.target === C).map((row) => row.resolved),
    ['Notes/Scaling laws.md', 'Notes/Scaling laws.md'],
  );
  assert.deepEqual(
    after.filter((row) => row.target === B).map((row) => row.resolved),
    ['Archive-Transformers.md'],
  );
  // A link by name breaks with the rename (as in Obsidian without its link updater); health says so.
  assert.deepEqual(
    after.filter((row) => row.source === 'Notes/Plain.md').map((row) => row.resolved),
    [null, 'Research/Attention.md'],
  );
});

test('get_backlinks lists related: entries with their type', async (t) => {
  const { call } = await connectFixture(t, SMART_RELATIONS_VAULT);
  const result = await call('get_backlinks', { path: 'Notes/Scaling.md' });
  assert.equal(result.isError, undefined, result.content[0]?.text);
  const backlinks = result.structuredContent!.backlinks as { path: string; kind: string; type?: string | null }[];
  assert.deepEqual(
    backlinks.map((link) => [link.path, link.kind, link.type]),
    [
      ['Notes/Plain.md', 'related', null],
      ['Research/Attention.md', 'related', null],
      ['Research/Transformers.md', 'related', 'supports'],
    ],
  );
});

test('shared, numeric and empty ids, unresolved, self and cyclic relations: reported by health and status, never merged, the rest indexed', (t) => {
  const vault = makeVault(t, {
    'One.md': '---\nid: twin\nrelated: [twin, nobody-has-this-id]\n---\n# One\nfirst twin\n',
    'Two.md': '---\nid: twin\nrelated: ["[[Two]]"]\n---\n# Two\nsecond twin\n',
    'Num.md': '---\nid: 42\nrelated: ["[[Loop]]"]\n---\n# Num\n',
    'Loop.md': '---\nid: ""\nrelated: [42]\n---\n# Loop\n',
    'Broken.md': '---\nrelated: [unclosed\n---\n# Broken\nstill searchable\n',
  });
  const { db } = indexState(t, vault);
  assert.equal(db.prepare('SELECT count(*) FROM notes').pluck().get(), 5, 'every note indexed');
  const rows = resolved(db);
  // The cycle Num ↔ Loop resolves both ways (42 is Num's id, read as text).
  assert.deepEqual(
    rows.filter((row) => row.source === 'Num.md' || row.source === 'Loop.md').map((row) => row.resolved),
    ['Num.md', 'Loop.md'],
  );
  const health = Object.fromEntries(runHealthChecks(db, { root: vault.root, agentRoot: 'Claude', model: 'm', modelMismatch: null, embedderUnavailable: null }).map((check) => [check.name, check]));
  assert.equal(health['duplicate ids']!.count, 1);
  assert.match(health['duplicate ids']!.examples[0]!, /id "twin" is shared by One\.md and Two\.md/);
  assert.equal(health['unresolved relations']!.count, 3, JSON.stringify(health['unresolved relations']));
  const examples = health['unresolved relations']!.examples.join('\n');
  assert.match(examples, /One\.md: related "twin" is unresolved \(id "twin" is shared by more than one note/);
  assert.match(examples, /One\.md: related "nobody-has-this-id" is unresolved \(no note has this id/);
  assert.match(examples, /Two\.md: related: names the note itself/);
  const warnings = readStatus(db, { vault: vault.root, stateDir: vault.home }).warnings.join('\n');
  for (const expected of [/id "twin" is shared by One\.md and Two\.md/, /Num\.md: id is a number \(42\)/, /Loop\.md: id is empty/, /Broken\.md: malformed frontmatter/, /nobody-has-this-id/]) {
    assert.match(warnings, expected);
  }
});
