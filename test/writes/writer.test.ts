/**
 * The writer in one process: writes inside Claude/, every refusal (territory, protected files,
 * hostile paths, symlinks out of the vault, size, bad text) with the vault byte-for-byte
 * unchanged, line endings and BOM kept, the journal row and the audit trail, undo. The todo
 * tests at the end pin bugs found while writing these (see their comments).
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { hashContent } from '../../src/vault/index.js';
import { agent, GRAPH, WRITE_DEFAULTS } from '../../src/writes/index.js';
import { auditLines, journalRows, refused, snapshot, START, writerVault } from './fixture.js';

const HUMAN = {
  'Claude/README.md': '# Rules for agents\n',
  'Claude/Librarian.md': '# Librarian report\n',
  'Claude/Graph/People/Ada.md': '# Ada\n',
  'Projects/Atlas.md': '# Atlas\nhuman text\n',
  '.obsidian/app.json': '{"theme":"dark"}',
  'Home.md': '# Home\n',
};

const append = (line: string) => (current: string | null) => `${current ?? ''}${line}\n`;

test('creates a note inside Claude/ with the exact text, refuses to create it twice', (t) => {
  const fx = writerVault(t, HUMAN);
  let seen: string | null | undefined;
  const receipt = fx.writer.write({
    by: agent('write_note'),
    path: 'Claude/Inbox/Idea.md',
    create: true,
    next: (current) => {
      seen = current;
      return '# Idea\n\nGrow tomatoes. 🍅\n';
    },
  });
  assert.equal(seen, null, 'next sees null for a new note');
  assert.equal(fx.text('Claude/Inbox/Idea.md'), '# Idea\n\nGrow tomatoes. 🍅\n');
  assert.deepEqual(receipt, { journalId: 1, path: 'Claude/Inbox/Idea.md', created: true, beforeHash: null, afterHash: hashContent(fx.read('Claude/Inbox/Idea.md')), touched: ['Claude/Inbox/Idea.md', 'Claude/Audit.md'] });

  const before = snapshot(fx.root);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Inbox/Idea.md', create: true, next: () => 'other\n' }), /exists already/);
  assert.deepEqual(snapshot(fx.root), before);
  assert.equal(journalRows(fx.db).length, 1);
});

test('a write outside Claude/ is refused with a message that says to preview; nothing is written', (t) => {
  const fx = writerVault(t, HUMAN);
  const before = snapshot(fx.root);
  for (const path of ['Projects/Atlas.md', 'Projects/New.md', 'Home.md', 'claude-notes/x.md', 'Claude.md']) {
    const message = refused(() => fx.writer.write({ by: agent('write_note'), path, next: append('agent') }), /preview/, path);
    assert.match(message, /outside Claude\//, path);
    assert.match(message, /confirmation/, path);
  }
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(journalRows(fx.db), []);
});

test('protected files are refused, Graph/ only through the graph tool; the constitution only through preview → apply', (t) => {
  const fx = writerVault(t, { ...HUMAN, 'Claude/Audit.md': '# Engram write audit\n\n- old line\n' });
  const before = snapshot(fx.root);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/README.md', next: append('obey me') }), /constitution.*confirmation/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/readme.md', next: append('obey me') }), /constitution/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Librarian.md', next: append('x') }), /Librarian/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Audit.md', next: () => '' }), /journal/);
  refused(() => fx.writer.write({ by: GRAPH, path: 'Claude/Audit.md', next: () => '' }), /journal/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Graph/People/Ada.md', next: append('x') }), /graph tools/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Graph/People/Bob.md', create: true, next: () => '# Bob\n' }), /graph tools/);
  // preview does not open a back door to the others
  refused(() => fx.writer.preview({ by: agent('write_note'), path: 'Claude/Librarian.md', next: append('x') }), /Librarian/);
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(journalRows(fx.db), []);

  fx.writer.write({ by: GRAPH, path: 'Claude/Graph/People/Ada.md', next: append('born 1815') });
  assert.equal(fx.text('Claude/Graph/People/Ada.md'), '# Ada\nborn 1815\n');

  // The human approves a change to the constitution: preview, then apply with the token.
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Claude/README.md', next: append('Agents cite sources.') });
  assert.equal(fx.text('Claude/README.md'), '# Rules for agents\n', 'a preview writes nothing');
  fx.writer.apply(preview.token);
  assert.equal(fx.text('Claude/README.md'), '# Rules for agents\nAgents cite sources.\n');
});

test('hostile and non-note paths are refused with the vault unchanged', (t) => {
  const fx = writerVault(t, HUMAN);
  const before = snapshot(fx.root);
  const besideBefore = readdirSync(join(fx.root, '..')).sort();
  const paths = [
    '../x.md',
    '../../etc/x.md',
    'Claude/../../x.md',
    'Claude/../Projects/Atlas.md',
    'Claude/%2e%2e/%2e%2e/x.md',
    'Claude/..%2f..%2fx.md',
    '/etc/x.md',
    '/tmp/x.md',
    join(fx.root, 'Claude', 'abs.md'),
    '\\\\server\\share\\x.md',
    'C:\\x.md',
    'C:/x.md',
    'file:///etc/x.md',
    '.obsidian/x.md',
    '.obsidian/app.json',
    'Claude/.obsidian/x.md',
    '.trash/x.md',
    'Claude/.hidden.md',
    'Claude/%2eenv.md',
    'Claude/x.txt',
    'Claude/x.canvas',
    'Claude/x.md.bak',
    'Claude/x.png',
    '',
    '   ',
    'Claude',
    'Claude/',
    'Claude/x\u0000.md',
    'Claude/line\nbreak.md',
    'Claude/\u202Egpj.md',
    'Claude/' + 'x'.repeat(1100) + '.md',
  ];
  for (const path of paths) {
    refused(() => fx.writer.write({ by: agent('write_note'), path, next: () => 'pwned\n' }), /./, JSON.stringify(path));
    refused(() => fx.writer.preview({ by: agent('write_note'), path, next: () => 'pwned\n' }), /./, `preview ${JSON.stringify(path)}`);
  }
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(snapshot(fx.outside), {});
  assert.deepEqual(readdirSync(join(fx.root, '..')).sort(), besideBefore);
  assert.deepEqual(journalRows(fx.db), []);
});

test('a symlinked folder (or note) inside Claude/ that leads out of the vault is refused; nothing is written outside', (t) => {
  const fx = writerVault(t, HUMAN);
  writeFileSync(join(fx.outside, 'existing.md'), '# private\n');
  symlinkSync(fx.outside, join(fx.root, 'Claude', 'Out'));
  symlinkSync(join(fx.outside, 'existing.md'), join(fx.root, 'Claude', 'Leak.md'));
  symlinkSync(join(fx.outside, 'nowhere'), join(fx.root, 'Claude', 'Broken'));
  const vaultBefore = snapshot(fx.root);
  const outsideBefore = snapshot(fx.outside);
  for (const path of ['Claude/Out/new.md', 'Claude/Out/existing.md', 'Claude/Out/Deep/er.md', 'Claude/Leak.md', 'Claude/Broken/x.md']) {
    refused(() => fx.writer.write({ by: agent('write_note'), path, next: append('escaped') }), /symlink/, path);
    refused(() => fx.writer.preview({ by: agent('write_note'), path, next: append('escaped') }), /symlink/, `preview ${path}`);
  }
  assert.deepEqual(snapshot(fx.outside), outsideBefore);
  assert.deepEqual(snapshot(fx.root), vaultBefore);
  assert.deepEqual(journalRows(fx.db), []);
});

test("a symlink inside Claude/ into the human's folders is judged by where it really leads", (t) => {
  const fx = writerVault(t, HUMAN);
  symlinkSync(join(fx.root, 'Projects'), join(fx.root, 'Claude', 'Projects'));
  symlinkSync(join(fx.root, 'Claude', 'README.md'), join(fx.root, 'Claude', 'Rules.md'));
  const before = snapshot(fx.root);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Projects/Atlas.md', next: append('x') }), /outside Claude\/.*preview/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Projects/New.md', next: append('x') }), /outside Claude\/.*preview/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Rules.md', next: append('x') }), /constitution/);
  assert.deepEqual(snapshot(fx.root), before);
});

test('content over 1 MiB is refused, exactly 1 MiB is written; bytes count, not characters', (t) => {
  const fx = writerVault(t, { 'Claude/Big.md': 'x'.repeat(WRITE_DEFAULTS.maxBytes - 10) });
  assert.equal(WRITE_DEFAULTS.maxBytes, 1024 * 1024);
  const before = snapshot(fx.root);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/New.md', next: () => 'x'.repeat(1024 * 1024 + 1) }), /1048577 bytes.*split/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/New.md', next: () => 'é'.repeat(600_000) }), /1200000 bytes/);
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Big.md', next: (current) => `${current}0123456789!` }), /1048577 bytes/);
  refused(() => fx.writer.preview({ by: agent('write_note'), path: 'Projects/Huge.md', next: () => 'x'.repeat(2 * 1024 * 1024) }), /bytes/);
  assert.deepEqual(snapshot(fx.root), before);
  assert.deepEqual(journalRows(fx.db), []);

  fx.writer.write({ by: agent('write_note'), path: 'Claude/Big.md', next: (current) => `${current}0123456789` });
  assert.equal(fx.read('Claude/Big.md').length, 1024 * 1024);
});

test('a CRLF file that would pass 1 MiB only once its line endings are restored is refused', (t) => {
  const fx = writerVault(t, { 'Claude/Lines.md': 'a\r\n' });
  const text = 'x\n'.repeat(400_000); // 800,000 bytes with \n, 1,200,000 with \r\n
  refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Lines.md', next: () => text }), /1200000 bytes/);
  assert.equal(fx.text('Claude/Lines.md'), 'a\r\n');
});

test('NUL bytes and unpaired surrogates are refused; paired ones are fine', (t) => {
  const fx = writerVault(t, { 'Claude/Note.md': '# Note\n' });
  const before = snapshot(fx.root);
  for (const text of ['a\u0000b', '\u0000']) {
    refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Note.md', next: () => text }), /NUL/);
  }
  for (const text of ['a\uD800b', 'end \uD83D', '\uDE00 start', 'x\uDC00\uD800y']) {
    refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/Note.md', next: () => text }), /unpaired surrogate/, JSON.stringify(text));
    refused(() => fx.writer.write({ by: agent('write_note'), path: 'Claude/New.md', next: () => text }), /unpaired surrogate/, JSON.stringify(text));
  }
  refused(() => fx.writer.preview({ by: agent('write_note'), path: 'Projects/P.md', next: () => 'a\uD800' }), /unpaired surrogate/);
  assert.deepEqual(snapshot(fx.root), before);
  fx.writer.write({ by: agent('write_note'), path: 'Claude/Note.md', next: append('😀 \uD83D\uDE00 ok') });
  assert.equal(fx.text('Claude/Note.md'), '# Note\n😀 😀 ok\n');
});

test("an append keeps the file's CRLF line endings and BOM; next sees plain \\n text", (t) => {
  const crlfBom = Buffer.from('\uFEFF# Title\r\n\r\nfirst line\r\n', 'utf8');
  const fx = writerVault(t, { 'Claude/Win.md': crlfBom, 'Claude/Unix.md': 'a\nb\n', 'Claude/Bom.md': '\uFEFFbom\n' });
  let seen: string | null = null;
  fx.writer.write({
    by: agent('capture'),
    path: 'Claude/Win.md',
    next: (current) => {
      seen = current;
      return `${current}second line\nthird line\n`;
    },
  });
  assert.equal(seen, '# Title\n\nfirst line\n');
  assert.deepEqual(fx.read('Claude/Win.md'), Buffer.from('\uFEFF# Title\r\n\r\nfirst line\r\nsecond line\r\nthird line\r\n', 'utf8'));
  assert.deepEqual([...fx.read('Claude/Win.md').subarray(0, 3)], [0xef, 0xbb, 0xbf], 'one BOM, not two');

  fx.writer.write({ by: agent('capture'), path: 'Claude/Unix.md', next: append('c') });
  assert.equal(fx.text('Claude/Unix.md'), 'a\nb\nc\n');
  fx.writer.write({ by: agent('capture'), path: 'Claude/Bom.md', next: append('more') });
  assert.deepEqual(fx.read('Claude/Bom.md'), Buffer.from('\uFEFFbom\nmore\n', 'utf8'));
});

test('the journal row keeps both hashes and the bytes replaced; Audit.md gets a line on top', (t) => {
  const original = Buffer.from('\uFEFF# Log\r\nday one\r\n', 'utf8');
  const fx = writerVault(t, { 'Claude/Log.md': original });
  const first = fx.writer.write({ by: agent('capture'), path: 'Claude/Log.md', next: append('day two') });
  fx.clock.now = START + 60_000;
  const second = fx.writer.write({ by: agent('write_note'), path: 'Claude/New.md', create: true, next: () => 'fresh\n' });

  const rows = journalRows(fx.db);
  assert.equal(rows.length, 2);
  const [row1, row2] = rows as [(typeof rows)[0], (typeof rows)[0]];
  assert.deepEqual(
    { ...row1, before_bytes: null },
    {
      id: first.journalId,
      run_id: 'test',
      tool: 'capture',
      path: 'Claude/Log.md',
      before_hash: hashContent(original),
      after_hash: hashContent(fx.read('Claude/Log.md')),
      before_bytes: null,
      at: new Date(START).toISOString(),
      undone_at: null,
    },
  );
  assert.ok(row1.before_bytes !== null && original.equals(row1.before_bytes), 'the replaced bytes, BOM and CRLF included');
  assert.equal(first.beforeHash, row1.before_hash);
  assert.equal(first.afterHash, row1.after_hash);
  assert.equal(first.created, false);
  assert.equal(row2.before_hash, null);
  assert.equal(row2.before_bytes, null);
  assert.equal(row2.after_hash, hashContent('fresh\n'));
  assert.equal(row2.at, new Date(START + 60_000).toISOString());
  assert.equal(second.created, true);

  const audit = fx.text('Claude/Audit.md');
  assert.ok(audit.startsWith('# Engram write audit\n\n'), audit);
  assert.deepEqual(auditLines(fx.root), [
    `- 2026-03-01 09:31 · #${second.journalId} write_note · Claude/New.md · new → ${row2.after_hash.slice(0, 8)} · test`,
    `- 2026-03-01 09:30 · #${first.journalId} capture · Claude/Log.md · ${row1.before_hash!.slice(0, 8)} → ${row1.after_hash.slice(0, 8)} · test`,
  ]);
});

test('the audit trail keeps the newest 300 lines', (t) => {
  const old = Array.from({ length: 300 }, (_, i) => `- old ${i}`).join('\n');
  const fx = writerVault(t, { 'Claude/Audit.md': `# Engram write audit\n\n${old}\n` });
  const receipt = fx.writer.write({ by: agent('capture'), path: 'Claude/x.md', next: append('x') });
  const lines = auditLines(fx.root);
  assert.equal(lines.length, WRITE_DEFAULTS.auditLines);
  assert.match(lines[0]!, new RegExp(`#${receipt.journalId} capture · Claude/x\\.md`));
  assert.equal(lines[1], '- old 0');
  assert.equal(lines.at(-1), '- old 298');
});

test('undo restores the previous bytes exactly; undo of a created note deletes it', (t) => {
  const original = Buffer.from('\uFEFF# Plan\r\nstep 1\r\n', 'utf8');
  const fx = writerVault(t, { 'Claude/Plan.md': original, 'Claude/Empty.md': '' });
  const before = snapshot(fx.root);
  const edit = fx.writer.write({ by: agent('write_note'), path: 'Claude/Plan.md', next: () => 'replaced entirely\n' });
  assert.notDeepEqual(fx.read('Claude/Plan.md'), original);
  fx.clock.now = START + 1000;
  const undo = fx.writer.undo(edit.journalId);
  assert.deepEqual(fx.read('Claude/Plan.md'), original);
  assert.equal(undo.afterHash, hashContent(original));
  const rows = journalRows(fx.db);
  assert.equal(rows.find((row) => row.id === edit.journalId)!.undone_at, new Date(START + 1000).toISOString());
  assert.equal(rows.find((row) => row.id === undo.journalId)!.tool, 'undo_write');

  // An empty note is a note: undoing an append to it restores it empty, it does not delete it.
  const onEmpty = fx.writer.write({ by: agent('capture'), path: 'Claude/Empty.md', next: append('x') });
  fx.writer.undo(onEmpty.journalId);
  assert.equal(fx.read('Claude/Empty.md').length, 0);

  const created = fx.writer.write({ by: agent('write_note'), path: 'Claude/Inbox/Fresh.md', create: true, next: () => '# Fresh\n' });
  const removal = fx.writer.undo(created.journalId);
  assert.equal(existsSync(join(fx.root, 'Claude/Inbox/Fresh.md')), false);
  assert.equal(removal.afterHash, 'deleted');
  assert.deepEqual(removal.touched, ['Claude/Inbox/Fresh.md', 'Claude/Audit.md'], 'a removal touched the note and the audit trail');

  // Everything but the audit trail (and the Inbox folder the create made) is as it was.
  const after = snapshot(fx.root);
  delete after['Claude/Audit.md'];
  delete after['Claude/Inbox'];
  assert.deepEqual(after, before);
  assert.match(auditLines(fx.root)[0]!, new RegExp(`#${removal.journalId} undo_write · Claude/Inbox/Fresh\\.md · ${created.afterHash.slice(0, 8)} → deleted`));
});

test("undo is refused, with the reason, when the note changed since; the human's bytes stay", (t) => {
  const fx = writerVault(t, { 'Claude/Plan.md': 'v1\n' });
  const edit = fx.writer.write({ by: agent('write_note'), path: 'Claude/Plan.md', next: () => 'v2\n' });
  fx.vault.write('Claude/Plan.md', 'v2 plus a human edit\n');
  const before = snapshot(fx.root);
  refused(() => fx.writer.undo(edit.journalId), /Claude\/Plan\.md has changed since write #1.*refused.*by hand/);
  assert.deepEqual(snapshot(fx.root), before);

  // A later write by the agent counts as a change too; and a deleted note cannot be undone,
  // which the refusal says (not "has changed": the note is gone).
  const created = fx.writer.write({ by: agent('write_note'), path: 'Claude/Gone.md', create: true, next: () => 'x\n' });
  const extended = fx.writer.write({ by: agent('capture'), path: 'Claude/Gone.md', next: append('y') });
  fx.vault.remove('Claude/Gone.md');
  refused(() => fx.writer.undo(extended.journalId), /Claude\/Gone\.md has been deleted \(or moved\) since write #\d+; .*cannot bring the note back/);
  refused(() => fx.writer.undo(created.journalId), /Claude\/Gone\.md, which write #\d+ created, has been deleted since; .*nothing to undo/);
  const a = fx.writer.write({ by: agent('capture'), path: 'Claude/Plan.md', next: append('a') });
  fx.writer.write({ by: agent('capture'), path: 'Claude/Plan.md', next: append('b') });
  refused(() => fx.writer.undo(a.journalId), /has changed since/);
  assert.equal(journalRows(fx.db).filter((row) => row.undone_at !== null).length, 0);
});

test('undo twice is refused; an unknown write number is refused', (t) => {
  const fx = writerVault(t, { 'Claude/Plan.md': 'v1\n' });
  const edit = fx.writer.write({ by: agent('write_note'), path: 'Claude/Plan.md', next: () => 'v2\n' });
  fx.writer.undo(edit.journalId);
  assert.equal(fx.text('Claude/Plan.md'), 'v1\n');
  const before = snapshot(fx.root);
  refused(() => fx.writer.undo(edit.journalId), /was undone already \(2026-03-01T09:30:00\.000Z\)/);
  refused(() => fx.writer.undo(999), /no write #999/);
  assert.deepEqual(snapshot(fx.root), before);
});

test('a write that throws inside next writes nothing and releases the lock', (t) => {
  const fx = writerVault(t, { 'Claude/Plan.md': 'v1\n' });
  const before = snapshot(fx.root);
  assert.throws(
    () =>
      fx.writer.write({
        by: agent('write_note'),
        path: 'Claude/Plan.md',
        next: () => {
          throw new Error('tool bug');
        },
      }),
    /tool bug/,
  );
  assert.deepEqual(snapshot(fx.root), before);
  assert.equal(existsSync(join(fx.vault.home, 'write.lock')), false);
  fx.writer.write({ by: agent('write_note'), path: 'Claude/Plan.md', next: append('v2') });
  assert.equal(fx.text('Claude/Plan.md'), 'v1\nv2\n');
});

test('a write lock left by a dead process is taken over', (t) => {
  const fx = writerVault(t, { 'Claude/Plan.md': 'v1\n' });
  // pid 2^22+1 is above Linux's pid_max default, so it is not running.
  writeFileSync(join(fx.vault.home, 'write.lock'), JSON.stringify({ pid: 4194305, host: hostname(), startedAt: new Date().toISOString(), purpose: 'a vault write' }));
  fx.writer.write({ by: agent('capture'), path: 'Claude/Plan.md', next: append('after takeover') });
  assert.equal(fx.text('Claude/Plan.md'), 'v1\nafter takeover\n');
  assert.equal(existsSync(join(fx.vault.home, 'write.lock')), false, 'released');
});

// --- Bugs: the correct behaviour, marked todo until src/ is fixed. ---

// BUG (writer.ts commit → atomic.ts writeFileAtomic): the replacement is a fresh file created
// with mode 0o644, so a private note (0600) becomes world-readable after any Engram write.
test("a write keeps the note's file mode", (t) => {
  const fx = writerVault(t, { 'Claude/Private.md': 'secret\n' });
  chmodSync(join(fx.root, 'Claude/Private.md'), 0o600);
  fx.writer.write({ by: agent('capture'), path: 'Claude/Private.md', next: append('more') });
  assert.equal((statSync(join(fx.root, 'Claude/Private.md')).mode & 0o777).toString(8), '600');
});

// BUG (atomic.ts): the temporary name `.engram-write-<name>.<8 hex>` adds 23 bytes, so a note
// whose name is over 232 bytes (valid on every file system) cannot be written: raw ENAMETOOLONG
// (not a USAGE error) — and writer.ts has already journaled the write and put it in Audit.md.
test('a note with a long (but valid) name can be appended to, and a failed write leaves no journal row', (t) => {
  const name = `${'a'.repeat(240)}.md`;
  const fx = writerVault(t, { [`Claude/${name}`]: 'hi\n' });
  const before = snapshot(fx.root);
  try {
    fx.writer.write({ by: agent('capture'), path: `Claude/${name}`, next: append('more') });
  } catch (error) {
    assert.deepEqual(journalRows(fx.db), [], 'no journal row for a write that failed');
    assert.deepEqual(snapshot(fx.root), before, 'no audit line for a write that failed');
    throw error;
  }
  assert.equal(fx.text(`Claude/${name}`), 'hi\nmore\n');
});

// BUG (writer.ts audit): Audit.md is written at join(root, agentRoot, 'Audit.md') without the
// path gate. When `Claude` is a symlink out of the vault, every write (here an applied preview
// of a human note) puts Audit.md outside the vault.
test('the audit trail is never written outside the vault', (t) => {
  const fx = writerVault(t, { 'Projects/Atlas.md': '# Atlas\n' });
  rmSync(join(fx.root, 'Claude'), { recursive: true, force: true });
  symlinkSync(fx.outside, join(fx.root, 'Claude'));
  const outsideBefore = snapshot(fx.outside);
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/Atlas.md', next: append('agent') });
  try {
    fx.writer.apply(preview.token);
  } catch {
    // refusing is an acceptable answer; writing outside is not
  }
  assert.deepEqual(snapshot(fx.outside), outsideBefore);
});

// BUG (writer.ts audit): when Claude/Audit.md is a symlink to a file outside the vault, the
// writer reads that file and copies its "- " lines into the vault's Audit.md.
test('the audit trail does not read through a symlink', (t) => {
  const fx = writerVault(t);
  writeFileSync(join(fx.outside, 'secret.txt'), '- SECRET TOKEN abc123\n');
  mkdirSync(join(fx.root, 'Claude'), { recursive: true });
  symlinkSync(join(fx.outside, 'secret.txt'), join(fx.root, 'Claude', 'Audit.md'));
  try {
    fx.writer.write({ by: agent('capture'), path: 'Claude/x.md', next: append('x') });
  } catch {
    // refusing is acceptable
  }
  const audit = join(fx.root, 'Claude', 'Audit.md');
  if (!lstatSync(audit).isSymbolicLink()) assert.doesNotMatch(fx.text('Claude/Audit.md'), /SECRET/);
});

// BUG (writer.ts apply/undo): the path gate runs at preview time only. apply (up to 5 minutes
// later) joins the stored path onto the root and writes, so a folder replaced by a symlink in
// between sends the note out of the vault. undo likewise never re-checks the journaled path.
test('apply re-checks the path: a folder swapped for a symlink out of the vault is refused', (t) => {
  const fx = writerVault(t, { 'Home.md': '# Home\n' });
  const preview = fx.writer.preview({ by: agent('write_note'), path: 'Projects/New.md', create: true, next: () => 'agent text\n' });
  symlinkSync(fx.outside, join(fx.root, 'Projects'));
  const outsideBefore = snapshot(fx.outside);
  try {
    fx.writer.apply(preview.token);
  } catch {
    // refusing is the right answer
  }
  assert.deepEqual(snapshot(fx.outside), outsideBefore, `outside now holds ${readdirSync(fx.outside).join(', ')}`);
});

// Case variants of the agent folder are "free" (quarantine compares lowercase) but on a
// case-sensitive file system they create a second top-level folder next to Claude/.
test('a case variant of the agent folder does not create a second agent folder', (t) => {
  const fx = writerVault(t, { 'Claude/Inbox/Idea.md': '# Idea\n' });
  try {
    fx.writer.write({ by: agent('write_note'), path: 'claude/x.md', create: true, next: () => 'x\n' });
  } catch {
    // refusing (or asking for confirmation) is acceptable
  }
  assert.deepEqual(readdirSync(fx.root).sort(), ['Claude']);
});
