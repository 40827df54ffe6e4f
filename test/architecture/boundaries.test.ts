// The boundaries docs/architecture.md states, checked on the import graph (test/helpers/import-graph.ts):
// no import circles; the reference shim imports only its own files, generated/, common/ and packages;
// common/ is a leaf; areas of the harness import each other's files (no barrels), and nothing imports the
// package entry harness/index.ts or test code.
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importCircles, importEdges, sourceFiles } from '../helpers/import-graph.js';

const SOURCES = ['common/**/*.ts', 'generated/**/*.ts', 'harness/**/*.ts', 'reference-shim/**/*.ts'];
const edges = importEdges(sourceFiles(SOURCES));
const BUILTINS = new Set(builtinModules);

/** Relative imports of files under `from` that leave the allowed folders. */
function importsOutside(from: string, allowed: readonly string[]): string[] {
  return edges
    .filter((edge) => edge.from.startsWith(from) && edge.to !== undefined)
    .filter((edge) => !allowed.some((folder) => edge.to!.startsWith(folder)))
    .map((edge) => `${edge.from} imports ${edge.specifier}`);
}

describe('the import graph', () => {
  it('reads the imports of every source file', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({
      from: 'harness/process/shim-command.ts',
      specifier: '../../common/windows-command-line.js',
      to: 'common/windows-command-line.ts',
    });
  });

  it('finds a circle when there is one (the detector itself)', () => {
    const graph: ImportEdge[] = [
      { from: 'a.ts', specifier: './b.js', to: 'b.ts' },
      { from: 'b.ts', specifier: './c.js', to: 'c.ts' },
      { from: 'c.ts', specifier: './a.js', to: 'a.ts' },
      { from: 'c.ts', specifier: './d.js', to: 'd.ts' },
      { from: 'e.ts', specifier: './e.js', to: 'e.ts' },
    ];
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(importCircles(graph.slice(0, 2))).toEqual([]);
  });

  it('has no import circle in common/, harness/, reference-shim/ or generated/', () => {
    expect(importCircles(edges)).toEqual([]);
  });
});

describe('boundaries', () => {
  it('the reference shim imports only its own files, generated/, common/ and packages', () => {
    expect(importsOutside('reference-shim/', ['reference-shim/', 'generated/', 'common/'])).toEqual([]);
  });

  it('common/ is a leaf: it imports only common/ and packages', () => {
    expect(importsOutside('common/', ['common/'])).toEqual([]);
  });

  it('packages are Node built-ins or dependencies of package.json, never test code or scripts', async () => {
    const manifest = (await import('../../package.json', { with: { type: 'json' } })).default as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const known = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);
    const packageName = (specifier: string) =>
      specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
    const unknown = edges
      .filter((edge) => edge.to === undefined)
      .filter((edge) => !edge.specifier.startsWith('node:') && !BUILTINS.has(edge.specifier))
      .filter((edge) => !known.has(packageName(edge.specifier)))
      .map((edge) => `${edge.from} imports ${edge.specifier}`);
    expect(unknown).toEqual([]);
    expect(importsOutside('', ['common/', 'generated/', 'harness/', 'reference-shim/', 'schemas/'])).toEqual([]);
  });

  it('areas of the harness import files, not barrels, and nothing imports the package entry', () => {
    const barrels = sourceFiles(['harness/*/index.ts']);
    expect(barrels).toEqual([]);
    const entry = edges.filter((edge) => edge.to === 'harness/index.ts').map((edge) => edge.from);
    expect(entry).toEqual([]);
  });
});

/** The import graph between folders (`harness/mock`, `reference-shim/tools`, ...): one edge per folder pair. */
function folderEdges(prefix: string): ImportEdge[] {
  const folderOf = (file: string) => file.split('/').slice(0, 2).join('/');
  const pairs = new Set<string>();
  for (const edge of edges) {
    if (!edge.to || !edge.from.startsWith(prefix) || !edge.to.startsWith(prefix)) continue;
    // Files directly under the prefix (reference-shim/main.ts) are the top; only folders count.
    if (edge.from.split('/').length < 3 || edge.to.split('/').length < 3) continue;
    const from = folderOf(edge.from);
    const to = folderOf(edge.to);
    if (from !== to) pairs.add(`${from}\n${to}`);
  }
  return [...pairs].map((pair) => {
    const [from, to] = pair.split('\n') as [string, string];
    return { from, specifier: to, to };
  });
}

describe('folders import each other one way', () => {
  it('the reference shim’s folders form no circle (tools and session below providers, providers below agent)', () => {
    const shimFolders = folderEdges('reference-shim/');
    expect(shimFolders).toContainEqual({
      from: 'reference-shim/providers',
      specifier: 'reference-shim/tools',
      to: 'reference-shim/tools',
    });
    expect(importCircles(shimFolders)).toEqual([]);
  });

  it('the harness’s areas form no circle (suite above runner and reports, drift above the official CLIs)', () => {
    const areas = folderEdges('harness/');
    expect(areas).toContainEqual({ from: 'harness/report', specifier: 'harness/runner', to: 'harness/runner' });
    expect(importCircles(areas)).toEqual([]);
  });

  it('the mock knows nothing of the runner, the reports or the official CLIs (it is handed a tool mapper)', () => {
    const above = ['harness/runner', 'harness/report', 'harness/official-cli', 'harness/cli'];
    const upward = folderEdges('harness/').filter((edge) => edge.from === 'harness/mock' && above.includes(edge.to!));
    expect(upward).toEqual([]);
  });
});
