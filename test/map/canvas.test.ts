/**
 * The map's pure parts: the JSON Canvas validator (it must catch what the spec forbids, or a
 * passing map test proves nothing), seeded layouts that repeat exactly, the tiny inputs UMAP
 * itself refuses, and the grid that keeps cards from overlapping.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutGraph, layoutSignalGraph, layoutVectors, seededRandom, validateCanvas, vaultCanvas } from '../../src/map/index.js';
import { snapToGrid } from '../../src/map/vault-canvas.js';

const VALID = {
  nodes: [
    { id: 'g', type: 'group', label: 'Projects', x: -10, y: -10, width: 700, height: 300 },
    { id: 'a', type: 'file', file: 'Projects/Atlas.md', x: 0, y: 0, width: 260, height: 60, color: '2' },
    { id: 'b', type: 'text', text: '**Atlas**', x: 300, y: 0, width: 260, height: 60 },
    { id: 'c', type: 'link', url: 'https://jsoncanvas.org', x: 0, y: 100, width: 260, height: 60, color: '#ff0000' },
  ],
  edges: [{ id: 'e', fromNode: 'a', toNode: 'b', fromSide: 'right', toSide: 'left', toEnd: 'arrow', label: 'related' }],
};

test('the validator accepts a spec canvas and names each thing the spec forbids', () => {
  assert.deepEqual(validateCanvas(VALID), []);
  assert.deepEqual(validateCanvas({}), [], 'nodes and edges are optional');
  const bad = structuredClone(VALID) as { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] };
  bad.nodes[1]!.x = 1.5;
  bad.nodes[2]!.id = 'a';
  delete bad.nodes[3]!.url;
  bad.nodes[0]!.width = 0;
  bad.nodes.push({ id: 'z', type: 'image', x: 0, y: 0, width: 1, height: 1 }, { id: 'y', type: 'file', file: 'x.md', x: 0, y: 0, width: 1, height: 1, color: 'red' });
  bad.edges.push({ id: 'f', fromNode: 'a', toNode: 'missing', fromSide: 'middle' }, { id: 'e', fromNode: 'a', toNode: 'c' });
  const problems = validateCanvas(bad).join('\n');
  for (const expected of [
    /"x" must be an integer/,
    /id "a" is used twice/,
    /a link node needs a string "url"/,
    /"width" must be positive/,
    /"type" must be text, file, link or group/,
    /"color" must be a preset/,
    /"toNode" names no node \("missing"\)/,
    /"fromSide" must be top, right, bottom or left/,
    /edges\[2\] \(e\): id "e" is used twice/,
  ]) {
    assert.match(problems, expected);
  }
  assert.deepEqual(validateCanvas([]), ['the canvas is not a JSON object']);
  assert.deepEqual(validateCanvas({ nodes: {} }), ['"nodes" is not an array']);
});

function vectors(n: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const vector = Float32Array.from({ length: 16 }, (_, d) => (d === i % 4 ? 3 : 0) + random() - 0.5);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

test('a layout repeats exactly for a seed, differs for another, and tiny inputs get a place', () => {
  const input = vectors(60, 1);
  const first = layoutVectors(input, { seed: 7 });
  assert.deepEqual(layoutVectors(input, { seed: 7 }), first);
  assert.notDeepEqual(layoutVectors(input, { seed: 8 }), first);
  assert.equal(first.length, 60);
  assert.ok(first.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)));
  assert.deepEqual(layoutVectors([]), []);
  assert.deepEqual(layoutVectors(input.slice(0, 1)), [[0, 0]]);
  assert.equal(layoutVectors(input.slice(0, 2)).length, 2);
  assert.equal(layoutVectors(input.slice(0, 3)).length, 3, 'three points: fewer than UMAP’s 15 neighbours');
  assert.equal(layoutGraph([[], []]).length, 2);
});

test('landmarks: a vault larger than the sample is laid out by UMAP on the sample and the rest placed near it', () => {
  const input = vectors(80, 2);
  const points = layoutVectors(input, { seed: 3, landmarks: 20 });
  assert.equal(points.length, 80);
  assert.ok(points.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)));
  assert.deepEqual(layoutVectors(input, { seed: 3, landmarks: 20 }), points);
});

test('a signal graph: isolated notes are left unplaced, connected ones placed, landmarks or not', () => {
  const ring = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i === n - 1
        ? []
        : [
            { index: (i + 1) % (n - 1), distance: 0.5 },
            { index: (i + n - 2) % (n - 1), distance: 0.5 },
          ],
    );
  const all = layoutSignalGraph(ring(30), { seed: 1 });
  assert.equal(all[29], null, 'the note with no neighbour');
  assert.ok(all.slice(0, 29).every((point) => point !== null));
  const sampled = layoutSignalGraph(ring(30), { seed: 1, landmarks: 8 });
  assert.ok(
    sampled.slice(0, 29).every((point) => point !== null),
    'notes outside the landmarks are placed by their neighbours',
  );
});

test('the grid gives every note its own cell, and the vault canvas validates with notes nothing placed set apart', () => {
  const cells = snapToGrid(Array.from({ length: 50 }, () => [0, 0] as const));
  assert.equal(new Set(cells.map((cell) => cell.join())).size, 50);
  const canvas = vaultCanvas(
    [
      { path: 'A/One.md', point: [0, 0] },
      { path: 'A/Two.md', point: [0.1, 0] },
      { path: 'B/Three.md', point: [5, 5] },
      { path: 'Loose.md', point: null },
    ],
    [
      { from: 'A/One.md', to: 'A/Two.md', kind: 'related' },
      { from: 'A/Two.md', to: 'A/One.md', kind: 'wiki' },
      { from: 'A/One.md', to: 'Gone.md', kind: 'wiki' },
    ],
  );
  assert.deepEqual(validateCanvas(canvas), []);
  assert.equal(canvas.nodes.filter((node) => node.type === 'file').length, 4);
  assert.equal(canvas.edges.length, 1, 'one edge per pair, none to a note not drawn');
  assert.equal(canvas.edges[0]!.label, 'related');
  assert.ok(canvas.nodes.some((node) => node.type === 'group' && /Not related to any other note · 1/.test(node.label ?? '')));
});
