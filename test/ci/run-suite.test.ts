import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const runSuite = path.join(repoRoot, 'ci', 'run-suite.mjs');
const fakeNpx = path.join(repoRoot, 'test', 'ci', 'fixtures', 'fake-npx.mjs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yc-run-suite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(inputs: Record<string, string>, mode = 'pass', timeoutMs = 30_000) {
  const outputFile = path.join(dir, 'github-output');
  writeFileSync(outputFile, '');
  const log = path.join(dir, 'npx-log.json');
  const result = runNodeScript(runSuite, [], {
    cwd: dir,
    timeoutMs,
    env: {
      YUME_CONFORMANCE_NPX_CLI: fakeNpx,
      FAKE_NPX_MODE: mode,
      FAKE_NPX_LOG: log,
      FAKE_NPX_GRANDCHILD: path.join(dir, 'grandchild.pid'),
      GITHUB_OUTPUT: outputFile,
      RUNNER_OS: 'Linux',
      ...inputs,
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
  const called = existsSync(log) ? JSON.parse(readFileSync(log, 'utf8')) : undefined;
  return { ...result, outputs, called };
}

const readInfo = (reportDir: string) => JSON.parse(readFileSync(path.join(dir, reportDir, 'run-info.json'), 'utf8'));

describe('ci/run-suite.mjs', () => {
  it('turns the action inputs into one argv, keeping spaces and leading dashes intact', () => {
    writeFileSync(path.join(dir, 'caps.json'), '{}');
    writeFileSync(path.join(dir, 'xf.json'), '{}');
    const { status, called } = run({
      YUME_CI_SHIM: './my shim.mjs',
      YUME_CI_PROVIDERS: 'openai-chat, gemini',
      YUME_CI_SCENARIOS: 'plain-text\nsingle-tool',
      YUME_CI_PROFILE: 'yume-app',
      YUME_CI_INVOCATION: 'spec',
      YUME_CI_CAPABILITIES: 'caps.json',
      YUME_CI_EXPECTED_FAILURES: 'xf.json',
      YUME_CI_SHIM_ARGS: '--verbose\r\n--model x y\n',
      YUME_CI_ARGS: '--seed\n7',
      YUME_CI_VERSION: '0.1.0',
      YUME_CI_REPORT_DIR: 'out dir',
    });
    expect(status).toBe(0);
    expect(called.args).toEqual([
      '--yes',
      '--package',
      'yume-conformance@0.1.0',
      '--',
      'yume-conformance',
      'run',
      './my shim.mjs',
      '--provider',
      'openai-chat',
      '--provider',
      'gemini',
      '--scenario',
      'plain-text',
      '--scenario',
      'single-tool',
      '--profile',
      'yume-app',
      '--invocation',
      'spec',
      '--capabilities',
      'caps.json',
      '--expected-failures',
      'xf.json',
      '--shim-arg=--verbose',
      '--shim-arg=--model x y',
      '--artifacts',
      path.join('out dir', 'artifacts'),
      '--reporter',
      'human',
      '--reporter',
      `junit:${path.join('out dir', 'junit.xml')}`,
      '--reporter',
      `html:${path.join('out dir', 'report.html')}`,
      '--reporter',
      `json:${path.join('out dir', 'report.json')}`,
      '--seed',
      '7',
    ]);
    expect(called.cwd).toBe(dir);
    expect(called.yes).toBe('true');
  });

  it('with no inputs runs the latest release against the bundled reference shim', () => {
    const { called } = run({});
    expect(called.args.slice(0, 7)).toEqual([
      '--yes',
      '--package',
      'yume-conformance@latest',
      '--',
      'yume-conformance',
      'run',
      '--artifacts',
    ]);
  });

  it('takes a tarball path or an npm spec as the version', () => {
    expect(run({ YUME_CI_VERSION: './pkg/yume-conformance-0.1.0.tgz' }).called.args[2]).toBe(
      path.join(dir, 'pkg', 'yume-conformance-0.1.0.tgz'),
    );
    expect(run({ YUME_CI_VERSION: 'file:../x.tgz' }).called.args[2]).toBe('file:../x.tgz');
    expect(run({ YUME_CI_VERSION: 'next' }).called.args[2]).toBe('yume-conformance@next');
  });

  it('records the outcome for the aggregate job and the step outputs', () => {
    const { outputs } = run({ YUME_CI_REPORT_DIR: 'reports' }, 'fail');
    expect(outputs).toEqual({
      'exit-code': '1',
      'report-dir': 'reports',
      'json-report': path.join('reports', 'report.json'),
      'junit-report': path.join('reports', 'junit.xml'),
      'html-report': path.join('reports', 'report.html'),
    });
    const info = readInfo('reports');
    expect(info).toMatchObject({
      os: 'Linux',
      node: process.version,
      package: 'yume-conformance@latest',
      exitCode: 1,
      timedOut: false,
    });
    expect(info.shim).toBe('(bundled reference shim)');
    expect(JSON.parse(readFileSync(path.join(dir, 'reports', 'report.json'), 'utf8')).summary.failed).toBe(1);
  });

  it('exits with the suite’s code, or 0 when the action defers the verdict to its last step', () => {
    expect(run({}, 'fail').status).toBe(1);
    expect(run({}, 'no-report').status).toBe(2);
    const deferred = run({ YUME_CI_DEFER_EXIT: 'true' }, 'fail');
    expect(deferred.status).toBe(0);
    expect(deferred.outputs['exit-code']).toBe('1');
  });

  it('removes reports of an earlier run so they cannot pass for this one', () => {
    const reports = path.join(dir, 'yume-conformance-reports');
    mkdirSync(reports);
    writeFileSync(
      path.join(reports, 'report.json'),
      '{"summary":{"passed":1,"failed":0,"warnings":0,"notVerified":0},"runs":[]}',
    );
    run({}, 'no-report');
    expect(existsSync(path.join(reports, 'report.json'))).toBe(false);
    expect(readInfo('yume-conformance-reports').exitCode).toBe(2);
  });

  it('names a missing capabilities or expected-failures file and does not start the suite', () => {
    const { status, stderr, called } = run({
      YUME_CI_CAPABILITIES: 'nope.json',
      YUME_CI_EXPECTED_FAILURES: 'gone.yml',
    });
    expect(status).toBe(2);
    expect(called).toBeUndefined();
    expect(stderr).toContain('input "capabilities" names nope.json, which does not exist');
    expect(stderr).toContain('input "expected-failures" names gone.yml, which does not exist');
    expect(readInfo('yume-conformance-reports').error).toContain('nope.json');
  });

  it('rejects a timeout that is not a positive number', () => {
    const { status, stderr } = run({ YUME_CI_TIMEOUT_MINUTES: 'soon' });
    expect(status).toBe(2);
    expect(stderr).toContain('input "timeout-minutes" is "soon"');
  });

  it('ends the whole process tree when the suite outlives the timeout', async () => {
    const started = Date.now();
    const { status, stderr } = run({ YUME_CI_TIMEOUT_MINUTES: '0.02' }, 'hang');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(status).toBe(1);
    expect(stderr).toContain('did not finish within 0.02 minutes; its process tree was ended');
    const grandchild = Number(readFileSync(path.join(dir, 'grandchild.pid'), 'utf8'));
    const alive = () => {
      try {
        process.kill(grandchild, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let attempt = 0; attempt < 50 && alive(); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive()).toBe(false);
    expect(readInfo('yume-conformance-reports')).toMatchObject({ timedOut: true, exitCode: 1 });
  });
});
