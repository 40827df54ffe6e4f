#!/usr/bin/env node
// Runs `npx yume-conformance run ...` for the GitHub action, from the action's inputs (environment
// variables YUME_CI_*), with JUnit, HTML and JSON reports in one folder, and records what ran where.
//
// Why a script and not a shell line: inputs may hold spaces, quotes or Windows paths; building an argv
// array here keeps them intact on every OS. npm's own npx-cli.js is started with this Node, because
// spawning `npx.cmd` on Windows needs a shell (Node refuses .cmd files without one since 20.12.2).
//
// Writes to the report folder: junit.xml, report.html, report.json, artifacts/ (each run's full output, from
// the suite) and run-info.json (OS, Node, package, shard, exit code) that ci/merge-shards.mjs and
// ci/aggregate.mjs read. With YUME_CI_SHARD=i/n only that shard of the selection runs. Writes step outputs to $GITHUB_OUTPUT.
// Exit code: the suite's (0 all MUST checks pass, 1 some fail, 2 usage error), or 0 with
// YUME_CI_DEFER_EXIT=true (the action fails in a later step, after annotating and uploading).
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { locateNpxCli } from './lib/npx.mjs';
import { runWithTimeout } from './lib/run-with-timeout.mjs';

const PACKAGE_NAME = 'yume-conformance';
const REPORT_FILES = { junit: 'junit.xml', html: 'report.html', json: 'report.json' };
const ARTIFACTS_DIR = 'artifacts';

/** Splits a list input: commas, spaces or new lines. */
function listInput(value) {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

/** One argument per line; nothing is shell-split, so an argument may contain spaces. */
function linesInput(value) {
  return (value ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `latest`, a version or a dist-tag become `yume-conformance@X`; a tarball, folder or URL is used as given. */
function packageSpec(version, cwd) {
  const value = (version ?? '').trim() || 'latest';
  if (/^(file:|https?:|git\+|github:|npm:)/.test(value)) return value;
  if (value.endsWith('.tgz') || value.includes('/') || value.includes('\\') || value.startsWith('.')) {
    return path.resolve(cwd, value);
  }
  return `${PACKAGE_NAME}@${value}`;
}

/** The suite's arguments after `yume-conformance`. */
function suiteArgs(env, reportDir) {
  const args = ['run'];
  if (env.YUME_CI_SHIM?.trim()) args.push(env.YUME_CI_SHIM.trim());
  for (const provider of listInput(env.YUME_CI_PROVIDERS)) args.push('--provider', provider);
  for (const scenario of listInput(env.YUME_CI_SCENARIOS)) args.push('--scenario', scenario);
  if (env.YUME_CI_PROFILE?.trim()) args.push('--profile', env.YUME_CI_PROFILE.trim());
  if (env.YUME_CI_INVOCATION?.trim()) args.push('--invocation', env.YUME_CI_INVOCATION.trim());
  if (env.YUME_CI_CAPABILITIES?.trim()) args.push('--capabilities', env.YUME_CI_CAPABILITIES.trim());
  if (env.YUME_CI_EXPECTED_FAILURES?.trim()) args.push('--expected-failures', env.YUME_CI_EXPECTED_FAILURES.trim());
  // `--shim-arg=VALUE` keeps a value that starts with "-" from being read as an option of the suite.
  for (const shimArg of linesInput(env.YUME_CI_SHIM_ARGS)) args.push(`--shim-arg=${shimArg}`);
  if (env.YUME_CI_SHARD?.trim()) args.push('--shard', env.YUME_CI_SHARD.trim());
  if (env.YUME_CI_REPEAT?.trim()) args.push('--repeat', env.YUME_CI_REPEAT.trim());
  // Every run's full stdout, stderr, requests and golden diff (redacted), uploaded with the reports.
  args.push('--artifacts', path.join(reportDir, ARTIFACTS_DIR));
  args.push('--reporter', 'human');
  for (const [name, file] of Object.entries(REPORT_FILES)) {
    args.push('--reporter', `${name}:${path.join(reportDir, file)}`);
  }
  args.push(...linesInput(env.YUME_CI_ARGS));
  return args;
}

/** Files named by inputs must exist; say which input and what to do instead of a runner stack trace. */
function missingInputFiles(env, cwd) {
  const problems = [];
  for (const [input, variable] of [
    ['capabilities', 'YUME_CI_CAPABILITIES'],
    ['expected-failures', 'YUME_CI_EXPECTED_FAILURES'],
  ]) {
    const value = env[variable]?.trim();
    if (value && !existsSync(path.resolve(cwd, value))) {
      problems.push(`input "${input}" names ${value}, which does not exist in ${cwd}; commit the file or fix the path`);
    }
  }
  return problems;
}

function describeOs(env) {
  if (env.RUNNER_OS) return env.RUNNER_OS;
  return { linux: 'Linux', darwin: 'macOS', win32: 'Windows' }[process.platform] ?? process.platform;
}

function writeOutputs(env, outputs) {
  if (!env.GITHUB_OUTPUT) return;
  appendFileSync(
    env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
}

async function main() {
  const env = process.env;
  const cwd = process.cwd();
  const reportDir = env.YUME_CI_REPORT_DIR?.trim() || 'yume-conformance-reports';
  const absoluteReportDir = path.resolve(cwd, reportDir);
  const timeoutMinutes = Number(env.YUME_CI_TIMEOUT_MINUTES?.trim() || '30');
  const spec = packageSpec(env.YUME_CI_VERSION, cwd);
  const started = Date.now();

  // Stale reports from an earlier step must not pass for this run's results.
  mkdirSync(absoluteReportDir, { recursive: true });
  for (const file of [...Object.values(REPORT_FILES), 'run-info.json', ARTIFACTS_DIR])
    rmSync(path.join(absoluteReportDir, file), { force: true, recursive: true });

  const info = {
    os: describeOs(env),
    arch: env.RUNNER_ARCH ?? process.arch,
    node: process.version,
    package: spec,
    shim: env.YUME_CI_SHIM?.trim() || '(bundled reference shim)',
    reports: REPORT_FILES,
    ...(env.YUME_CI_SHARD?.trim() ? { shard: env.YUME_CI_SHARD.trim() } : {}),
    exitCode: 2,
    timedOut: false,
    error: undefined,
    durationMs: 0,
  };

  const problems = missingInputFiles(env, cwd);
  const npxCli = locateNpxCli(env);
  if (!npxCli)
    problems.push(`npm's npx-cli.js was not found next to ${process.execPath}; install Node with actions/setup-node`);
  if (!Number.isFinite(timeoutMinutes) || timeoutMinutes <= 0) {
    problems.push(`input "timeout-minutes" is ${JSON.stringify(env.YUME_CI_TIMEOUT_MINUTES)}; give a positive number`);
  }

  if (problems.length > 0) {
    info.error = problems.join('; ');
    for (const problem of problems) process.stderr.write(`[yume-conformance] ${problem}\n`);
  } else {
    const args = ['--yes', '--package', spec, '--', PACKAGE_NAME, ...suiteArgs(env, reportDir)];
    process.stderr.write(`[yume-conformance] running: npx ${args.map((arg) => JSON.stringify(arg)).join(' ')}\n`);
    const result = await runWithTimeout(process.execPath, [npxCli, ...args], {
      cwd,
      env: {
        ...env,
        npm_config_yes: 'true',
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
      },
      timeoutMs: timeoutMinutes * 60_000,
    });
    info.timedOut = result.timedOut;
    if (result.error) {
      info.error = `could not start npx: ${result.error.message}`;
    } else if (result.timedOut) {
      info.error = `the suite did not finish within ${timeoutMinutes} minutes; its process tree was ended`;
      info.exitCode = 1;
    } else {
      info.exitCode = result.exitCode ?? 1;
      if (result.signal) info.error = `the suite was ended by ${result.signal}`;
    }
    if (info.error) process.stderr.write(`[yume-conformance] ${info.error}\n`);
  }

  info.durationMs = Date.now() - started;
  writeFileSync(path.join(absoluteReportDir, 'run-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  writeOutputs(env, {
    'exit-code': info.exitCode,
    'report-dir': reportDir,
    'json-report': path.join(reportDir, REPORT_FILES.json),
    'junit-report': path.join(reportDir, REPORT_FILES.junit),
    'html-report': path.join(reportDir, REPORT_FILES.html),
  });
  return env.YUME_CI_DEFER_EXIT === 'true' ? 0 : info.exitCode;
}

process.exitCode = await main();
