// Everything judged on one shim process of a run (check-run.ts judges the run as a whole): the process as a
// process, its stdout's stream rules, its golden, each of its turns, its interrupts, moments and streaming gate.

import { checkToolOutputs } from '../../golden/compare/tool-output-check.js';
import { buildTurnModels } from '../../golden/golden-model.js';
import type { NormaliseContext } from '../../golden/normalise.js';
import { compactTurnOf } from '../../mock/compaction-requests.js';
import type { OfficialCliBehaviour, ToolOutputCliOptions } from '../../official-cli/behaviour.js';
import type { StreamDialect } from '../../protocol/dialect.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import { type ValidationResult, validateStream } from '../../validate/validate-stream.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import { MACHINE_CAUSE } from '../execution/fair-deadline.js';
import { GATE_WAIT_MS } from '../execution/streaming-gate.js';
import { approvalChecks } from './approval-check.js';
import { type CheckInput, type CheckResult, combined } from './check-types.js';
import { faultOutcomeChecks, missingCliOutcomeChecks, retried } from './fault-outcome-checks.js';
import { deltaOnlyTextCheck, goldenChecks } from './golden-checks.js';
import { interruptChecks, persistentChecks } from './interrupt-checks.js';
import { killedStreamFindings } from './kill-checks.js';
import { momentChecks } from './moment-checks.js';
import { processChecks, secretsCheck } from './process-checks.js';
import { about, eventsOf, prefixed, turnEvents } from './run-events.js';

/** Which process of the run, the paths its stdout normalises, and the official CLI the shim went through. */
export interface ProcessPlace {
  index: number;
  context: NormaliseContext;
  official: OfficialCliBehaviour | undefined;
  /** How the official CLI's tool outputs are compared (its own forms), when the shim used one. */
  cliToolOptions: ToolOutputCliOptions | undefined;
  /** What its stdout validated to (validateProcess); absent for a process that did not start. */
  validation: ValidationResult | undefined;
  /**
   * The dialect its stdout is judged in: its own, or, when it printed only lines both dialects share (killed
   * after `stream_event` deltas, before its first envelope), the run's (dialect-seen.ts, judgedDialect).
   */
  dialect: StreamDialect;
}

/** One process's stdout against the stream rules of the run's profile and mode. */
export function validateProcess(input: CheckInput, process: ExecutedProcess): ValidationResult | undefined {
  if (process.exit.spawnError) return undefined;
  return validateStream(process.exit.stdout, {
    profile: input.profile,
    mode: input.persistent ? 'persistent' : 'spawn-per-turn',
    keepEvents: false,
    compactTurns: process.turns.map((turn) => compactTurnOf(input.scenario, turn)),
  });
}

/** One process judged: its findings and unjudged checks, its golden's text, and what its stdout validated to. */
export interface ProcessChecked extends CheckResult {
  golden: string | undefined;
  /** Absent for a process that did not start. */
  validation?: ValidationResult;
}

export function perProcessChecks(input: CheckInput, process: ExecutedProcess, place: ProcessPlace): ProcessChecked {
  const asProcess = processChecks(process, input.persistent);
  const { validation, dialect } = place;
  if (!validation) return { ...asProcess, golden: undefined };
  const judged = input.invocation === 'spec' ? validation.findings.filter(notCausedBySpecStart) : validation.findings;
  const streamFindings = process.killed ? killedStreamFindings(judged, process) : judged;
  const golden = input.recordOnly ? undefined : goldenChecks(input, process, place);
  const persistent = input.persistent
    ? [
        persistentChecks(process, input.scenario),
        findingsOnly(approvalChecks(input.scenario, process.turns, (turn) => turnEvents(process, turn))),
      ]
    : [];
  const all = combined([
    asProcess,
    findingsOnly([...prefixed(streamFindings, process.label), ...secretsCheck(process)]),
    golden ?? findingsOnly([]),
    findingsOnly(turnChecks(input, process, place, dialect)),
    interruptChecks(process, { scenario: input.scenario, persistent: input.persistent, dialect }),
    findingsOnly(deltaOnlyTextCheck(process, dialect)),
    ...persistent,
    momentChecks(process),
    gateChecks(process),
  ]);
  return { ...all, golden: golden?.golden, validation };
}

/**
 * The spec invocation's `start` command line asks a shim for the flat dialect (R1a): a flat stream there is what
 * the runner asked for, never a warning of the app's profile (docs/protocol.md#r1a-the-reference-shim-speaks-the-app-dialect-when-the-app-starts-it).
 */
const notCausedBySpecStart = (finding: Finding) => finding.rule !== 'app.flat-dialect';

function findingsOnly(findings: Finding[]): CheckResult {
  return { findings, notVerified: [] };
}

/** Per turn of the process: its tool outputs, and how a turn with a fault or a missing CLI ended. */
function turnChecks(
  input: CheckInput,
  process: ExecutedProcess,
  place: ProcessPlace,
  dialect: StreamDialect,
): Finding[] {
  const { context, official, cliToolOptions } = place;
  const models = buildTurnModels(eventsOf(process), context);
  return process.turns.flatMap((turnIndex, position) => {
    const turn = input.scenario.turns[turnIndex]!;
    const model = input.persistent ? models[position] : models[0];
    const findings = prefixed(
      checkToolOutputs(turn, model, { context, ...(cliToolOptions ? { cli: cliToolOptions } : {}) }),
      process.label,
    );
    // A CLI that drops a malformed event ends that turn as a success: its outcome is the CLI's.
    if (!official?.ownsOutcome(turn))
      findings.push(
        ...faultOutcomeChecks(turn, turnIndex, turnEvents(process, turnIndex), {
          label: process.label,
          retriesVisible: (official?.showsRetries() ?? true) && retried(input, turnIndex),
          dialect,
        }),
      );
    if (input.scenario.cli === 'missing')
      findings.push(...missingCliOutcomeChecks(turnIndex, turnEvents(process, turnIndex), process.label));
    return findings;
  });
}

/** The streaming gate (streaming.incremental): text withheld by the mock until the shim printed the first chunk. */
function gateChecks(process: ExecutedProcess): CheckResult {
  const turns = (list: number[]) => list.map((turn) => turn + 1).join(', ');
  return {
    findings:
      process.gateTimeouts.length > 0
        ? [
            runFinding(
              'streaming.incremental',
              about(
                process.label,
                `no assistant text appeared on stdout within ${GATE_WAIT_MS / 1000} s after the provider streamed the first text chunk of turn ${turns(process.gateTimeouts)}; the text seems to be printed only once the message is complete`,
              ),
            ),
          ]
        : [],
    notVerified:
      process.gatesUndecided.length > 0
        ? [
            checkNotVerified(
              'streaming.incremental',
              'machine',
              about(
                process.label,
                `no assistant text on stdout by the end of the gate's wait in turn ${turns(process.gatesUndecided)}, but the machine's load (${MACHINE_CAUSE}) took most of that wait: too busy to judge`,
              ),
            ),
          ]
        : [],
  };
}
