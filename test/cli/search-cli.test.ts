import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, spawnCli } from '../helpers/cli.js';
import { makeVault } from '../helpers/vault.js';

/** The paths of a `--json` search's results, in order. */
const pathsIn = (result: { stdout: string }): string[] => (JSON.parse(result.stdout) as { results: { path: string }[] }).results.map((hit) => hit.path);

const VAULT = {
  'Atlas.md': '---\ntags: [project/atlas]\n---\n# Atlas\nSearch migration to Tantivy.\n',
  'Notes/Other.md': '# Other\nTantivy is mentioned here too, Tantivy Tantivy.\n',
};

test('engram search prints JSON in the documented shape (real process, indexes first)', (t) => {
  const vault = makeVault(t, VAULT);
  const result = spawnCli(['search', 'tantivy migration', '--json', '--limit', '5'], { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root });
  assert.equal(result.code, 0, result.stderr);
  const response = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(response).sort(), ['mode', 'mode_reason', 'notices', 'query', 'results', 'total_matches']);
  const hit = response.results[0];
  assert.deepEqual(Object.keys(hit).sort(), ['excerpt', 'lanes', 'lines', 'modified', 'path', 'score', 'section', 'tags', 'title']);
  assert.equal(hit.path, 'Atlas.md');
  assert.deepEqual(hit.lines, [4, 6]);
  assert.equal(hit.lanes.keyword.rank, 1);
});

test('engram search: filters, explain, text output, and usage errors', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const folder = await runCli(['search', 'tantivy', '--folder', 'notes', '--json'], env);
  assert.deepEqual(
    JSON.parse(folder.stdout).results.map((r: { path: string }) => r.path),
    ['Notes/Other.md'],
  );
  const tag = await runCli(['search', 'tantivy', '--tag', 'project', '--json'], env);
  const tagged = JSON.parse(tag.stdout);
  assert.deepEqual(
    tagged.results.map((r: { path: string }) => r.path),
    ['Atlas.md'],
  );
  assert.ok(tagged.scoped_out, 'the better-scoring untagged note is reported');
  const text = await runCli(['search', 'tantivy', '--explain'], env);
  assert.match(text.stdout, /^1\. Notes\/Other\.md/m);
  assert.match(text.stdout, /tantivi: tf \d/);
  assert.match(text.stdout, /^query terms: tantivi \(tantivy\)$/m, 'a stem shown with the word it came from');
  assert.match(text.stdout, /mode: keyword/);
  for (const [argv, message] of [
    [['search'], /no query given/],
    [['search', 'x', '--limit', '0'], /--limit must be a whole number from 1 to 100, not "0"/],
    [['search', 'x', '--limit', '1000000'], /--limit must be a whole number from 1 to 100/],
    [['search', 'x', '--mode', 'fuzzy'], /--mode must be hybrid, keyword or semantic/],
    [['search', 'x', '--modified-after', 'yesterday'], /--modified-after must be a date/],
    [['search', 'x', '--today', '2026-02-30'], /--today must be a calendar day like 2026-03-14, not "2026-02-30"/],
    [['search', 'x', '--today', 'yesterday'], /--today must be a calendar day/],
    [['search', 'x', 'y'], /unexpected argument "y"/],
  ] as [string[], RegExp][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, argv.join(' '));
    assert.match(result.stderr, message);
  }
  // A relative date, read against --today: the note mentioning that day, with the notice.
  const relative = await runCli(['search', 'tantivy last week', '--today', '2026-12-02', '--json'], env);
  assert.equal(relative.code, 0, relative.stderr);
  assert.deepEqual(JSON.parse(relative.stdout).notices, [
    'read "last week" as 2026-11-23 to 2026-11-29; no note is dated then or mentions a day of it, so its words were searched as words',
    'no note contains "last", "week", so the search went on without them; the vault may use other words (try alternatives)',
  ]);
  const semantic = await runCli(['search', 'x', '--mode', 'semantic'], env);
  assert.equal(semantic.code, 1);
  assert.match(semantic.stderr, /semantic search is not possible: no note has a TaylorAI\/bge-micro-v2 vector yet/);
});

test('engram search --also fuses other wordings and says which found each note', async (t) => {
  const vault = makeVault(t, { ...VAULT, 'Cooking.md': '# Cooking\nSmoked paprika.\n' });
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const result = await runCli(['search', 'tantivy', '--also', 'paprika', '--json'], env);
  assert.equal(result.code, 0, result.stderr);
  const hits = JSON.parse(result.stdout).results as { path: string; lanes: { wordings: { wording: number }[] } }[];
  assert.deepEqual(
    hits.find((hit) => hit.path === 'Cooking.md')?.lanes.wordings.map((w) => w.wording),
    [1],
  );
  const text = await runCli(['search', 'tantivy', '--also', 'paprika'], env);
  assert.match(text.stdout, /Cooking\.md .*found by --also 1/);
  const tooMany = await runCli(['search', 'x', '--also', 'a', '--also', 'b', '--also', 'c', '--also', 'd', '--also', 'e'], env);
  assert.equal(tooMany.code, 2, 'too many --also is bad usage');
  assert.equal(tooMany.stderr, 'engram: --also at most 4 times, not 5: keep the two or three wordings most unlike the query\n');
  const four = await runCli(['search', 'tantivy', '--also', 'a', '--also', 'b', '--also', 'c', '--also', 'paprika', '--json'], env);
  assert.equal(four.code, 0, four.stderr);
});

test('engram search --modified-after/--modified-before take a calendar date or an ISO date-time, nothing else', async (t) => {
  const vault = makeVault(t, VAULT);
  utimesSync(join(vault.root, 'Atlas.md'), new Date('2026-03-14T12:00:00Z'), new Date('2026-03-14T12:00:00Z'));
  utimesSync(join(vault.root, 'Notes/Other.md'), new Date('2026-03-16T12:00:00Z'), new Date('2026-03-16T12:00:00Z'));
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const paths = async (...options: string[]): Promise<string[]> => {
    const result = await runCli(['search', 'tantivy', '--json', ...options], env);
    assert.equal(result.code, 0, result.stderr);
    return (JSON.parse(result.stdout).results as { path: string }[]).map((hit) => hit.path).sort();
  };
  assert.deepEqual(await paths('--modified-before', '2026-03-14'), ['Atlas.md'], 'a bare upper date takes the whole day');
  assert.deepEqual(await paths('--modified-after', '2026-03-15'), ['Notes/Other.md']);
  assert.deepEqual(await paths('--modified-after', '2026-03-14T12:00:00Z', '--modified-before', '2026-03-14T12:00:00.000+00:00'), ['Atlas.md'], 'inclusive');
  assert.deepEqual(await paths('--modified-after', '2026-03-14T12:00:01Z'), ['Notes/Other.md']);
  assert.deepEqual(await paths('--modified-after', '2026-03-15 09:30'), ['Notes/Other.md'], 'a space between date and time, as frontmatter writes it');
  for (const [option, raw] of [
    ['--modified-after', '1'],
    ['--modified-after', 'March 5'],
    ['--modified-before', 'tomorrow 5'],
    ['--modified-before', '2026-03-14 noon'],
    ['--modified-after', '2026-03-14T25:00Z'],
  ]) {
    const result = await runCli(['search', 'tantivy', option!, raw!], env);
    assert.equal(result.code, 2, raw);
    assert.equal(result.stderr, `engram: ${option} must be a date like 2026-03-14 or an ISO date-time like 2026-03-14T09:30:00Z, not "${raw}"\n`);
  }
  const noSuchDay = await runCli(['search', 'tantivy', '--modified-after', '2026-02-30'], env);
  assert.equal(noSuchDay.code, 2, 'February 30 is not rolled over to March 2');
  assert.match(noSuchDay.stderr, /^engram: --modified-after must be a date .*, not "2026-02-30" \(there is no such day\)\n$/);
  const ls = await runCli(['ls', '--modified-after', '2025-02-29'], env);
  assert.equal(ls.code, 2, 'engram ls reads the same options');
});

test('engram search: a blank query is the same usage error as none; a query of operators still lists', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const none = await runCli(['search'], env);
  for (const argv of [
    ['search', ''],
    ['search', '   '],
    ['search', ' ', '--tag', 'project'],
  ]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, JSON.stringify(argv));
    assert.equal(result.stderr, none.stderr);
  }
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^engram: no query given: engram search "what you are looking for" \(to list notes by folder, tag or date: engram ls\)\n$/);
  const operators = await runCli(['search', 'tag:project', '--json'], env);
  assert.equal(operators.code, 0, operators.stderr);
  assert.deepEqual(pathsIn(operators), ['Atlas.md']);
});

test('engram search: a query starting with - says to put -- before it, and a value starting with - says to use =', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  for (const [argv, stderr] of [
    [['search', '-other tantivy'], 'engram: "-other tantivy" reads as an option; put -- before a query that starts with -: engram search -- "-other tantivy"\n'],
    [['search', '-other'], 'engram: "-other" reads as an option; put -- before a query that starts with -: engram search -- "-other"\n'],
    [['search', '-notes tantivy'], 'engram: "-notes tantivy" reads as an option; put -- before a query that starts with -: engram search -- "-notes tantivy"\n'],
    [['search', '-"atlas search" tantivy'], `engram: '-"atlas search" tantivy' reads as an option; put -- before a query that starts with -: engram search -- '-"atlas search" tantivy'\n`],
    [['search', '--min-score', '-1', 'tantivy'], 'engram: --min-score needs a value; a negative number is written --min-score=-1\n'],
    [['search', 'tantivy', '-n', '-3'], 'engram: -n needs a value; a negative number is written --limit=-3\n'],
    [['search', 'tantivy', '--folder', '--tag', 'project'], 'engram: --folder needs a value: --folder FOLDER\n'],
    [['search', 'tantivy', '--limit'], 'engram: --limit needs a value: --limit N\n'],
    [['search', '--', '-other tantivy', '-n', '1'], 'engram: unexpected argument "-n": after --, every argument is read as text, so put options before --; see `engram search --help`\n'],
    [['search', '--verbose'], "engram: Unknown option '--verbose'; see `engram search --help`\n"],
  ] as [string[], string][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, argv.join(' '));
    assert.equal(result.stderr, stderr);
  }
  // The advice works: after --, the query's -word leaves out the notes holding it.
  const dashed = spawnCli(['search', '--json', '--', '-other tantivy'], env);
  assert.equal(dashed.code, 0, dashed.stderr);
  assert.deepEqual(pathsIn(dashed), ['Atlas.md']);
  const negative = await runCli(['search', 'tantivy', '--min-score=-1', '--json'], env);
  assert.equal(negative.code, 0, negative.stderr);
  assert.equal(JSON.parse(negative.stdout).results.length, 2, 'no keyword score is below -1');
});

test('engram search: a pasted note that starts with --- gets the hint to put -- before it, shown by its start only', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const pasted = '---\ntitle: "Atlas — the search index migration"\ntags: [project/atlas]\n---\nTantivy replaces the old cluster.\n';
  for (const [argv, stderr] of [
    [['search', pasted], 'engram: "---\\ntitle: \\"Atlas — the search index mi…" reads as an option; put -- before a query that starts with -: engram search [options] -- QUERY\n'],
    [['search', '--mode', 'keyword', pasted.replace(/\n/g, ' ')], `engram: '--- title: "Atlas — the search index mi…' reads as an option; put -- before a query that starts with -: engram search [options] -- QUERY\n`],
    [['search', '---***'], 'engram: "---***" reads as an option; put -- before a query that starts with -: engram search -- "---***"\n'],
    [['search', '---'], 'engram: "---" reads as an option; put -- before a query that starts with -: engram search -- "---"\n'],
    [['search', '--atlas plan'], 'engram: "--atlas plan" reads as an option; put -- before a query that starts with -: engram search -- "--atlas plan"\n'],
    [['search', 'tantivy', `--${'verbose-'.repeat(8)}`], "engram: Unknown option '--verbose-verbose-verbose-verbose-verbo…'; see `engram search --help`\n"],
    [['search', 'tantivy', '--tag', `-${'pasted text '.repeat(8)}`], 'engram: --tag needs a value; a value that starts with - is written --tag="-pasted text pasted text pasted text pa…"\n'],
    [['search', 'tantivy', 'pasted text '.repeat(8)], 'engram: unexpected argument "pasted text pasted text pasted text pas…"; see `engram search --help`\n'],
  ] as [string[], string][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, argv.join(' '));
    assert.equal(result.stderr, stderr);
  }
  // The advice works: after --, the pasted note is the query.
  const dashed = await runCli(['search', '--json', '--', pasted], env);
  assert.equal(dashed.code, 0, dashed.stderr);
  assert.equal(JSON.parse(dashed.stdout).results[0].path, 'Atlas.md');
});

test('engram search --json: a failure is also one JSON object on stdout, {error, exit_code}, beside the line on stderr', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  for (const [argv, code] of [
    [['search', '', '--json'], 2],
    [['search', 'x', '--limit', '0', '--json'], 2],
    [['search', '--json', 'x', '--mode', 'fuzzy'], 2],
    [['search', 'x', '--modified-after', 'yesterday', '--json'], 2],
    [['search', 'x', '--today', '2026-02-30', '--json'], 2],
    [['search', '--json', '---***'], 2],
    [['search', 'x', '--json', '--verbose'], 2],
    [['search', 'x', '--json', '--tag', ''], 2],
    [['search', 'x', '--mode', 'semantic', '--json'], 1],
    [['search', 'x', '--json', '--vault', join(vault.root, 'missing')], 1],
  ] as [string[], number][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, code, argv.join(' '));
    const line = /^engram: (.*)\n$/.exec(result.stderr);
    assert.ok(line, `one line on stderr: ${result.stderr}`);
    assert.deepEqual(JSON.parse(result.stdout), { error: line[1], exit_code: code }, argv.join(' '));
    const plain = await runCli(
      argv.filter((arg) => arg !== '--json'),
      env,
    );
    assert.deepEqual([plain.code, plain.stdout, plain.stderr], [code, '', result.stderr], 'without --json: the same line, nothing on stdout');
  }
  const afterDashes = await runCli(['search', '--limit', '0', '--', '--json'], env);
  assert.equal(afterDashes.code, 2);
  assert.equal(afterDashes.stdout, '', 'after --, "--json" is the query, not the option');
  const real = spawnCli(['search', 'x', '--limit', '0', '--json'], env);
  assert.equal(real.code, 2);
  assert.deepEqual(JSON.parse(real.stdout), { error: '--limit must be a whole number from 1 to 100, not "0"', exit_code: 2 });
  assert.equal(real.stderr, 'engram: --limit must be a whole number from 1 to 100, not "0"\n');
});

test('engram search and ls refuse a filter option given an empty value, naming it and what to give', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  for (const [argv, stderr] of [
    [['search', 'tantivy', '--tag', ''], 'engram: --tag is empty: give a tag such as --tag project, or leave --tag out\n'],
    [['search', 'tantivy', '--tag', 'project', '--tag', '  '], 'engram: --tag is blank: give a tag such as --tag project, or leave --tag out\n'],
    [['search', 'tantivy', '--tag', '#'], 'engram: --tag "#" names no tag: give a tag such as --tag project, or leave --tag out\n'],
    [['search', 'tantivy', '--type', ''], 'engram: --type is empty: give a type such as --type meeting, or leave --type out\n'],
    [['search', 'tantivy', '--folder', ''], 'engram: --folder is empty: give a folder such as --folder Projects, or leave --folder out\n'],
    [['search', 'tantivy', '--folder', '/'], 'engram: --folder "/" names no folder: give a folder such as --folder Projects, or leave --folder out\n'],
    [['search', 'tantivy', '--exclude-folder', ''], 'engram: --exclude-folder is empty: give a folder such as --exclude-folder Archive, or leave --exclude-folder out\n'],
    [['ls', '--tag', ''], 'engram: --tag is empty: give a tag such as --tag project, or leave --tag out\n'],
    [['ls', '--folder', ' '], 'engram: --folder is blank: give a folder such as --folder Projects, or leave --folder out\n'],
    [['search', 'tantivy', '--min-score', ''], 'engram: --min-score must be a number, not ""\n'],
    [['search', 'tantivy', '--min-similarity', ' '], 'engram: --min-similarity must be a cosine similarity from -1 to 1, not " "\n'],
  ] as [string[], string][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, 2, JSON.stringify(argv));
    assert.equal(result.stderr, stderr);
  }
  const folder = await runCli(['search', 'tantivy', '--folder', './Notes/', '--json'], env);
  assert.equal(folder.code, 0, 'a folder written with ./ and / still names one');
  assert.deepEqual(pathsIn(folder), ['Notes/Other.md']);
});

test('--json before the command name counts as after it: the same results, and a failure as one JSON object', async (t) => {
  const vault = makeVault(t, VAULT);
  const env = { ENGRAM_HOME: vault.home, ENGRAM_VAULT: vault.root };
  const before = await runCli(['--json', 'search', 'tantivy', '--limit', '5'], env);
  const after = await runCli(['search', 'tantivy', '--limit', '5', '--json'], env);
  assert.equal(before.code, 0, before.stderr);
  assert.deepEqual(JSON.parse(before.stdout), JSON.parse(after.stdout));
  for (const [argv, code] of [
    [['--json', 'search', 'x', '--limit', '0'], 2],
    [['--json', 'search', '---***'], 2],
    [['--json', 'search', 'x', '--vault', join(vault.root, 'missing')], 1],
    [['--json', 'frobnicate'], 2],
    [['--json'], 2],
    [['--json', '--vault', vault.root, 'search', 'x'], 2],
  ] as [string[], number][]) {
    const result = await runCli(argv, env);
    assert.equal(result.code, code, argv.join(' '));
    const line = /^engram: (.*)\n$/.exec(result.stderr);
    assert.ok(line, `one line on stderr: ${result.stderr}`);
    assert.deepEqual(JSON.parse(result.stdout), { error: line[1], exit_code: code }, argv.join(' '));
  }
  // Only before `--` is it the option: after it, "--json" is text.
  const dashed = await runCli(['search', '--limit', '0', '--', '--json'], env);
  assert.deepEqual([dashed.code, dashed.stdout], [2, '']);
  const real = spawnCli(['--json', 'search', 'x', '--limit', '0'], env);
  assert.equal(real.code, 2);
  assert.deepEqual(JSON.parse(real.stdout), { error: '--limit must be a whole number from 1 to 100, not "0"', exit_code: 2 });
});
