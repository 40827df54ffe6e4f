import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionScripts, checkCompositeAction, checkWorkflow } from './helpers/github-yaml-checks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const load = (relative: string): any => parse(readFileSync(path.join(root, relative), 'utf8'));
const clone = <T>(value: T): T => structuredClone(value);

// The example names this project's action by tag on purpose: shim authors pin it to a release.
const OWN_ACTION = ['OWNER/yume-conformance/'];

describe('.github/workflows/ci.yml', () => {
  const workflow = load('.github/workflows/ci.yml');

  it('has the keys GitHub requires and consistent references', () => {
    expect(checkWorkflow(workflow)).toEqual([]);
  });

  it('tests on ubuntu, macOS and Windows with Node 20, 22 and 24, and uploads the reports', () => {
    const test = workflow.jobs.test;
    expect(test.strategy['fail-fast']).toBe(false);
    expect(test.strategy.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(test.strategy.matrix.node).toEqual([20, 22, 24]);
    expect(test['runs-on']).toBe('${{ matrix.os }}');
    const runs = test.steps.map((step: any) => step.run).filter(Boolean);
    expect(runs).toEqual(expect.arrayContaining(['npm ci --no-audit --no-fund', 'npm run build', 'npm test']));
    const upload = test.steps.find((step: any) => String(step.uses).startsWith('actions/upload-artifact@'));
    expect(upload.if).toBe('always()');
    expect(upload.with.path).toBe('reports/');
  });

  it("runs the other platforms' paths on Linux (test:platforms: macOS paths, then Wine, as root) and uploads their reports", () => {
    const platforms = workflow.jobs.platforms;
    expect(platforms['runs-on']).toBe('ubuntu-latest');
    expect(platforms.if).toBe("github.event_name != 'schedule'");
    const runs = platforms.steps.map((step: any) => String(step.run ?? ''));
    expect(runs.some((run: string) => /^sudo .*npm run test:platforms$/.test(run))).toBe(true);
    // test:platforms runs both lanes (scripts/vitest-lanes.mjs): a separate test:wine step would play Wine twice.
    expect(runs.some((run: string) => /npm run test:wine/.test(run))).toBe(false);
    expect(runs).toContain('node scripts/ci-summary.mjs reports/vitest-platforms.json reports/vitest-wine.json');
    const upload = platforms.steps.find((step: any) => String(step.uses).startsWith('actions/upload-artifact@'));
    expect(upload.if).toBe('always()');
    expect(upload.with.path).toBe('reports/');
  });

  it('runs the full conformance matrix only on a schedule or by hand', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['schedule', 'workflow_dispatch']));
    const full = workflow.jobs['conformance-full'];
    expect(full.if).toBe("github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'");
    expect(full.steps.some((step: any) => String(step.run).includes('npm run conformance:full'))).toBe(true);
    // The per-push jobs stay off the nightly schedule.
    expect(workflow.jobs.test.if).toBe("github.event_name != 'schedule'");
  });

  it('runs the shim authors’ action on the packed tarball on every OS, with a verdict job after it', () => {
    const action = workflow.jobs.action;
    expect(action.strategy.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    const step = action.steps.find((s: any) => s.uses === './ci');
    expect(step.with.version).toBe('${{ steps.pack.outputs.tarball }}');
    const verdict = workflow.jobs['action-verdict'];
    expect(verdict.needs).toBe('action');
    expect(verdict.steps.some((s: any) => s.uses === './ci/aggregate')).toBe(true);
  });
});

describe('ci/workflow-example.yml', () => {
  const workflow = load('ci/workflow-example.yml');

  it('has the keys GitHub requires and consistent references', () => {
    expect(checkWorkflow(workflow, { unpinnedAllowed: OWN_ACTION })).toEqual([]);
  });

  it('runs the action on the three OSes and ends with one verdict that runs even after a failure', () => {
    const job = workflow.jobs.conformance;
    expect(job.strategy.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    expect(job.strategy['fail-fast']).toBe(false);
    const suite = job.steps.find((step: any) => String(step.uses).includes('/yume-conformance/ci@'));
    expect(Object.keys(suite.with)).toEqual(expect.arrayContaining(['shim', 'providers', 'capabilities']));
    const verdict = workflow.jobs.verdict;
    expect(verdict.needs).toBe('conformance');
    expect(verdict.if).toBe('always()');
    const aggregate = verdict.steps.find((step: any) => String(step.uses).includes('/yume-conformance/ci/aggregate@'));
    expect(aggregate.with['expected-os']).toBe('Linux,macOS,Windows');
  });

  it('uses only inputs the action declares', () => {
    const inputs = Object.keys(load('ci/action.yml').inputs);
    const suite = workflow.jobs.conformance.steps.find((step: any) =>
      String(step.uses).includes('/yume-conformance/ci@'),
    );
    for (const name of Object.keys(suite.with)) expect(inputs).toContain(name);
  });
});

describe('ci/action.yml and ci/aggregate/action.yml', () => {
  const action = load('ci/action.yml');
  const aggregate = load('ci/aggregate/action.yml');

  it('are composite actions with the keys GitHub requires', () => {
    expect(checkCompositeAction(action)).toEqual([]);
    expect(checkCompositeAction(aggregate)).toEqual([]);
  });

  it('take the inputs shim authors need', () => {
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'shim',
        'providers',
        'profile',
        'invocation',
        'capabilities',
        'expected-failures',
        'node-version',
        'version',
        'args',
      ]),
    );
  });

  it('set up Node, run the suite, annotate, upload, and fail last', () => {
    const steps = action.runs.steps;
    expect(String(steps[0].uses)).toMatch(/^actions\/setup-node@/);
    expect(steps.map((step: any) => step.id).filter(Boolean)).toContain('suite');
    expect(
      steps.some((step: any) => String(step.uses).startsWith('actions/upload-artifact@') && step.if === 'always()'),
    ).toBe(true);
    const last = steps.at(-1);
    expect(last.if).toContain('always()');
    expect(last.run).toContain('exit 1');
  });

  it('run scripts that exist next to them', () => {
    const scripts = actionScripts(action);
    expect(scripts).toEqual(['run-suite.mjs', 'annotate.mjs']);
    for (const script of scripts) expect(existsSync(path.join(root, 'ci', script))).toBe(true);
    const aggregateScripts = actionScripts(aggregate);
    expect(aggregateScripts).toEqual(['../merge-shards.mjs', '../aggregate.mjs']);
    for (const script of aggregateScripts) expect(existsSync(path.join(root, 'ci', 'aggregate', script))).toBe(true);
  });
});

describe('the checks catch broken files', () => {
  const workflow = load('.github/workflows/ci.yml');
  const action = load('ci/action.yml');

  it('a workflow without jobs or triggers', () => {
    const noJobs = clone(workflow);
    delete noJobs.jobs;
    expect(checkWorkflow(noJobs)).toContain('the workflow needs "jobs" with at least one job');
    const noOn = clone(workflow);
    delete noOn.on;
    expect(checkWorkflow(noOn)).toContain('the workflow needs "on" (its triggers)');
  });

  it('a job without runs-on, a step with both uses and run, an unpinned action', () => {
    const broken = clone(workflow);
    delete broken.jobs.test['runs-on'];
    broken.jobs.test.steps[1].run = 'echo both';
    broken.jobs.lint.steps[0].uses = 'actions/checkout@v7';
    const problems = checkWorkflow(broken);
    expect(problems).toContain('jobs.test: a job needs "runs-on"');
    expect(problems).toContain('jobs.test.steps[1]: a step needs exactly one of "uses" or "run"');
    expect(problems).toContain('jobs.lint.steps[0]: "actions/checkout@v7" must be pinned to a full commit SHA');
  });

  it('a matrix axis that is referenced but missing, an empty axis, an unknown needs', () => {
    const broken = clone(workflow);
    delete broken.jobs.test.strategy.matrix.node;
    broken.jobs.action.strategy.matrix.os = [];
    broken.jobs['action-verdict'].needs = 'nope';
    const problems = checkWorkflow(broken);
    expect(problems).toContain("jobs.test: refers to matrix.node, but the job's matrix has no such axis");
    expect(problems).toContain('jobs.action: matrix axis "os" must be a non-empty list');
    expect(problems).toContain('jobs.action-verdict: needs unknown job "nope"');
  });

  it('a reference to a step id that does not exist', () => {
    const broken = clone(workflow);
    broken.jobs.action.steps.find((step: any) => step.id === 'pack').id = 'packed';
    expect(checkWorkflow(broken)).toContain('jobs.action: refers to steps.pack, but no step has id "pack"');
  });

  it('an action that is not composite, a run step without shell, an undeclared input', () => {
    const broken = clone(action);
    broken.runs.using = 'node20';
    delete broken.runs.steps[1].shell;
    delete broken.inputs.providers;
    const problems = checkCompositeAction(broken);
    expect(problems).toContain('runs.using must be "composite" (found "node20")');
    expect(problems).toContain('runs.steps[1]: a "run" step in a composite action needs "shell"');
    expect(problems).toContain('refers to inputs.providers, but the action has no such input');
  });

  it('an input without description and an output without value', () => {
    const broken = clone(action);
    delete broken.inputs.shim.description;
    delete broken.outputs['exit-code'].value;
    const problems = checkCompositeAction(broken);
    expect(problems).toContain('inputs.shim: needs "description"');
    expect(problems).toContain('outputs.exit-code: a composite action output needs "value"');
  });

  it('an output that reads a step that is gone', () => {
    const broken = clone(action);
    broken.runs.steps.find((step: any) => step.id === 'suite').id = 'renamed';
    expect(checkCompositeAction(broken)).toContain('outputs refer to steps.suite, but no step has id "suite"');
  });
});
