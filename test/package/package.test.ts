// What npm will actually install: pack the tarball, install it into a fresh project (path with a space),
// and run `npx yume-conformance` there against the bundled reference shim and against a shim given by path.
// Also: the tarball holds what users need and nothing else, the exports map works, the types resolve, and
// publint finds nothing.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJUnit } from '../helpers/junit-xml.js';
import { describeRun, runNpmTool } from './helpers/npm-tools.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const REQUIRED_SCENARIOS = ['plain-text', 'single-tool', 'multi-tool', 'tool-error', 'interrupt'];
// Generous: a cold npm cache downloads the dependencies; the whole file still stays near 3 minutes.
const INSTALL_TIMEOUT_MS = 120_000;
// One `npx yume-conformance` over the required scenarios takes ~25 s alone; other test files share the CPU.
const SUITE_TIMEOUT_MS = 150_000;
// A shim given by path: a spawn-per-turn text turn, a tool turn and an interrupt are what a path can break.
const PATH_SHIM_SCENARIOS = ['plain-text', 'single-tool', 'interrupt'];

let work: string;
let consumer: string;
let tarball: string;
let packedFiles: string[];

beforeAll(async () => {
  // dist/*.js comes from the global setup (scripts/build.mjs); the declarations from scripts/build-types.mjs.
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-types.mjs')], {
    cwd: repoRoot,
    stdio: 'pipe',
    timeout: 120_000,
  });
  work = mkdtempSync(path.join(tmpdir(), 'yc package '));
  // --ignore-scripts: dist/ is already built, and rebuilding it here would rewrite files that tests running
  // in parallel are spawning.
  const pack = await runNpmTool('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: repoRoot,
    timeoutMs: 60_000,
  });
  if (pack.exitCode !== 0) throw new Error(describeRun('npm pack', pack));
  const manifest = JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m)));
  tarball = path.join(work, manifest[0].filename);
  packedFiles = manifest[0].files.map((file: { path: string }) => file.path);

  consumer = path.join(work, 'consumer project');
  mkdirSync(consumer);
  writeFileSync(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const install = await runNpmTool('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: consumer,
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  if (install.exitCode !== 0) throw new Error(describeRun('npm install of the packed tarball', install));
}, INSTALL_TIMEOUT_MS + 90_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the bins, the API with its types, schemas, scenarios, the CI kit and the license', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'dist/cli.js',
        'dist/yume-shim.cjs',
        'dist/yume-shim-bundle.cjs',
        'dist/fake-cli.js',
        'dist/index.js',
        'dist/types/harness/index.d.ts',
        'dist/types/generated/protocol.d.ts',
        'schemas/stream-message.schema.json',
        'schemas/report.schema.json',
        'generated/protocol.ts',
        'ci/action.yml',
        'ci/aggregate/action.yml',
        'ci/run-suite.mjs',
        'ci/annotate.mjs',
        'ci/aggregate.mjs',
        'ci/workflow-example.yml',
        'ci/README.md',
        ...REQUIRED_SCENARIOS.map((id) => `transcripts/${id}/scenario.json`),
      ]),
    );
  });

  it('leaves out sources, tests, build scripts and CI config of this repository', () => {
    const unwanted = packedFiles.filter(
      (file) =>
        /^(test|common|harness|reference-shim|scripts|reports|node_modules|\.github|\.ci)\//.test(file) ||
        /^tsconfig.*\.json$|^vitest\.config/.test(file),
    );
    expect(unwanted).toEqual([]);
  });
});

describe('installed from the tarball into a fresh project', () => {
  const junitCases = (file: string) => parseJUnit(readFileSync(file, 'utf8')).cases;

  it(
    '`npx yume-conformance` passes with the bundled reference shim and writes JUnit that parses',
    async () => {
      const run = await runNpmTool(
        'npx',
        [
          'yume-conformance',
          '--provider',
          'openai-chat',
          ...REQUIRED_SCENARIOS.flatMap((id) => ['--scenario', id]),
          '--reporter',
          'junit:reports/bundled.xml',
          '--reporter',
          'json:reports/bundled.json',
        ],
        { cwd: consumer, timeoutMs: SUITE_TIMEOUT_MS },
      );
      expect(run.exitCode, describeRun('npx yume-conformance', run)).toBe(0);
      const cases = junitCases(path.join(consumer, 'reports', 'bundled.xml'));
      expect(cases.length).toBeGreaterThanOrEqual(REQUIRED_SCENARIOS.length);
      expect(cases.filter((testCase) => testCase.failed)).toEqual([]);

      // The action's annotator (shipped in ci/) reads the real report and calls it a pass on this OS.
      const summaryFile = path.join(work, 'summary.md');
      const annotate = execFileSync(
        process.execPath,
        [
          path.join(consumer, 'node_modules', 'yume-conformance', 'ci', 'annotate.mjs'),
          '--report',
          'reports/bundled.json',
          '--os',
          'test-os',
          '--summary-file',
          summaryFile,
        ],
        { cwd: consumer, encoding: 'utf8', timeout: 30_000 },
      );
      expect(annotate).not.toMatch(/^::error/m);
      expect(readFileSync(summaryFile, 'utf8')).toContain('**Verdict on test-os: passed**');
    },
    SUITE_TIMEOUT_MS + 30_000,
  );

  it(
    '`npx yume-conformance <path>` passes with a shim given by a path that has spaces',
    async () => {
      const shimDir = path.join(work, 'my shims');
      mkdirSync(shimDir);
      const shim = path.join(shimDir, 'yume shim.cjs');
      // The bin and the bundle it runs (found next to it).
      const dist = path.join(consumer, 'node_modules', 'yume-conformance', 'dist');
      copyFileSync(path.join(dist, 'yume-shim.cjs'), shim);
      copyFileSync(path.join(dist, 'yume-shim-bundle.cjs'), path.join(shimDir, 'yume-shim-bundle.cjs'));
      const run = await runNpmTool(
        'npx',
        [
          'yume-conformance',
          shim,
          '--provider',
          'openai-chat',
          ...PATH_SHIM_SCENARIOS.flatMap((id) => ['--scenario', id]),
          '--reporter',
          'junit:reports/by-path.xml',
        ],
        { cwd: consumer, timeoutMs: SUITE_TIMEOUT_MS },
      );
      expect(run.exitCode, describeRun(`npx yume-conformance ${shim}`, run)).toBe(0);
      const cases = junitCases(path.join(consumer, 'reports', 'by-path.xml'));
      expect(cases.length).toBeGreaterThanOrEqual(PATH_SHIM_SCENARIOS.length);
      expect(cases.filter((testCase) => testCase.failed)).toEqual([]);
    },
    SUITE_TIMEOUT_MS + 30_000,
  );

  it('exports the API, the schemas and package.json, and nothing else', () => {
    const script = path.join(consumer, 'check-exports.mjs');
    writeFileSync(
      script,
      `import { runConformance, validate } from 'yume-conformance';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('yume-conformance/schemas/stream-message.schema.json'), 'utf8'));
let internal = 'exported';
try { require.resolve('yume-conformance/harness/index.ts'); } catch (error) { internal = error.code; }
console.log(JSON.stringify({ runConformance: typeof runConformance, validate: typeof validate, schema: schema.$id, name: require('yume-conformance/package.json').name, internal }));
`,
    );
    const output = JSON.parse(
      execFileSync(process.execPath, [script], { cwd: consumer, encoding: 'utf8', timeout: 30_000 }),
    );
    expect(output).toEqual({
      runConformance: 'function',
      validate: 'function',
      schema: expect.stringMatching(/stream-message\.schema\.json$/),
      name: 'yume-conformance',
      internal: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });

  it('gives TypeScript users the declarations of runConformance and validate', () => {
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['use-api.ts'],
      }),
    );
    // With strict on, an import without declarations is error TS7016; a wrong call shape is another error.
    writeFileSync(
      path.join(consumer, 'use-api.ts'),
      `import { runConformance, validate } from 'yume-conformance';\nexport const api: [typeof runConformance, typeof validate] = [runConformance, validate];\n`,
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', consumer], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  });
});

describe('publint', () => {
  it('finds no error or warning in this package', async () => {
    const { messages, pkg } = await publint({ pkgDir: repoRoot, pack: 'npm', strict: true });
    const problems = messages
      .filter((message) => message.type !== 'suggestion')
      .map((message) => formatMessage(message, pkg, { color: false }));
    expect(problems).toEqual([]);
  });

  it('does report a package whose exports point at a missing file (the check can fail)', async () => {
    const broken = path.join(work, 'broken-package');
    mkdirSync(broken);
    writeFileSync(
      path.join(broken, 'package.json'),
      JSON.stringify({
        name: 'broken',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
    );
    const { messages } = await publint({ pkgDir: broken, pack: false, strict: true });
    expect(messages.filter((message) => message.type === 'error').map((message) => message.code)).toContain(
      'FILE_DOES_NOT_EXIST',
    );
  });
});
