/**
 * Note names: what `safeNoteName` refuses (with a reason that says what to change), what it
 * accepts (normalized), and the free-path numbering. The last tests (todo) pin two bugs: names
 * accepted here that the path gate or the file system then refuse.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveNotePath } from '../../src/vault/index.js';
import { agent, freeNotePath, safeNoteName } from '../../src/writes/index.js';
import { writerVault } from './fixture.js';

function refusal(title: string): string {
  const result = safeNoteName(title);
  assert.equal(result.ok, false, `${JSON.stringify(title)} should be refused`);
  return result.ok ? '' : result.reason;
}

function accepted(title: string): string {
  const result = safeNoteName(title);
  assert.ok(result.ok, `${JSON.stringify(title)} should be accepted: ${result.ok ? '' : result.reason}`);
  return result.name;
}

test('refuses empty titles, dot titles and leading dots', () => {
  assert.match(refusal(''), /empty/);
  assert.match(refusal('   \t\n '), /empty/);
  for (const dots of ['.', '..', '...', ' .. ']) assert.match(refusal(dots), /only dots/, dots);
  assert.match(refusal('.hidden'), /starts with a dot/);
  assert.match(refusal('.obsidian'), /starts with a dot/);
  assert.match(refusal('  .env'), /starts with a dot/, 'trimmed first, then the dot is seen');
});

test('refuses names Windows reserves for devices, any case, with or without an extension', () => {
  for (const title of ['CON', 'con', 'aux', 'Aux', 'PRN', 'nul', 'com1', 'COM9', 'com1.txt', 'lpt1', 'LPT9.md', 'aux.tar.gz']) {
    assert.match(refusal(title), /reserves/, title);
  }
  // Only the whole name is reserved: these are ordinary titles.
  for (const title of ['CONSOLE', 'Auxiliary notes', 'com10', 'my con', 'icon']) accepted(title);
});

test('refuses titles too long for a file name', () => {
  assert.match(refusal('x'.repeat(300)), /300 characters/);
  assert.match(refusal('x'.repeat(121)), /121 characters/);
  assert.equal(accepted('x'.repeat(120)).length, 120);
  // Characters, not UTF-16 units: 120 emoji (240 units) are 120 characters.
  assert.equal(Array.from(accepted('🚀'.repeat(50))).length, 50, '200 bytes: at the byte limit');
  assert.match(refusal('🚀'.repeat(60)), /240 bytes as a file name/);
});

test('refuses every character a note name cannot hold, naming it', () => {
  for (const char of ['/', '\\', ':', '#', '|', '[', ']', '^', '*', '"', '<', '>', '?']) {
    const reason = refusal(`Plan ${char} B`);
    assert.ok(reason.includes(`"${char}"`), `${char}: ${reason}`);
  }
  assert.match(refusal('before\u0000after'), /"U\+0000"/);
  assert.match(refusal('a\u0007b'), /cannot hold/);
  assert.match(refusal('[[Link]]'), /"\["/);
  assert.match(refusal('../../etc/passwd'), /./);
});

test('a title holding a path is refused as a path, not for its leading dot', () => {
  const reason = refusal('../../Projects/Atlas/Overview');
  assert.match(reason, /a note's name cannot hold a path \(\/, \\ or \.\.\): give the name alone, such as "Overview"/);
  assert.doesNotMatch(reason, /starts with a dot/);
  // A slash in a title that is no path gets no example name.
  assert.doesNotMatch(refusal('CI/CD'), /such as/);
});

test('refuses a trailing dot (Windows drops it) but not an inner one', () => {
  assert.match(refusal('Mr.'), /ends with a dot/);
  assert.equal(accepted('v1.2 release notes'), 'v1.2 release notes');
});

test('accepts normal, accented and emoji titles, trimmed, spaces collapsed, NFC', () => {
  assert.equal(accepted('Meeting notes 2026-03-01'), 'Meeting notes 2026-03-01');
  assert.equal(accepted('  Weekly   review\tQ1  '), 'Weekly review Q1');
  const nfd = 'Résumé Café Müller'.normalize('NFD');
  const name = accepted(nfd);
  assert.equal(name, 'Résumé Café Müller'.normalize('NFC'));
  assert.notEqual(name, nfd);
  assert.equal(accepted('Ελληνικά και 日本語'), 'Ελληνικά και 日本語');
  assert.equal(accepted('🚀 Launch plan 🎉'), '🚀 Launch plan 🎉');
  assert.equal(accepted('👩‍👩‍👧 family'), '👩‍👩‍👧 family');
  assert.equal(accepted('100% done, (draft) & more!'), '100% done, (draft) & more!');
});

test('freeNotePath numbers " 2", " 3" … until a path is free', () => {
  const taken = new Set<string>();
  const exists = (path: string) => taken.has(path);
  assert.equal(freeNotePath('Claude/Inbox', 'Idea', exists), 'Claude/Inbox/Idea.md');
  taken.add('Claude/Inbox/Idea.md');
  assert.equal(freeNotePath('Claude/Inbox', 'Idea', exists), 'Claude/Inbox/Idea 2.md');
  taken.add('Claude/Inbox/Idea 2.md');
  assert.equal(freeNotePath('Claude/Inbox', 'Idea', exists), 'Claude/Inbox/Idea 3.md');
  // A gap is reused: the first free number wins.
  taken.add('Claude/Inbox/Idea 4.md');
  assert.equal(freeNotePath('Claude/Inbox', 'Idea', exists), 'Claude/Inbox/Idea 3.md');
  // The vault root has no folder prefix.
  assert.equal(
    freeNotePath('', 'Home', () => false),
    'Home.md',
  );
  assert.equal(
    freeNotePath('', 'Home', (path) => path === 'Home.md'),
    'Home 2.md',
  );
  // Only what `exists` is asked about counts; every candidate is asked in order.
  const asked: string[] = [];
  freeNotePath('F', 'N', (path) => {
    asked.push(path);
    return asked.length < 3;
  });
  assert.deepEqual(asked, ['F/N.md', 'F/N 2.md', 'F/N 3.md']);
});

test('freeNotePath with the writer: a second note with the same title gets " 2"', (t) => {
  const fx = writerVault(t, { 'Claude/Inbox/Idea.md': '# Idea\n' });
  const name = accepted('Idea');
  const path = freeNotePath('Claude/Inbox', name, (candidate) => fx.writer.exists(candidate));
  assert.equal(path, 'Claude/Inbox/Idea 2.md');
  fx.writer.write({ by: agent('write_note'), path, create: true, next: () => '# Idea (again)\n' });
  assert.equal(
    freeNotePath('Claude/Inbox', name, (candidate) => fx.writer.exists(candidate)),
    'Claude/Inbox/Idea 3.md',
  );
});

// BUG (names.ts vs vault/note-path.ts): safeNoteName accepts characters the path gate refuses
// (DEL, C1 controls, bidi overrides) and percent sequences the gate decodes into a dot name or
// "..": the title looks safe, and the write that follows is refused with a path error.
test('every name safeNoteName accepts passes the path gate', (t) => {
  const fx = writerVault(t);
  const offenders: string[] = [];
  for (const title of ['a\u007fb', 'a\u0085b', 'report\u202Efdp', 'x\u2028y', '%2ehidden', 'a%2F..%2F..%2Fb']) {
    const result = safeNoteName(title);
    if (!result.ok) continue;
    const gate = resolveNotePath(fx.root, `Claude/${result.name}.md`, { allowMissing: true });
    if (!gate.ok) offenders.push(`${JSON.stringify(title)}: ${gate.reason}`);
  }
  assert.deepEqual(offenders, []);
});

// BUG (names.ts + atomic.ts): the 120-character limit counts characters, not bytes. 120 emoji
// are 480 bytes (the file system allows 255), and 80 CJK characters (243 bytes with `.md`) fit
// the file system but not the temporary name `.engram-write-<name>.md.<8 hex>` (266 bytes), so
// the write throws a raw ENAMETOOLONG after its journal row and audit line were written.
test('a note named by safeNoteName can be written', (t) => {
  const fx = writerVault(t);
  for (const title of ['😀'.repeat(120), '漢'.repeat(80)]) {
    const result = safeNoteName(title);
    if (!result.ok) continue;
    const path = `Claude/${result.name}.md`;
    assert.doesNotThrow(() => fx.writer.write({ by: agent('write_note'), path, create: true, next: () => 'x\n' }), `${Buffer.byteLength(result.name)}-byte name`);
  }
});
