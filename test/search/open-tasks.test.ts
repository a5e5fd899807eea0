import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openAsked, OpenTasks, OPEN_WEIGHT } from '../../src/search/open-tasks.js';
import { scanWords, VaultSearch } from '../../src/search/index.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexedVault } from '../helpers/indexed-vault.js';

const words = (query: string): string[] => {
  const out: string[] = [];
  scanWords(query, (word) => out.push(word));
  return out;
};
const asked = (query: string, language: string | null = null) => openAsked(words(query), () => language).map(({ first, last, text }) => [first, last, text]);

test('the words asking what is still open, per language, the longest phrase at each word', () => {
  assert.deepEqual(asked("what's still open on Harbor?"), [[1, 2, 'still open']]);
  assert.deepEqual(asked('pending action items from the design review'), [[0, 2, 'pending action items']]);
  assert.deepEqual(asked('open action items from the offsite'), [[0, 2, 'open action items']]);
  assert.deepEqual(asked('what is left to do on the move'), [[2, 4, 'left to do']]);
  assert.deepEqual(asked('insurance to-do'), [[1, 1, 'to-do']]);
  assert.deepEqual(asked('o que ainda falta fazer no Harbor'), [[3, 4, 'falta fazer']]);
  assert.deepEqual(asked('tareas pendientes del piloto'), [[1, 1, 'pendientes']]);
  assert.deepEqual(asked('offene Punkte im Projekt'), [[0, 1, 'offene Punkte']]);
  assert.deepEqual(asked('незавершённые задачи'), [[0, 0, 'незавершённые']]);
  // An English word for unfinished alone, where it is said of something.
  assert.deepEqual(asked("tax stuff I haven't done yet"), [[3, 5, "haven't done yet"]]);
  assert.deepEqual(asked('tax stuff I haven\u2019t done yet'), [[3, 5, 'haven\u2019t done yet']], 'the typographic apostrophe alike');
  assert.deepEqual(asked('what\u2019s pending on Harbor?'), [[1, 1, 'pending']]);
  assert.deepEqual(asked('what do I still need to do for the move?'), [[3, 6, 'still need to do']]);
  assert.deepEqual(asked('what remains to be done on the migration'), [[1, 4, 'remains to be done']]);
  assert.deepEqual(asked("what's pending on Harbor?"), [[1, 1, 'pending']]);
  assert.deepEqual(asked('anything outstanding with the landlord?'), [[0, 1, 'anything outstanding']], 'the pronoun it is said of asks too');
  // Not "open" alone, nor a meeting's open questions, nor the other senses of a word for unfinished.
  for (const query of [
    'open the file in a new tab',
    'open source licences',
    'open questions from the review',
    'how to do a backup',
    'outstanding balance on the credit card',
    'patent pending design',
    'pending promise in javascript',
    'incomplete data in the migration',
    'unchecked exceptions in java',
    'the shop is open on Sunday',
    'offene Fragen zur Migration',
    'Tag der offenen Tür',
    'estou a fazer o jantar',
    'por hacer ejercicio',
    'facile à faire',
    'cose da fare a Roma',
  ])
    assert.deepEqual(asked(query), [], query);
});

test('"todo" is "all" in Spanish and Portuguese: read only where the query is not in them', () => {
  assert.deepEqual(asked('todo list for the trip'), [[0, 0, 'todo']]);
  assert.deepEqual(asked('todo list for the trip', 'en'), [[0, 0, 'todo']]);
  assert.deepEqual(asked('todo el equipo en la reunión', 'es'), []);
  assert.deepEqual(asked('todos os projetos', 'pt'), []);
});

test('open tasks as a word among the best matches: its idf there, the count saturated and normalized by length', () => {
  const idf = (matches: number, holding: number) => Math.log(1 + (matches - holding + 0.5) / (holding + 0.5));
  // Five notes of the same length: two hold tasks.
  const tasks = new OpenTasks([0, 1, 8, 0, 0], [100, 100, 100, 100, 100]);
  assert.equal(tasks.any, true);
  const four = tasks.among([0, 1, 2, 3]);
  assert.deepEqual([...four.keys()].sort(), [1, 2], 'notes without open tasks get none');
  assert.ok(Math.abs(four.get(1)! - OPEN_WEIGHT * idf(4, 2)) < 1e-12, 'one task in a note of average length: the idf among the matches times the weight');
  assert.ok(four.get(2)! > four.get(1)! && four.get(2)! < 2.2 * four.get(1)!, 'eight tasks count more than one, and saturate');
  // Among the matches given: the rarer holding tasks is there, the more it weighs.
  assert.ok(tasks.among([0, 1, 3, 4]).get(1)! > four.get(1)!);
  assert.equal(tasks.among([0, 3]).size, 0);
  // One task in a short note is more of it than one task at the end of a long note.
  const lengths = new OpenTasks([1, 1, 0], [20, 400, 100]).among([0, 1, 2]);
  assert.ok(lengths.get(0)! > lengths.get(1)!);
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
    'Home/Groceries.md': '# Groceries\n- [ ] Milk\n- [ ] Bread\n',
  });
  const engine = VaultSearch.open(db, root);
  const plain = engine.search({ query: 'Harbor', mode: 'keyword' });
  assert.equal(plain.results[0]!.path, 'Projects/Harbor overview.md', 'without the asking words the overview leads');
  const open = engine.search({ query: "what's still open on Harbor?", mode: 'keyword', explain: true });
  assert.equal(open.results[0]!.path, 'Projects/Harbor tasks.md');
  assert.ok(open.notices.includes('read "still open" as asking what is still open: among the best matches, notes holding unfinished tasks (- [ ]) rank higher'), open.notices.join(' | '));
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
    engine.search({ query: 'pending items for the Harbor owners', mode: 'keyword' }).results.some((hit) => hit.path === 'Home/Groceries.md'),
    false,
  );
  // A pasted text repeating the words: named once.
  const repeated = engine.search({ query: Array.from({ length: 50 }, () => 'Harbor pending items').join(' '), mode: 'keyword' });
  assert.ok(repeated.notices.includes('read "pending items" as asking what is still open: among the best matches, notes holding unfinished tasks (- [ ]) rank higher'), repeated.notices.join(' | '));
  // Said where it acts; when none of the best matches holds an open task, it says so.
  assert.ok(!engine.search({ query: 'pending items zzzqqq', mode: 'keyword' }).notices.some((notice) => notice.includes('still open')));
  const none = engine.search({ query: 'what is still open about quiet days?', mode: 'keyword', explain: true });
  assert.ok(none.notices.includes('read "still open" as asking what is still open, but none of the best matches holds an unfinished task (- [ ])'), none.notices.join(' | '));
});

test('the words asking what is open leave the query; asking only that lists the notes holding open tasks, the words never corrected', (t) => {
  const { db, root } = indexedVault(t, {
    'Projects/Harbor tasks.md': '# Harbor tasks\n- [ ] Per-tenant keys for Harbor\n- [ ] Certificate template\n',
    'Home/Window.md': '# Window\nThe Harbor window is still open; still open after the storm, still open today.\n',
    'Notes/Offer.md': '# Offer\nThe offer for the flat.\n- [ ] Sign the offer\n',
  });
  const engine = VaultSearch.open(db, root);
  const open = engine.search({ query: "what's still open on Harbor?", mode: 'keyword', explain: true });
  assert.equal(open.results[0]!.path, 'Projects/Harbor tasks.md', 'a note saying "still open" is not what was asked');
  assert.deepEqual(open.analysis?.terms, ['harbor']);
  const only = engine.search({ query: 'offene Punkte', mode: 'keyword', explain: true });
  assert.deepEqual(only.analysis?.corrected, [], 'offene is no misspelt offer');
  assert.deepEqual(
    only.results.map((hit) => hit.path),
    ['Projects/Harbor tasks.md', 'Notes/Offer.md'],
    'two open tasks before one; the window that is "still open" holds none',
  );
  assert.ok(only.notices.includes('read "offene Punkte" as asking what is still open, and nothing else: the notes holding unfinished tasks (- [ ]), the most first'), only.notices.join(' | '));
  assert.deepEqual(
    engine.search({ query: "what's still open?", mode: 'keyword', filters: { folders: ['Notes'] } }).results.map((hit) => hit.path),
    ['Notes/Offer.md'],
  );
});

test('a vault without open tasks or dated notes searches the asking words as written, never corrected', (t) => {
  const { db, root } = indexedVault(t, { 'Notes/Offer.md': '# Offer\nThe offer for the flat, and a latent bug.\n' });
  const engine = VaultSearch.open(db, root);
  for (const query of ['offene Punkte', 'the latest']) {
    const response = engine.search({ query, mode: 'keyword', explain: true });
    assert.deepEqual(response.analysis?.corrected, [], query);
    assert.deepEqual(response.results, [], query);
  }
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

test('a query with no function word is read in the language of the vault: "todo incluido" over Spanish notes is "all", not a to-do', (t) => {
  const { db, root } = indexedVault(t, {
    'Viajes/Cancún.md': '# Cancún\nEl paquete con todo incluido para el viaje de la familia, con el hotel y los vuelos de ida y vuelta.\n- [ ] Reservar el hotel para la familia\n',
    'Viajes/Lisboa.md': '# Lisboa\nEl viaje a Lisboa con todo el equipo en mayo, para la conferencia y una cena de la empresa.\n',
    'Viajes/Roma.md': '# Roma\nUn paquete todo incluido que no tomamos: el hotel estaba lejos del centro y de los museos.\n',
  });
  const engine = VaultSearch.open(db, root);
  const all = engine.search({ query: 'todo incluido', mode: 'keyword' });
  assert.ok(!all.notices.some((notice) => notice.includes('still open')), all.notices.join(' | '));
  assert.ok(all.results.some((hit) => hit.path === 'Viajes/Roma.md'));
  // Its own words for what is open are read there.
  const pending = engine.search({ query: 'viaje pendientes', mode: 'keyword' });
  assert.ok(
    pending.notices.some((notice) => notice.startsWith('read "pendientes" as asking what is still open')),
    pending.notices.join(' | '),
  );
  assert.equal(pending.results[0]!.path, 'Viajes/Cancún.md');
});

test('in a vault of several languages a query of no function word reads "todo" as a to-do', (t) => {
  const { db, root } = indexedVault(t, {
    'Notas/Migração.md': '# Migração\nA migração do banco de dados para o novo servidor foi planejada com a equipe e o cliente.\n',
    'Notas/Reunião.md': '# Reunião\nNa reunião falamos sobre a migração e sobre os prazos do projeto com a equipe.\n',
    'Notas/Viagem.md': '# Viagem\nA viagem para Lisboa com a família foi ótima e o hotel era perto do centro.\n',
    'Work/Migration retro.md': '# Migration retro\nThe migration went well; the team wrote down what to keep and what to change for the next migration.\n',
    'Work/Migration tasks.md': '# Migration tasks\n- [ ] Move the backups\n- [ ] Switch DNS\n',
  });
  const engine = VaultSearch.open(db, root);
  const todo = engine.search({ query: 'migration todo', mode: 'keyword' });
  assert.ok(
    todo.notices.some((notice) => notice.startsWith('read "todo" as asking what is still open')),
    todo.notices.join(' | '),
  );
  assert.equal(todo.results[0]!.path, 'Work/Migration tasks.md');
});

test("a task's checkbox is no word: `x` of `- [x]` is not a term, an X in the text still is", (t) => {
  const { db, root } = indexedVault(t, {
    'Tasks.md': '# Tasks\n- [x] Ship the release\n1. [x] Tag it\n- [ ] Write the docs\n',
    'Film.md': '# Film\nThe X ray scene was cut.\n',
  });
  const engine = VaultSearch.open(db, root);
  assert.deepEqual(
    engine.search({ query: 'x', mode: 'keyword' }).results.map((hit) => hit.path),
    ['Film.md'],
  );
});

test('asking only what is open: a note named for the words is still found by its name, a filter with no task holder says so, no substring fallback, the keyword lane answers', (t) => {
  const { db, root } = indexedVault(t, {
    'Lists/Pending items.md': '# Pending items\n* call the plumber\n* renew the passport\n',
    'Work/Alpha.md': '# Alpha\n- [ ] Ship the alpha\n> - [x] a done task in a callout\n',
    'Work/2026-06-20 Beta.md': '# Beta\n- [ ] Ship the beta\n',
    'Work/2026-06-25 Retro.md': '# Retro\nAll done.\n',
    'Home/Window.md': '# Window\nThe window is still open.\n',
    'Notes/Film.md': '# Film\nThe X ray scene was cut.\n',
  });
  const engine = VaultSearch.open(db, root);
  const named = engine.search({ query: 'pending items', mode: 'keyword' });
  assert.equal(named.results[0]!.path, 'Lists/Pending items.md', 'the note the query names, first');
  assert.ok(named.results.some((hit) => hit.path === 'Work/Alpha.md'));
  assert.equal(engine.search({ query: 'Lists/Pending items', mode: 'keyword' }).results[0]?.path, 'Lists/Pending items.md', 'a pasted path');
  const home = engine.search({ query: "what's still open?", mode: 'keyword', filters: { folders: ['Home'] } });
  assert.deepEqual(home.results, [], 'no substring hit of the window that says "still open"');
  assert.equal(home.scoped_out, undefined, 'the notes outside the filter were brought in, not found');
  assert.ok(home.notices.includes('none of the notes the filters let through holds an unfinished task (- [ ])'), home.notices.join(' | '));
  // A word for the tasks themselves names what is asked for, in any language.
  for (const query of [
    'anything pending?',
    'list of open tasks',
    'give me a list of pending items',
    'which tasks are still open?',
    'what items are still pending',
    'todo items',
    'tarefas pendentes',
    'quais são as pendências?',
    'ausstehende Aufgaben',
  ]) {
    assert.deepEqual(
      engine
        .search({ query, mode: 'keyword' })
        .results.map((hit) => hit.path)
        .toSorted(),
      ['Work/2026-06-20 Beta.md', 'Work/Alpha.md'],
      `${query}: asks only what is open`,
    );
  }
  // Asking for both: the notes holding open tasks, the newest of them first.
  const both = engine.search({ query: 'latest open tasks', mode: 'keyword', today: '2026-06-30' });
  assert.deepEqual(
    both.results.map((hit) => hit.path),
    ['Work/2026-06-20 Beta.md', 'Work/Alpha.md'],
  );
  // However it is worded: a word another language stops ("todo"), "recently" after the open words, Portuguese.
  for (const query of ['latest todo', 'open tasks recently', 'tarefas pendentes recentemente']) {
    assert.deepEqual(
      engine.search({ query, mode: 'keyword', today: '2026-06-30' }).results.map((hit) => hit.path),
      ['Work/2026-06-20 Beta.md', 'Work/Alpha.md'],
      query,
    );
  }
  assert.ok(both.notices.includes('read "latest" as asking for the newest of them: a note dated later (by its name or date:) ranks higher'), both.notices.join(' | '));
  // A note listed for its open tasks shows the first of them, not its start; read from the note as it is now, never in code.
  const listed = engine.search({ query: "what's still open?", mode: 'keyword' }).results.find((hit) => hit.path === 'Work/Alpha.md')!;
  assert.equal(listed.excerpt, '- [ ] Ship the alpha');
  writeFileSync(join(root, 'Work/Alpha.md'), '# Alpha\nA line added above, and a task in code, which is none.\n\n```\n- [ ] example in code\n```\n- [ ] Ship the alpha\n');
  assert.equal(
    VaultSearch.open(db, root)
      .search({ query: "what's still open?", mode: 'keyword' })
      .results.find((hit) => hit.path === 'Work/Alpha.md')!.excerpt,
    '- [ ] Ship the alpha',
  );
  const auto = engine.search({ query: "what's still open?" });
  assert.equal(auto.mode, 'keyword');
  assert.match(auto.mode_reason, /asks only for notes holding open tasks or the newest notes/);
  assert.deepEqual(
    engine.search({ query: 'x', mode: 'keyword' }).results.map((hit) => hit.path),
    ['Notes/Film.md'],
    "a callout's checkbox is no word either",
  );
});
