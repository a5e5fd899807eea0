/**
 * Call sites a reader understands without the signature: no bare `true` / `false` passed to a
 * positional boolean parameter of a function in src/ (`commit(by, path, next, false, bytes)` said
 * nothing; `{ exact: bytes }` does), and no module exporting a constant named just `DEFAULTS`
 * (21 did, imported under aliases that said what they configure). Both checkers also run on a
 * bad example, to prove they can fail.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const REPO = join(import.meta.dirname, '../..');
const SRC = join(REPO, 'src');

const isBooleanParameter = (parameter: ts.ParameterDeclaration): boolean =>
  parameter.dotDotDotToken === undefined && (parameter.type?.kind === ts.SyntaxKind.BooleanKeyword || parameter.initializer?.kind === ts.SyntaxKind.TrueKeyword || parameter.initializer?.kind === ts.SyntaxKind.FalseKeyword);

/** Every call in `program` that passes a bare boolean literal to a positional boolean parameter of a function declared under `owned`. */
function bareBooleanCalls(program: ts.Program, owned: string, base: string): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || source.fileName.includes('/node_modules/')) continue;
    const visit = (node: ts.Node): void => {
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments?.some((arg) => arg.kind === ts.SyntaxKind.TrueKeyword || arg.kind === ts.SyntaxKind.FalseKeyword)) {
        const declaration = checker.getResolvedSignature(node)?.declaration;
        if (declaration && !ts.isJSDocSignature(declaration) && declaration.getSourceFile().fileName.startsWith(owned)) {
          node.arguments.forEach((arg, i) => {
            const parameter = declaration.parameters[i];
            if ((arg.kind === ts.SyntaxKind.TrueKeyword || arg.kind === ts.SyntaxKind.FalseKeyword) && parameter && isBooleanParameter(parameter)) {
              const line = source.getLineAndCharacterOfPosition(arg.getStart()).line + 1;
              found.push(`${relative(base, source.fileName)}:${line} ${node.expression.getText()}(…) passes a bare ${arg.getText()} as "${parameter.name.getText()}"; take { ${parameter.name.getText()} } instead`);
            }
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Exports named exactly `DEFAULTS` in a source file (declared or re-exported). */
function defaultsExports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const exported = ts.isVariableStatement(node) && node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (exported) for (const declaration of node.declarationList.declarations) if (declaration.name.getText() === 'DEFAULTS') found.push(file);
    if (ts.isExportSpecifier(node) && node.name.getText() === 'DEFAULTS') found.push(file);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function programOf(files: string[]): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(join(REPO, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config, 'tsconfig.json parses');
  return ts.createProgram(files, config.options);
}

test('no function in src/ is called with a bare true/false for a positional boolean parameter (name it: { full: true })', () => {
  const config = ts.getParsedCommandLineOfConfigFile(join(REPO, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config && config.fileNames.length > 100, 'the sources are there');
  assert.deepEqual(bareBooleanCalls(programOf(config.fileNames), `${SRC}/`, REPO), []);
});

test('the bare-boolean checker finds a positional boolean called with a literal, and passes a named one', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-names-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'lib.ts'), 'export function plan(keys: string[], full = false): string[] { return full ? keys : []; }\nexport function named(keys: string[], { full = false } = {}): string[] { return full ? keys : []; }\n');
  writeFileSync(join(dir, 'use.ts'), "import { named, plan } from './lib.js';\nconst full = true;\nplan([], true);\nplan([], full);\nnamed([], { full: true });\n");
  const found = bareBooleanCalls(programOf([join(dir, 'lib.ts'), join(dir, 'use.ts')]), dir, dir);
  assert.deepEqual(found, ['use.ts:3 plan(…) passes a bare true as "full"; take { full } instead']);
});

test('no module exports a constant named just DEFAULTS (name it after what it configures: LOCK_DEFAULTS)', () => {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  assert.ok(files.length > 100, 'the sources are there');
  assert.deepEqual(
    files.flatMap((file) => defaultsExports(file, readFileSync(join(SRC, file), 'utf8'))),
    [],
  );
  assert.deepEqual(defaultsExports('bad.ts', 'export const DEFAULTS = { staleMs: 1 };'), ['bad.ts']);
  assert.deepEqual(defaultsExports('bad.ts', "export { DEFAULTS, other } from './x.js';"), ['bad.ts']);
  assert.deepEqual(defaultsExports('good.ts', "const DEFAULTS = 1;\nexport const LOCK_DEFAULTS = { staleMs: 1 };\nexport { LOCK_DEFAULTS as X } from './x.js';"), []);
});
