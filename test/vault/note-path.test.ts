/**
 * The path-safety gate. A fixture vault with the traps a real one has (dot-folders holding
 * tokens, symlinks out of the vault and into .obsidian, non-note files), an attack table that
 * must all be refused with a reason, the variants that must resolve, and a property test that
 * throws random fragments at the gate and checks every accepted answer against the disk.
 * The vault and the folder beside it are listed (including file access times) before and after:
 * the gate may stat, never read or write.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import { Worker } from 'node:worker_threads';
import { seededRandom } from '../../bench/generate-vault.js';
import { hasDotSegment, isNotePath, resolveNotePath, walkVault, type NotePathOptions, type NotePathResult } from '../../src/vault/index.js';
import { makeVault } from '../helpers/vault.js';

const SECRET = 'SECRET-CONTENT-7f3a';
const CAFE = 'Café.md'.normalize('NFC');
const RESUME_NFD = 'Résumé.md'.normalize('NFD');

interface AttackVault {
  root: string;
  base: string;
  outside: string;
  /** The indexed notes (the walker's answer, `Unindexed/` excluded) plus a phantom `Dup/note.md`. */
  known: string[];
}

function attackVault(t: TestContext): AttackVault {
  const vault = makeVault(t, {
    'Folder/Note.md': '# Note\n',
    'Projects/Atlas.md': '# Atlas\n',
    'Notes/Daily.md': '# Daily\n',
    'Notes/.hidden/x.md': SECRET,
    [CAFE]: '# Café\n',
    [RESUME_NFD]: '# Résumé\n',
    '100% done.md': '# done\n',
    'My Plan.md': '# plan\n',
    'Shout.MD': '# shout\n',
    'Archive.md/inside.md': '# inside\n',
    'Dup/Note.md': '# dup\n',
    'Unindexed/Secret.md': SECRET,
    'image.png': SECRET,
    'notes.md.bak': SECRET,
    '.obsidian/plugins/fake-sync/data.json': `{"token":"${SECRET}"}`,
    '.obsidian/workspace.md': SECRET,
    '.obsidian/app.json': '{}',
    '.smart-env/smart_env.json': `{"key":"${SECRET}"}`,
    '.trash/Old.md': SECRET,
    '.git/config': SECRET,
  });
  const root = realpathSync(vault.root);
  const base = dirname(root);
  const outside = join(base, 'outside');
  mkdirSync(join(outside, 'dir'), { recursive: true });
  for (const file of ['secret.md', 'passwd', 'dir/secret.md']) writeFileSync(join(outside, file), SECRET);
  const links: Record<string, string> = {
    'Escape.md': '../outside/secret.md',
    'EscapeAbs.md': join(outside, 'secret.md'),
    EscapeDir: '../outside/dir',
    'Config.md': '.obsidian/workspace.md',
    ObsidianDir: '.obsidian',
    TrashLink: '.trash',
    'Broken.md': '../outside/nothing.md',
    BrokenDir: '../outside/no-such-dir',
    'Loop.md': 'Loop.md',
    'Inside.md': 'Folder/Note.md',
    'Folder/Picture.md': '../image.png',
    'Notes/Keys.md': '../.smart-env/smart_env.json',
  };
  for (const [path, target] of Object.entries(links)) symlinkSync(target, join(root, path));
  const known = walkVault(root, { exclude: ['Unindexed'] })
    .entries.filter((entry) => entry.kind === 'note')
    .map((entry) => entry.path);
  known.push('Dup/note.md');
  return { root, base, outside, known };
}

/**
 * Every entry under `dir`: kind, size, mtime, symlink target, and for files the access time,
 * set far in the past first so that a read (relatime) would move it.
 */
function snapshot(dir: string): string[] {
  const lines: string[] = [];
  const visit = (abs: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const child = join(abs, name);
      const stat = lstatSync(child);
      const rel = relative(dir, child);
      if (stat.isSymbolicLink()) lines.push(`${rel} -> ${readlinkSync(child)}`);
      else if (stat.isDirectory()) {
        lines.push(`${rel}/ mtime=${stat.mtimeMs}`);
        visit(child);
      } else lines.push(`${rel} size=${stat.size} mtime=${stat.mtimeMs} atime=${stat.atimeMs}`);
    }
  };
  visit(dir);
  return lines;
}

function ageFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const child = join(dir, name);
    const stat = lstatSync(child);
    if (stat.isDirectory()) ageFiles(child);
    else if (stat.isFile()) utimesSync(child, new Date('2001-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
  }
}

type Mode = 'plain' | 'known' | 'create';
const ALL_MODES: Mode[] = ['plain', 'known', 'create'];

function optionsFor(mode: Mode, fixture: AttackVault): NotePathOptions {
  if (mode === 'plain') return {};
  if (mode === 'known') return { known: fixture.known };
  return { known: fixture.known, allowMissing: true };
}

interface Attack {
  name: string;
  input?: unknown;
  /** For inputs that depend on where the fixture landed. */
  inputFor?: (fixture: AttackVault) => string;
  reason: RegExp;
  /** Modes in which the input must be refused; all three unless said. */
  modes?: Mode[];
}

const ATTACKS: Attack[] = [
  { name: 'a number', input: 42, reason: /must be a string, not number/ },
  { name: 'null', input: null, reason: /must be a string, not null/ },
  { name: 'an object', input: { path: 'Folder/Note.md' }, reason: /must be a string, not object/ },
  { name: 'an array', input: ['Folder/Note.md'], reason: /must be a string, not an array/ },
  { name: 'empty', input: '', reason: /is empty/ },
  { name: 'whitespace', input: ' \t ', reason: /is empty/ },
  { name: 'NUL byte', input: 'Folder/Note.md\u0000.png', reason: /control character/ },
  { name: 'line break inside', input: 'Folder/\nNote.md', reason: /control character/ },
  { name: 'DEL', input: 'Note\u007f.md', reason: /control character/ },
  { name: 'bidi override (display spoofing)', input: 'Folder/\u202Egnp.md', reason: /control character/ },
  { name: 'percent-encoded NUL', input: 'Folder/Note%00.md', reason: /once percent-decoded, contains a control character/ },
  { name: 'absolute POSIX', input: '/etc/passwd', reason: /is absolute/ },
  { name: 'absolute path to the outside secret', inputFor: (f) => join(f.outside, 'secret.md'), reason: /is absolute/ },
  { name: 'absolute path even inside the vault', inputFor: (f) => join(f.root, 'Folder', 'Note.md'), reason: /is absolute/ },
  { name: 'drive letter, backslash', input: 'C:\\x.md', reason: /Windows drive letter/ },
  { name: 'drive letter, slash', input: 'C:/Windows/win.ini', reason: /Windows drive letter/ },
  { name: 'drive-relative', input: 'c:x.md', reason: /Windows drive letter/ },
  { name: 'UNC', input: '\\\\server\\share\\x.md', reason: /network \(UNC\) path/ },
  { name: 'UNC with slashes', input: '//server/share/x.md', reason: /network \(UNC\) path/ },
  { name: 'Win32 device path', input: '\\\\?\\C:\\x.md', reason: /network \(UNC\) path/ },
  { name: 'file URL', input: 'file:///etc/passwd', reason: /is a URL/ },
  { name: 'obsidian URL', input: 'obsidian://open?vault=v&file=Folder%2FNote', reason: /is a URL/ },
  { name: 'backslash traversal', input: '..\\x.md', reason: /contains a "\.\." segment;/ },
  { name: 'plain traversal', input: '../outside/secret.md', reason: /contains a "\.\." segment;/ },
  { name: 'traversal from a folder', input: 'Notes/../../etc/passwd', reason: /contains a "\.\." segment;/ },
  { name: 'traversal that stays inside', input: 'Folder/../Folder/Note.md', reason: /contains a "\.\." segment;/ },
  { name: 'mixed separators', input: 'Folder/..\\../outside/secret.md', reason: /contains a "\.\." segment;/ },
  { name: 'backslashes throughout', input: 'Folder\\..\\..\\outside\\secret.md', reason: /contains a "\.\." segment;/ },
  { name: 'encoded dots', input: '%2e%2e/outside/secret.md', reason: /once percent-decoded, contains a "\.\." segment/ },
  { name: 'encoded slash', input: '..%2foutside%2fsecret.md', reason: /"\.\." segment/ },
  { name: 'fully encoded', input: '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', reason: /once percent-decoded, contains a "\.\." segment/ },
  { name: 'encoded backslash', input: '..%5coutside%5csecret.md', reason: /"\.\." segment/ },
  { name: 'double-encoded', input: '%252e%252e/outside/secret.md', reason: /once percent-decoded, contains a "\.\." segment/ },
  { name: 'triple-encoded', input: '%25252e%25252e%25252fsecret.md', reason: /once percent-decoded, contains a "\.\." segment/ },
  { name: 'encoded dot-folder', input: '%2eobsidian/plugins/fake-sync/data.json', reason: /once percent-decoded, goes through a name that starts with "\."/ },
  { name: 'sync plugin token', input: '.obsidian/plugins/fake-sync/data.json', reason: /starts with "\."/ },
  { name: 'a note inside .obsidian', input: '.obsidian/workspace.md', reason: /starts with "\."/ },
  { name: 'Smart Connections data', input: '.smart-env/smart_env.json', reason: /starts with "\."/ },
  { name: 'trash', input: '.trash/Old.md', reason: /starts with "\."/ },
  { name: 'git', input: '.git/config', reason: /starts with "\."/ },
  { name: 'hidden folder deeper down', input: 'Notes/.hidden/x.md', reason: /starts with "\."/ },
  { name: 'dot-slash into .obsidian', input: './.obsidian/app.json', reason: /starts with "\."/ },
  { name: 'three dots', input: 'Folder/.../x.md', reason: /starts with "\."/ },
  { name: 'home directory', input: '~/.ssh/id_rsa', reason: /starts with "\."/ },
  { name: 'image', input: 'image.png', reason: /"image\.png" is not a note/ },
  { name: 'backup of a note', input: 'notes.md.bak', reason: /"notes\.md\.bak" is not a note/ },
  { name: 'a folder without .md', input: 'Folder', reason: /"Folder" is not a note/ },
  { name: 'a folder named like a note', input: 'Archive.md', reason: /is a folder, not a note/ },
  { name: 'NTFS stream syntax', input: 'Folder/Note.md:secret', reason: /is not a note/ },
  { name: '2,000 characters', input: `${'a/'.repeat(998)}x.md`, reason: /2000 characters long, over the limit of 1024/ },
  { name: 'symlinked file to outside', input: 'Escape.md', reason: /leads outside the vault/ },
  { name: 'symlinked file to an absolute outside path', input: 'EscapeAbs.md', reason: /leads outside the vault/ },
  { name: 'symlinked folder to outside', input: 'EscapeDir/secret.md', reason: /leads outside the vault/ },
  { name: 'missing file under a symlinked folder to outside', input: 'EscapeDir/none.md', reason: /leads outside the vault/ },
  { name: 'symlink into .obsidian', input: 'Config.md', reason: /leads into a hidden folder/ },
  { name: 'symlinked folder to .obsidian', input: 'ObsidianDir/workspace.md', reason: /leads into a hidden folder/ },
  { name: 'symlinked folder to .trash', input: 'TrashLink/Old.md', reason: /leads into a hidden folder/ },
  { name: 'note-named symlink to Smart Connections data', input: 'Notes/Keys.md', reason: /leads into a hidden folder/ },
  { name: 'note-named symlink to an image', input: 'Folder/Picture.md', reason: /leads to a file that is not a note/ },
  { name: 'broken symlink', input: 'Broken.md', reason: /broken symlink/ },
  { name: 'new note under a broken symlinked folder', input: 'BrokenDir/new.md', reason: /broken symlink/, modes: ['create'] },
  { name: 'symlink loop', input: 'Loop.md', reason: /symlink loop/ },
  { name: 'missing note', input: 'Missing.md', reason: /There is no note at "Missing\.md"/, modes: ['plain', 'known'] },
  { name: 'fullwidth dots (not dots to the file system)', input: '\uFF0E\uFF0E/outside/secret.md', reason: /There is no note/, modes: ['plain', 'known'] },
  { name: 'overlong UTF-8 dots', input: '%c0%ae%c0%ae/outside/secret.md', reason: /There is no note/, modes: ['plain', 'known'] },
  { name: 'a note under a file', input: 'Folder/Note.md/new.md', reason: /"Folder\/Note\.md" is a file, not a folder/, modes: ['create'] },
  { name: 'on disk but excluded from the index', input: 'Unindexed/Secret.md', reason: /exists but is not an indexed note/, modes: ['known', 'create'] },
  { name: 'case variant of two indexed notes', input: 'dup/NOTE.md', reason: /several notes .*"Dup\/Note\.md", "Dup\/note\.md"/, modes: ['known', 'create'] },
  { name: 'indexed but gone from disk', input: 'Dup/note.md', reason: /indexed but no longer on disk/, modes: ['known', 'create'] },
];

function check(fixture: AttackVault, input: unknown, mode: Mode): NotePathResult {
  return resolveNotePath(fixture.root, input, optionsFor(mode, fixture));
}

test('every attack is refused with a plain reason, and the vault is left untouched', (t) => {
  const fixture = attackVault(t);
  assert.ok(ATTACKS.length >= 30);
  ageFiles(fixture.base);
  const before = snapshot(fixture.base);
  for (const attack of ATTACKS) {
    const input = attack.inputFor ? attack.inputFor(fixture) : attack.input;
    for (const mode of attack.modes ?? ALL_MODES) {
      const result = check(fixture, input, mode);
      const label = `${attack.name} (${mode})`;
      assert.equal(result.ok, false, `${label} was accepted: ${JSON.stringify(result)}`);
      if (result.ok) continue;
      assert.match(result.reason, attack.reason, label);
      assert.match(result.reason, /^[A-Z"].*\.$/s, `${label}: one sentence`);
      assert.ok(!/[\n\r]/.test(result.reason) && result.reason.length < 400, `${label}: short, one line`);
      assert.ok(!result.reason.includes(SECRET), `${label}: no file contents`);
    }
  }
  assert.deepEqual(snapshot(fixture.base), before);
});

test('the forms an agent may reasonably send resolve to the real note', (t) => {
  const fixture = attackVault(t);
  const { root, known } = fixture;
  const cases: Array<{ input: string; path: string; modes?: Mode[] }> = [
    { input: 'Folder/Note.md', path: 'Folder/Note.md' },
    { input: './Folder/Note.md', path: 'Folder/Note.md' },
    { input: 'Folder//Note.md', path: 'Folder/Note.md' },
    { input: 'Folder\\Note.md', path: 'Folder/Note.md' },
    { input: 'Folder/Note', path: 'Folder/Note.md' },
    { input: 'folder/note.md', path: 'Folder/Note.md', modes: ['known', 'create'] },
    { input: 'FOLDER/NOTE', path: 'Folder/Note.md', modes: ['known', 'create'] },
    { input: 'Shout.MD', path: 'Shout.MD' },
    { input: 'shout.md', path: 'Shout.MD', modes: ['known', 'create'] },
    { input: CAFE.normalize('NFD'), path: CAFE },
    { input: RESUME_NFD.normalize('NFC'), path: RESUME_NFD },
    { input: '100% done.md', path: '100% done.md' },
    { input: '100% done', path: '100% done.md' },
    { input: '100%25 done.md', path: '100% done.md' },
    { input: 'My%20Plan.md', path: 'My Plan.md' },
    { input: 'Dup/Note.md', path: 'Dup/Note.md', modes: ['known', 'create'] },
    // A symlink that stays in the vault resolves to its target's own path, the one the index knows.
    { input: 'Inside.md', path: 'Folder/Note.md' },
  ];
  for (const { input, path, modes } of cases) {
    for (const mode of modes ?? ALL_MODES) {
      const result = check(fixture, input, mode);
      assert.deepEqual(result, { ok: true, path, absolute: join(root, ...path.split('/')) }, `${JSON.stringify(input)} (${mode})`);
      if (mode !== 'plain') assert.ok(known.includes(path));
    }
  }
});

test('without the index a case variant is not guessed: that would need a directory listing', (t) => {
  const fixture = attackVault(t);
  const result = check(fixture, 'folder/note.md', 'plain');
  // On a case-insensitive file system the OS finds it and realpath gives the real spelling.
  if (result.ok) assert.equal(result.path, 'Folder/Note.md');
  else assert.match(result.reason, /There is no note at "folder\/note\.md"/);
});

test('allowMissing accepts a new note in a real folder, or where folders are still to be made', (t) => {
  const fixture = attackVault(t);
  const { root } = fixture;
  const before = snapshot(fixture.base);
  for (const mode of ['create', 'plain'] as const) {
    const options = mode === 'create' ? optionsFor('create', fixture) : { allowMissing: true };
    assert.deepEqual(resolveNotePath(root, 'Folder/New.md', options), { ok: true, path: 'Folder/New.md', absolute: join(root, 'Folder', 'New.md') });
    assert.deepEqual(resolveNotePath(root, 'Brand/New/Deep.md', options), { ok: true, path: 'Brand/New/Deep.md', absolute: join(root, 'Brand', 'New', 'Deep.md') });
    assert.deepEqual(resolveNotePath(root, './Top.md', options), { ok: true, path: 'Top.md', absolute: join(root, 'Top.md') });
    // An existing note is still the existing note, and a new path must name a note.
    assert.deepEqual(resolveNotePath(root, 'Folder/Note.md', options), { ok: true, path: 'Folder/Note.md', absolute: join(root, 'Folder', 'Note.md') });
    const noExtension = resolveNotePath(root, 'Folder/New', options);
    assert.equal(noExtension.ok, false);
    if (!noExtension.ok) assert.match(noExtension.reason, /"Folder\/New" is not a note/);
  }
  assert.deepEqual(resolveNotePath(root, 'folder/NEW.md', { known: fixture.known, allowMissing: true }).ok, true);
  assert.deepEqual(snapshot(fixture.base), before);
});

test('a vault folder that is gone is reported, not thrown', (t) => {
  const fixture = attackVault(t);
  const result = resolveNotePath(join(fixture.base, 'no-vault'), 'Folder/Note.md');
  assert.deepEqual(result, { ok: false, reason: 'The vault folder cannot be found; check the configured vault path.' });
});

test('an ambiguous refusal names at most five candidates', (t) => {
  const fixture = attackVault(t);
  const known = ['a/N.md', 'a/n.md', 'A/n.md', 'A/N.md', 'a/N.MD', 'A/N.Md', 'a/n.mD'];
  const result = resolveNotePath(fixture.root, 'A/n.MD', { known });
  assert.equal(result.ok, false);
  if (!result.ok) assert.match(result.reason, /\("A\/N\.Md", "A\/N\.md", "A\/n\.md", "a\/N\.MD", "a\/N\.md" and 2 more\)/);
});

const random = seededRandom;

const FRAGMENTS = [
  '..',
  '.',
  '/',
  '/',
  '/',
  '\\',
  '%2e',
  '%2E',
  '%2f',
  '%5c',
  '%25',
  '%00',
  '%20',
  ' ',
  ':',
  '//',
  '~',
  'C:',
  '\u0000',
  '\uFF0E',
  'Folder',
  'Note',
  'note',
  '.md',
  '.MD',
  '.md',
  'Escape.md',
  'EscapeDir',
  'ObsidianDir',
  'TrashLink',
  'Inside.md',
  'Config.md',
  '.obsidian',
  'workspace.md',
  'outside',
  'secret.md',
  'Notes',
  '.hidden',
  'x.md',
  'BrokenDir',
  'Loop.md',
  'Archive.md',
  'Dup',
  '100% done',
  'Unindexed',
  'Secret.md',
  'image.png',
  'Keys.md',
  'Picture.md',
  'Old.md',
];

test('property: whatever the input, an accepted path is a real note inside the vault', (t) => {
  const fixture = attackVault(t);
  const { root, known } = fixture;
  ageFiles(fixture.base);
  const before = snapshot(fixture.base);
  const next = random(20260401);
  let accepted = 0;
  for (let i = 0; i < 3000; i++) {
    const count = 1 + Math.floor(next() * 7);
    let input = '';
    for (let j = 0; j < count; j++) input += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]!;
    for (const mode of ALL_MODES) {
      const result = check(fixture, input, mode);
      const label = `${JSON.stringify(input)} (${mode})`;
      if (!result.ok) {
        assert.ok(result.reason.length > 0 && !result.reason.includes(SECRET), label);
        continue;
      }
      accepted++;
      const { path, absolute } = result;
      assert.ok(isNotePath(path) && !hasDotSegment(path) && !path.split('/').includes('..'), `${label} → ${path}`);
      assert.equal(absolute, join(root, ...path.split('/')), label);
      assert.ok(absolute.startsWith(root + sep), label);
      let exists = true;
      try {
        lstatSync(absolute);
      } catch {
        exists = false;
      }
      if (exists) {
        assert.equal(realpathSync(absolute), absolute, `${label}: no symlink on the way`);
        assert.ok(lstatSync(absolute).isFile(), label);
        if (mode !== 'plain') assert.ok(known.includes(path), `${label}: an indexed note`);
      } else {
        assert.equal(mode, 'create', `${label}: only a write may name a missing note`);
        let folder = dirname(absolute);
        while (folder !== root && !existsAt(folder)) folder = dirname(folder);
        assert.equal(realpathSync(folder), folder, `${label}: the nearest existing folder is real`);
        assert.ok(lstatSync(folder).isDirectory(), label);
      }
    }
  }
  assert.ok(accepted > 50, `the generator reaches real notes too (${accepted})`);
  assert.deepEqual(snapshot(fixture.base), before);
});

function existsAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

test('a note or folder appearing and vanishing while the gate looks is never taken for a broken symlink', async (t) => {
  // What CI met: two servers capture into the same new Inbox note; one checked the path while the
  // other created it, so realpath said "missing" and lstat then found a file.
  const vault = makeVault(t, { 'Top.md': '# Top\n' });
  const root = realpathSync.native(vault.root);
  const worker = new Worker(
    `const { mkdirSync, writeFileSync, renameSync, rmSync } = require('node:fs');
     const { join } = require('node:path');
     const { workerData, parentPort } = require('node:worker_threads');
     const folder = join(workerData, 'Inbox');
     let stop = false;
     parentPort.on('message', () => { stop = true; });
     (function churn(round) {
       for (let i = 0; i < 200 && !stop; i++) {
         mkdirSync(folder, { recursive: true });
         writeFileSync(join(folder, '.tmp'), 'x');
         renameSync(join(folder, '.tmp'), join(folder, 'Day.md'));
         rmSync(folder, { recursive: true, force: true });
       }
       if (stop) parentPort.postMessage('stopped'); else setImmediate(churn, round + 1);
     })(0);`,
    { eval: true, workerData: root },
  );
  t.after(() => worker.terminate());
  const refused = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) {
    const result = resolveNotePath(root, 'Inbox/Day.md', { allowMissing: true });
    if (!result.ok) refused.set(result.reason, (refused.get(result.reason) ?? 0) + 1);
    else assert.equal(result.path, 'Inbox/Day.md');
    if (i % 2_000 === 0) await new Promise((done) => setImmediate(done));
  }
  worker.postMessage('stop');
  await once(worker, 'message');
  assert.deepEqual([...refused], []);
});
