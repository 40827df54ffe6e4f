// The checks of one run, judged on what execute-run.ts observed: each process (per-process-checks.ts), then
// the run as a whole: its side effects, the provider side (mock requests or the official CLI's log), session
// files and resumes, the dialect seen, and a scenario's bad argument.
import type { NormaliseContext } from '../../golden/normalise.js';
import { checkProviderRequests } from '../../mock/request-checks.js';
import type { OfficialCliBehaviour } from '../../official-cli/behaviour.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified, type NotVerified } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import { judgedDialect, runDialect } from '../results/dialect-seen.js';
import { checkWorkspace } from '../setup/workspace.js';
import { deniesACall } from './approval-check.js';
import { argumentErrorCheck } from './argument-error-check.js';
import type { CheckInput, CheckOutput } from './check-types.js';
import { compactionChecks } from './compaction-checks.js';
import { outsideCwdChecks } from './outside-cwd-check.js';
import { outsideWritesCheck } from './outside-writes-check.js';
import { perProcessChecks, validateProcess } from './per-process-checks.js';
import { about, eventsOf, turnEvents } from './run-events.js';
import { resumeChecks, sessionFileCheck } from './session-checks.js';

export type { CheckInput, CheckOutput };

export async function checkRun(input: CheckInput): Promise<CheckOutput> {
  const context: NormaliseContext = { workspace: input.workspace, home: input.home };
  const started = input.processes.filter((process) => !process.exit.spawnError);
  // The official CLI the shim used (R7: under yume-app the gemini/openai ids offer both backends).
  const official = input.cli?.behaviour.startedIn(input.cli.log) ? input.cli.behaviour : undefined;
  const cliToolOptions = official?.toolOutputOptions({
    ...context,
    workspace: input.workspace,
    requests: input.requests,
  });
  const validations = input.processes.map((process) => validateProcess(input, process));
  const printed = runDialect(validations.flatMap((validation) => (validation ? [validation] : [])));
  const checked = input.processes.map((process, index) => {
    const validation = validations[index];
    const dialect = judgedDialect(validation, { printed, asked: input.dialect });
    return perProcessChecks(input, process, { index, context, official, cliToolOptions, validation, dialect });
  });
  const out: CheckOutput = {
    findings: checked.flatMap((one) => one.findings),
    notVerified: [...started.flatMap(untiedRecords), ...checked.flatMap((one) => one.notVerified)],
    limitations: [],
    goldens: checked.map((one) => one.golden),
  };
  if (started.length === 0) return out;
  const provider = providerChecks(input, official);
  const findings = [
    ...out.findings,
    ...(await sideEffectChecks(input, started)),
    ...provider.findings,
    ...sessionFileCheck(input),
    ...resumeChecks(input),
    ...compactionChecks(input),
  ];
  return {
    ...out,
    findings: withArgumentErrorVerdict(input, findings),
    limitations: provider.limitations,
    ...(printed ? { dialectSeen: printed } : {}),
  };
}

/** Without a cgroup (this platform or setup) the harness cannot tell what the shim started. */
function untiedRecords(process: ExecutedProcess): NotVerified[] {
  const untied = process.exit.untied ?? [];
  if (untied.length === 0) return [];
  return [
    checkNotVerified(
      'process.orphaned-tools',
      'platform',
      about(
        process.label,
        `process isolation: ${untied.length} process(es) orphaned to init started during the run with nothing tying them to it (${untied.map((info) => `${info.name} pid ${info.pid}`).join(', ')}); without a cgroup the harness cannot tell whether the shim started them, so they were not killed`,
      ),
    ),
  ];
}

/** Side effects: workspace-after/ when the scenario changes files, otherwise the untouched fixtures. */
async function sideEffectChecks(input: CheckInput, started: ExecutedProcess[]): Promise<Finding[]> {
  const { scenario } = input;
  const expectedDir = scenario.workspaceAfterDir ?? scenario.workspaceDir;
  const expectedLabel = scenario.workspaceAfterDir
    ? `transcripts/${scenario.id}/workspace-after/`
    : `the fixtures (transcripts/${scenario.id}/workspace/, which this scenario must not change)`;
  const workspaceFindings = await checkWorkspace(
    expectedDir,
    input.workspace,
    expectedLabel,
    input.cli?.leftoverDirs ?? [],
  );
  const denied = scenario.permissionMode === 'deny';
  const deniedByApproval = deniesACall(scenario);
  return [
    ...outsideCwdChecks(scenario, input.workspace, started.flatMap(eventsOf)),
    ...(input.runFolder ? outsideWritesCheck(input.runFolder.root, input.runFolder.made) : []),
    ...workspaceFindings.map((finding) =>
      denied
        ? runFinding('workspace.deny-untouched', finding.message)
        : deniedByApproval
          ? runFinding('permission.approval-honoured', `${finding.message} (a call denied by tool_approval ran)`)
          : finding,
    ),
  ];
}

/** Provider side: the REST mock's requests, or the official CLI's log, whichever the shim was to use. */
function providerChecks(
  input: CheckInput,
  official: OfficialCliBehaviour | undefined,
): { findings: Finding[]; limitations: NotVerified[] } {
  const usedMock = input.requests.some((request) => request.provider === input.provider.mock);
  const usedCli = official !== undefined;
  const findings: Finding[] = [];
  const limitations: NotVerified[] = [];
  if (input.provider.kind === 'rest' && (usedMock || !usedCli)) {
    findings.push(...checkProviderRequests(input.scenario, input.provider.mock, input.requests));
  }
  if (input.cli && (input.cli.required || usedCli)) {
    const use = cliUseChecks(input, input.cli);
    findings.push(...use.findings);
    limitations.push(...use.limitations);
  }
  if (input.provider.kind === 'cli' && !usedCli && usedMock) {
    findings.push(...checkProviderRequests(input.scenario, input.provider.mock, input.requests));
  }
  return { findings, limitations };
}

/** How the shim used the official CLI, from the CLI's log (official-cli/behaviour.ts). */
function cliUseChecks(input: CheckInput, cli: NonNullable<CheckInput['cli']>) {
  return cli.behaviour.checkUse({
    scenario: input.scenario,
    log: cli.log,
    requests: input.requests,
    provider: input.provider.mock,
    eventsByTurn: input.persistent
      ? input.scenario.turns.map((_, turn) => turnEvents(input.processes[0]!, turn))
      : input.processes.map((process) => eventsOf(process)),
    interrupted: input.processes.flatMap((process) =>
      process.interrupts
        .filter((record) => record.delivered)
        .map((record) => ({
          turn: record.turn,
          endedByHarness: [...process.exit.descendantsKilled, ...process.exit.descendantsLeft],
        })),
    ),
    workspace: input.workspace,
    required: cli.required,
  });
}

/** A scenario with a bad argument: Claude Code's silent argument error decides which findings still apply. */
function withArgumentErrorVerdict(input: CheckInput, findings: Finding[]): Finding[] {
  const badArgument = input.scenario.badArgument;
  const first = input.processes[0];
  if (!badArgument || !first) return findings;
  const verdict = argumentErrorCheck(first, eventsOf(first), badArgument, input.dialect);
  return [...findings.filter(verdict.applies), ...verdict.findings];
}
