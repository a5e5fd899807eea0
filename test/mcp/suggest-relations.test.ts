/**
 * suggest_relations over the real MCP client: proposals from the related lane, applied to a note
 * of the human's through preview → token, changing only related: (every other byte kept),
 * idempotent, and undone byte for byte with undo_write.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseNote } from '../../src/vault/index.js';
import { connectFixture } from '../helpers/mcp.js';

const HUMAN = '---\n# my own comment\nid: "note-1"\ntitle:   "Walrus care"\ntags: [animals, zoo]\nrelated:\n  - "[[Feeding]]"\ncreated: 2026-01-02\n---\n# Walrus care\nThe walrus keepers check the colony at noon.\nSee [[Pool]].\n';
const FILES: Record<string, string> = {
  'Zoo/Walrus care.md': HUMAN,
  'Zoo/Feeding.md': '---\ntags: [zoo]\n---\n# Feeding\nFish for the walrus colony.\n',
  'Zoo/Pool.md': '---\ntags: [zoo]\n---\n# Pool\nThe walrus pool is cleaned weekly.\n',
  'Zoo/Keepers.md': '---\nid: "keepers-id"\ntags: [animals]\n---\n# Keepers\nWalrus keepers rota and colony notes.\n',
  'Claude/Concepts/Walrus.md': '---\ntags: [animals]\n---\n# Walrus\nA walrus colony concept.\n',
  'Other/Taxes.md': '# Taxes\nForms due in April.\n',
};

type Suggestion = { path: string; entry: string; signals: string[] };

test('suggest, preview, apply: only related: changes; applying again adds nothing; undo_write restores the bytes', async (t) => {
  const { call, vault } = await connectFixture(t, FILES);
  const file = join(vault.root, 'Zoo/Walrus care.md');
  const listed = await call('suggest_relations', { path: 'Zoo/Walrus care.md', limit: 3 });
  assert.equal(listed.isError, undefined, listed.content[0]?.text);
  const suggestions = listed.structuredContent!.suggestions as Suggestion[];
  assert.ok(suggestions.length > 0);
  assert.ok(!suggestions.some((s) => s.path === 'Zoo/Feeding.md'), 'already in related:, not suggested again');
  assert.ok(suggestions.every((s) => s.signals.length > 0));
  assert.equal(suggestions.find((s) => s.path === 'Zoo/Keepers.md')?.entry, '[[Keepers]]', 'a list of links gets a link');
  assert.equal(readFileSync(file, 'utf8'), HUMAN, 'listing writes nothing');

  const preview = await call('suggest_relations', { path: 'Zoo/Walrus care.md', limit: 3, apply: true });
  assert.equal(preview.isError, undefined, preview.content[0]?.text);
  assert.equal(preview.structuredContent!.applied, false);
  assert.match(preview.content[0]!.text!, /belongs to the human.*token/s);
  assert.equal(readFileSync(file, 'utf8'), HUMAN, 'a preview writes nothing');
  const applied = await call('suggest_relations', { token: preview.structuredContent!.token });
  assert.equal(applied.isError, undefined, applied.content[0]?.text);
  const after = readFileSync(file, 'utf8');
  const [before, then] = [parseNote('n.md', HUMAN).frontmatter!, parseNote('n.md', after).frontmatter!];
  const { related: oldRelated, ...restBefore } = before;
  const { related: newRelated, ...restAfter } = then;
  assert.deepEqual(restAfter, restBefore, 'every other field as it was');
  assert.deepEqual((newRelated as string[]).slice(0, 1), oldRelated);
  assert.equal((newRelated as string[]).length, 1 + suggestions.length);
  // Byte for byte: the text before and after the related: block is unchanged.
  const head = HUMAN.slice(0, HUMAN.indexOf('related:'));
  const tail = HUMAN.slice(HUMAN.indexOf('created:'));
  assert.ok(after.startsWith(head) && after.endsWith(tail), after);

  const again = await call('suggest_relations', { path: 'Zoo/Walrus care.md', limit: 3, apply: true });
  assert.equal(again.isError, undefined);
  assert.equal(again.structuredContent!.applied, false);
  assert.match(again.content[0]!.text!, /nothing to add/);
  assert.equal(readFileSync(file, 'utf8'), after, 'idempotent');

  const undo = await call('undo_write', { id: applied.structuredContent!.journal_id });
  assert.equal(undo.isError, undefined, undo.content[0]?.text);
  const undone = await call('undo_write', { id: applied.structuredContent!.journal_id, token: undo.structuredContent!.token });
  assert.equal(undone.isError, undefined, undone.content[0]?.text);
  assert.equal(readFileSync(file, 'utf8'), HUMAN, 'undo restores the bytes');
});

test('in the agent folder it writes at once; bad input is an actionable error', async (t) => {
  const { call, vault } = await connectFixture(t, FILES);
  const written = await call('suggest_relations', { path: 'Claude/Concepts/Walrus.md', apply: true });
  assert.equal(written.isError, undefined, written.content[0]?.text);
  assert.equal(written.structuredContent!.applied, true);
  assert.match(readFileSync(join(vault.root, 'Claude/Concepts/Walrus.md'), 'utf8'), /^---\ntags: \[animals\]\nrelated:\n {2}- "\[\[/);
  for (const [args, message] of [
    [{ path: '../x.md' }, /./],
    [{}, /give the path of a note/],
    [{ path: 'Zoo/Pool.md', apply: true, targets: ['Other/Taxes.md'] }, /not among the suggestions/],
    [{ token: 'nope' }, /unknown preview token/],
  ] as const) {
    const result = await call('suggest_relations', args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(result.content[0]!.text!, message);
  }
});

test('a note whose related: is not a list is not written, and the error says how to fix it', async (t) => {
  const bad = '---\ntags: [zoo]\nrelated: just-text\n---\n# Bad\nwalrus colony\n';
  const { call, vault } = await connectFixture(t, { 'Claude/Bad.md': bad, 'Claude/Good.md': '---\ntags: [zoo]\n---\n# Good\nwalrus colony\n' });
  const result = await call('suggest_relations', { path: 'Claude/Bad.md', apply: true });
  assert.equal(result.isError, true);
  assert.match(result.content[0]!.text!, /related: is not a list; make it one/);
  assert.equal(readFileSync(join(vault.root, 'Claude/Bad.md'), 'utf8'), bad);
});

test('the listing names each suggestion in its text; apply with an empty targets list says none were given', async (t) => {
  const { call, vault } = await connectFixture(t, FILES);
  const listed = await call('suggest_relations', { path: 'Zoo/Walrus care.md', limit: 3 });
  const suggestions = listed.structuredContent!.suggestions as Suggestion[];
  assert.ok(suggestions.length > 0);
  const text = listed.content[0]!.text!;
  assert.match(text, /related: entries suggested for Zoo\/Walrus care\.md; call again with apply: true to write them all, or with targets: \[paths\] for some:\n/);
  for (const suggestion of suggestions) assert.ok(text.includes(`- ${suggestion.path} → ${suggestion.entry} (${suggestion.signals.join(', ')})`), `${suggestion.path} in ${text}`);
  const empty = await call('suggest_relations', { path: 'Zoo/Walrus care.md', apply: true, targets: [] });
  assert.equal(empty.isError, true);
  assert.match(empty.content[0]!.text!, /^\[INVALID_INPUT\] targets is empty, so there is nothing to write; pass the paths of the suggestions/);
  assert.equal(readFileSync(join(vault.root, 'Zoo/Walrus care.md'), 'utf8'), HUMAN);
});
