import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planChanges, planStatChanges, type IndexedFile } from '../../src/index/index.js';
import { seededRandom as rng } from '../../bench/generate-vault.js';

const file = (key: string, hash: string, mtimeMs = 1, size = 10, id = 0): IndexedFile => ({ id, key, path: key, mtimeMs, size, hash });

test('unchanged mtime and size skip reading; changes, additions and removals are found', () => {
  const indexed = [file('a.md', 'h1', 1, 10, 1), file('b.md', 'h2', 1, 10, 2), file('c.md', 'h3', 1, 10, 3)];
  const listed = [file('a.md', '', 1, 10), file('b.md', '', 2, 10), file('d.md', '', 1, 10)];
  const stat = planStatChanges(listed, indexed);
  assert.deepEqual(
    stat.unchanged.map((f) => f.key),
    ['a.md'],
  );
  assert.deepEqual(
    stat.toRead.map((f) => f.key),
    ['b.md', 'd.md'],
  );
  assert.deepEqual(
    stat.gone.map((f) => f.key),
    ['c.md'],
  );
  assert.deepEqual(
    planStatChanges(listed, indexed, { full: true }).toRead.map((f) => f.key),
    ['a.md', 'b.md', 'd.md'],
  );
});

test('same hash at a new path is a move; same hash after an mtime change is a touch', () => {
  const indexed = [file('old.md', 'H', 1, 10, 1), file('b.md', 'B', 1, 10, 2), file('gone.md', 'G', 1, 10, 3)];
  const read = [file('new.md', 'H'), file('b.md', 'B', 5), file('fresh.md', 'F')];
  const gone = indexed.filter((f) => f.key === 'old.md' || f.key === 'gone.md');
  const plan = planChanges(read, gone, indexed);
  assert.deepEqual(
    plan.moved.map((m) => [m.from.key, m.to.key]),
    [['old.md', 'new.md']],
  );
  assert.deepEqual(
    plan.touched.map((t) => t.id),
    [2],
  );
  assert.deepEqual(
    plan.added.map((f) => f.key),
    ['fresh.md'],
  );
  assert.deepEqual(
    plan.deleted.map((f) => f.key),
    ['gone.md'],
  );
  assert.deepEqual(plan.modified, []);
});

test('property: applying the plan to the indexed state yields the disk state', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const random = rng(seed);
    const pick = (n: number) => Math.floor(random() * n);
    const indexed: IndexedFile[] = [];
    for (let i = 0; i < pick(12); i++) indexed.push(file(`n${i}.md`, `h${pick(6)}`, pick(3), 10, i + 1));
    // Disk: keep, edit, touch, drop or rename each indexed note, and add a few.
    const disk: IndexedFile[] = [];
    for (const known of indexed) {
      const roll = pick(5);
      if (roll === 0) disk.push({ ...known });
      else if (roll === 1) disk.push({ ...known, hash: `e${pick(6)}`, mtimeMs: known.mtimeMs + 1 });
      else if (roll === 2) disk.push({ ...known, mtimeMs: known.mtimeMs + 1 });
      else if (roll === 3) disk.push({ ...known, key: `r${known.key}`, path: `r${known.key}` });
    }
    for (let i = 0; i < pick(4); i++) disk.push(file(`x${i}.md`, `h${pick(6)}`, 0));
    const stat = planStatChanges(disk, indexed);
    const read = stat.toRead.map((f) => ({ ...f }));
    const plan = planChanges(read, stat.gone, indexed);

    const state = new Map(indexed.map((f) => [f.key, { hash: f.hash, mtimeMs: f.mtimeMs, id: f.id }]));
    for (const f of plan.deleted) state.delete(f.key);
    for (const { from, to } of plan.moved) {
      assert.equal(from.hash, to.hash, `seed ${seed}: a move keeps the content`);
      state.delete(from.key);
      state.set(to.key, { hash: to.hash, mtimeMs: to.mtimeMs, id: from.id });
    }
    for (const { file: f, id } of plan.modified) state.set(f.key, { hash: f.hash, mtimeMs: f.mtimeMs, id });
    for (const { file: f, id } of plan.touched) state.set(f.key, { hash: f.hash, mtimeMs: f.mtimeMs, id });
    for (const f of plan.added) state.set(f.key, { hash: f.hash, mtimeMs: f.mtimeMs, id: -1 });

    const expected = new Map(disk.map((f) => [f.key, { hash: f.hash, mtimeMs: f.mtimeMs }]));
    assert.deepEqual(new Set(state.keys()), new Set(expected.keys()), `seed ${seed}: same notes`);
    for (const [key, value] of expected) {
      assert.equal(state.get(key)!.hash, value.hash, `seed ${seed}: ${key} hash`);
      assert.equal(state.get(key)!.mtimeMs, value.mtimeMs, `seed ${seed}: ${key} mtime`);
    }
    // Every indexed id is used at most once: moves and edits keep ids, nothing is duplicated.
    const ids = [...state.values()].map((v) => v.id).filter((id) => id !== -1);
    assert.equal(new Set(ids).size, ids.length, `seed ${seed}: ids unique`);
    // Nothing is both read and untouched.
    const total = plan.added.length + plan.modified.length + plan.touched.length + plan.moved.length + stat.unchanged.length;
    assert.equal(total, disk.length, `seed ${seed}: every disk file accounted for once`);
  }
});
