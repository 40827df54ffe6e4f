// Functions small enough to hold in one's head: in harness/, reference-shim/ and common/, no function runs over
// 80 lines (a nested closure counts in the function that holds it), none takes more than 4 positional
// parameters (more become an options object), and no file runs over 400 lines. Measured with the TypeScript
// parser on the real sources.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, sourceFiles } from '../helpers/import-graph.js';

const MAX_FUNCTION_LINES = 80;
const MAX_POSITIONAL_PARAMETERS = 4;
const MAX_FILE_LINES = 400;
const SOURCES = ['common/**/*.ts', 'harness/**/*.ts', 'reference-shim/**/*.ts'];

interface FunctionSize {
  where: string;
  lines: number;
  parameters: number;
}

/** The outermost functions of a source text (declarations, methods, function expressions and arrows). */
function outermostFunctions(fileName: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: FunctionSize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({
        where: `${fileName}:${start + 1} ${nameOf(node)}`,
        lines: end - start + 1,
        parameters: node.parameters.length,
      });
      return; // nested closures count in this one
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

const files = sourceFiles(SOURCES).filter((file) => !file.startsWith('generated/'));
const measured = files.flatMap((file) =>
  outermostFunctions(file, readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8')),
);

describe('function and file sizes', () => {
  it('measures nested closures in their parent, and counts positional parameters', () => {
    const text = [
      'export function outer(a: number, b: number, c: number, d: number, e: number) {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner();',
      '}',
      'class K { method(x: string) { return x; } }',
    ].join('\n');
    expect(outermostFunctions('x.ts', text)).toEqual([
      { where: 'x.ts:1 outer', lines: 6, parameters: 5 },
      { where: 'x.ts:7 method', lines: 1, parameters: 1 },
    ]);
  });

  it(`no function in harness/, reference-shim/ or common/ runs over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(measured.length).toBeGreaterThan(500);
    const long = measured.filter((fn) => fn.lines > MAX_FUNCTION_LINES).map((fn) => `${fn.where}: ${fn.lines} lines`);
    expect(long).toEqual([]);
  });

  it(`no function takes more than ${MAX_POSITIONAL_PARAMETERS} positional parameters`, () => {
    const wide = measured
      .filter((fn) => fn.parameters > MAX_POSITIONAL_PARAMETERS)
      .map((fn) => `${fn.where}: ${fn.parameters} parameters`);
    expect(wide).toEqual([]);
  });

  it(`no file runs over ${MAX_FILE_LINES} lines`, () => {
    const big = files
      .map((file) => ({ file, lines: readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8').split('\n').length }))
      .filter((entry) => entry.lines > MAX_FILE_LINES)
      .map((entry) => `${entry.file}: ${entry.lines} lines`);
    expect(big).toEqual([]);
  });
});
