import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeReport, vote } from '../../src/librarian/index.js';

function matrixOf(vectors: number[][]): Float32Array {
  const out = new Float32Array(vectors.length * 2);
  vectors.forEach((vector, i) => {
    const norm = Math.hypot(...vector);
    out.set(
      vector.map((x) => x / norm),
      i * 2,
    );
  });
  return out;
}

test('vote: neighbours vote for their folder and every folder above; the deepest folder with the threshold share wins', () => {
  const labeled = [{ path: 'Projects/Zoo/a.md' }, { path: 'Projects/Zoo/b.md' }, { path: 'Projects/Farm/c.md' }, { path: 'Garden/d.md' }];
  const matrix = matrixOf([
    [1, 0],
    [1, 0.05],
    [1, 0.1],
    [0, 1],
  ]);
  const query = new Float32Array([1, 0]);
  // Zoo holds about 2/3 of the mass, Projects all of it: the deepest folder over 0.7 is Projects.
  const result = vote(query, { matrix, dims: 2, labeled }, { k: 10 })!;
  assert.equal(result.target, 'Projects');
  assert.ok(result.share > 0.99);
  // With k = 2 only the two Zoo notes vote.
  assert.equal(vote(query, { matrix, dims: 2, labeled }, { k: 2 })!.target, 'Projects/Zoo');
  // Neighbours with cosine ≤ 0 do not vote; none left means no vote.
  assert.equal(vote(new Float32Array([-1, 0]), { matrix: matrixOf([[1, 0]]), dims: 2, labeled: [{ path: 'A/x.md' }] }, { k: 10 }), null);
  // No folder reaches the threshold: the best single folder is what a proposal names, with its share.
  const split = vote(
    new Float32Array([1, 1]),
    {
      matrix: matrixOf([
        [1, 0],
        [0, 1],
      ]),
      dims: 2,
      labeled: [{ path: 'A/x.md' }, { path: 'B/y.md' }],
    },
    { k: 10 },
  )!;
  assert.ok(split.share < 0.7);
  assert.ok(split.target === 'A' || split.target === 'B');
});

test('mergeReport: the new section on top, under the header, at most N kept', () => {
  let note: string | null = null;
  for (let i = 1; i <= 5; i++) note = mergeReport(note, `## Sweep ${i}\n\nrun \`r${i}\`\n`, 3);
  assert.match(note!, /^# Librarian\n/);
  const sections = note!.match(/^## Sweep \d/gm)!;
  assert.deepEqual(sections, ['## Sweep 5', '## Sweep 4', '## Sweep 3']);
  // A human's edit above the first section is replaced by the header; the sections survive.
  const edited = mergeReport(note!.replace('# Librarian', '# Librarian (mine)'), '## Sweep 6\n', 3);
  assert.deepEqual(edited.match(/^## Sweep \d/gm), ['## Sweep 6', '## Sweep 5', '## Sweep 4']);
});
