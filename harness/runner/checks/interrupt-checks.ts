// Interrupts (R6): the shim acknowledges them and ends the turn with an error result, then exits or waits
// for the next frame; in persistent mode it reads stdin frames and ends at stdin EOF.

import { claudeInterruptAcknowledged, isClaudeDialect } from '../../golden/compare/claude-forms.js';
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import type { CanonicalEvent } from '../../protocol/canonical.js';
import type { StreamDialect } from '../../protocol/dialect.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import { EXIT_GRACE_MS, exitTiming, undecidedExit } from '../execution/exit-clock.js';
import { machineShare } from '../execution/fair-deadline.js';
import { describeInterrupt } from '../execution/interrupt-trigger.js';
import { notVerifiedSink, undecidedByMachine } from '../results/machine-undecided.js';
import type { CheckResult } from './check-types.js';
import { about, turnEvents } from './run-events.js';

/** What the interrupt checks read besides the process: the scenario, the run's mode, the dialect its stdout spoke. */
export interface InterruptContext {
  scenario: LoadedScenario;
  persistent: boolean;
  dialect?: StreamDialect | undefined;
}

/** The interrupts of a process, and what could not be judged (what the machine's load kept from it, a missed moment). */
export function interruptChecks(process: ExecutedProcess, context: InterruptContext): CheckResult {
  const { scenario, persistent, dialect } = context;
  const findings: Finding[] = [];
  const sink = notVerifiedSink();
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
    if (record.missed) {
      // Sent before the moment (moment-checks.ts reports that): it tells nothing about how the shim handles one.
      const note = `turn ${turnIndex + 1}: the interrupt came by the fallback, before the scripted moment (${record.missed.moment})`;
      if (record.missed.undecided) undecidedByMachine(sink, 'interrupt.acknowledged', about(process.label, note));
      else sink.notVerified.push(checkNotVerified('interrupt.acknowledged', 'harness', about(process.label, note)));
    } else if (!record.delivered) {
      findings.push(
        runFinding(
          'interrupt.acknowledged',
          about(process.label, `the interrupt could not be delivered (the process had exited or closed stdin)`),
        ),
      );
      continue;
    } else {
      const moment = { index: turnIndex, duringTool: turn.interrupt === 'during-tool' };
      findings.push(...acknowledgementChecks(process, moment, record, dialect));
    }
    const timing = persistent ? undefined : exitTiming(process, 'interrupt', record.atMs);
    if (timing?.kind === 'late') {
      findings.push(
        runFinding(
          'interrupt.exit-in-time',
          about(
            process.label,
            `exited ${(timing.elapsedMs / 1000).toFixed(1)} s after SIGINT${machineShare(timing.elapsedMs, timing.ownMs)}; at most ${EXIT_GRACE_MS / 1000} s`,
          ),
        ),
      );
    } else if (timing?.kind === 'killed') {
      findings.push(
        runFinding('interrupt.exit-in-time', about(process.label, 'did not exit after SIGINT; the harness killed it')),
      );
    } else if (timing?.kind === 'undecided') {
      undecidedByMachine(sink, 'interrupt.exit-in-time', about(process.label, undecidedExit('SIGINT', timing)));
    }
  }
  return { findings, notVerified: sink.notVerified };
}

/** Persistent mode: stdin tolerance, error lines for bad frames, next turns, EOF exit. */
export function persistentChecks(process: ExecutedProcess, scenario: LoadedScenario): CheckResult {
  const findings: Finding[] = [];
  const sink = notVerifiedSink();
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
    const timing = exitTiming(process, 'stdin-eof', process.stdinClosedAtMs);
    if (timing.kind === 'killed' || timing.kind === 'late') {
      findings.push(
        runFinding(
          'persistent.eof-exit',
          timing.kind === 'killed'
            ? 'the process did not exit after stdin ended; the harness killed it'
            : `the process exited ${(timing.elapsedMs / 1000).toFixed(1)} s after stdin ended${machineShare(timing.elapsedMs, timing.ownMs)}; at most ${EXIT_GRACE_MS / 1000} s`,
        ),
      );
    } else if (timing.kind === 'undecided') {
      undecidedByMachine(sink, 'persistent.eof-exit', about(process.label, undecidedExit('stdin ended', timing)));
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
  return { findings, notVerified: sink.notVerified };
}

/** The interrupt reached the turn at its moment: the shim acknowledges it and answers a running tool with an error. */
function acknowledgementChecks(
  process: ExecutedProcess,
  turn: { index: number; duringTool: boolean },
  record: ExecutedProcess['interrupts'][number],
  dialect: StreamDialect | undefined,
): Finding[] {
  const findings: Finding[] = [];
  const { index: turnIndex, duringTool } = turn;
  const events = turnEvents(process, turnIndex);

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
  if (duringTool) {
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
  return findings;
}
