/**
 * The write race, with a real second process: while it exchanges `Notes/` and `Claude/Sub/` with
 * symlinks to folders outside the vault as fast as it can (renameat2 RENAME_EXCHANGE through
 * python3's ctypes, the same atomic swap an attacker would use), the writer writes, previews and
 * applies, moves, undoes moves and undoes writes in those folders. Whatever the interleaving:
 * nothing appears outside the vault (no note, no `.engram-write-*` file), and every operation
 * reported as done is in the vault at the path it reported.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError, type ErrorCode } from '../../src/errors.js';
import { snapshot, writerVault } from '../writes/fixture.js';
import { agent, ORGANIZER } from '../../src/writes/index.js';

/**
 * Swaps each pair of paths (argv) and back in a loop until SIGTERM, leaving them as they were.
 * Between rounds it pauses up to a millisecond, so that writes also get through (a folder that
 * is a link half of the time refuses nearly every write at the path gate, which tests nothing).
 */
const SWAPPER = `
import ctypes, random, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
pairs = [(sys.argv[i].encode(), sys.argv[i + 1].encode()) for i in range(1, len(sys.argv), 2)]
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
def swap():
    for a, b in pairs:
        if libc.renameat2(-100, a, -100, b, 2) != 0:
            sys.stderr.write('renameat2 failed: errno %d\\n' % ctypes.get_errno())
            sys.exit(3)
swap(); swap()
print('swapping', flush=True)
n = 0
while not stop:
    swap()
    swap()
    n += 1
    time.sleep(random.random() / 1000)
print(n, flush=True)
`;

const python = spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { encoding: 'utf8' });
const skip = process.platform !== 'linux' ? 'renameat2 is Linux-only' : python.status !== 0 ? 'python3 with ctypes renameat2 is not available' : false;

test('a folder swapped for a symlink in a loop never redirects a write out of the vault', { skip, timeout: 120_000 }, async (t) => {
  const fx = writerVault(t, { 'Notes/Seed.md': '# Seed\n', 'Claude/Sub/Seed.md': '# Seed\n', 'Home.md': '# Home\n' });
  const base = join(fx.root, '..');
  for (const name of ['notes', 'sub']) {
    mkdirSync(join(base, `outside-${name}`));
    symlinkSync(join(base, `outside-${name}`), join(base, `link-${name}`));
  }
  const outsideBefore = { notes: snapshot(join(base, 'outside-notes')), sub: snapshot(join(base, 'outside-sub')) };

  const swapper = spawn('python3', ['-c', SWAPPER, join(fx.root, 'Notes'), join(base, 'link-notes'), join(fx.root, 'Claude/Sub'), join(base, 'link-sub')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  swapper.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  swapper.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => swapper.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (swapper.exitCode === null) swapper.kill('SIGKILL');
  });
  while (!out.includes('swapping')) {
    if (swapper.exitCode !== null) assert.fail(`the swapper stopped: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }

  // What the vault must hold afterwards: every path an operation reported, with its content
  // (null: reported removed). Refusals change nothing.
  const expected = new Map<string, string | null>([
    ['Notes/Seed.md', '# Seed\n'],
    ['Claude/Sub/Seed.md', '# Seed\n'],
    ['Home.md', '# Home\n'],
  ]);
  const counts = { done: 0, refused: 0 };
  const reasons = new Map<string, number>();
  const unexpected: string[] = [];
  const REFUSALS = new Set<ErrorCode>(['INVALID_INPUT', 'CONFLICT', 'NOT_FOUND', 'WRITE_REFUSED', 'IO_FAILED']);
  const attempt = (run: () => void): void => {
    try {
      run();
      counts.done++;
    } catch (error) {
      if (!(error instanceof EngramError && REFUSALS.has(error.code))) {
        unexpected.push(error instanceof Error ? error.message : String(error));
        return;
      }
      counts.refused++;
      const reason = error.message.replace(/"[^"]*"|\S*\/\S*/g, '…').slice(0, 70);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  };
  const unfinished: number[] = [];
  const rounds = 150;
  for (let i = 0; i < rounds; i++) {
    const sub = `Claude/Sub/S${i}.md`;
    let subWrite = 0;
    attempt(() => {
      subWrite = fx.writer.write({ by: agent('write_note'), path: sub, create: true, next: () => `# S${i}\n` }).journalId;
      expected.set(sub, `# S${i}\n`);
    });
    attempt(() => {
      const preview = fx.writer.preview({ by: agent('write_note'), path: `Notes/N${i}.md`, create: true, next: () => `# N${i}\n` });
      fx.writer.apply(preview.token);
      expected.set(`Notes/N${i}.md`, `# N${i}\n`);
    });
    if (subWrite > 0 && i % 3 === 0) {
      attempt(() => {
        const move = fx.writer.move({ by: ORGANIZER, from: sub, to: `Notes/M${i}.md`, rewrites: [] });
        expected.set(sub, null);
        expected.set(`Notes/M${i}.md`, `# S${i}\n`);
        attempt(() => {
          try {
            fx.writer.undoMove(move.moveId);
          } catch (error) {
            unfinished.push(move.moveId);
            throw error;
          }
          expected.set(sub, `# S${i}\n`);
          expected.set(`Notes/M${i}.md`, null);
        });
      });
    } else if (subWrite > 0 && i % 3 === 1) {
      attempt(() => {
        fx.writer.undo(subWrite);
        expected.set(sub, null);
      });
    }
  }
  swapper.kill('SIGTERM');
  assert.equal(await exited, 0, `the swapper failed: ${err}`);
  const swaps = Number(out.trim().split('\n').at(-1));
  t.diagnostic(`${swaps} swap rounds; ${counts.done} operations done, ${counts.refused} refused while the folders were swapped`);
  for (const [reason, count] of reasons) t.diagnostic(`${count}× ${reason}`);
  assert.ok(lstatSync(join(fx.root, 'Notes')).isDirectory() && !lstatSync(join(fx.root, 'Notes')).isSymbolicLink(), 'the swapper put the folders back');

  // Nothing outside: the symlinks' targets hold what they held, and no temporary file anywhere.
  assert.deepEqual(snapshot(join(base, 'outside-notes')), outsideBefore.notes, 'nothing was written into the folder outside the vault (Notes)');
  assert.deepEqual(snapshot(join(base, 'outside-sub')), outsideBefore.sub, 'nothing was written into the folder outside the vault (Claude/Sub)');
  const temps = readdirSync(base, { recursive: true })
    .map(String)
    .filter((path) => path.includes('.engram-write-'));
  assert.deepEqual(temps, [], 'no temporary file left, inside or outside');

  assert.deepEqual(unexpected, [], 'every refusal is a clear, coded EngramError');

  // A move or an undo of one refused midway (a folder was swapped between its files) is undone
  // again now, as the journal promises: every file back in its before state.
  const incomplete = fx.db.prepare('SELECT id FROM moves WHERE completed_at IS NULL AND undone_at IS NULL').pluck().all() as number[];
  for (const id of [...unfinished, ...incomplete]) {
    const undone = fx.writer.undoMove(id);
    expected.set(undone.from, readFileSync(join(fx.root, undone.from), 'utf8'));
    assert.match(expected.get(undone.from)!, /^# S\d+\n$/);
    expected.set(undone.to, null);
  }
  t.diagnostic(`${unfinished.length + incomplete.length} interrupted move(s) undone afterwards`);

  // Every reported operation is in the vault, at its path; nothing else appeared there.
  for (const [path, content] of expected) {
    if (content === null) assert.throws(() => lstatSync(join(fx.root, path)), `${path} was reported removed`);
    else assert.equal(readFileSync(join(fx.root, path), 'utf8'), content, `${path} was reported written`);
  }
  const notes = Object.keys(snapshot(fx.root)).filter((path) => path.endsWith('.md') && path !== 'Claude/Audit.md');
  assert.deepEqual(
    notes.sort(),
    [...expected]
      .filter(([, content]) => content !== null)
      .map(([path]) => path)
      .sort(),
    'the vault holds exactly the reported notes',
  );
  assert.ok(counts.done > rounds / 2, `operations got through between swaps (${counts.done} done)`);
});
