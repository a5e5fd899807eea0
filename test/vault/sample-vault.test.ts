/**
 * The committed sample vault (evals/vault, described in evals/VAULT.md) indexed end to end:
 * its deliberate edge cases come out as documented.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readStatus } from '../../src/index/index.js';
import { REPO } from '../helpers/cli.js';
import { indexState } from '../helpers/indexed-vault.js';

test('the sample vault indexes as evals/VAULT.md describes', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'engram-sample-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const root = join(REPO, 'evals', 'vault');
  // The parser's output alone: no search statistics.
  const { db } = indexState(t, { root, home }, { extensions: [] });
  const doc = readStatus(db, { vault: root, stateDir: home });
  const query = (sql: string, ...params: unknown[]) => db.prepare(sql).all(...params);
  const one = (sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .get(...params);

  assert.equal(doc.notes, 163);
  assert.equal(doc.attachments, 2);
  assert.equal(one("SELECT count(*) FROM notes WHERE path LIKE '.%' OR path LIKE '%/.%'"), 0, 'no dot-folder notes');
  assert.equal(one("SELECT count(*) FROM notes WHERE frontmatter LIKE '%sk-fake%' OR title LIKE '%zephyr%'"), 0);

  // Exactly the four deliberately unresolved links.
  const unresolved = query('SELECT target FROM links WHERE resolved_path IS NULL ORDER BY target').map((row) => (row as { target: string }).target);
  assert.deepEqual(unresolved, ['Atlas load test results', 'Pricing page copy', 'Q3 planning', 'whiteboard.png']);

  // Bare [[Overview]] prefers the linking note's folder.
  const overview = (source: string) => one("SELECT l.resolved_path FROM links l JOIN notes n ON n.id = l.note_id WHERE n.path = ? AND l.target = 'Overview'", source);
  assert.equal(overview('Projects/Atlas/Migration plan.md'), 'Projects/Atlas/Overview.md');
  assert.equal(overview('Projects/Billing/Idempotency rollout.md'), 'Projects/Billing/Overview.md');

  // Malformed frontmatter: one warning, the note is still indexed with its inline tag.
  assert.deepEqual(doc.warnings.length, 1);
  assert.match(doc.warnings[0]!, /^Reading\/Thinking in Systems\.md: malformed frontmatter/);
  assert.equal(one("SELECT count(*) FROM tags t JOIN notes n ON n.id = t.note_id WHERE n.path = 'Reading/Thinking in Systems.md' AND t.tag = 'reading'"), 1);

  // Code hides tags, links and headings.
  assert.equal(one("SELECT count(*) FROM tags WHERE tag IN ('in-code-block', 'also-not-a-tag', 'bm25-not-a-tag', 'bm25', '212')"), 0);
  assert.equal(one("SELECT count(*) FROM links WHERE target IN ('Link Inside Code', 'Not A Real Note')"), 0);
  assert.equal(one("SELECT count(*) FROM blocks WHERE key LIKE '%not a heading%'"), 0);

  // Titles from frontmatter, nested tags, attachments, headings with special characters.
  assert.equal(one("SELECT title FROM notes WHERE path = 'Projects/Atlas/Overview.md'"), 'Atlas — Search Index Migration');
  assert.ok((one("SELECT count(*) FROM tags WHERE tag = 'project/atlas'") as number) > 1);
  assert.equal(one("SELECT resolved_kind FROM links WHERE target = 'attachments/architecture.svg'"), 'attachment');
  assert.equal(one("SELECT count(*) FROM blocks WHERE key LIKE '%Rollout 🚀'"), 1);
  assert.equal(one("SELECT aliases FROM notes WHERE path = 'People/Tomasz Wójcik.md'"), JSON.stringify(['Tomek', 'Tomasz W']));
});
