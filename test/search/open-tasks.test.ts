import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openAsked, OpenTasks, OPEN_WEIGHT } from '../../src/search/open-tasks.js';
import { scanWords, VaultSearch } from '../../src/search/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

const words = (query: string): string[] => {
  const out: string[] = [];
  scanWords(query, (word) => out.push(word));
  return out;
};
const asked = (query: string, language: string | null = null) => openAsked(words(query), () => language).map(({ first, last, text }) => [first, last, text]);

test('the words asking what is still open, per language, the longest phrase at each word', () => {
  assert.deepEqual(asked("what's still open on Harbor?"), [[1, 2, 'still open']]);
  assert.deepEqual(asked('pending action items from the design review'), [[0, 0, 'pending']]);
  assert.deepEqual(asked('open action items from the offsite'), [[0, 2, 'open action items']]);
  assert.deepEqual(asked('what is left to do on the move'), [[2, 4, 'left to do']]);
  assert.deepEqual(asked('insurance to-do'), [[1, 1, 'to-do']]);
  assert.deepEqual(asked('o que ainda falta fazer no Harbor'), [[3, 4, 'falta fazer']]);
  assert.deepEqual(asked('tareas pendientes del piloto'), [[1, 1, 'pendientes']]);
  assert.deepEqual(asked('offene Punkte im Projekt'), [[0, 0, 'offene']]);
  assert.deepEqual(asked('незавершённые задачи'), [[0, 0, 'незавершённые']]);
  // Not "open" alone, nor a meeting's open questions.
  for (const query of ['open the file in a new tab', 'open source licences', 'open questions from the review', 'how to do a backup']) assert.deepEqual(asked(query), [], query);
});

test('"todo" is "all" in Spanish and Portuguese: read only where the query is not in them', () => {
  assert.deepEqual(asked('todo list for the trip'), [[0, 0, 'todo']]);
  assert.deepEqual(asked('todo list for the trip', 'en'), [[0, 0, 'todo']]);
  assert.deepEqual(asked('todo el equipo en la reunión', 'es'), []);
  assert.deepEqual(asked('todos os projetos', 'pt'), []);
});

test('open tasks as a word: its idf over the notes, the count saturated and normalized by length', () => {
  const idf = (notes: number, holding: number) => Math.log(1 + (notes - holding + 0.5) / (holding + 0.5));
  // Four notes of the same length: two hold tasks.
  const same = new OpenTasks([0, 1, 8, 0], [100, 100, 100, 100]);
  assert.equal(same.any, true);
  assert.deepEqual([...same.bonuses.keys()].sort(), [1, 2], 'notes without open tasks get none');
  assert.ok(Math.abs(same.bonuses.get(1)! - OPEN_WEIGHT * idf(4, 2)) < 1e-12, 'one task in a note of average length: the idf times the weight');
  assert.ok(same.bonuses.get(2)! > same.bonuses.get(1)! && same.bonuses.get(2)! < 2.2 * same.bonuses.get(1)!, 'eight tasks count more than one, and saturate');
  // One task in a short note is more of it than one task at the end of a long note.
  const lengths = new OpenTasks([1, 1, 0], [20, 400, 100]);
  assert.ok(lengths.bonuses.get(0)! > lengths.bonuses.get(1)!);
  // A rarer thing to hold weighs more.
  assert.ok(new OpenTasks([1, 0, 0, 0], [100, 100, 100, 100]).bonuses.get(0)! > same.bonuses.get(1)!);
  assert.equal(new OpenTasks([0, 0], [10, 10]).any, false);
  assert.equal(new OpenTasks([], []).any, false);
});

test('a query asking what is still open ranks the notes holding open tasks higher among its matches, and says so', (t) => {
  const talk = 'Harbor deletes a tenant’s data across every store. The Harbor design keeps the deletion orchestrator simple; Harbor owners meet weekly.';
  const { db, root } = indexedVault(t, {
    'Projects/Harbor overview.md': `# Harbor overview\n${talk}\n${talk}\n`,
    'Projects/Harbor tasks.md': '# Harbor tasks\n- [x] List every store (Inês) ✅ 2026-04-17\n- [ ] Per-tenant keys for Harbor (Tomasz) 📅 2026-07-01\n- [/] Deletion orchestrator (Inês)\n- [ ] Certificate template\n',
    'Meetings/Harbor review.md': `# Harbor review\n${talk}\n- [x] Write the blog post ✅ 2026-06-05\n- [-] Cancelled idea\n`,
    'Daily/2026-06-01.md': '# Monday\n```\n- [ ] not a task inside code\n```\nHarbor was quiet today.\n',
  });
  const engine = VaultSearch.open(db, root);
  const plain = engine.search({ query: 'Harbor', mode: 'keyword' });
  assert.equal(plain.results[0]!.path, 'Projects/Harbor overview.md', 'without the asking words the overview leads');
  const open = engine.search({ query: "what's still open on Harbor?", mode: 'keyword', explain: true });
  assert.equal(open.results[0]!.path, 'Projects/Harbor tasks.md');
  assert.ok(open.notices.includes('read "still open" as asking what is still open: among the matches, notes holding unfinished tasks (- [ ]) rank higher'), open.notices.join(' | '));
  assert.deepEqual(
    open.results[0]!.boosts?.filter((boost) => boost.kind === 'open').map((boost) => boost.terms),
    [['still open']],
  );
  // Done and cancelled tasks are not open; neither is a task in a code block.
  for (const path of ['Meetings/Harbor review.md', 'Daily/2026-06-01.md']) {
    const hit = open.results.find((result) => result.path === path);
    assert.equal(
      hit?.boosts?.some((boost) => boost.kind === 'open'),
      false,
      path,
    );
  }
  // The bonus orders matches; it brings in no note that matches nothing else.
  assert.equal(
    engine.search({ query: 'pending zzzqqq', mode: 'keyword' }).results.some((hit) => hit.path === 'Projects/Harbor tasks.md'),
    false,
  );
});

test('a vault without open tasks reads "pending" as a word, with no notice', (t) => {
  const { db, root } = indexedVault(t, {
    'Billing/Invoices.md': '# Invoices\nA pending invoice waits for approval.\n- [x] Send the March invoice ✅ 2026-03-02\n',
    'Billing/Refunds.md': '# Refunds\nRefunds go back to the card.\n',
  });
  const response = VaultSearch.open(db, root).search({ query: 'pending invoice', mode: 'keyword', explain: true });
  assert.equal(response.results[0]!.path, 'Billing/Invoices.md');
  assert.ok(!response.notices.some((notice) => notice.includes('still open')), response.notices.join(' | '));
  assert.equal(
    response.results[0]!.boosts?.some((boost) => boost.kind === 'open'),
    false,
  );
});
