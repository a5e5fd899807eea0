import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { VaultSearch } from '../../src/search/index.js';
import { WrittenWords } from '../../src/search/spelling.js';
import { cutAtWord } from '../../src/search/vault-search.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault, type FixtureVault } from '../helpers/vault.js';

/** `vault` indexed; `open` opens a search engine on it, `refresh` indexes again first. */
function engineFor(t: TestContext, vault: FixtureVault) {
  const { db, root, index } = indexState(t, vault);
  const open = () => VaultSearch.open(db, root);
  const refresh = () => {
    index();
    return open();
  };
  return { db, open, refresh };
}

const FILES = {
  'Projects/Atlas/Overview.md':
    '---\ntitle: Atlas — Search Index Migration\naliases: [Project Atlas]\ntags: [project/atlas]\ntype: project\n---\n# Atlas\nWe move search to Tantivy.\n## Decisions\nThe cutover moves to 2026-05-01.\n## Risks\nLoad tests are late.\n',
  'Projects/Billing/Overview.md': '---\ntags: [project/billing]\ntype: project\n---\n# Billing v2\nIdempotency keys kept 72 hours.\n',
  'People/Tomasz Wójcik.md': '---\naliases: [Tomek]\ntype: person\n---\nSRE lead, runs on-call.\n',
  'Claude/Sessions/2026-03-12 Review.md': '---\ntags: [claude/session]\n---\n# Review\nWe reviewed the Tantivy cutover plan with Tantivy experts; Tantivy everywhere.\n',
  'Daily/2026-03-10.md': 'Budget: save 30% of income. Also 100% sure about the % sign.\n',
  'Long.md': `# Brain dump\n${'filler words about many things '.repeat(200)}\n## Cooking\nJollof rice needs smoked paprika.\n`,
};

test('a title or alias puts its note first; hits carry evidence', (t) => {
  const vault = makeVault(t, FILES);
  const engine = engineFor(t, vault).open();
  assert.equal(engine.search({ query: 'Atlas Search Index Migration' }).results[0]!.path, 'Projects/Atlas/Overview.md');
  assert.equal(engine.search({ query: 'Tomek' }).results[0]!.path, 'People/Tomasz Wójcik.md');
  assert.equal(engine.search({ query: 'project atlas' }).results[0]!.path, 'Projects/Atlas/Overview.md');

  const hit = engine.search({ query: 'cutover 2026-05-01' }).results.find((r) => r.path === 'Projects/Atlas/Overview.md')!;
  assert.equal(hit.section, 'Atlas > Decisions');
  assert.deepEqual(hit.lines, [9, 10]);
  assert.equal(hit.excerpt, 'The cutover moves to 2026-05-01.');
  assert.deepEqual(hit.tags, ['project/atlas']);
  assert.match(hit.modified, /^\d{4}-\d{2}-\d{2}T/);
  assert.equal(hit.lanes.keyword!.rank >= 1, true);

  const long = engine.search({ query: 'jollof paprika' }).results[0]!;
  assert.equal(long.section, 'Brain dump > Cooking', 'a long note is found by its block');
});

test('only notes containing a query term are returned', (t) => {
  const vault = makeVault(t, FILES);
  const response = engineFor(t, vault).open().search({ query: 'idempotency', limit: 50 });
  assert.deepEqual(
    response.results.map((r) => r.path),
    ['Projects/Billing/Overview.md'],
  );
  assert.equal(response.total_matches, 1);
  assert.equal(response.mode, 'keyword');
  assert.match(response.mode_reason, /keyword only/);
});

test('filters run before ranking: folders by whole segments, tags by nested prefix, types, dates', (t) => {
  const vault = makeVault(t, FILES);
  const past = new Date('2020-01-01T00:00:00Z');
  utimesSync(join(vault.root, 'Claude/Sessions/2026-03-12 Review.md'), past, past);
  const engine = engineFor(t, vault).open();
  const paths = (request: Parameters<typeof engine.search>[0]) => engine.search(request).results.map((r) => r.path);
  assert.deepEqual(paths({ query: 'tantivy', filters: { folders: ['projects'] } }), ['Projects/Atlas/Overview.md']);
  assert.deepEqual(paths({ query: 'tantivy', filters: { folders: ['Sessions'] } }), ['Claude/Sessions/2026-03-12 Review.md'], 'any depth');
  assert.deepEqual(paths({ query: 'tantivy', filters: { folders: ['Sess'] } }), [], 'whole segments only');
  assert.deepEqual(paths({ query: 'tantivy', filters: { excludeFolders: ['claude'] } }), ['Projects/Atlas/Overview.md']);
  assert.deepEqual(paths({ query: 'overview project', filters: { tags: ['project'] } }).sort(), ['Projects/Atlas/Overview.md', 'Projects/Billing/Overview.md']);
  assert.deepEqual(paths({ query: 'overview project', filters: { tags: ['#Project/Billing'] } }), ['Projects/Billing/Overview.md']);
  assert.deepEqual(paths({ query: 'overview project', filters: { tags: ['proj'] } }), [], 'a tag prefix is a whole segment');
  assert.deepEqual(paths({ query: 'tantivy', filters: { tags: ['project/atlas', 'claude'], tagMode: 'any' } }).length, 2);
  assert.deepEqual(paths({ query: 'tantivy', filters: { tags: ['project/atlas', 'claude'], tagMode: 'all' } }), []);
  assert.deepEqual(paths({ query: 'sre', filters: { types: ['Person'] } }), ['People/Tomasz Wójcik.md']);
  assert.deepEqual(paths({ query: 'tantivy', filters: { modifiedBefore: Date.parse('2021-01-01') } }), ['Claude/Sessions/2026-03-12 Review.md']);
  assert.deepEqual(paths({ query: 'tantivy', filters: { modifiedAfter: Date.parse('2021-01-01') } }), ['Projects/Atlas/Overview.md']);
});

test('scoped_out says when a filter hid a better match', (t) => {
  const vault = makeVault(t, FILES);
  const engine = engineFor(t, vault).open();
  const response = engine.search({ query: 'tantivy', filters: { folders: ['Projects'] } });
  assert.equal(response.results.length, 1);
  assert.ok(response.scoped_out);
  assert.equal(response.scoped_out.best.path, 'Claude/Sessions/2026-03-12 Review.md');
  assert.equal(response.scoped_out.count, 1);
  assert.equal(response.scoped_out.better_match_outside_folder, true);
  assert.match(response.scoped_out.hint, /outranks everything returned/);
  assert.equal(engine.search({ query: 'tantivy', filters: { folders: ['Claude'] } }).scoped_out, undefined, 'nothing better was hidden');
  const unknown = engine.search({ query: 'tantivy', filters: { folders: ['Nowhere'] } });
  assert.deepEqual(unknown.results, []);
  assert.match(unknown.notices.join('\n'), /no note passes the filters \(folder Nowhere\)/);
});

test('the substring lane answers punctuation, ranked by position and length, only when keywords find nothing', (t) => {
  const vault = makeVault(t, { ...FILES, 'Short.md': '%\n' });
  const engine = engineFor(t, vault).open();
  const response = engine.search({ query: '%' });
  assert.deepEqual(
    response.results.map((r) => r.path),
    ['Short.md', 'Daily/2026-03-10.md'],
  );
  assert.ok(response.results.every((r) => r.lanes.substring && !r.lanes.keyword));
  assert.match(response.notices.join('\n'), /contain the query text as written/);
  assert.equal(engine.search({ query: 'budget' }).results[0]!.lanes.substring, undefined);
  // Markup alone (`-` of every `---`, `#`, `[[`) matches every note's formatting: nothing is listed.
  for (const query of ['-', '#', '*', '[[', '.', '| --- |']) {
    const markup = engine.search({ query });
    assert.deepEqual(markup.results, [], query);
    assert.deepEqual(markup.notices, ['the query has no searchable words (only stop words, punctuation or symbols)'], query);
  }
});

test('min_score above every match says how many matched, and the substring lane does not claim there was no match', (t) => {
  const engine = engineFor(t, makeVault(t, FILES)).open();
  const all = engine.search({ query: 'budget', mode: 'keyword' });
  assert.ok(all.total_matches > 0);
  const floored = engine.search({ query: 'budget', mode: 'keyword', minScore: 1000 });
  assert.deepEqual(floored.results, []);
  assert.deepEqual(floored.notices, [`${all.total_matches} note${all.total_matches === 1 ? '' : 's'} matched but scored below min_score 1000; lower it or leave it out`]);
});

test('a changed note updates only its own postings; a deleted note disappears', (t) => {
  const vault = makeVault(t, FILES);
  const { refresh, db } = engineFor(t, vault);
  const before = db.prepare('SELECT note_id, stats FROM note_terms ORDER BY note_id').all() as { note_id: number; stats: Buffer }[];
  vault.write('People/Tomasz Wójcik.md', '---\naliases: [Tomek]\n---\nSRE lead, now also owns the zeppelin budget.\n');
  let engine = refresh();
  assert.equal(engine.search({ query: 'zeppelin' }).results[0]!.path, 'People/Tomasz Wójcik.md');
  const after = db.prepare('SELECT note_id, stats FROM note_terms ORDER BY note_id').all() as { note_id: number; stats: Buffer }[];
  const changed = after.filter((row, i) => !row.stats.equals(before[i]!.stats)).map((row) => row.note_id);
  const tomekId = db.prepare("SELECT id FROM notes WHERE path = 'People/Tomasz Wójcik.md'").pluck().get();
  assert.deepEqual(changed, [tomekId]);
  vault.remove('People/Tomasz Wójcik.md');
  engine = refresh();
  assert.deepEqual(engine.search({ query: 'zeppelin' }).results, []);
  assert.equal(db.prepare('SELECT count(*) FROM note_terms').pluck().get(), Object.keys(FILES).length - 1);
});

test('bad input: empty, stop words only, huge, operators, regex metacharacters, lone surrogates, limits', (t) => {
  const vault = makeVault(t, FILES);
  const engine = engineFor(t, vault).open();
  for (const query of ['', '   ', 'the of and', 'foo-bar', 'c++', '"unbalanced', 'NEAR', 'tantivy AND', '.*[(?', '\uD800\uDFFF\uD800', 'x'.repeat(10_000)]) {
    const response = engine.search({ query });
    assert.ok(Array.isArray(response.results), JSON.stringify(query.slice(0, 20)));
    JSON.stringify(response);
  }
  assert.match(engine.search({ query: 'x'.repeat(10_000) }).notices.join(), /cut to its first 4096 characters/);
  assert.match(engine.search({ query: 'the of and' }).notices.join(), /no searchable words/);
  assert.equal(engine.search({ query: 'tantivy', limit: 0 }).results.length, 1, 'limit is clamped to at least 1');
  assert.equal(engine.search({ query: 'tantivy', limit: 1e6 }).results.length, 2);
});

test('a query past the limit is cut between words: a cut word is in no note and would be "corrected" to another', (t) => {
  assert.equal(cutAtWord('atlas atlas', 8), 'atlas');
  assert.equal(cutAtWord('atlas atlas', 6), 'atlas ', 'the cut falls on a space: nothing split');
  assert.equal(cutAtWord('x'.repeat(100), 10), 'x'.repeat(10), 'one long token is cut where it stands');
  assert.equal(cutAtWord('short', 10), 'short');
  const vault = makeVault(t, FILES);
  const engine = engineFor(t, vault).open();
  // 3 + 8 · 511 = 4091 characters, then `tanti` of the next word at the limit.
  const response = engine.search({ query: `ab ${'tantivy '.repeat(600)}` });
  assert.match(response.notices.join(), /cut to its first 4090 characters, at a word \(at most 4096 are read\)/);
  assert.ok(!response.notices.some((notice) => /"tant/.test(notice)), response.notices.join(' | '));
});

test('a vault with no notes searches cleanly; explain is the score', (t) => {
  const empty = makeVault(t, {});
  assert.deepEqual(engineFor(t, empty).open().search({ query: 'anything' }).results, []);
  const vault = makeVault(t, FILES);
  const hit = engineFor(t, vault).open().search({ query: 'tantivy cutover', explain: true }).results[0]!;
  const total = hit.explain!.reduce((sum, part) => sum + part.score, 0) + (hit.boosts ?? []).reduce((sum, boost) => sum + boost.score, 0);
  assert.ok(
    hit.boosts?.some((boost) => boost.kind === 'passage'),
    'the best passage is part of the score',
  );
  assert.ok(Math.abs(total - hit.score) < 1e-3, `${total} ≠ ${hit.score}`);
});

test('a note whose title or alias is the query comes first, exact spelling before stem-equal names', (t) => {
  const vault = makeVault(t, {
    'Workspace.md': '# Workspace\nThe layout of panes.\n',
    'Plugins/Workspaces.md': '# Workspaces\nSave and load workspaces. Workspaces workspaces workspace layouts, workspace workspace.\n',
    'Sync/Local and remote vaults.md': '---\naliases: [Vault types]\n---\nLocal vault, remote vault, vault vault vault.\n',
    'Create a vault.md': '---\naliases: [New vault]\n---\nMake one.\n',
  });
  const engine = engineFor(t, vault).open();
  const workspace = engine.search({ query: 'Workspace' }).results;
  assert.equal(workspace[0]!.path, 'Workspace.md');
  assert.deepEqual(workspace[0]!.lanes.name, { match: 'title' });
  assert.equal(engine.search({ query: 'workspaces' }).results[0]!.path, 'Plugins/Workspaces.md');
  const alias = engine.search({ query: 'new vault' }).results;
  assert.equal(alias[0]!.path, 'Create a vault.md', 'the alias wins over a note that repeats the words');
  assert.deepEqual(alias[0]!.lanes.name, { match: 'alias' });
  assert.equal(alias[1]?.lanes.name, undefined);
});

test('passages: a focused section beats a long note with the same words scattered; terms close together beat terms apart', (t) => {
  const filler = (n: number) => 'words about other things entirely here. '.repeat(n);
  const vault = makeVault(t, {
    'Scattered.md': `# Notes\n## One\nThe font was fine. ${filler(30)}\n## Two\n${filler(30)} The size of the team grew.\n## Three\n${filler(30)} Font and size again, font, size.\n`,
    'Focused.md': `# Settings\n## Appearance\n${filler(10)}\n### Font size\nChange the font size with the slider.\n`,
    'Apart.md': `# Log\nThe release went out. ${filler(8)} Later a note about the pipeline.\n`,
    'Together.md': `# Log two\n${filler(8)} The release pipeline failed twice.\n`,
  });
  const engine = engineFor(t, vault).open();
  const font = engine.search({ query: 'font size', explain: true }).results;
  assert.equal(font[0]!.path, 'Focused.md');
  assert.equal(font[0]!.section, 'Settings > Appearance > Font size', 'the excerpt is the passage that earned the score');
  assert.equal(font[0]!.excerpt, 'Change the font size with the slider.');
  const pipeline = engine.search({ query: 'release pipeline', explain: true }).results;
  assert.equal(pipeline[0]!.path, 'Together.md');
  const proximity = (path: string) => pipeline.find((hit) => hit.path === path)!.boosts!.find((boost) => boost.kind === 'passage') as { proximity: number };
  assert.ok(proximity('Together.md').proximity > proximity('Apart.md').proximity);
});

test('a word no note contains, and not a misspelling, is named in a notice so the agent can reword', (t) => {
  const vault = makeVault(t, FILES);
  const engine = engineFor(t, vault).open();
  const partly = engine.search({ query: 'Tantivy with zzyzx and qwxv' });
  assert.equal(partly.results[0]!.path, 'Claude/Sessions/2026-03-12 Review.md');
  // `with` and `and` are stop words: never worth a mention.
  assert.deepEqual(partly.notices, ['no note contains "zzyzx", "qwxv", so the search went on without them; the vault may use other words (try alternatives)']);
  const none = engine.search({ query: 'zzyzx' });
  assert.deepEqual(none.results, []);
  assert.deepEqual(none.notices, ['no note contains "zzyzx"; the vault may use other words (try alternatives)']);
});

test('a misspelt word is searched as the nearest indexed word, saying so; known words are never corrected', (t) => {
  const vault = makeVault(t, FILES);
  const engine = engineFor(t, vault).open();
  const typo = engine.search({ query: 'Tantivy cutovr', explain: true });
  assert.equal(typo.results[0]!.path, 'Claude/Sessions/2026-03-12 Review.md');
  assert.deepEqual(typo.analysis!.corrected, [{ word: 'cutovr', from: 'cutovr', to: 'cutov' }]);
  assert.deepEqual(typo.notices, ['no note contains "cutovr"; searched the nearest indexed word ("cutov") instead']);
  assert.ok(typo.analysis!.terms.includes('cutov'));
  // Only the misspelt word: without the correction nothing would match.
  assert.equal(engine.search({ query: 'Tantivvy' }).results[0]!.path, 'Claude/Sessions/2026-03-12 Review.md');
  const spelled = engine.search({ query: 'Tantivy cutover', explain: true });
  assert.deepEqual(spelled.analysis!.corrected, []);
  assert.deepEqual(spelled.notices, []);
  assert.deepEqual(engine.search({ query: 'zzqx wxyzzy' }).results, [], 'nothing near: no results, no guess');
});

test('a slip that moves the stem is read as the word one edit away that the notes write, saying so', (t) => {
  const vault = makeVault(t, {
    'Help/Attachments.md': '# Attachments\n\nChange where new attachments are saved: Settings → Files and links.\n',
    'Help/Sync.md': '# Sync\n\nSync keeps notes the same on every device. Change the sync settings there.\n',
    'Help/Themes.md': '# Themes\n\nThemes change how notes look.\n',
    'Help/Pages.md': '# Pages\n\nPaging through long pages.\n',
    'Help/Hotkeys.md': '# Hotkeys\n\nA hotkey runs a command.\n',
    'Help/Graph.md': '# Graph view\n\nThe graph shows links between notes.\n',
  });
  const engine = engineFor(t, vault).open();
  // `chnage` stems to itself, two edits from `chang`; `attachmnets` to `attachmnet`, far from `attach`.
  const typo = engine.search({ query: 'chnage where new attachmnets are saved', explain: true });
  assert.equal(typo.results[0]!.path, 'Help/Attachments.md');
  assert.deepEqual(typo.analysis!.corrected, [
    { word: 'chnage', from: 'chnage', to: 'chang', spelled: 'change' },
    { word: 'attachmnets', from: 'attachmnet', to: 'attach', spelled: 'attachments' },
  ]);
  assert.deepEqual(typo.notices, ['no note contains "chnage"; searched "change" instead, a word the vault uses one typo away', 'no note contains "attachmnets"; searched "attachments" instead, a word the vault uses one typo away']);
  // `paginas` is one letter from `pagings`, which stems to `page`; no note writes `pagings`.
  assert.deepEqual(engine.search({ query: 'paginas', explain: true }).analysis!.corrected, []);
});

test('an engine opened after a change carries the written words on: it reads only the notes changed since, and forgets what no note writes', (t) => {
  const vault = makeVault(t, {
    'Help/Attachments.md': '# Attachments\n\nChange where new attachments are saved: Settings → Files and links.\n',
    'Help/Sync.md': '# Sync\n\nSync keeps notes the same on every device. Change the sync settings there. Attach a file to any note.\n',
    'Help/Themes.md': '# Themes\n\nThemes change how notes look.\n',
    'Help/Pages.md': '# Pages\n\nPaging through long pages.\n',
    'Help/Graph.md': '# Graph view\n\nThe graph shows links between notes.\n',
  });
  const { db, root, index } = indexState(t, vault);
  const written = new WrittenWords();
  const first = VaultSearch.open(db, root, { written });
  assert.equal(written.notesRead, 0, 'nothing is read before a misspelt word needs it');
  assert.deepEqual(first.search({ query: 'attachmnets', explain: true }).analysis!.corrected, [{ word: 'attachmnets', from: 'attachmnet', to: 'attach', spelled: 'attachments' }]);
  assert.equal(written.notesRead, 5);
  vault.write('Help/Hotkeys.md', '# Hotkeys\n\nCustomise a hotkey for any command.\n');
  vault.write('Help/Attachments.md', '# Files\n\nChange where new files are kept: Settings → Files and links.\n');
  utimesSync(join(vault.root, 'Help/Themes.md'), new Date('2026-06-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z'));
  index();
  const second = VaultSearch.open(db, root, { written });
  // No note writes "attachments" now (Sync.md still writes `attach`): a fresh read would not offer it, so neither may the carried list.
  assert.deepEqual(second.search({ query: 'attachmnets', explain: true }).analysis!.corrected, []);
  assert.equal(written.notesRead, 7, 'the new note and the changed one; not the one only touched, nor the other three');
  assert.equal(written.spellingOf('customise'), 'customise', "the new note's words are in the list");
  VaultSearch.open(db, root, { written }).search({ query: 'chnage attachmnets' });
  assert.equal(written.notesRead, 7, 'nothing changed: nothing read');
  vault.remove('Help/Hotkeys.md');
  index();
  VaultSearch.open(db, root, { written }).search({ query: 'chnage attachmnets' });
  assert.equal(written.spellingOf('customise'), undefined, "a deleted note's words go with it");
  assert.equal(written.notesRead, 7);
});

test("a misspelt word is read as a term found beside the query's other words, not the commoner one elsewhere", (t) => {
  const vault = makeVault(t, {
    'Travel/China.md': '# China\n\nTwo weeks in China: Beijing, then Xian. China by train.\n',
    'Travel/Trip budget.md': '# Trip budget\n\nFlights to China and hotels.\n',
    'Bike/Maintenance.md': '# Bike maintenance\n\nReplaced the bike chain after 3000 km.\n',
    'Notes/Reading.md': '# Reading\n\nA novel a month.\n',
    'Notes/Garden.md': '# Garden\n\nTomatoes and basil.\n',
  });
  const engine = engineFor(t, vault).open();
  const typo = engine.search({ query: 'bike chian', explain: true });
  assert.deepEqual(typo.analysis!.corrected, [{ word: 'chian', from: 'chian', to: 'chain' }]);
  assert.equal(typo.results[0]!.path, 'Bike/Maintenance.md');
  // Alone, the word has no context: the commonest of the nearest terms, as before.
  assert.deepEqual(engine.search({ query: 'chian', explain: true }).analysis!.corrected, [{ word: 'chian', from: 'chian', to: 'china' }]);
  // Under a filter, only a term some note inside it holds: `china` is in no Bike note.
  assert.deepEqual(engine.search({ query: 'chian', explain: true, filters: { folders: ['Bike'] } }).analysis!.corrected, [{ word: 'chian', from: 'chian', to: 'chain' }]);
  const outside = engine.search({ query: 'chian', explain: true, filters: { folders: ['Notes'] } });
  assert.deepEqual(outside.analysis!.corrected, [], 'no near term inside the filter: no guess');
  assert.ok(!outside.notices.some((notice) => /nearest indexed word/.test(notice)), outside.notices.join(' | '));
  assert.deepEqual(
    engine.search({ query: 'china chian', explain: true, filters: { folders: ['Bike'] } }).analysis!.corrected,
    [{ word: 'chian', from: 'chian', to: 'chain' }],
    'the context is read inside the filter: china is not there, so no context, only a note inside to hold the term',
  );
  assert.deepEqual(engine.search({ query: 'train chian', explain: true }).analysis!.corrected, [{ word: 'chian', from: 'chian', to: 'china' }], 'no filter: beside train');
});

test("a list of links points to its notes: the note it describes ranks above the list's own note", (t) => {
  const vault = makeVault(t, {
    'Publish/Introduction to Publish.md':
      '# Introduction to Publish\n\nPublish your notes as a website.\n\n## How to use Publish\n\n- [[Custom domains]]\n\t- Set up Publish with your own domain.\n- [[Analytics]]\n\t- Track the visits to your Publish site.\n- [[Permalinks]]\n\t- Permanent addresses for the pages of your site.\n',
    'Publish/Custom domains.md':
      '# Custom domains\n\nBy default your Publish site lives under publish.obsidian.md. You can serve it from your own domain instead.\n\n## Set up a domain\n\nAdd a CNAME record for the domain with your DNS provider. It can take a day for the change to reach everyone.\n\n## Use a proxy\n\nServe the site under a path of a website you already host.\n',
    'Publish/Analytics.md': '# Analytics\n\nSee how many people visit your site. Needs a custom domain.\n',
    'Publish/Permalinks.md': '# Permalinks\n\nAddresses that stay when a note moves.\n',
    'Sync/Sync.md': '# Sync\n\nYour notes on every device, end to end encrypted.\n',
  });
  const engine = engineFor(t, vault).open();
  const paths = engine.search({ query: 'use my own domain for my Publish site', mode: 'keyword' }).results.map((hit) => hit.path);
  assert.deepEqual(paths.slice(0, 2), ['Publish/Custom domains.md', 'Publish/Introduction to Publish.md']);
});
