/** The related lane's signals on a small vault: hops, tag rarity, related: types, weights, folders, cycles. */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { VaultSearch } from '../../src/search/index.js';
import { relatedLane } from '../../src/session/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

const FILES: Record<string, string> = {
  'Hub.md': '# Hub\n[[One]] [[Two]]\n',
  'One.md': '---\ntags: [common, rare]\nrelated:\n  - link: "[[Far/Three]]"\n    type: supports\n---\n# One\nWalrus keepers feed the walrus colony at noon.\n',
  'Two.md': '---\ntags: [common]\n---\n# Two\nNothing alike here.\n',
  'Far/Three.md': '---\ntags: [rare, common]\nrelated: ["[[One]]"]\n---\n# Three\nA walrus colony needs keepers.\n[[Four]]\n',
  'Far/Four.md': '---\ntags: [common]\n---\n# Four\nUnrelated words entirely.\n[[Five]]\n',
  'Far/Five.md': '# Five\nThe end of the chain.\n',
};

function open(t: TestContext) {
  const vault = makeVault(t, FILES);
  const { db, root } = indexState(t, vault);
  return { db, engine: VaultSearch.open(db, root) };
}

test('each signal finds what it should, says why, and closer, rarer and stated relations count more', (t) => {
  const { db, engine } = open(t);
  const lane = relatedLane(db, engine, 'One.md', { limit: 10 })!;
  const by = Object.fromEntries(lane.results.map((result) => [result.path, result]));
  // Three: stated (related: supports, and back), a rare shared tag, shared terms, a link via related:.
  assert.equal(lane.results[0]!.path, 'Far/Three.md');
  assert.deepEqual([...by['Far/Three.md']!.signals].sort(), ['links', 'related', 'tags', 'terms']);
  assert.match(by['Far/Three.md']!.chains.join('\n'), /related: related: \(supports\)/);
  assert.match(by['Far/Three.md']!.chains.join('\n'), /terms: .*walrus/);
  // Links: Hub is 1 hop, Two 2 hops (via Hub), Four 2 hops (via Three), Five 3 hops.
  assert.match(by['Hub.md']!.chains.join(), /links: linked directly/);
  assert.match(by['Far/Five.md']!.chains.join(), /links: 3 hops, via Far\/Four\.md/);
  assert.ok(by['Hub.md']!.contributions.links! > by['Far/Five.md']!.contributions.links!, 'closer is stronger');
  // Tags: Three shares the rare tag and ranks above Two and Four, which share only the common one.
  const tags = lane.results.filter((result) => result.signals.includes('tags')).map((result) => result.path);
  assert.equal(tags[0], 'Far/Three.md');
  assert.equal(
    lane.results.find((result) => result.path === 'One.md'),
    undefined,
    'never itself',
  );
});

test('weights and folders narrow the lane; a related: cycle terminates; an unindexed note is null', (t) => {
  const { db, engine } = open(t);
  const termsOnly = relatedLane(db, engine, 'One.md', { limit: 10, weights: { related: 0, links: 0, tags: 0 } })!;
  assert.deepEqual(
    termsOnly.results.map((result) => [result.path, result.signals.join()]),
    [['Far/Three.md', 'terms']],
  );
  const far = relatedLane(db, engine, 'One.md', { limit: 10, folders: ['Far'] })!;
  assert.ok(far.results.length > 0 && far.results.every((result) => result.path.startsWith('Far/')));
  // One → Three → One is a cycle of related: entries: both see each other, nothing loops.
  assert.equal(relatedLane(db, engine, 'Far/Three.md', { limit: 3 })!.results[0]!.path, 'One.md');
  assert.equal(relatedLane(db, engine, 'Nope.md', { limit: 3 }), null);
});
