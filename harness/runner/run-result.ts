// A run's result as the reports read it: its identity, status and findings, and what it recorded (processes,
// requests, timeline). Built here for each way a run ends: judged, not attempted, or stopped by a harness fault.
import type { MockServer } from '../mock/mock-server.js';
import { requiredUnder } from '../mock/scenario/scenario-types.js';
import { runShimCpuMs } from '../process/shim-process.js';
import { runFinding } from '../rules/finding.js';
import { notVerifiedLine, notVerifiedText } from '../rules/not-verified.js';
import type { Finding } from '../rules/types.js';
import type { CheckOutput } from './checks/check-run.js';
import type { ExecutedProcess } from './execution/execute-run.js';
import { capPerRule, causesFirst } from './finding-order.js';
import type { Preflight } from './preflight.js';
import { machineUndecided } from './results/machine-undecided.js';
import { specIdentity } from './results/run-identity.js';
import type { ProcessRecord, RequestRecord, RunResult, RunSpec } from './results/run-types.js';
import type { RunClock } from './run-clock.js';

type BaseResult = Omit<RunResult, 'status' | 'findings' | 'durationMs' | 'processes' | 'requests' | 'timeline'>;

function baseResult(spec: RunSpec): BaseResult {
  return { ...specIdentity(spec), required: requiredUnder(spec.scenario, spec.profile) };
}

/** A run that was not attempted. */
export function notVerifiedResult(spec: RunSpec, check: Preflight): RunResult {
  const findings: Finding[] = [];
  const required = requiredUnder(spec.scenario, spec.profile);
  const limitation = check.limitation;
  if (required && !limitation) {
    findings.push(
      runFinding(
        'scenario.required-verified',
        `required scenario ${spec.scenario.id} is not verified for ${spec.provider}: ${check.notVerified ? notVerifiedText(check.notVerified) : ''}`,
      ),
    );
  }
  return {
    ...baseResult(spec),
    status: required && limitation ? 'partial' : 'not-verified',
    findings,
    ...(check.notVerified ? { notVerified: [check.notVerified] } : {}),
    ...(limitation ? { limitation } : {}),
    durationMs: 0,
    processes: [],
    requests: [],
    timeline: [],
  };
}

/** The result of a run the harness could not carry through: status error, with what failed and where. */
export function harnessErrorResult(spec: RunSpec, error: unknown, durationMs: number): RunResult {
  const where = error instanceof Error ? error.stack?.split('\n')[1]?.trim() : undefined;
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    ...baseResult(spec),
    status: 'error',
    findings: [],
    error: `internal error in the harness (not a verdict on the shim): ${what}${where ? ` (${where})` : ''}`,
    durationMs: Math.round(durationMs),
    processes: [],
    requests: [],
    timeline: [],
  };
}

/** What a judged run's result is made of. */
export interface JudgedRun {
  spec: RunSpec;
  checked: CheckOutput;
  processes: ExecutedProcess[];
  mock: MockServer;
  clock: RunClock;
  /** Credential-like values of the run's environment and its dummy keys, for redaction. */
  secrets: string[];
  directories: { workspace: string; home: string };
}

/** The result of a run the harness carried through: its status decided from its checks. */
export function judgedResult(run: JudgedRun): RunResult {
  const { spec, checked, processes, clock } = run;
  const startFailure = processes.find((executed) => executed.exit.spawnError)?.exit.spawnError;
  const limited = checked.limitations.length > 0;
  const incomplete = checked.notVerified.length > 0;
  const findings = [...checked.findings, ...requiredNotVerified(spec, checked)];
  const failed = findings.some((finding) => finding.severity === 'MUST');
  // Checks a run of this kind cannot make (a real CLI's inner workings) leave a required run partial.
  const status = failed ? 'failed' : incomplete ? 'not-verified' : limited ? 'partial' : 'passed';
  const unverified = [...checked.notVerified, ...checked.limitations];
  const undecided = machineUndecided(checked.notVerified);
  const shimCpuMs = runShimCpuMs(processes.map((executed) => executed.exit));
  return {
    ...baseResult(spec),
    ...(checked.dialectSeen ? { dialectSeen: checked.dialectSeen } : {}),
    status,
    findings: causesFirst(capPerRule(findings)),
    ...(unverified.length > 0 ? { notVerified: unverified } : {}),
    ...(limited ? { limitation: notVerifiedLine(checked.limitations) } : {}),
    ...(undecided.length > 0 ? { machineUndecided: undecided } : {}),
    durationMs: clock.elapsedMs(),
    processes: processes.map((executed, index) => toProcessRecord(executed, checked.goldens[index])),
    requests: toRequestRecords(run.mock),
    timeline: clock.timeline,
    ...(startFailure ? { startFailure } : {}),
    secrets: run.secrets,
    directories: run.directories,
    phases: clock.phases,
    ...(shimCpuMs === undefined ? {} : { shimCpuMs }),
  };
}

/**
 * A required scenario some check of which was not verified fails scenario.required-verified. A check the machine
 * left undecided is played again (harness/suite/replay.ts), not turned into a failure here.
 */
function requiredNotVerified(spec: RunSpec, checked: CheckOutput): Finding[] {
  const unexplained = checked.notVerified.filter((record) => record.cause !== 'machine');
  if (unexplained.length === 0 || !requiredUnder(spec.scenario, spec.profile)) return [];
  return [
    runFinding(
      'scenario.required-verified',
      `required scenario ${spec.scenario.id} is not fully verified for ${spec.provider}: ${notVerifiedLine(unexplained)}`,
    ),
  ];
}

function toRequestRecords(mock: MockServer): RequestRecord[] {
  return mock.requests().map((request) => ({
    index: request.index,
    turn: request.turn,
    method: request.method,
    path: request.path,
    status: request.status,
    outcome: request.outcome,
    elapsedMs: request.elapsedMs,
    closedByClient: request.closedByClient,
    // Whole: --artifacts writes it as sent; the JSON report and the HTML page cut it (report/run-output.ts).
    body: request.rawBody,
  }));
}

function toProcessRecord(process: ExecutedProcess, golden?: string): ProcessRecord {
  return {
    label: process.label,
    turns: process.turns,
    argv: process.argv,
    stdout: process.exit.stdout,
    stderr: process.exit.stderr.toString('utf8'),
    exitCode: process.exit.exitCode,
    signal: process.exit.signal,
    ...(golden === undefined ? {} : { goldenText: golden }),
  };
}
