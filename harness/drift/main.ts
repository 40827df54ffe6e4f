// `npm run cli-drift`: installs the newest published gemini-cli, codex, claude-code and copilot (or, with
// `--version gemini=0.60.0` / `--tarball codex=FILE`, the given release), and reports what changed against
// the pinned data: its version (not copilot's, which changes almost daily: VERSION_IS_DRIFT), flags of the
// recorded help, tools declared to the model, stdout event types, the
// differential test of the fake against the release (accept/refuse, exit codes, messages), and the
// reference translators' runs in the real-CLI mode. Exit 0: nothing changed; 1: something did; 2: usage.
// `--update` records the releases as the new pins (data, help texts, test/real-programs.json) and
// re-records the claude-code goldens when the `goldens` command offers `--from`.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { PINNED } from '../official-cli/pinned/index.js';
import type { PinnedCli } from '../official-cli/pinned/pinned-types.js';
import { writePinnedCli } from '../official-cli/pinned/store.js';
import { copilotRuntimeCache } from '../official-cli/real/copilot-runtime.js';
import { recordPinnedCli } from '../official-cli/real/record-pinned.js';
import { REAL_CLI_CAPABILITIES, REAL_CLI_SCENARIOS as SCENARIOS } from '../official-cli/real-cli-scenarios.js';
import { OFFICIAL_CLI_NAMES, type OfficialCliName } from '../official-cli/script-types.js';
import { findPackageRoot } from '../package-root.js';
import { comparePinned } from './compare-pinned.js';
import { type CorpusEntry, describeDisagreements, runDifferential } from './differential.js';
import { type CandidateSource, installCandidate } from './install-candidate.js';

interface DriftFlags {
  version?: string[];
  tarball?: string[];
  only?: string[];
  update?: boolean;
  realMode?: boolean;
}

function assignments(values: readonly string[] | undefined, flag: string): Map<OfficialCliName, string> {
  const out = new Map<OfficialCliName, string>();
  for (const value of values ?? []) {
    const [name, ...rest] = value.split('=');
    if (!OFFICIAL_CLI_NAMES.includes(name as OfficialCliName) || rest.join('=') === '')
      throw new UsageError(`${flag} ${value}: expected NAME=VALUE with NAME one of ${OFFICIAL_CLI_NAMES.join(', ')}`);
    out.set(name as OfficialCliName, rest.join('='));
  }
  return out;
}

interface CliDrift {
  cli: OfficialCliName;
  label: string;
  executable: string;
  candidate: PinnedCli;
  changes: string[];
  disagreements: string[];
  failingRuns: string[];
}

async function realModeFailures(root: string, cli: OfficialCliName, executable: string): Promise<string[]> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'yume-drift-runs-'));
  try {
    const report = path.join(out, 'report.json');
    const capabilities = path.join(out, 'capabilities.json');
    writeFileSync(capabilities, JSON.stringify(REAL_CLI_CAPABILITIES));
    const provider = `${cli}-cli`;
    const args = [
      path.join(root, 'dist', 'cli.js'),
      'run',
      path.join(root, 'dist', 'yume-shim.cjs'),
      '--provider',
      provider,
      ...SCENARIOS.flatMap((id) => ['--scenario', id]),
      ...['--capabilities', capabilities, '--profile', 'spec', '--invocation', 'spec'],
      ...['--cli', 'real', '--cli-path', `${cli}=${executable}`],
      ...['--timeout', '90000', '--out', report],
    ];
    await promisify(execFile)(process.execPath, args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code?: number; stderr?: string }) => {
        if (error.code !== 1) throw new Error(`the real-CLI run failed to start: ${error.stderr ?? String(error)}`);
      },
    );
    const runs = (
      JSON.parse(readFileSync(report, 'utf8')) as {
        runs: { scenario: string; status: string; findings: { rule: string; severity: string }[] }[];
      }
    ).runs;
    return runs
      .filter((run) => run.status !== 'partial' && run.status !== 'passed')
      .map(
        (run) =>
          `${run.scenario} × ${provider}: ${run.status} (${[...new Set(run.findings.filter((finding) => finding.severity === 'MUST').map((finding) => finding.rule))].join(', ')})`,
      );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function driftOf(
  root: string,
  cli: OfficialCliName,
  source: CandidateSource,
  flags: DriftFlags,
): Promise<CliDrift> {
  const cache =
    process.env.YUME_REAL_PROGRAMS_DIR ?? path.join(os.homedir(), '.cache', 'yume-conformance', 'real-programs');
  const installed = installCandidate(cli, source, cache);
  process.stderr.write(`cli-drift: ${cli} ${installed.label}: ${installed.executable}\n`);
  // copilot's runtime, unpacked once beside the candidate's install: the help, the differential test and the
  // real-CLI mode all find it there.
  const realEnv: Record<string, string> =
    cli === 'copilot'
      ? { COPILOT_PKG_CACHE_HOME: await copilotRuntimeCache(installed.executable, cache, { beside: true }) }
      : {};
  const recorded = await recordPinnedCli(cli, installed.executable, realEnv);
  const corpus = (
    JSON.parse(
      readFileSync(path.join(root, 'harness', 'official-cli', 'pinned', 'argv-corpus.json'), 'utf8'),
    ) as Record<OfficialCliName, CorpusEntry[]>
  )[cli];
  const workRoot = mkdtempSync(path.join(os.tmpdir(), `yume-drift-${cli}-`));
  let differential: Awaited<ReturnType<typeof runDifferential>>;
  try {
    differential = await runDifferential({
      cli,
      realExecutable: installed.executable,
      fakeScript: path.join(root, 'dist', 'fake-cli.js'),
      corpus,
      workRoot,
      realEnv,
    });
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }
  const candidate: PinnedCli = { ...recorded, ...differential.observed };
  return {
    cli,
    label: installed.label,
    executable: installed.executable,
    candidate,
    changes: comparePinned(PINNED[cli], candidate),
    disagreements: describeDisagreements(cli, differential.rows),
    failingRuns: flags.realMode === false ? [] : await realModeFailures(root, cli, installed.executable),
  };
}

function report(drifts: readonly CliDrift[]): string {
  const lines: string[] = [];
  for (const drift of drifts) {
    const pinned = PINNED[drift.cli];
    const clean = drift.changes.length + drift.disagreements.length + drift.failingRuns.length === 0;
    lines.push(`${drift.cli}: pinned ${pinned.version}, checked ${drift.label}: ${clean ? 'no change' : 'CHANGED'}`);
    for (const change of drift.changes) lines.push(`  changed: ${change}`);
    for (const line of drift.disagreements) lines.push(`  fake and release disagree: ${line}`);
    for (const line of drift.failingRuns) lines.push(`  translator check fails with the release: ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the releases as the new pins, and re-records the claude-code goldens when the build can. */
function update(root: string, drifts: readonly CliDrift[]): void {
  const pinsFile = path.join(root, 'test', 'real-programs.json');
  let pins = readFileSync(pinsFile, 'utf8');
  for (const drift of drifts) {
    writePinnedCli(path.join(root, 'harness', 'official-cli', 'pinned'), drift.candidate);
    // The version in place, so the file keeps its layout.
    pins = pins.replace(
      new RegExp(`("${drift.cli}"\\s*:\\s*\\{[^}]*"version"\\s*:\\s*")[^"]*(")`),
      `$1${drift.candidate.version}$2`,
    );
    process.stderr.write(`cli-drift: pinned ${drift.cli} ${drift.candidate.version}\n`);
  }
  writeFileSync(pinsFile, pins);
  const claude = drifts.find((drift) => drift.cli === 'claude');
  if (!claude) return;
  const cli = path.join(root, 'dist', 'cli.js');
  const help = execFileSync(process.execPath, [cli, 'goldens', '--help'], { encoding: 'utf8' });
  if (!help.includes('--from')) {
    process.stderr.write(
      'cli-drift: this build has no `goldens --from`: the claude-code goldens were not re-recorded\n',
    );
    return;
  }
  execFileSync(
    process.execPath,
    [
      cli,
      'goldens',
      '--update',
      '--from',
      'claude-code',
      '--shim',
      claude.executable,
      '--reason',
      `claude-code ${claude.candidate.version} pinned by npm run cli-drift -- --update`,
    ],
    { stdio: 'inherit' },
  );
}

async function main(argv: string[]): Promise<number> {
  const program = new Command('cli-drift')
    .description('compare the newest (or given) official CLI releases with the pinned data')
    .option(
      '--version <name=version>',
      'check this version instead of the newest; repeatable',
      (v, all: string[] = []) => [...all, v],
    )
    .option('--tarball <name=file>', 'check this local package tarball; repeatable', (v, all: string[] = []) => [
      ...all,
      v,
    ])
    .option(
      '--only <name>',
      `check only these CLIs (${OFFICIAL_CLI_NAMES.join(', ')}); repeatable`,
      (v, all: string[] = []) => [...all, v],
    )
    .option('--no-real-mode', 'skip the real-CLI mode runs of the reference translators')
    .option('--update', 'record the checked releases as the new pins')
    .exitOverride();
  let flags: DriftFlags;
  try {
    program.parse(argv, { from: 'user' });
    flags = program.opts<DriftFlags>();
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    return code === 0 ? 0 : 2;
  }
  try {
    const versions = assignments(flags.version, '--version');
    const tarballs = assignments(flags.tarball, '--tarball');
    for (const name of flags.only ?? [])
      if (!OFFICIAL_CLI_NAMES.includes(name as OfficialCliName))
        throw new UsageError(`--only ${name}: expected one of ${OFFICIAL_CLI_NAMES.join(', ')}`);
    const root = findPackageRoot();
    const drifts: CliDrift[] = [];
    for (const cli of OFFICIAL_CLI_NAMES) {
      if (flags.only && !flags.only.includes(cli)) continue;
      const tarball = tarballs.get(cli);
      const version = versions.get(cli);
      const source: CandidateSource = tarball
        ? { kind: 'tarball', file: tarball }
        : version
          ? { kind: 'version', version }
          : { kind: 'latest' };
      drifts.push(await driftOf(root, cli, source, flags));
    }
    process.stdout.write(report(drifts));
    if (flags.update) update(root, drifts);
    return drifts.some((drift) => drift.changes.length + drift.disagreements.length + drift.failingRuns.length > 0)
      ? 1
      : 0;
  } catch (error) {
    process.stderr.write(`cli-drift: ${(error as Error).message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
