/**
 * Two connections indexing one state database, as a server (indexing its own writes) and
 * `engram index` do: a run whose plan another process overtook still completes, and ends in
 * the state a single run would have reached.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexPaths, openStateDb, runIndex } from '../../src/index/index.js';
import { lexicalExtension } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { orphanRows, termRows } from '../helpers/index-check.js';
import { makeVault } from '../helpers/vault.js';
import { dumpState, withoutIds } from '../helpers/state.js';

test('an index run overtaken by another connection indexing new notes (new terms, same paths) completes with the same state as one run', (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`Notes/N${i}.md`] = `# Note ${i}\nalpha${i} beta${i} gamma shared words [[N${(i + 1) % 30}]]\n`;
  files['Claude/Inbox/today.md'] = '# Inbox\n- zebra quokka capture\n';
  const vault = makeVault(t, files);
  mkdirSync(vault.home, { recursive: true });
  const a = openStateDb(vault.home).db;
  const b = openStateDb(vault.home).db;
  t.after(() => {
    a.close();
    b.close();
  });

  let overtaken = false;
  const report = runIndex(a, {
    root: vault.root,
    extensions: [lexicalExtension()],
    batchSize: 7,
    onProgress: () => {
      if (overtaken) return;
      overtaken = true;
      // After the run listed and planned, a server writes and indexes notes of its own.
      vault.write('Claude/New.md', '# New\nwombat platypus echidna capture\n');
      indexPaths(b, ['Claude/Inbox/today.md', 'Claude/New.md', 'Notes/N3.md'], { root: vault.root, extensions: [lexicalExtension()] });
    },
  });
  assert.ok(overtaken);
  assert.equal(report.notes, 32, "every note indexed: the run's own 31 and the server's new one");
  runIndex(a, { root: vault.root, extensions: [lexicalExtension()] });

  const clean = indexState(t, { root: vault.root, home: join(vault.home, 'clean') }).db;
  assert.deepEqual(termRows(a), termRows(clean));
  assert.deepEqual(withoutIds(dumpState(a)), withoutIds(dumpState(clean)));
  assert.deepEqual(
    Object.values(orphanRows(a)).filter((n) => n > 0),
    [],
  );
});

test('a whole-vault run removes rows left behind by notes no longer indexed (a database written without foreign keys enforced)', (t) => {
  const vault = makeVault(t, { 'A.md': '# A\nalpha [[B]]\n- [ ] task\n', 'B.md': '# B\nbeta #tag\n' });
  const { db, index } = indexState(t, vault);
  db.pragma('foreign_keys = OFF');
  db.prepare("DELETE FROM notes WHERE path = 'A.md'").run();
  db.pragma('foreign_keys = ON');
  assert.ok((orphanRows(db).note_terms ?? 0) > 0);
  const report = index();
  assert.equal(report.added, 1, 'the note is indexed again');
  assert.ok(report.orphansRemoved >= 4, `blocks, links, tasks and statistics of the lost row: ${report.orphansRemoved}`);
  assert.deepEqual(orphanRows(db), { note_terms: 0, notes_without_terms: 0, blocks: 0, links: 0, vectors: 0, foreign_key_violations: 0 });
});
