/**
 * Every shipped SKILL.md is a valid Claude Code skill written for the tools the server really
 * registers: frontmatter name and description, a Tools section naming registered tools only, and
 * no backticked tool-like name that the server does not know.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPO } from '../helpers/cli.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

const SKILLS = join(REPO, 'skills');
const REQUIRED = ['recall', 'digest', 'resume', 'connections', 'clip', 'distill', 'decide', 'rounds', 'dossier'];

test('every SKILL.md: frontmatter, procedure, output, and only tools the server registers', async (t) => {
  const { client, call } = await connectFixture(t, MCP_VAULT);
  const { tools } = await client.listTools();
  const toolNames = new Set(tools.map((tool) => tool.name));
  // Words a skill may legitimately backtick: tool parameters and recall_bundle's section names.
  const parameters = new Set(tools.flatMap((tool) => Object.keys((tool.inputSchema as { properties?: object }).properties ?? {})));
  const recall = (await call('recall_bundle', { mode: 'digest' })).structuredContent as { sections: Record<string, unknown> };
  const sections = new Set(Object.keys(recall.sections));
  const names = readdirSync(SKILLS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  assert.deepEqual(names, [...REQUIRED].sort());
  for (const name of names) {
    const text = readFileSync(join(SKILLS, name, 'SKILL.md'), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    assert.ok(match, `${name}: YAML frontmatter between --- lines`);
    const front = parse(match[1]!) as { name?: unknown; description?: unknown };
    assert.equal(front.name, name, `${name}: frontmatter name is the folder name`);
    assert.equal(typeof front.description, 'string');
    const description = front.description as string;
    assert.ok(description.length >= 80 && description.length <= 1024, `${name}: a description of 80–1024 characters`);
    assert.match(description, /Use when/, `${name}: the description says when to use it`);
    const body = match[2]!;
    assert.match(body, /^## Procedure$/m, `${name}: a procedure`);
    const toolsSection = /^## Tools\n\n([^\n]+)/m.exec(body);
    assert.ok(toolsSection, `${name}: a Tools section`);
    const listed = [...toolsSection[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    assert.ok(listed.length > 0, `${name}: names at least one tool`);
    for (const tool of listed) assert.ok(toolNames.has(tool), `${name}: lists "${tool}", which the server does not register`);
    for (const [, word] of body.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)) {
      assert.ok(toolNames.has(word!) || parameters.has(word!) || sections.has(word!), `${name}: \`${word}\` is neither a tool, a tool parameter nor a recall_bundle section`);
      if (toolNames.has(word!)) assert.ok(listed.includes(word!), `${name}: calls \`${word}\` but does not list it under Tools`);
    }
  }
});
