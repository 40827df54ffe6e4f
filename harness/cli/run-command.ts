// `yume-conformance [run] [SHIM] [options]`: runs the conformance matrix against a shim (default: the bundled
// reference shim). Progress goes to stderr (a live status line on a terminal, else one line per finished run);
// results go to stdout (or files).
// Exit 0: every MUST check passed (or is an expected failure, or partial by a declared limitation);
// 1: some failed, a required scenario is not verified, or an expected failure is stale; 2: usage error or the
// shim could not be started.

import { type Command, Option } from 'commander';
import { PROTOCOL_VERSION } from '../../generated/protocol.js';
import { UsageError } from '../errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../mock/mock-server.js';
import { requiredUnder } from '../mock/scenario/scenario-types.js';
import type { OfficialCliSettings } from '../official-cli/backend.js';
import { OFFICIAL_CLI_NAMES, type OfficialCliName } from '../official-cli/script-types.js';
import { runnerPlatform } from '../process/platform.js';
import { warningsText } from '../report/model.js';
import { emitReports, parseReporterSpec, prepareReportFiles } from '../report/reporters.js';
import { notVerifiedText } from '../rules/not-verified.js';
import { invocationName } from '../runner/config/invocation.js';
import { preflight } from '../runner/run-scenario.js';
import { parseEnvAssignments } from '../runner/setup/environment.js';
import {
  type ConformanceRunReport,
  DEFAULT_TIMEOUT_MS,
  type RunOptions,
  resolveSuite,
  runConformanceWithResults,
} from '../suite/run-conformance.js';
import { parseShard } from '../suite/shard.js';
import { MAX_JOBS_PER_CORE, WIDTH_FLOOR } from '../suite/width-rule.js';
import { EXIT_OK, EXIT_USAGE, failureOf } from './exit-codes.js';
import { createProgress } from './progress.js';

interface RunFlags {
  provider?: string[];
  scenario?: string[];
  list?: boolean;
  profile?: 'spec' | 'yume-app';
  invocation?: string;
  reporter?: string[];
  out?: string;
  jobs?: string;
  shard?: string;
  repeat?: string;
  flakyOk?: boolean;
  artifacts?: string;
  timeout?: string;
  maxRequestBody?: string;
  seed?: string;
  capabilities?: string;
  expectedFailures?: string;
  preset?: string;
  env?: string[];
  shimArg?: string[];
  full?: boolean;
  keep?: boolean;
  cli?: string;
  cliPath?: string[];
  verbose?: boolean;
  matrix?: boolean;
}

/** Repeatable option values; commas split too (`--provider gemini,anthropic`). */
const collectList = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
];
/** Repeatable option values kept whole (an --env value or a shim argument may contain commas). */
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new UsageError(`${name} must be a positive whole number, got ${JSON.stringify(value)}`);
  return number;
}

const BYTE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A size in bytes: a whole number with an optional unit (k, m, g: binary multiples; `64m` is 64 MiB). */
function byteSize(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*([kmg]?)i?b?$/i.exec(value.trim());
  const bytes = match ? Number(match[1]) * BYTE_UNITS[match[2]!.toLowerCase()]! : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`${name} must be a size in bytes such as 1048576, 512k or 64m; got ${JSON.stringify(value)}`);
  return bytes;
}

function nonNegativeInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new UsageError(`${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
  return number;
}

function toOptions(shim: string | undefined, flags: RunFlags): RunOptions {
  const options: RunOptions = {
    providers: flags.provider ?? [],
    scenarios: flags.scenario ?? [],
    shimArgs: flags.shimArg ?? [],
    env: parseEnvAssignments(flags.env ?? []),
    full: flags.full === true,
  };
  if (shim !== undefined) options.shim = shim;
  if (flags.profile) options.profile = flags.profile;
  if (flags.invocation) options.invocation = flags.invocation;
  if (flags.capabilities) options.capabilities = flags.capabilities;
  if (flags.expectedFailures) options.expectedFailures = flags.expectedFailures;
  if (flags.preset) options.preset = flags.preset;
  const jobs = positiveInteger('--jobs', flags.jobs);
  if (jobs !== undefined) options.jobs = jobs;
  if (flags.shard !== undefined) options.shard = parseShard(flags.shard);
  const repeat = positiveInteger('--repeat', flags.repeat);
  if (repeat !== undefined) options.repeat = repeat;
  if (flags.flakyOk) options.flakyOk = true;
  const timeout = positiveInteger('--timeout', flags.timeout);
  if (timeout !== undefined) options.timeoutMs = timeout;
  const maxRequestBody = byteSize('--max-request-body', flags.maxRequestBody);
  if (maxRequestBody !== undefined) options.maxRequestBodyBytes = maxRequestBody;
  const seed = nonNegativeInteger('--seed', flags.seed);
  if (seed !== undefined) options.seed = seed;
  if (flags.keep) options.keepDirectories = true;
  if (flags.artifacts) options.artifactsDir = flags.artifacts;
  if (flags.cli !== undefined || flags.cliPath !== undefined) options.officialCli = officialCliSettings(flags);
  return options;
}

/** `--cli fake|real` and `--cli-path gemini=PATH` (repeatable). */
function officialCliSettings(flags: RunFlags): OfficialCliSettings {
  const mode = flags.cli ?? 'fake';
  if (mode !== 'fake' && mode !== 'real') throw new UsageError(`--cli ${mode}: expected fake (the default) or real`);
  const paths: Partial<Record<OfficialCliName, string>> = {};
  for (const assignment of flags.cliPath ?? []) {
    const [name, ...rest] = assignment.split('=');
    if (!OFFICIAL_CLI_NAMES.includes(name as OfficialCliName) || rest.length === 0 || rest.join('=') === '')
      throw new UsageError(
        `--cli-path ${assignment}: expected NAME=PATH with NAME one of ${OFFICIAL_CLI_NAMES.join(', ')} (e.g. --cli-path gemini=/usr/local/bin/gemini)`,
      );
    paths[name as OfficialCliName] = rest.join('=');
  }
  if (Object.keys(paths).length > 0 && mode !== 'real')
    throw new UsageError('--cli-path names a real CLI: add --cli real');
  return { mode, paths };
}

/** `--list`: the runs the options select, with the ones that will not be verified marked. */
function listRuns(options: RunOptions): string {
  const suite = resolveSuite(options);
  if (suite.startProblem) throw new UsageError(suite.startProblem);
  const settings = {
    shim: suite.shim,
    shimArgs: [],
    userEnv: {},
    timeoutMs: DEFAULT_TIMEOUT_MS,
    platform: runnerPlatform(),
    capabilities: suite.capabilities,
    protocolVersion: PROTOCOL_VERSION,
  };
  const part = options.shard ? ` (shard ${options.shard.index}/${options.shard.count} of ${suite.selection.runs})` : '';
  const lines = [`${suite.specs.length} run(s)${part} for ${suite.shim} (capabilities: ${suite.capabilities.source})`];
  for (const spec of suite.specs) {
    const check = preflight(spec, settings);
    const seed = spec.seed === undefined ? '' : ` seed ${spec.seed}`;
    const note = check.notVerified
      ? `  — not verified: ${notVerifiedText(check.notVerified)}`
      : check.persistent && spec.scenario.mode !== 'persistent'
        ? '  (through persistent mode)'
        : '';
    lines.push(
      `${requiredUnder(spec.scenario, spec.profile) ? '*' : ' '} ${spec.scenario.id.padEnd(24)} ${spec.provider.padEnd(16)} ${invocationName(spec.invocation)}/${spec.profile}/${spec.dialect ?? 'as started'}${seed}${note}`,
    );
  }
  lines.push('* required scenario');
  return `${lines.join('\n')}\n`;
}

/** The verdict on stderr, for when stdout carries no human report (JSON, JUnit or HTML to stdout, or files). */
function verdictLine(report: ConformanceRunReport): string {
  const { summary } = report;
  const parts = [`${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.expectedFailures) parts.push(`${summary.expectedFailures} expected failure(s)`);
  if (summary.partial) parts.push(`${summary.partial} partial`);
  parts.push(`${summary.notVerified} not verified`, warningsText(summary));
  return `yume-conformance: ${report.verdict.toUpperCase()} — ${parts.join(', ')} (exit ${report.exitCode}); the named --reporter replaced the human report (add --reporter human to keep it)\n`;
}

async function runAction(shim: string | undefined, flags: RunFlags): Promise<void> {
  try {
    process.exitCode = await runSuite(shim, flags);
  } catch (error) {
    const failure = failureOf('yume-conformance run', error);
    process.stderr.write(failure.line);
    process.exitCode = failure.exitCode;
  }
}

/** Runs (or lists) the suite and writes the reports; returns the exit code. Errors are left to runAction. */
async function runSuite(shim: string | undefined, flags: RunFlags): Promise<number> {
  const reporters = (flags.reporter && flags.reporter.length > 0 ? flags.reporter : ['human']).map(parseReporterSpec);
  if (flags.out) reporters.push({ name: 'json', file: flags.out });
  const options = toOptions(shim, flags);
  if (!flags.list) prepareReportFiles(reporters);
  if (flags.list) {
    process.stdout.write(listRuns(options));
    return EXIT_OK;
  }
  const progress = createProgress(process.stderr, Date.now, { verbose: flags.verbose === true });
  const { report, results } = await runConformanceWithResults({
    ...options,
    onProgress: (result, done, total) => progress.onRun(result, done, total),
    onWidth: (width, why) => progress.onWidth(width, why),
  }).finally(() => progress.finish());
  if (report.exitCode === EXIT_USAGE) {
    process.stderr.write(`yume-conformance run: ${report.error}\n`);
  }
  if (report.startFailure !== undefined) {
    // No run took place: the line above is all a reader needs; report files (and machine-readable output)
    // still record that and why, but no counts and no verdict line are printed.
    emitReports(
      report,
      reporters.filter((spec) => spec.file !== undefined || spec.name !== 'human'),
      process.stdout,
      { results },
    );
    return report.exitCode;
  }
  emitReports(report, reporters, process.stdout, {
    results,
    verbose: flags.verbose === true,
    matrix: flags.matrix === true,
  });
  // The human report on stdout ends with the verdict; said once, not again here.
  if (!reporters.some((spec) => spec.name === 'human' && spec.file === undefined))
    process.stderr.write(verdictLine(report));
  return report.exitCode;
}

/** Registers `yume-conformance run` as the default command (so `yume-conformance ./shim` runs it). */
export function registerRunCommand(program: Command): void {
  program
    .command('run', { isDefault: true })
    .description('run the conformance suite against a shim (default: the bundled reference shim)')
    .argument(
      '[shim]',
      'the shim to test: a path (.js/.mjs/.cjs run with this Node; .cmd/.bat/.exe on Windows) or a command on PATH',
    )
    .option(
      '--provider <id>',
      'provider id (openai-chat, openai-responses, gemini, anthropic, gemini-cli, codex-cli, claude-cli, copilot-cli) or all; repeatable',
      collectList,
    )
    .option('--scenario <id>', 'scenario id; repeatable (default: all)', collectList)
    .option('--list', 'list the runs the options select, then exit')
    .addOption(new Option('--profile <profile>', 'rule profile').choices(['spec', 'yume-app']))
    .option('--invocation <how>', 'spec (default), yume-app, or a template file (schemas/invocation.schema.json)')
    .option(
      '--reporter <name[:file]>',
      'human, json, junit or html, to stdout or a file; repeatable (default: human). Naming one replaces the human report on stdout unless human is named too (the verdict line then goes to stderr)',
      collect,
    )
    .option('--out <file>', 'also write the JSON report to this file')
    .option(
      '--jobs <n>',
      `runs at a time, fixed (default: as many as cores, at least ${WIDTH_FLOOR}, growing one at a time while the cores, other programs counted, and memory have room, up to ${MAX_JOBS_PER_CORE} per core or a preset's cap)`,
    )
    .option(
      '--shard <i/n>',
      'run only part i of n of the selected runs (balanced by typical duration); merge the reports with merge-reports --shards',
    )
    .option(
      '--repeat <n>',
      'play each selected run n times; a run whose outcome (passed or expected failure / failed / not verified / inconclusive) differs is flaky and fails the suite',
    )
    .option('--flaky-ok', 'a flaky run (--repeat) warns instead of failing the suite')
    .option('--timeout <ms>', `per shim process, after which its whole tree is killed (default ${DEFAULT_TIMEOUT_MS})`)
    .option(
      '--max-request-body <size>',
      `largest provider request body the mock reads (bytes, or 512k, 64m); a larger one gets 413 and fails requests.body-size (default ${DEFAULT_MAX_BODY_BYTES / 1024 ** 2}m)`,
    )
    .option('--seed <n>', 'base seed of the re-chunked provider streams (reported per run; default 1)')
    .option('--capabilities <file>', 'what the shim supports (schemas/capabilities.schema.json)')
    .option(
      '--expected-failures <file>',
      'known failing checks (schemas/expected-failures.schema.json); a listed check that passes fails as stale',
    )
    .option(
      '--preset <name>',
      'a program the package knows how to test (claude-code: real Claude Code against the Anthropic mock): its invocation, capabilities, run list, timeout and expected failures',
    )
    .option('--env <K=V>', 'extra environment variable for the shim; repeatable', collect)
    .option(
      '--shim-arg <arg>',
      "extra argument appended to the shim's argv (use --shim-arg=-x for a value starting with -); repeatable",
      collect,
    )
    .option('--full', 'the full matrix: every invocation × profile × dialect × re-chunk seed (R12)')
    .option('--keep', "keep each run's temporary directories (for debugging)")
    .option(
      '--verbose',
      'human report: also the INFO notes, and every run each warning hit; progress: each change of runs at once',
    )
    .option('--matrix', 'human report: also the scenario × provider matrix of all runs (the HTML report always has it)')
    .option(
      '--artifacts <dir>',
      "write each run's full stdout, stderr, provider requests and golden diff (redacted) into this folder",
    )
    .option(
      '--cli <mode>',
      'official CLIs for the gemini-cli, codex-cli, claude-cli and copilot-cli ids: fake (default) or real (run offline against the mock)',
    )
    .option(
      '--cli-path <name=path>',
      'the real CLI to run, e.g. gemini=/usr/local/bin/gemini (else PATH); repeatable',
      collect,
    )
    .action(runAction);
}
