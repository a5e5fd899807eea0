/**
 * The docs stay true to the code and render: the generated CLI and MCP tool references match the
 * commands' definitions and the registered schemas, README.md stays short, no table is broken
 * by a blank line, every relative link (and its #anchor) lands, every ENGRAM_* variable the code
 * reads is in the configuration table, and nothing points to documents outside the repository.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { CLI_DOC, fillGenerated, generatedDocs, REPO, TOOLS_DOC } from '../scripts/gen-docs.js';

const README_LIMIT = 15 * 1024;

const DECISIONS = 'docs/decisions';

function markdownIn(dir: string): string[] {
  return readdirSync(join(REPO, dir))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `${dir}/${name}`);
}

function markdownFiles(): string[] {
  return ['README.md', 'ARCHITECTURE.md', ...markdownIn('docs'), ...markdownIn(DECISIONS)];
}

/** The lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: string; number: number }[] {
  const out: { line: string; number: number }[] = [];
  let fence = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    else if (!fence) out.push({ line, number: index + 1 });
  });
  return out;
}

/** Table rows that would render as a paragraph: a run of `|` lines that does not start with a header and its `|---|` separator. */
export function brokenTableRows(text: string): number[] {
  const broken: number[] = [];
  const lines = proseLines(text);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.line.startsWith('|')) continue;
    const startsRun = i === 0 || !lines[i - 1]!.line.startsWith('|') || lines[i - 1]!.number !== lines[i]!.number - 1;
    if (!startsRun) continue;
    const next = lines[i + 1];
    const separated = next !== undefined && next.number === lines[i]!.number + 1 && /^\|\s*:?-{3,}/.test(next.line);
    if (!separated) broken.push(lines[i]!.number);
  }
  return broken;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

/** Relative links (outside code) whose file or #anchor does not exist, as `target (line N)`. */
export function deadLinks(file: string, text: string, read: (path: string) => string | null): string[] {
  const dead: string[] = [];
  for (const { line, number } of proseLines(text)) {
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      const content = read(resolved);
      if (content === null) dead.push(`${target} (line ${number}: no file ${resolved})`);
      else if (anchor && resolved.endsWith('.md') && !anchors(content).has(anchor)) dead.push(`${target} (line ${number}: no heading #${anchor})`);
    }
  }
  return dead;
}

function readRepoFile(path: string): string | null {
  const abs = join(REPO, path);
  if (!existsSync(abs)) return null;
  return statSync(abs).isDirectory() ? '' : readFileSync(abs, 'utf8');
}

test('the generated CLI and MCP tool references are current (npm run docs:gen)', async () => {
  for (const [path, text] of await generatedDocs()) {
    assert.equal(readFileSync(join(REPO, path), 'utf8'), text, `${path} is stale: run \`npm run docs:gen\``);
  }
  const cli = readFileSync(join(REPO, CLI_DOC), 'utf8');
  assert.match(cli, /<!-- generated:cli:search -->\n`engram search QUERY \[options\]`/);
  assert.match(readFileSync(join(REPO, TOOLS_DOC), 'utf8'), /<!-- generated:tool:search_brain -->\n[\s\S]*\| `query` \| string \| yes \|/);
});

test('the generator rewrites stale parts, adds missing sections and refuses orphaned ones', () => {
  const bodies = new Map([
    ['cli:a', { heading: '## a', body: 'new a' }],
    ['cli:b', { heading: '## b', body: 'new b' }],
  ]);
  const filled = fillGenerated('# Doc\n\nprose\n\n<!-- generated:cli:a -->\nold a\n<!-- /generated:cli:a -->\n\nmore prose\n', bodies);
  assert.equal(filled, '# Doc\n\nprose\n\n<!-- generated:cli:a -->\nnew a\n<!-- /generated:cli:a -->\n\nmore prose\n\n## b\n\n<!-- generated:cli:b -->\nnew b\n<!-- /generated:cli:b -->\n');
  assert.throws(() => fillGenerated('<!-- generated:cli:gone -->\nx\n<!-- /generated:cli:gone -->\n', bodies), /cli:gone/);
});

test(`README.md is at most ${README_LIMIT} bytes`, () => {
  const size = statSync(join(REPO, 'README.md')).size;
  assert.ok(size <= README_LIMIT, `README.md is ${size} bytes; move reference material into docs/`);
});

test('no table in README.md, ARCHITECTURE.md or docs/ is broken by a blank line', () => {
  for (const file of markdownFiles()) {
    assert.deepEqual(brokenTableRows(readFileSync(join(REPO, file), 'utf8')), [], `${file}: table rows without a header (a blank line inside a table?)`);
  }
  assert.deepEqual(brokenTableRows('| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n'), [5]);
  assert.deepEqual(brokenTableRows('```\n| not | a table |\n```\n| a |\n|---|\n'), []);
});

test('every relative link in README.md, ARCHITECTURE.md and docs/ lands on a file and heading', () => {
  for (const file of markdownFiles()) {
    assert.deepEqual(deadLinks(file, readFileSync(join(REPO, file), 'utf8'), readRepoFile), [], file);
  }
  const fake = (path: string) => (path === 'docs/cli.md' ? '## `engram index`\n' : null);
  assert.deepEqual(deadLinks('README.md', '[a](docs/cli.md#engram-index) [b](docs/cli.md#nope) [c](docs/gone.md) `[d](x.md)` [e](https://x.org)', fake), [
    'docs/cli.md#nope (line 1: no heading #nope)',
    'docs/gone.md (line 1: no file docs/gone.md)',
  ]);
});

test('every ENGRAM_* variable the code reads has its own row in the configuration table', () => {
  const sources: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.ts')) sources.push(readFileSync(join(dir, entry.name), 'utf8'));
    }
  };
  walk(join(REPO, 'src'));
  const variables = new Set(sources.flatMap((text) => [...text.matchAll(/\bENGRAM_[A-Z0-9_]+\b/g)].map((match) => match[0])));
  assert.ok(variables.size > 10, 'found the variables');
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const rows = new Set([...section.matchAll(/^\| `(ENGRAM_[A-Z0-9_]+)` \|/gm)].map((match) => match[1]));
  assert.deepEqual([...variables].filter((name) => !rows.has(name)).sort(), []);
});

test('the documents stand alone: no pointer to design documents outside the repository', () => {
  for (const file of markdownFiles()) {
    const text = readFileSync(join(REPO, file), 'utf8');
    for (const pattern of [/DESIGN\.md/, /\.\.\/shared/, /\bthe (research )?brief\b/i, /\bPRODUCT(\.md)?\b/]) {
      assert.doesNotMatch(text, pattern, `${relative(REPO, join(REPO, file))} mentions ${pattern}`);
    }
  }
});

test('every decision record is numbered, dated, complete and listed in ARCHITECTURE.md', () => {
  const records = markdownIn(DECISIONS);
  assert.ok(records.length >= 10, 'found the decision records');
  const index = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');
  records.forEach((file, position) => {
    const text = readFileSync(join(REPO, file), 'utf8');
    const number = String(position + 1).padStart(3, '0');
    assert.match(file, new RegExp(`^${DECISIONS}/${number}-[a-z0-9-]+\\.md$`), `${file}: records are numbered 001, 002, … without gaps`);
    assert.match(text, new RegExp(`^# ${number} — \\S`), `${file}: the title starts with its number`);
    assert.match(text, /^- \*\*Date:\*\* 20\d\d-\d\d-\d\d/m, `${file}: a date line (the day the decision was made)`);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
    const measured = sections.includes('Measurement') || sections.includes('Options weighed and measured');
    assert.ok(measured && sections.some((title) => title.startsWith('Options weighed')), `${file}: options weighed and their measurement`);
    for (const section of ['Context', 'Decision', 'Consequences']) assert.ok(sections.includes(section), `${file}: no "## ${section}" section`);
    assert.ok(index.includes(`](${file})`), `${file} is not in ARCHITECTURE.md's decision index`);
  });
});
