/**
 * The code's shape: each MCP tool a small named definition in its family's file, registered
 * from one table, and no long function anywhere in src/ (a tool inlined into a registration
 * function had made one of 218 lines; the sweep one of 230).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const MCP = join(import.meta.dirname, '../../src/mcp');

/** Every function in a source file with its length in lines. */
function functionLengths(file: string, text: string): { name: string; lines: number; returns: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number; returns: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText() ?? (ts.isPropertyAssignment(node.parent) ? node.parent.name.getText() : 'an anonymous function');
      found.push({ name: `${file}:${first + 1} ${name}`, lines: last - first + 1, returns: node.type?.getText() ?? '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sources = readdirSync(MCP, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(join(MCP, file), 'utf8') }));

test('no function in src/ is over 80 lines (long ones had shared mutable state between closures)', () => {
  const SRC = join(import.meta.dirname, '../../src');
  const all = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));
  assert.ok(sources.length > 10 && all.length > 100, 'the sources are there');
  const long = all.flatMap(({ file, text }) => functionLengths(file, text)).filter((fn) => fn.lines > 80);
  assert.deepEqual(
    long.map((fn) => `${fn.name}: ${fn.lines} lines`),
    [],
  );
});

test('each tool is its own definition of at most 60 lines, in a family file under src/mcp/tools/', () => {
  const definitions = sources
    .filter(({ file }) => file.startsWith('tools/') && file !== 'tools/define.ts')
    .flatMap(({ file, text }) => functionLengths(file, text))
    .filter((fn) => fn.returns === 'Tool');
  assert.equal(definitions.length, 27, `one definition per tool: ${definitions.map((fn) => fn.name).join(', ')}`);
  assert.deepEqual(
    definitions.filter((fn) => fn.lines > 60).map((fn) => `${fn.name}: ${fn.lines} lines`),
    [],
  );
  for (const { file, text } of sources.filter(({ file }) => !file.startsWith('tools/'))) {
    assert.doesNotMatch(text, /registerTool\('/, `${file} registers a tool inline; define it in its family's file under src/mcp/tools/`);
  }
});
