// The Windows paths, end to end under Wine (R20). This is not Windows: Debian's Wine 8 runs the official Windows
// Node builds, with stand-ins only for what Wine lacks (scripts/platforms-wine-setup.mjs builds them from
// test/platforms/wine-stand-ins/: a git doing only the runner's `git init`, a powershell.exe answering only the
// process table's query, a bash.exe that has the lane's relay run Debian's /bin/bash, wine-bash-relay.ts). Wine's
// own cmd.exe and taskkill stay (its taskkill has no /T, so every tree kill takes the per-pid fallback). The
// runner (dist/cli.js) plays the reference shim started through a .cmd.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOWS_PROCESS_QUERY } from '../../common/windows-processes.js';
import { writeAuthHelpers } from '../../harness/mock/auth-helpers.js';
import { ensureWinePlatform } from '../../scripts/platforms-wine-setup.mjs';
import { type BashRelay, describeCommands, RELAY_VARIABLE, startBashRelay } from './wine-bash-relay.js';
import {
  type LaneRun,
  type RunnerPass,
  runnerPass,
  runUnderWine,
  startWineSession,
  type WinePlatform,
  windowsPath,
  writeCmdShim,
  writeFixtureCmdShim,
} from './wine-lane.js';

const REQUIRED = ['plain-text', 'single-tool', 'multi-tool', 'tool-error', 'interrupt'];
const BOTH_PROVIDERS = [...REQUIRED, 'persistent-interrupt', 'kill-and-resume'];
/** The scenarios that need bash (R11), on both providers: the shim's own Bash tool, and the fake CLI's. */
const BASH_SCENARIOS = [
  'interrupt-during-bash',
  'kill-and-resume-bash',
  'large-tool-output',
  'silent-command',
  'unicode-tool-output',
];
/**
 * The app-style kill on the other CLI ids, each of which starts its CLI its own way through a .cmd (gemini's
 * launcher relaunches itself as a worker; codex reads stdin). The REST ids run in the shim's one Node, as
 * openai-chat does; they were played too while the shim's end with its starter was built, with the same outcome.
 */
const OTHER_PROVIDERS = ['gemini-cli', 'codex-cli'];
const PASS_TIMEOUT_MS = 420_000;
/** The hanging shim's timeout: long enough for Windows Node to start under a loaded Wine, short for the lane. */
const HANG_TIMEOUT_MS = 20_000;
/**
 * The lane's table of expected statuses: every run of the passes below passes, except those listed here with
 * their status, the rules that decide it and why. A run may be listed only where Wine itself leaves its status
 * undecidable (a not-verified record of cause `platform`, with the reason), never to excuse a failure: today none
 * is (the pass without the PowerShell stand-in has its own test below).
 */
const EXPECTED: Record<string, { status: 'not-verified'; rules: string[]; reason: string }> = {};

let platform: WinePlatform;
let dir: string;
let session: Awaited<ReturnType<typeof startWineSession>> | undefined;
let relay: BashRelay | undefined;
const passes: Record<string, RunnerPass> = {};
const startedAt = Date.now();

/** Where each pass's JSON report is kept (reports/ as CI keeps it). */
const REPORTS = path.resolve('reports', 'wine-lane');

const pick = (list: string[], flag: string) => list.flatMap((value) => [flag, value]);

beforeAll(async () => {
  platform = await ensureWinePlatform();
  const setupMs = Date.now() - startedAt;
  dir = mkdtempSync(path.join(tmpdir(), 'yume-wine-lane-'));
  const sessionStarts = path.join(dir, 'session-starts');
  session = await startWineSession(platform, { outDir: dir, startsDir: sessionStarts });
  relay = await startBashRelay({ prefix: platform.prefix });
  const capabilities = path.join(dir, 'capabilities.json');
  // The reference shim's own capabilities, flat dialect only: one run per scenario and provider.
  writeFileSync(
    capabilities,
    JSON.stringify({
      name: 'reference shim through a .cmd',
      providers: ['openai-chat', 'claude-cli', ...OTHER_PROVIDERS],
      persistent: true,
      dialect: 'flat',
      features: ['resume', 'persistent', 'cli', 'bash'],
    }),
  );
  const shim22 = writeCmdShim(path.join(dir, '22'), platform.nodes['22']);
  const shim20 = writeCmdShim(path.join(dir, '20'), platform.nodes['20']);
  const hanging = writeFixtureCmdShim(path.join(dir, 'hang'), platform.nodes['22'], 'hangs-forever.mjs');
  // Fewer runs at a time than the default: every process-table sample starts wmic, which Wine's WMI serves one by one.
  const common = [
    '--capabilities',
    windowsPath(capabilities),
    '--invocation',
    'spec',
    '--profile',
    'spec',
    '--jobs',
    '4',
    // Where the bash.exe stand-ins find the relay (the runner hands a shim only the variables it is given).
    '--env',
    `${RELAY_VARIABLE}=${relay.address}`,
  ];
  const pass = (name: string, major: '20' | '22', standIns: string, args: string[]) =>
    runnerPass(platform, {
      major,
      standIns,
      args,
      outDir: path.join(dir, name),
      timeoutMs: PASS_TIMEOUT_MS,
      sessionStarts,
    }).then((result) => {
      passes[name] = result;
    });
  // The passes wait on Wine far more than they use the cores: side by side. The Bash and kill passes start once the
  // short ones have ended, beside node22 only, so no more runs share Wine at once than before they were added (every
  // process-table sample waits on Wine's WMI, which serves one query at a time): with all eight side by side, two
  // lane runs on a loaded machine each had a claude-cli run of node22 fail, one on its moment's 8 s fallback, one on
  // a CLI start that failed.
  const node22 = pass('node22', '22', platform.standIns.all, [
    windowsPath(shim22),
    ...common,
    ...pick(BOTH_PROVIDERS, '--scenario'),
    '--provider',
    'openai-chat',
    '--provider',
    'claude-cli',
  ]);
  await Promise.all([
    pass('node22-bad-argument', '22', platform.standIns.all, [
      windowsPath(shim22),
      ...common,
      '--scenario',
      'bad-argument',
      '--provider',
      'openai-chat',
    ]),
    pass('node20', '20', platform.standIns.all, [
      windowsPath(shim20),
      ...common,
      ...pick(REQUIRED, '--scenario'),
      '--provider',
      'openai-chat',
    ]),
    pass('no-powershell', '22', platform.standIns.gitOnly, [
      windowsPath(shim22),
      ...common,
      '--scenario',
      'kill-and-resume',
      '--provider',
      'openai-chat',
    ]),
    // A shim that never answers: the timeout ends it through Wine's taskkill failing and the per-pid fallback.
    pass('hang', '22', platform.standIns.all, [
      windowsPath(hanging),
      ...common,
      '--scenario',
      'plain-text',
      '--provider',
      'openai-chat',
      '--timeout',
      String(HANG_TIMEOUT_MS),
    ]),
    pass('percent', '22', platform.standIns.all, [
      windowsPath(shim22),
      ...common,
      '--scenario',
      'plain-text',
      '--provider',
      'openai-chat',
      '--shim-arg',
      '100%',
    ]),
  ]);
  await Promise.all([
    node22,
    pass('bash', '22', platform.standIns.all, [
      windowsPath(shim22),
      ...common,
      ...pick(BASH_SCENARIOS, '--scenario'),
      '--provider',
      'openai-chat',
      '--provider',
      'claude-cli',
    ]),
    pass('kill-other-providers', '22', platform.standIns.all, [
      windowsPath(shim22),
      ...common,
      '--scenario',
      'kill-and-resume',
      ...pick(OTHER_PROVIDERS, '--provider'),
    ]),
  ]);
  const lines = [
    `Windows paths under Wine (not Windows): ${platform.wine}, prefix ${platform.prefix}`,
    `stand-ins: ${platform.standIns.all} (git.exe, powershell.exe, bash.exe); without PowerShell: ${platform.standIns.gitOnly} (git.exe)`,
    `bash.exe: a stand-in whose relay (${relay.address}) runs Debian's ${relay.version} on the Linux side`,
    `  commands: ${describeCommands(relay.commands()) || 'none'}; left running: ${relay.leftovers().join(', ') || 'none'}`,
    `Wine session started before the passes: ${session.seen.join(', ')}`,
    `setup ${(setupMs / 1000).toFixed(1)} s, passes ${((Date.now() - startedAt - setupMs) / 1000).toFixed(1)} s`,
    ...Object.entries(passes).flatMap(([name, result]) => [
      `${name}: exit ${result.exitCode} in ${(result.ms / 1000).toFixed(1)} s`,
      ...(result.report?.runs ?? []).map(
        // A run that did not pass says why, so a status that changes between lane runs can be traced.
        (run) =>
          `  ${run.status === 'passed' ? `${run.scenario} ${run.provider}${run.seed === undefined ? '' : ` seed ${run.seed}`}: passed` : describeRun(run)}`,
      ),
    ]),
  ];
  console.log(lines.join('\n'));
  // Each pass's report (runs with their timelines) is kept, as CI keeps reports/, so a run whose status changed
  // can be traced after the lane's folder is gone.
  mkdirSync(REPORTS, { recursive: true });
  for (const [name, result] of Object.entries(passes))
    writeFileSync(path.join(REPORTS, `${name}.json`), `${JSON.stringify(result.report ?? null, null, 2)}\n`);
}, 900_000);

afterAll(async () => {
  await relay?.stop();
  session?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runsOf(name: string): LaneRun[] {
  const result = passes[name]!;
  expect(result.report, `${name}: no report; stderr: ${result.stderr.slice(-2000)}`).toBeDefined();
  return result.report!.runs;
}

/** The Bash command a scenario's model calls (transcripts/<id>/scenario.json). */
function bashCommandOf(scenario: string): string {
  const file = path.resolve('transcripts', scenario, 'scenario.json');
  const { turns } = JSON.parse(readFileSync(file, 'utf8')) as {
    turns: { responses: { toolCalls?: { name: string; input: { command?: string } }[] }[] }[];
  };
  const calls = turns.flatMap((turn) => turn.responses.flatMap((response) => response.toolCalls ?? []));
  return calls.find((call) => call.name === 'Bash')!.input.command!;
}

const notVerifiedText = (run: LaneRun) =>
  (run.notVerified ?? []).map((record) => `${record.rule ?? 'run'} [${record.cause}]: ${record.reason}`).join('; ');

const describeRun = (run: LaneRun) =>
  `${run.scenario} ${run.provider}${run.seed === undefined ? '' : ` seed ${run.seed}`}: ${run.status} ${run.error ?? ''} ${notVerifiedText(run)} ${run.findings
    .filter((finding) => finding.severity === 'MUST')
    .map((finding) => `${finding.rule}: ${finding.message}`)
    .join('; ')}`;

/** Whether the run holds a not-verified record of cause platform for `rule` whose reason contains `reason`. */
const notVerifiedForPlatform = (run: LaneRun, rule: string, reason: string) =>
  (run.notVerified ?? []).some(
    (record) => record.rule === rule && record.cause === 'platform' && record.reason.includes(reason),
  );

/** The run's status is the one the table expects; a listed not-verified run names the rules and their cause. */
function expectStatus(run: LaneRun): void {
  const expected = EXPECTED[`${run.scenario} ${run.provider}`];
  expect(run.status, describeRun(run)).toBe(expected?.status ?? 'passed');
  if (expected)
    for (const rule of expected.rules)
      expect(notVerifiedForPlatform(run, rule, expected.reason), describeRun(run)).toBe(true);
}

describe('the runner under Windows Node on Wine', () => {
  it('plays the required scenarios, persistent-interrupt and kill-and-resume on both providers (Node 22)', () => {
    const runs = runsOf('node22');
    // The runner adds the two re-chunked variants of single-tool and multi-tool on openai-chat (R12).
    expect(runs.map((run) => `${run.scenario} ${run.provider} ${run.seed ?? ''}`.trim()).sort()).toEqual(
      [
        ...BOTH_PROVIDERS.flatMap((scenario) => [`${scenario} openai-chat`, `${scenario} claude-cli`]),
        ...['single-tool', 'multi-tool'].flatMap((scenario) => [1, 2].map((seed) => `${scenario} openai-chat ${seed}`)),
      ].sort(),
    );
    for (const run of runs) expectStatus(run);
  });

  it('plays the required scenarios on openai-chat under Node 20, and bad-argument under Node 22', () => {
    const runs = [...runsOf('node20'), ...runsOf('node22-bad-argument')];
    expect(
      runs
        .filter((run) => run.seed === undefined)
        .map((run) => run.scenario)
        .sort(),
    ).toEqual([...REQUIRED, 'bad-argument'].sort());
    for (const run of runs) expectStatus(run);
  });

  it('never ends a run as a harness error', () => {
    for (const result of Object.values(passes))
      for (const run of result.report?.runs ?? []) expect(run.status, describeRun(run)).not.toBe('error');
  });

  it("plays the Bash scenarios on both providers with Debian's bash through the bash.exe stand-in, leaving none running", () => {
    const runs = runsOf('bash');
    expect(runs.map((run) => `${run.scenario} ${run.provider}`).sort()).toEqual(
      BASH_SCENARIOS.flatMap((scenario) => [`${scenario} openai-chat`, `${scenario} claude-cli`]).sort(),
    );
    for (const run of runs) expectStatus(run);
    // The commands that run to their end reached Debian's bash on both providers (the shim's Bash tool, and the
    // fake CLI's) and exited 0; `sleep 30` (when it started before the interrupt or the kill) never ran to its end.
    const commands = relay!.commands();
    for (const scenario of ['large-tool-output', 'silent-command', 'unicode-tool-output']) {
      const ends = commands.filter((record) => record.command === bashCommandOf(scenario)).map((record) => record.end);
      // Once per provider (more if a run was played again).
      expect(ends.length, describeCommands(commands)).toBeGreaterThanOrEqual(2);
      expect(new Set(ends), describeCommands(commands)).toEqual(new Set(['exit 0']));
    }
    for (const record of commands.filter((candidate) => candidate.command === 'sleep 30'))
      expect(record.end).toBe('with its stand-in');
    // Each command's process group ended with its stand-in, the Linux side of every tree kill included.
    expect(relay!.leftovers()).toEqual([]);
  });

  it('leaves nothing behind after the app-style kill of the pid it started (cmd.exe), on every provider', () => {
    const killed = [...runsOf('node22'), ...runsOf('kill-other-providers'), ...runsOf('bash')].filter((run) =>
      run.scenario.startsWith('kill-and-resume'),
    );
    expect(killed.map((run) => `${run.scenario} ${run.provider}`).sort()).toEqual(
      [
        ...['openai-chat', 'claude-cli', ...OTHER_PROVIDERS].map((provider) => `kill-and-resume ${provider}`),
        'kill-and-resume-bash openai-chat',
        'kill-and-resume-bash claude-cli',
      ].sort(),
    );
    for (const run of killed) {
      expectStatus(run);
      // cmd.exe is killed with the reference shim's Node (and on the CLI ids the CLI's .cmd) below it: they end
      // with their starter, and nothing is left for the harness to end.
      expect(run.timeline).toMatch(/SIGKILL to the shim's pid \d+ .*its tree right before: .*node\.exe/);
      expect(
        run.findings.filter((finding) => finding.rule.startsWith('process.')),
        describeRun(run),
      ).toEqual([]);
      // Nothing was left for the harness to end (a loaded machine may still make it look: it then ends nothing).
      expect(run.timeline, describeRun(run)).not.toMatch(/turn 2: exited [^\n]*ended: /);
    }
  });

  it("ends a shim that hangs with process.timeout, through Wine's taskkill failing and the per-pid fallback", () => {
    const [run] = runsOf('hang');
    expect(run!.status, describeRun(run!)).toBe('failed');
    const must = run!.findings.filter((finding) => finding.severity === 'MUST').map((finding) => finding.rule);
    expect(must, describeRun(run!)).toContain('process.timeout');
    // Everything of its tree was ended: nothing is reported as left running or unendable.
    expect(must, describeRun(run!)).not.toContain('process.descendants-gone');
    expect(run!.timeline).toMatch(
      /timed out, tree killed by the harness, .*taskkill \/pid \d+ \/T \/F failed \(exit 1.*each pid of the tree's snapshot was ended/,
    );
  });

  it('without the PowerShell stand-in, says the process rules are not verified, and why', () => {
    const [run] = runsOf('no-powershell');
    expect(run!.status, describeRun(run!)).toBe('not-verified');
    for (const rule of ['process.descendants-gone', 'process.orphaned-tools'])
      expect(
        notVerifiedForPlatform(
          run!,
          rule,
          'the process table could not be read (powershell.exe Get-CimInstance Win32_Process',
        ),
        describeRun(run!),
      ).toBe(true);
  });

  it('refuses a % on the command line of a .cmd shim with its message', () => {
    const result = passes.percent!;
    expect(result.exitCode).toBe(2);
    expect(`${result.stdout}${result.stderr}`).toContain('cannot pass the argument "100%" to the batch file');
  });

  it('answers the process query alone with the stand-in, the query the table sends', () => {
    const source = readFileSync(new URL('./wine-stand-ins/powershell.cjs', import.meta.url), 'utf8');
    expect(source).toContain(JSON.stringify(WINDOWS_PROCESS_QUERY).slice(1, -1).replace(/\\"/g, '"'));
  });

  it("prints the fake gcloud token byte for byte through Wine's cmd.exe", async () => {
    const bin = path.join(dir, 'auth-helpers');
    await writeAuthHelpers(bin);
    const result = await runUnderWine(
      platform,
      ['cmd.exe', '/d', '/c', `${windowsPath(path.join(bin, 'gcloud.cmd'))} auth print-access-token`],
      { outDir: path.join(dir, 'gcloud'), timeoutMs: 60_000 },
    );
    expect(result.stdout).toBe('ya29.yume-conformance-gcloud-dummy\n');
  });
});
