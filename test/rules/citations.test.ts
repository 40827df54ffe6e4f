// Code, comments and docs cite only what a reader of this repository can open: sections of docs/protocol.md
// (R-numbers), files in the repository, public URLs. Not the notes the project was built from, nor issue numbers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const FOLDERS = [
  'harness',
  'reference-shim',
  'shared',
  'scripts',
  'ci',
  'docs',
  'schemas',
  'transcripts',
  'test',
  'bench',
];
const TEXT = /\.(ts|mts|mjs|cjs|js|md|json|jsonc|ya?ml|sh)$/;
/** Recorded output of real programs and generated files are not our words. */
const SKIP = [/^test\/fixtures\/streams\//, /^test\/official-cli\/pinned\//, /^harness\/official-cli\/pinned\//];
/** The files that spell out the forbidden forms as data, to test them. */
const SELF = new Set(['test/rules/citations.test.ts', 'test/rules/sources.test.ts']);

const FORBIDDEN: [RegExp, string][] = [
  [/\.\.\/shared\//, 'a path outside the repository'],
  [/\blibs\.md\b/, 'a note outside the repository'],
  [/peer-yume-cli/, 'a note outside the repository'],
  [
    /\b(PROTOCOL_NORMALIZATION|YUME_CLI_SPEC|SHIM_ARCHITECTURE)/,
    'a design note outside the repository (cite docs/protocol.md)',
  ],
  [/\b(yume-app-contract|provider-wire)(\.md)?\s*§/, 'a reference note outside the repository (cite docs/protocol.md)'],
  [/\b[Ii]ssue\s+#?\d+/, 'an issue number'],
  [/\(#\d+\)/, 'an issue number'],
];

function files(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(path.join(root, dir));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (name === 'node_modules' || SKIP.some((pattern) => pattern.test(relative))) return [];
    if (statSync(path.join(root, relative)).isDirectory()) return files(relative);
    return TEXT.test(name) ? [relative] : [];
  });
}

describe('citations', () => {
  it('code, comments and docs cite nothing a reader of the repository cannot open', () => {
    const checked = [...FOLDERS.flatMap(files), 'README.md'].filter((file) => !SELF.has(file));
    expect(checked.length).toBeGreaterThan(200);
    const problems: string[] = [];
    for (const file of checked) {
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [pattern, what] of FORBIDDEN) {
            const match = pattern.exec(line);
            if (match) problems.push(`${file}:${index + 1}: "${match[0]}" is ${what}`);
          }
        });
    }
    expect(problems).toEqual([]);
  });
});
