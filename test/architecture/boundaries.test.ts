// The boundaries docs/architecture.md states, checked on the import graph (test/helpers/import-graph.ts):
// no import circles; the reference shim imports only its own files, generated/, common/ and packages;
// common/ is a leaf; areas of the harness import each other's files (no barrels), and nothing imports the
// package entry harness/index.ts or test code. The runner names no official CLI: its quirks are methods of
// the CLI's backend (harness/official-cli/behaviour.ts), checked with the type checker.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliKnowledge, programFromTexts, programOf } from '../helpers/cli-knowledge.js';
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

/**
 * The import graph between rooms: a room is the folder a file sits in, at any depth (`harness/runner/checks`,
 * `harness/mock/render`, `reference-shim/tools`). A folder and its own sub-folders are one family: a sub-folder
 * may use the shared files at its parent's top and the top may use it, so only rooms of which neither holds the
 * other make an edge. One edge per pair of rooms under `prefix`.
 */
function roomEdges(prefix: string, graph: readonly ImportEdge[] = edges): ImportEdge[] {
  const roomOf = (file: string) => file.split('/').slice(0, -1).join('/');
  const pairs = new Set<string>();
  for (const edge of graph) {
    if (!edge.to || !edge.from.startsWith(prefix) || !edge.to.startsWith(prefix)) continue;
    const from = roomOf(edge.from);
    const to = roomOf(edge.to);
    // Files directly under the prefix (reference-shim/main.ts, harness/index.ts) are entry points, not a room.
    if (from === prefix.replace(/\/$/, '') || to === prefix.replace(/\/$/, '')) continue;
    const family = from === to || from.startsWith(`${to}/`) || to.startsWith(`${from}/`);
    if (!family) pairs.add(`${from}\n${to}`);
  }
  return [...pairs].map((pair) => {
    const [from, to] = pair.split('\n') as [string, string];
    return { from, specifier: to, to };
  });
}

/** Files at the top of each folder under `roots`: their count, largest first. */
function folderSizes(roots: readonly string[]): { folder: string; files: number }[] {
  const counts = new Map<string, number>();
  for (const file of sourceFiles(roots.map((root) => `${root}/**/*`))) {
    const folder = file.split('/').slice(0, -1).join('/');
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts].map(([folder, files]) => ({ folder, files })).sort((a, b) => b.files - a.files);
}

describe('rooms import each other one way', () => {
  it('sees rooms below the second level, and leaves a folder and its sub-folders to each other', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, specifier: to, to });
    const graph: ImportEdge[] = [
      edge('harness/runner/run-scenario.ts', 'harness/runner/checks/check-run.ts'),
      edge('harness/runner/checks/check-run.ts', 'harness/runner/golden/golden-model.ts'),
      edge('harness/runner/golden/golden-model.ts', 'harness/runner/checks/check-types.ts'),
      edge('harness/runner/checks/check-run.ts', 'harness/runner/redact.ts'),
    ];
    expect(roomEdges('harness/', graph).map((room) => `${room.from} -> ${room.to}`)).toEqual([
      'harness/runner/checks -> harness/runner/golden',
      'harness/runner/golden -> harness/runner/checks',
    ]);
    expect(importCircles(roomEdges('harness/', graph))).toEqual([['harness/runner/checks', 'harness/runner/golden']]);
  });

  it('the reference shim’s rooms form no circle (tools and session below providers, providers below agent)', () => {
    const shimRooms = roomEdges('reference-shim/');
    expect(shimRooms).toContainEqual({
      from: 'reference-shim/providers',
      specifier: 'reference-shim/tools',
      to: 'reference-shim/tools',
    });
    expect(importCircles(shimRooms)).toEqual([]);
  });

  it('the harness’s rooms form no circle (suite above runner and reports, drift above the official CLIs)', () => {
    const rooms = roomEdges('harness/');
    expect(rooms).toContainEqual({
      from: 'harness/report',
      specifier: 'harness/runner/results',
      to: 'harness/runner/results',
    });
    expect(rooms).toContainEqual({
      from: 'harness/runner/checks',
      specifier: 'harness/golden/compare',
      to: 'harness/golden/compare',
    });
    expect(importCircles(rooms)).toEqual([]);
  });

  it('the runner and the reports sit below the suite: nothing in them imports harness/suite or harness/golden/regenerate', () => {
    const upward = roomEdges('harness/').filter(
      (edge) =>
        (edge.from.startsWith('harness/runner') || edge.from === 'harness/report') &&
        (edge.to === 'harness/suite' || edge.to === 'harness/golden/regenerate'),
    );
    expect(upward).toEqual([]);
  });

  it('goldens have one home: its vocabulary and comparison sit below the runner, its regeneration above the suite', () => {
    const inFamily = edges.filter((edge) => edge.from.startsWith('harness/golden/') && edge.to !== undefined);
    expect(inFamily.length).toBeGreaterThan(10);
    const upward = inFamily.filter(
      (edge) =>
        !edge.from.startsWith('harness/golden/regenerate/') &&
        ['harness/golden/regenerate/', 'harness/runner/', 'harness/suite/'].some((room) => edge.to!.startsWith(room)),
    );
    expect(upward.map((edge) => `${edge.from} imports ${edge.specifier}`)).toEqual([]);
    expect(sourceFiles(['harness/goldens/**/*.ts', 'harness/runner/golden/**/*.ts'])).toEqual([]);
  });

  it('the mock knows nothing of the runner, the reports or the official CLIs (it is handed a tool mapper)', () => {
    const above = ['harness/runner', 'harness/report', 'harness/official-cli', 'harness/cli', 'harness/suite'];
    const upward = roomEdges('harness/').filter(
      (edge) => edge.from.startsWith('harness/mock') && above.some((area) => edge.to!.startsWith(area)),
    );
    expect(upward).toEqual([]);
  });
});

describe('folder sizes', () => {
  it('no folder of harness/, reference-shim/ and common/ holds more than 20 files at its top', () => {
    const sizes = folderSizes(['harness', 'reference-shim', 'common']);
    expect(sizes.length).toBeGreaterThan(10);
    expect(sizes.filter((entry) => entry.files > 20)).toEqual([]);
  });

  it('the runner’s top holds at most 15 files', () => {
    const top = folderSizes(['harness/runner']).find((entry) => entry.folder === 'harness/runner');
    expect(top?.files).toBeGreaterThan(0);
    expect(top!.files).toBeLessThanOrEqual(15);
  });
});

describe('the runner names no official CLI', () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const runnerDir = path.join(root, 'harness', 'runner') + path.sep;
  const nameType = { file: path.join(root, 'harness', 'official-cli', 'script-types.ts'), name: 'OfficialCliName' };

  it('no file under harness/runner/ compares a CLI name or reads a per-CLI flag', () => {
    const files = sourceFiles(['harness/runner/**/*.ts']).map((file) => path.join(root, file));
    expect(files.length).toBeGreaterThan(20);
    const program = programOf(files, root);
    const judged = (file: string) => path.resolve(file).startsWith(runnerDir);
    expect(cliKnowledge(program, { judged, nameType })).toEqual([]);
  }, 60_000);

  describe('the detector itself, on small sources', () => {
    const texts = (runner: string) => ({
      'cli.ts': "export type OfficialCliName = 'gemini' | 'codex' | 'claude';\n",
      'ids.ts': "export type ProviderId = 'gemini' | 'gemini-cli' | 'openai-chat';\n",
      'runner.ts': runner,
    });
    const found = (runner: string) =>
      cliKnowledge(programFromTexts(texts(runner)), {
        judged: (file) => file.endsWith('runner.ts'),
        nameType: { file: path.resolve('cli.ts'), name: 'OfficialCliName' },
      });

    it('finds a comparison of a CLI name, however it is typed', () => {
      const header = "import type { OfficialCliName } from './cli';\n";
      expect(found(`${header}export const f = (cli: OfficialCliName) => cli === 'codex';\n`)).toEqual([
        "runner.ts:2: compares a CLI name (cli === 'codex')",
      ]);
      expect(found(`${header}export const f = (cli?: OfficialCliName) => 'gemini' !== cli;\n`)).toHaveLength(1);
      expect(
        found(`${header}export const f = (a: OfficialCliName, b: { cli: OfficialCliName }) => b.cli == a;\n`),
      ).toHaveLength(1);
      expect(found(`export const f = (cli: 'codex' | 'claude') => cli === 'claude';\n`)).toHaveLength(1);
      expect(
        found(
          `${header}export function f(cli: OfficialCliName) { switch (cli) { case 'codex': return 1; } return 0; }\n`,
        ),
      ).toEqual(['runner.ts:2: switches on a CLI name (cli)']);
    });

    it("passes a provider id compared with 'gemini', and a CLI name used without comparing", () => {
      expect(
        found(
          "import type { ProviderId } from './ids';\nimport type { OfficialCliName } from './cli';\n" +
            "export const f = (id: ProviderId) => id === 'gemini';\n" +
            "export const g = (id: ProviderId) => { switch (id) { case 'gemini': return 1; } return 0; };\n" +
            "export const h = (cli: OfficialCliName) => 'the real ' + cli;\n" +
            "export const k = (text: string) => text === 'codex';\n",
        ),
      ).toEqual([]);
    });

    it('finds reads of per-CLI flags, by property, by key and by destructuring', () => {
      const runner =
        'export function f(cli: { omissions: { dropsMalformedEvents: boolean; retriesOnStderrOnly: boolean } }) {\n' +
        '  const { retriesOnStderrOnly } = cli.omissions;\n' +
        "  return cli['omissions'].dropsMalformedEvents || retriesOnStderrOnly;\n" +
        '}\n';
      expect(found(runner)).toEqual([
        'runner.ts:2: reads the per-CLI flag retriesOnStderrOnly',
        'runner.ts:2: reads the per-CLI flag omissions',
        'runner.ts:3: reads the per-CLI flag dropsMalformedEvents',
        'runner.ts:3: reads the per-CLI flag omissions',
      ]);
      expect(found('export const f = (cli: { ownsOutcome(): boolean }) => cli.ownsOutcome();\n')).toEqual([]);
    });
  });
});
