// The per-run checks, on what execute-run.ts observed: the validator's rules per
// process output, the golden comparison (R10), workspace side effects, provider requests or fake-CLI use,
// credentials, the session file (R8), fault outcomes (R5), exit and process tree (R5, R6), interrupt (R6),
// persistent-mode stdin handling, and real streaming.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkFakeCliRun, loggedByWrapper } from '../official-cli/checks.js';
import { checkObservedCliRun } from '../official-cli/real/observed-checks.js';
import type { FakeCliLogEntry } from '../official-cli/state.js';
import type { RecordedRequest } from '../mock/mock-server.js';
import { checkProviderRequests } from '../mock/request-checks.js';
import { requestView } from '../mock/request-views.js';
import type { LoadedScenario, Turn } from '../mock/scenario-types.js';
import type { CanonicalEvent } from '../protocol/canonical.js';
import { excerptOf } from '../protocol/lines.js';
import { validatorFor, describeSchemaError } from '../protocol/schemas.js';
import type { Finding, Profile } from '../rules/types.js';
import { validateStream } from '../validate/validate-stream.js';
import { toCanonicalEvents } from '../protocol/canonical.js';
import { ALL_DUMMY_SECRETS } from './environment.js';
import type { ExecutedProcess } from './execute-run.js';
import { describeInterrupt } from './interrupt-trigger.js';
import { compareWithGolden } from './golden-compare.js';
import { goldenFileName, readGolden } from './golden-files.js';
import { buildTurnModels, type TurnModel } from './golden-model.js';
import type { NormaliseContext } from './normalise.js';
import type { FakeCliName } from '../official-cli/script-types.js';
import type { ProviderEntry } from './providers.js';
import { runFinding } from '../rules/finding.js';
import { checkToolOutputs } from './tool-output-check.js';
import { adjustGoldenForCli, adjustObservedForCli, omissionsOf } from './cli-adjustments.js';
import { type CliOmissions, expectedToolCall } from '../official-cli/omissions.js';
import { stableJson } from './golden-model.js';
import { normaliseToolInput } from './normalise.js';
import { checkWorkspace } from './workspace.js';
import { approvalChecks, deniesACall } from './approval-check.js';
import type { StreamDialect } from '../protocol/dialect.js';
import {
  claudeErrorShown,
  claudeInterruptAcknowledged,
  claudeRetriesReported,
  isClaudeDialect,
  withoutErrorMessage,
} from './claude-forms.js';
import { isAssistantText, isStreamEventText } from './live-stdout.js';
import { outsideCwdChecks } from './outside-cwd-check.js';
import { argumentErrorCheck } from './argument-error-check.js';
import type { Dialect } from './capabilities.js';
import {
  compareKilledWithGolden,
  killedSessionFindings,
  killedStreamFindings,
  orphanedToolFindings,
} from './kill-checks.js';

import { EXIT_GRACE_MS } from './exit-clock.js';

export { EXIT_GRACE_MS };

export interface CheckInput {
  scenario: LoadedScenario;
  provider: ProviderEntry;
  profile: Profile;
  /** The dialect the run asks of the shim (Claude Code's silent argument error conforms only in `claude`). */
  dialect?: Dialect;
  persistent: boolean;
  processes: ExecutedProcess[];
  workspace: string;
  home: string;
  /** The --provider flag value the shim was given (session files live under it, R8). */
  providerFlag?: string;
  requests: RecordedRequest[];
  /**
   * The official CLI on PATH (fake or real, official-cli/backend.ts): its log, what it leaves out of its
   * stdout, and whether the log shows what happens inside it.
   */
  cli?: {
    name: FakeCliName;
    log: FakeCliLogEntry[];
    required: boolean;
    omissions?: CliOmissions;
    logsInside?: boolean;
  };
  recordOnly: boolean;
}

export interface CheckOutput {
  findings: Finding[];
  /** Checks that could not run, with the reason. */
  notVerified: string[];
  /** Checks this kind of run cannot make by design (a real CLI shows no tool runs): reported, not failed. */
  limitations: string[];
  /** Golden text per process (for the HTML report). */
  goldens: (string | undefined)[];
}

/** A message about one process: prefixed with its label when the run has several. */
const about = (label: string, message: string) => (label === 'the shim' ? message : `${label}: ${message}`);

function prefixed(findings: Finding[], label: string): Finding[] {
  return label === 'the shim'
    ? findings
    : findings.map((finding) => ({ ...finding, message: `${label}: ${finding.message}` }));
}

/** ms since process start at which the line `line` was complete. */
function lineTime(process: ExecutedProcess, line: number): number | undefined {
  return process.live.events.find((timed) => timed.event.line === line)?.atMs;
}

function eventsOf(process: ExecutedProcess): CanonicalEvent[] {
  return process.live.events.map((timed) => timed.event);
}

function processChecks(process: ExecutedProcess, persistent: boolean): Finding[] {
  const { exit, label } = process;
  const findings: Finding[] = [];
  if (exit.spawnError) return [runFinding('process.started', about(label, exit.spawnError))];
  const stderrTail =
    exit.stderr.length > 0 ? ` Its stderr ends: ${JSON.stringify(exit.stderr.toString('utf8').slice(-300))}` : '';
  if (exit.timedOut)
    findings.push(
      runFinding(
        'process.timeout',
        about(label, `still running when the timeout ended it; the harness killed its process tree.${stderrTail}`),
      ),
    );
  if (exit.flooded) {
    findings.push(
      runFinding(
        'process.output-flood',
        about(
          label,
          `wrote more than ${exit.stdout.length} bytes to stdout (${exit.stdoutBytes} when stopped); the harness killed its process tree`,
        ),
      ),
    );
  }
  if (exit.stdout.length === 0 && !exit.timedOut) {
    findings.push(
      runFinding(
        'process.no-output',
        about(
          label,
          `exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`}) without printing anything on stdout.${stderrTail}`,
        ),
      ),
    );
  }
  if (process.killed) findings.push(...orphanedToolFindings(process, label));
  else if (exit.stdioHeldOpen) {
    const holders = exit.descendantsKilled.map((info) => `${info.name} (pid ${info.pid})`).join(', ');
    findings.push(
      runFinding(
        'process.stdout-held-open',
        about(
          label,
          `exited, but its stdout/stderr stayed open${holders ? `, held by ${holders}` : ''}; the harness ended them`,
        ),
      ),
    );
  }
  if (exit.descendantsLeft.length > 0 && !exit.timedOut && !process.killed) {
    const names = exit.descendantsLeft.map((info) => `${info.name} (pid ${info.pid})`).join(', ');
    findings.push(
      runFinding(
        'process.descendants-gone',
        about(
          label,
          `left ${exit.descendantsLeft.length} process(es) running after it exited: ${names}; the harness killed them`,
        ),
      ),
    );
  }
  // Exit timing and code, judged on the last result of the process.
  const events = eventsOf(process);
  const lastResult = [...events]
    .reverse()
    .find((event): event is Extract<CanonicalEvent, { kind: 'result' }> => event.kind === 'result');
  if (process.exitClock?.after === 'result') {
    const lingered = (process.exitClock.killedAtMs - process.exitClock.startedAtMs) / 1000;
    findings.push(
      runFinding(
        'process.exit-after-result',
        about(
          label,
          `still running ${lingered.toFixed(1)} s after its last result${lastResult ? ` (line ${lastResult.line})` : ''}; at most ${EXIT_GRACE_MS / 1000} s. The harness ended its process tree`,
        ),
        lastResult ? { line: lastResult.line } : {},
      ),
    );
  } else if (lastResult && exit.exitedAtMs !== undefined && !persistent) {
    const resultAt = lineTime(process, lastResult.line);
    const interrupted = process.interrupts.length > 0;
    if (resultAt !== undefined && exit.exitedAtMs - resultAt > EXIT_GRACE_MS && !interrupted) {
      findings.push(
        runFinding(
          'process.exit-after-result',
          about(
            label,
            `exited ${((exit.exitedAtMs - resultAt) / 1000).toFixed(1)} s after its last result (line ${lastResult.line}); at most ${EXIT_GRACE_MS / 1000} s`,
          ),
          { line: lastResult.line },
        ),
      );
    }
  }
  if (lastResult && exit.exitedAtMs !== undefined && !exit.killedByHarness) {
    if (!lastResult.isError && exit.exitCode !== 0) {
      findings.push(
        runFinding(
          'process.exit-code',
          about(label, `exited with ${exit.signal ?? `code ${exit.exitCode}`} after a success result`),
          { line: lastResult.line },
        ),
      );
    } else if (lastResult.isError) {
      findings.push(
        runFinding(
          'process.exit-code-after-error',
          about(label, `exited with ${exit.signal ?? `code ${exit.exitCode}`} after an error result`),
          { line: lastResult.line },
        ),
      );
    }
  }
  return findings;
}

function secretsCheck(process: ExecutedProcess): Finding[] {
  const findings: Finding[] = [];
  for (const [stream, bytes] of [
    ['stdout', process.exit.stdout],
    ['stderr', process.exit.stderr],
  ] as const) {
    for (const secret of ALL_DUMMY_SECRETS) {
      const at = bytes.indexOf(secret);
      if (at < 0) continue;
      const line = stream === 'stdout' ? bytes.subarray(0, at).toString('latin1').split('\n').length : undefined;
      const lineStart = bytes.lastIndexOf(0x0a, at) + 1;
      findings.push(
        runFinding(
          'secrets.no-credential-echo',
          about(process.label, `the dummy credential ${secret.slice(0, 12)}… appears on ${stream}`),
          {
            ...(line === undefined ? {} : { line }),
            excerpt: excerptOf(bytes, lineStart, Math.min(bytes.length, lineStart + 160)),
          },
        ),
      );
    }
  }
  return findings;
}

/**
 * Whether a request of the turn was answered with an HTTP fault and so retried: recorded by the mock, or (a
 * fake official CLI, which plays the faults itself) the CLI ran the turn to its final event. A CLI that never
 * ran retried nothing, so error.retries-listed has nothing to demand.
 */
function retried(input: CheckInput, turnIndex: number): boolean {
  if (input.requests.some((request) => request.turn === turnIndex && request.outcome === 'http-fault')) return true;
  return (
    input.cli?.log.some(
      (entry) => entry.event === 'exit' && entry.turnIndex === turnIndex && entry.finalEvent === true,
    ) ?? false
  );
}

/** R5's required outcome per injected fault, and recovered retries listed in result.errors. */
function faultOutcomeChecks(
  turn: Turn,
  turnIndex: number,
  events: CanonicalEvent[],
  label: string,
  retriesVisible = true,
  dialect?: StreamDialect,
): Finding[] {
  const result = events.find((event): event is Extract<CanonicalEvent, { kind: 'result' }> => event.kind === 'result');
  if (!result) return []; // turn.result-last reports it
  const faults = turn.responses.flatMap((response) => (response.fault ? [response.fault] : []));
  if (faults.length === 0 || turn.interrupt) return [];
  const where = `turn ${turnIndex + 1}`;
  const findings: Finding[] = [];
  const claude = isClaudeDialect(dialect);
  if (turn.expect.isError) {
    const last = faults.at(-1)!;
    const before = events.filter((event) => event.line < result.line);
    // Claude envelopes may show the error as assistant text before the error result instead.
    if (claude && claudeErrorShown(before, result.isError)) return findings;
    if (last.kind === 'http' && (last.status === 401 || last.status === 403)) {
      if (!before.some((event) => event.kind === 'system' && event.subtype === 'error')) {
        findings.push(
          runFinding(
            'error.fault-outcome',
            about(
              label,
              `${where}: HTTP ${last.status} needs a \`system\` line with subtype "error" (a readable message) before the error result`,
            ),
            { line: result.line },
          ),
        );
      }
    } else if (
      !before.some((event) => event.kind === 'error' || (event.kind === 'system' && event.subtype === 'error'))
    ) {
      const what =
        last.kind === 'http'
          ? `HTTP ${last.status}`
          : last.kind === 'cut'
            ? 'a stream cut mid-event'
            : last.kind === 'malformed'
              ? 'a malformed chunk'
              : `a ${last.kind} fault`;
      findings.push(
        runFinding(
          'error.fault-outcome',
          about(label, `${where}: ${what} needs an \`error\` line before the error result`),
          { line: result.line },
        ),
      );
    }
  } else if (retriesVisible && faults.some((fault) => fault.kind === 'http') && !result.isError) {
    const errors = result.errors;
    const reportedByClaude = claude && claudeRetriesReported(events) > 0;
    if ((!Array.isArray(errors) || errors.length === 0) && !reportedByClaude) {
      findings.push(
        runFinding(
          'error.retries-listed',
          about(
            label,
            `${where}: the turn recovered from ${faults.filter((fault) => fault.kind === 'http').length} failed request(s) but \`result.errors\` does not list them`,
          ),
          { line: result.line },
        ),
      );
    }
  }
  return findings;
}

/** R5 "binary or CLI missing": a `system` error (a readable message), then an error result, and no tool run. */
function missingCliOutcomeChecks(turnIndex: number, events: CanonicalEvent[], label: string): Finding[] {
  const result = events.find((event): event is Extract<CanonicalEvent, { kind: 'result' }> => event.kind === 'result');
  if (!result) return []; // turn.result-last reports it
  const where = `turn ${turnIndex + 1}`;
  const before = events.filter((event) => event.line < result.line);
  const findings: Finding[] = [];
  const systemError = before.find(
    (event): event is Extract<CanonicalEvent, { kind: 'system' }> =>
      event.kind === 'system' && event.subtype === 'error',
  );
  if (!systemError || !result.isError) {
    const saw =
      before.map((event) => (event.kind === 'system' ? `system ${event.subtype}` : event.kind)).join(', ') || 'nothing';
    findings.push(
      runFinding(
        'error.fault-outcome',
        about(
          label,
          `${where}: the official CLI is not installed; expected a \`system\` line with subtype "error" (a readable message) and then an error result, got ${saw} then a ${result.isError ? 'error' : 'success'} result`,
        ),
        { line: result.line },
      ),
    );
  } else if (!systemError.message || systemError.message.trim() === '') {
    findings.push(
      runFinding(
        'error.fault-outcome',
        about(label, `${where}: the \`system\` error about the missing CLI has no readable message`),
        { line: systemError.line },
      ),
    );
  }
  const toolUse = before.find((event) => event.kind === 'tool_use');
  if (toolUse)
    findings.push(
      runFinding(
        'error.fault-outcome',
        about(label, `${where}: a tool call was reported although no CLI could run one`),
        { line: toolUse.line },
      ),
    );
  return findings;
}

/** Events of one turn of a process (persistent processes serve several). */
function turnEvents(process: ExecutedProcess, turnIndex: number): CanonicalEvent[] {
  const start = process.turnStarts.get(turnIndex) ?? 0;
  const events = process.live.events.slice(start).map((timed) => timed.event);
  const end = events.findIndex((event) => event.kind === 'result');
  return end < 0 ? events : events.slice(0, end + 1);
}

function interruptChecks(
  process: ExecutedProcess,
  scenario: LoadedScenario,
  persistent: boolean,
  dialect?: StreamDialect,
): Finding[] {
  const findings: Finding[] = [];
  for (const turnIndex of process.turns) {
    const turn = scenario.turns[turnIndex]!;
    if (!turn.interrupt) continue;
    const record = process.interrupts.find((entry) => entry.turn === turnIndex);
    const events = turnEvents(process, turnIndex);
    if (!record) {
      const result = events.find((event) => event.kind === 'result');
      findings.push(
        runFinding(
          'interrupt.acknowledged',
          about(
            process.label,
            `turn ${turnIndex + 1} ended (line ${result?.line ?? '?'}) before the interrupt was due: the shim did not wait for the stalled stream or the running tool`,
          ),
          result ? { line: result.line } : {},
        ),
      );
      continue;
    }
    findings.push(
      runFinding('interrupt.sent', about(process.label, `turn ${turnIndex + 1}: ${describeInterrupt(record)}`)),
    );
    if (!record.delivered) {
      findings.push(
        runFinding(
          'interrupt.acknowledged',
          about(process.label, `the interrupt could not be delivered (the process had exited or closed stdin)`),
        ),
      );
      continue;
    }
    const atMs = record.atMs;
    const after = process.live.events
      .filter((timed) => timed.atMs >= atMs - 1 && events.includes(timed.event))
      .map((timed) => timed.event);
    const interruptLine = after.find((event) => event.kind === 'interrupt');
    const result = after.find((event): event is Extract<CanonicalEvent, { kind: 'result' }> => event.kind === 'result');
    const flatForm = interruptLine && result?.isError && result.line > interruptLine.line;
    const claudeForm = isClaudeDialect(dialect) && claudeInterruptAcknowledged(after);
    if (!flatForm && !claudeForm) {
      const saw = after.map((event) => event.kind).join(', ') || 'nothing';
      findings.push(
        runFinding(
          'interrupt.acknowledged',
          about(
            process.label,
            `after the interrupt the shim printed ${saw}; expected \`interrupt\` (in Claude envelopes: a user message "[Request interrupted by user]"), then a result with is_error true (${describeInterrupt(record)})`,
          ),
          result ? { line: result.line } : {},
        ),
      );
    }
    if (turn.interrupt === 'during-tool') {
      const uses = events.filter(
        (event): event is Extract<CanonicalEvent, { kind: 'tool_use' }> => event.kind === 'tool_use',
      );
      for (const use of uses) {
        const answer = events.find((event) => event.kind === 'tool_result' && event.toolUseId === use.id);
        if (!answer || (answer.kind === 'tool_result' && !answer.isError)) {
          findings.push(
            runFinding(
              'interrupt.tool-error-result',
              about(
                process.label,
                `the ${use.name} call running at the interrupt (line ${use.line}) ${answer ? 'was answered as a success' : 'got no tool_result'} (${describeInterrupt(record)})`,
              ),
              { line: use.line },
            ),
          );
        }
      }
    }
    if (!persistent && process.exit.exitedAtMs !== undefined && process.exit.exitedAtMs - atMs > EXIT_GRACE_MS) {
      findings.push(
        runFinding(
          'interrupt.exit-in-time',
          about(
            process.label,
            `exited ${((process.exit.exitedAtMs - atMs) / 1000).toFixed(1)} s after SIGINT; at most ${EXIT_GRACE_MS / 1000} s`,
          ),
        ),
      );
    } else if (!persistent && process.exit.exitedAtMs === undefined) {
      findings.push(
        runFinding('interrupt.exit-in-time', about(process.label, 'did not exit after SIGINT; the harness killed it')),
      );
    }
  }
  return findings;
}

/** Persistent mode: stdin tolerance, error lines for bad frames, next turns, EOF exit. */
function persistentChecks(process: ExecutedProcess, scenario: LoadedScenario): Finding[] {
  const findings: Finding[] = [];
  const known = new Set(['user', 'interrupt', 'set_permission_mode', 'tool_approval']);
  for (const turnIndex of process.turns) {
    const turn = scenario.turns[turnIndex]!;
    const events = turnEvents(process, turnIndex);
    const bad = (turn.stdin ?? []).filter((raw) => {
      const text = raw.trim();
      if (text === '') return false;
      try {
        const frame = JSON.parse(text) as { type?: unknown };
        return !frame || typeof frame !== 'object' || !known.has(String(frame.type));
      } catch {
        return true;
      }
    });
    const errors = events.filter((event) => event.kind === 'error').length;
    if (bad.length > errors) {
      findings.push(
        runFinding(
          'persistent.bad-frame-error',
          `turn ${turnIndex + 1}: ${bad.length} stdin line(s) were malformed JSON or of an unknown type (${bad.map((line) => JSON.stringify(line.slice(0, 40))).join(', ')}), but the shim printed ${errors} \`error\` line(s)`,
        ),
      );
    }
  }
  const served = process.turns.filter((turnIndex) =>
    turnEvents(process, turnIndex).some((event) => event.kind === 'result'),
  );
  if (served.length < scenario.turns.length) {
    const missing = scenario.turns.length - served.length;
    const hadStdin = scenario.turns.some((turn) => (turn.stdin ?? []).length > 0);
    const rule =
      hadStdin && process.exit.exitedAtMs !== undefined ? 'persistent.stdin-tolerant' : 'persistent.next-turn';
    findings.push(
      runFinding(
        rule,
        `${missing} of ${scenario.turns.length} turn(s) got no result (${process.exit.exitedAtMs !== undefined && process.stdinClosedAtMs === undefined ? 'the process exited while stdin was still open' : 'no answer to the user frame'})`,
      ),
    );
  }
  if (process.stdinClosedAtMs !== undefined) {
    const exitedAt = process.exit.exitedAtMs;
    if (exitedAt === undefined || exitedAt - process.stdinClosedAtMs > EXIT_GRACE_MS) {
      findings.push(
        runFinding(
          'persistent.eof-exit',
          exitedAt === undefined
            ? 'the process did not exit after stdin ended; the harness killed it'
            : `the process exited ${((exitedAt - process.stdinClosedAtMs) / 1000).toFixed(1)} s after stdin ended; at most ${EXIT_GRACE_MS / 1000} s`,
        ),
      );
    }
  } else if (process.exit.exitedAtMs !== undefined && served.length === scenario.turns.length) {
    // Exited before stdin ended although every turn was served: it must stay for the next frame.
    findings.push(
      runFinding(
        'persistent.next-turn',
        'the process exited after its last result while stdin was still open; it must wait for the next frame or EOF',
      ),
    );
  }
  return findings;
}

/** Claude's --provider flags: its sessions belong to Claude Code, and the app never reads them from ~/.yume. */
export const CLAUDE_PROVIDER_FLAGS: readonly string[] = ['anthropic', 'claude-cli'];

function sessionFileCheck(input: CheckInput): Finding[] {
  if (!input.providerFlag || CLAUDE_PROVIDER_FLAGS.includes(input.providerFlag)) return [];
  // Only turns that completed successfully must have saved the session.
  const last = input.processes.at(-1);
  if (!last || last.exit.spawnError) return [];
  const succeeded = input.scenario.turns.some((turn) => !turn.expect.isError && !turn.interrupt);
  if (!succeeded) return [];
  const id = last.reportedSessionId;
  if (!id) return []; // turn.init / schema rules report a missing session id
  const file = path.join(input.home, '.yume', 'sessions', input.providerFlag, `${id}.json`);
  const shown = `~/.yume/sessions/${input.providerFlag}/${id}.json`;
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return []; // app.session-id-filename-safe / validator report it
  if (!existsSync(file)) return [runFinding('session.file', `${shown} was not written`)];
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [runFinding('session.file', `${shown} is not valid JSON (${(error as Error).message})`)];
  }
  const validate = validatorFor('session-file.schema.json');
  if (!validate(data))
    return [
      runFinding(
        'session.file',
        `${shown} does not match schemas/session-file.schema.json: ${describeSchemaError(validate.errors)}`,
      ),
    ];
  const afterKill = killedSessionFindings(input.scenario, file, shown);
  if (afterKill.length > 0) return afterKill;
  const session = data as { id: string; provider: string };
  if (session.id !== id) return [runFinding('session.file', `${shown} holds id ${JSON.stringify(session.id)}`)];
  if (session.provider !== input.providerFlag)
    return [
      runFinding(
        'session.file',
        `${shown} holds provider ${JSON.stringify(session.provider)}, not the --provider flag ${JSON.stringify(input.providerFlag)}`,
      ),
    ];
  return [];
}

function resumeChecks(input: CheckInput): Finding[] {
  if (input.persistent) return [];
  const findings: Finding[] = [];
  const first = input.processes[0]?.reportedSessionId;
  input.processes.forEach((process, index) => {
    const turn = input.scenario.turns[process.turns[0] ?? index];
    if (!turn?.resume || !first) return;
    if (process.reportedSessionId !== undefined && process.reportedSessionId !== first) {
      const init = process.live.events.find((timed) => timed.event.kind === 'init');
      findings.push(
        runFinding(
          'session.resume-keeps-id',
          `${process.label}: resumed with --resume ${first}, but its init reports session ${process.reportedSessionId}`,
          init ? { line: init.event.line } : {},
        ),
      );
    }
  });
  return findings;
}

function goldenChecks(
  input: CheckInput,
  process: ExecutedProcess,
  index: number,
  context: NormaliseContext,
  out: CheckOutput,
  cliUsed: FakeCliName | undefined,
  editsThroughShell = false,
): Finding[] {
  const goldenIndex = input.persistent ? 0 : index;
  const golden = readGolden(input.scenario.dir, goldenIndex);
  const fileLabel = `transcripts/${input.scenario.id}/${goldenFileName(goldenIndex)}`;
  out.goldens[index] = golden?.toString('utf8');
  if (!golden) {
    out.notVerified.push(
      `golden comparison: ${fileLabel} does not exist (generate it with \`yume-conformance goldens --update\`)`,
    );
    return [];
  }
  let expected: TurnModel[] = buildTurnModels(toCanonicalEvents(golden), {});
  let observed = buildTurnModels(eventsOf(process), context);
  if (cliUsed) {
    // Type-B: compare with what a correct translator of this CLI can print (R10, harness/official-cli/omissions.ts).
    const turns = process.turns.map((turn) => input.scenario.turns[turn]!);
    const omissions = input.cli?.omissions ?? omissionsOf(cliUsed);
    expected = adjustGoldenForCli(
      expected,
      turns,
      cliUsed,
      { ...context, workspace: input.workspace, editsThroughShell },
      omissions,
    );
    observed = adjustObservedForCli(observed, turns, cliUsed, omissions);
  }
  if (process.killed)
    return prefixed(
      compareKilledWithGolden(expected, observed, fileLabel, `stdout of ${process.label}`),
      process.label,
    );
  const partial: Finding[] = [];
  // The last text stretch of a provider-error turn is the error message (Claude envelopes) or the partial text
  // before the fault (flat): not compared in either dialect; the partial text is only a SHOULD.
  process.turns.forEach((turnIndex, position) => {
    const turn = input.scenario.turns[turnIndex]!;
    const at = input.persistent ? turnIndex : position;
    if (!turn.expect.isError || turn.interrupt || !expected[at] || !observed[at]) return;
    const want = withoutErrorMessage(expected[at]!);
    const got = withoutErrorMessage(observed[at]!);
    expected[at] = want.turn;
    observed[at] = got.turn;
    if (want.dropped && !(got.dropped?.text ?? '').startsWith(want.dropped.text)) {
      partial.push(
        runFinding(
          'golden.partial-text',
          about(
            process.label,
            `turn ${turnIndex + 1}: the text streamed before the fault, ${JSON.stringify(want.dropped.text)}, is not shown`,
          ),
          got.dropped ? { line: got.dropped.lines[0]! } : {},
        ),
      );
    }
  });
  return [
    ...prefixed(
      compareWithGolden({ label: fileLabel, turns: expected }, observed, `stdout of ${process.label}`),
      process.label,
    ),
    ...partial,
  ];
}

/** `stream_event` text deltas count as streamed text only in Claude envelopes: a flat stream owes `text` lines. */
function deltaOnlyTextCheck(process: ExecutedProcess, dialect: StreamDialect): Finding[] {
  if (isClaudeDialect(dialect)) return [];
  const first = process.live.events.find((timed) => isAssistantText(timed.event));
  if (!first || !isStreamEventText(first.event)) return [];
  return [
    runFinding(
      'streaming.incremental',
      about(
        process.label,
        `the first streamed text came as a \`stream_event\` delta (line ${first.event.line}), which counts only in Claude envelopes; print \`text\` lines as chunks arrive`,
      ),
      { line: first.event.line },
    ),
  ];
}

export async function checkRun(input: CheckInput): Promise<CheckOutput> {
  const out: CheckOutput = { findings: [], notVerified: [], limitations: [], goldens: [] };
  const context: NormaliseContext = { workspace: input.workspace, home: input.home };
  const findings = out.findings;
  const started = input.processes.filter((process) => !process.exit.spawnError);
  for (const process of started) {
    const untied = process.exit.untied ?? [];
    if (untied.length === 0) continue;
    out.notVerified.push(
      `${about(process.label, `process isolation: ${untied.length} process(es) orphaned to init started during the run with nothing tying them to it (${untied.map((info) => `${info.name} pid ${info.pid}`).join(', ')}); without a cgroup the harness cannot tell whether the shim started them, so they were not killed`)}`,
    );
  }
  const usedCliEarly = input.cli?.log.some((entry) => entry.event === 'start' && entry.cli === input.cli!.name);
  const cliUsed = usedCliEarly ? input.cli!.name : undefined;
  // A real codex offers apply_patch for some models only; without it the mock had the edits made through the shell.
  const editsThroughShell =
    cliUsed === 'codex' &&
    input.requests.some(
      (request) =>
        request.provider === 'openai-responses' &&
        request.body !== undefined &&
        !requestView('openai-responses', request.body, request.path).declaredTools.includes('apply_patch'),
    );
  const omissions = cliUsed ? (input.cli?.omissions ?? omissionsOf(cliUsed)) : undefined;
  const cliToolOptions =
    cliUsed && omissions
      ? {
          outputNotPrinted: omissions.toolOutputs,
          shellFailureAsSuccess: omissions.shellFailureAsSuccess,
          ...(omissions.ownToolCalls
            ? {
                keyOf: (call: { id: string; name: string; input?: Record<string, unknown>; rawArguments?: string }) => {
                  const translated = expectedToolCall(
                    cliUsed,
                    call,
                    input.workspace,
                    (file) => {
                      try {
                        return readFileSync(file, 'utf8');
                      } catch {
                        return undefined;
                      }
                    },
                    { editsThroughShell },
                  );
                  const normalised = normaliseToolInput(translated.input, context);
                  return stableJson({ name: translated.name, input: normalised });
                },
              }
            : {}),
        }
      : undefined;
  input.processes.forEach((process, index) => {
    findings.push(...processChecks(process, input.persistent));
    if (process.exit.spawnError) return;
    const validation = validateStream(process.exit.stdout, {
      profile: input.profile,
      mode: input.persistent ? 'persistent' : 'spawn-per-turn',
      keepEvents: false,
    });
    const streamFindings = process.killed ? killedStreamFindings(validation.findings, process) : validation.findings;
    findings.push(...prefixed(streamFindings, process.label));
    findings.push(...secretsCheck(process));
    if (!input.recordOnly)
      findings.push(...goldenChecks(input, process, index, context, out, cliUsed, editsThroughShell));
    const models = buildTurnModels(eventsOf(process), context);
    process.turns.forEach((turnIndex, position) => {
      const turn = input.scenario.turns[turnIndex]!;
      const model = input.persistent ? models[position] : models[0];
      findings.push(
        ...prefixed(
          checkToolOutputs(turn, model, { context, ...(cliToolOptions ? { cli: cliToolOptions } : {}) }),
          process.label,
        ),
      );
      findings.push(
        ...faultOutcomeChecks(
          turn,
          turnIndex,
          turnEvents(process, turnIndex),
          process.label,
          !omissions?.retriesOnStderrOnly && retried(input, turnIndex),
          validation.dialect,
        ),
      );
      if (input.scenario.cli === 'missing')
        findings.push(...missingCliOutcomeChecks(turnIndex, turnEvents(process, turnIndex), process.label));
    });
    findings.push(...interruptChecks(process, input.scenario, input.persistent, validation.dialect));
    findings.push(...deltaOnlyTextCheck(process, validation.dialect));
    if (input.persistent) findings.push(...persistentChecks(process, input.scenario));
    if (input.persistent)
      findings.push(...approvalChecks(input.scenario, process.turns, (turn) => turnEvents(process, turn)));
    if (process.gateTimeouts.length > 0) {
      findings.push(
        runFinding(
          'streaming.incremental',
          about(
            process.label,
            `no assistant text appeared on stdout within ${3} s after the provider streamed the first text chunk of turn ${process.gateTimeouts.map((turn) => turn + 1).join(', ')}; the text seems to be printed only once the message is complete`,
          ),
        ),
      );
    }
  });
  if (started.length === 0) return out;

  // Side effects: workspace-after/ when the scenario changes files, otherwise the untouched fixtures.
  const expectedDir = input.scenario.workspaceAfterDir ?? input.scenario.workspaceDir;
  const expectedLabel = input.scenario.workspaceAfterDir
    ? `transcripts/${input.scenario.id}/workspace-after/`
    : `the fixtures (transcripts/${input.scenario.id}/workspace/, which this scenario must not change)`;
  const workspaceFindings = await checkWorkspace(expectedDir, input.workspace, expectedLabel);
  findings.push(...outsideCwdChecks(input.scenario, input.workspace, started.flatMap(eventsOf)));
  const denied = input.scenario.permissionMode === 'deny';
  const deniedByApproval = deniesACall(input.scenario);
  findings.push(
    ...workspaceFindings.map((finding) =>
      denied
        ? runFinding('workspace.deny-untouched', finding.message)
        : deniedByApproval
          ? runFinding('permission.approval-honoured', `${finding.message} (a call denied by tool_approval ran)`)
          : finding,
    ),
  );

  // Provider side: the REST mock's requests, or the fake CLI's log, whichever the shim was to use.
  const usedMock = input.requests.some((request) => request.provider === input.provider.mock);
  const usedCli = usedCliEarly;
  if (input.provider.kind === 'rest' && (usedMock || !usedCli)) {
    findings.push(...checkProviderRequests(input.scenario, input.provider.mock, input.requests));
  }
  if (input.cli && (input.cli.required || usedCli)) {
    const eventsByTurn = input.persistent
      ? input.scenario.turns.map((_, turn) => turnEvents(input.processes[0]!, turn))
      : input.processes.map((process) => eventsOf(process));
    if (input.cli.logsInside === false || loggedByWrapper(input.cli.log)) {
      // A real CLI: judged from its wrapper's log, the mock's requests and the processes left behind.
      const observed = checkObservedCliRun({
        cli: input.cli.name,
        scenario: input.scenario,
        log: input.cli.log,
        requests: input.requests,
        provider: input.provider.mock,
        turns: input.scenario.turns.map((_, turn) => turn),
        eventsByTurn,
        interrupted: input.processes.flatMap((process) =>
          process.interrupts
            .filter((record) => record.delivered)
            .map((record) => ({
              turn: record.turn,
              endedByHarness: [...process.exit.descendantsKilled, ...process.exit.descendantsLeft],
            })),
        ),
      });
      findings.push(...observed.findings);
      out.limitations.push(...observed.notVerified);
    } else {
      findings.push(
        ...checkFakeCliRun({
          cli: input.cli.name,
          scenario: input.scenario,
          log: input.cli.log,
          eventsByTurn,
          workspace: input.workspace,
          usage: input.cli.required ? 'required' : 'if-used',
        }),
      );
    }
  }
  if (input.provider.kind === 'cli' && !usedCli && usedMock) {
    findings.push(...checkProviderRequests(input.scenario, input.provider.mock, input.requests));
  }
  findings.push(...sessionFileCheck(input));
  findings.push(...resumeChecks(input));
  const badArgument = input.scenario.badArgument;
  const first = input.processes[0];
  if (badArgument && first) {
    const verdict = argumentErrorCheck(first, eventsOf(first), badArgument, input.dialect);
    out.findings = [...findings.filter(verdict.applies), ...verdict.findings];
  }
  return out;
}
