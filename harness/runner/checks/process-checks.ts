// Checks of one shim process as a process (R5, R6): how it started and ended, its exit code, what it left
// running, its output volume, and the dummy credentials it must not print.
import type { ResultEvent } from '../../protocol/canonical.js';
import { excerptOf } from '../../protocol/lines.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified, type NotVerified } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import { EXIT_GRACE_MS, exitTiming, undecidedExit } from '../execution/exit-clock.js';
import { CAP_FACTOR, MACHINE_CAUSE, machineShare } from '../execution/fair-deadline.js';
import { ALL_DUMMY_SECRETS } from '../setup/environment.js';
import { type CheckResult, combined } from './check-types.js';
import { orphanedToolFindings } from './kill-checks.js';
import { about, eventsOf, lineTime } from './run-events.js';

/** The process as a process: how it started and ended, what it left running, when it exited and with what code. */
export function processChecks(process: ExecutedProcess, persistent: boolean): CheckResult {
  const { exit, label } = process;
  if (exit.spawnError)
    return { findings: [runFinding('process.started', about(label, exit.spawnError))], notVerified: [] };
  return combined([endingChecks(process), leftRunningChecks(process), exitAfterResultChecks(process, persistent)]);
}

/** How the process ended: by the timeout, stopped for flooding stdout, or silent. */
function endingChecks(process: ExecutedProcess): CheckResult {
  const { exit, label } = process;
  const findings: Finding[] = [];
  const notVerified: NotVerified[] = [];
  if (exit.timedOut && exit.timeoutUndecided)
    notVerified.push(
      checkNotVerified(
        'process.timeout',
        'machine',
        about(
          label,
          `process.timeout: still running when the timeout ended it, but the timeout ran out at ${CAP_FACTOR}× its length with less than its length of the shim's own time (${MACHINE_CAUSE}), or on an oversubscribed machine: too busy to judge`,
        ),
      ),
    );
  else if (exit.timedOut)
    findings.push(
      runFinding(
        'process.timeout',
        about(
          label,
          `still running when the timeout ended it; the harness killed its process tree.${stderrTail(process)}`,
        ),
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
          `exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`}) without printing anything on stdout.${stderrTail(process)}`,
        ),
      ),
    );
  }
  return { findings, notVerified };
}

/** The end of its stderr, as a sentence to add to a finding (empty when it printed nothing there). */
function stderrTail(process: ExecutedProcess): string {
  const { stderr } = process.exit;
  return stderr.length > 0 ? ` Its stderr ends: ${JSON.stringify(stderr.toString('utf8').slice(-300))}` : '';
}

/** What the process left running: tools orphaned by a kill, stdio held open, descendants after its exit. */
function leftRunningChecks(process: ExecutedProcess): CheckResult {
  const { exit, label } = process;
  const findings: Finding[] = [];
  const notVerified: NotVerified[] = [];
  if (process.killed) findings.push(...orphanedToolFindings(process, label));
  else if (exit.stdioHeldOpen && exit.stdioUndecided && exit.descendantsKilled.length === 0) {
    // No process of the run was found holding the pipes, and the machine took the grace (stdio-close-wait.ts).
    notVerified.push(
      checkNotVerified(
        'process.stdout-held-open',
        'machine',
        about(
          label,
          `its stdout/stderr closed only after the grace, with no process of the run found holding them, while the machine was too busy to judge (${MACHINE_CAUSE}, or oversubscribed)`,
        ),
      ),
    );
  } else if (exit.stdioHeldOpen) {
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
  findings.push(...survivorFindings(process));
  if (exit.processTableUnreadable) {
    const why = about(
      label,
      `the process table could not be read (${exit.processTableUnreadable}), so what the shim left running is unknown`,
    );
    notVerified.push(checkNotVerified('process.descendants-gone', 'platform', why));
    notVerified.push(checkNotVerified('process.orphaned-tools', 'platform', why));
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
  return { findings, notVerified };
}

/** Exit timing and code, judged on the last result of the process. */
function exitAfterResultChecks(process: ExecutedProcess, persistent: boolean): CheckResult {
  const { exit, label } = process;
  const events = eventsOf(process);
  const lastResult = [...events].reverse().find((event): event is ResultEvent => event.kind === 'result');
  const resultAt = lastResult && !persistent ? lineTime(process, lastResult.line) : undefined;
  const interrupted = process.interrupts.length > 0;
  const timing =
    process.exitClock?.after === 'result' || (resultAt !== undefined && !interrupted && exit.exitedAtMs !== undefined)
      ? exitTiming(process, 'result', resultAt ?? process.exitClock?.startedAtMs ?? 0)
      : undefined;
  const where = lastResult ? { line: lastResult.line } : {};
  const resultLine = lastResult ? ` (line ${lastResult.line})` : '';
  const findings: Finding[] = [];
  const notVerified: NotVerified[] = [];
  if (timing?.kind === 'undecided') {
    notVerified.push(
      checkNotVerified(
        'process.exit-after-result',
        'machine',
        about(label, undecidedExit(`its last result${resultLine}`, timing)),
      ),
    );
  } else if (timing?.kind === 'killed' && process.exitClock?.after === 'result') {
    const lingered = (process.exitClock.killedAtMs - process.exitClock.startedAtMs) / 1000;
    findings.push(
      runFinding(
        'process.exit-after-result',
        about(
          label,
          `still running ${lingered.toFixed(1)} s after its last result${resultLine}${machineShare(lingered * 1000, timing.ownMs)}; at most ${EXIT_GRACE_MS / 1000} s. The harness ended its process tree`,
        ),
        where,
      ),
    );
  } else if (timing?.kind === 'late') {
    findings.push(
      runFinding(
        'process.exit-after-result',
        about(
          label,
          `exited ${(timing.elapsedMs / 1000).toFixed(1)} s after its last result${resultLine}${machineShare(timing.elapsedMs, timing.ownMs)}; at most ${EXIT_GRACE_MS / 1000} s`,
        ),
        where,
      ),
    );
  }
  if (lastResult) findings.push(...exitCodeFindings(process, lastResult));
  return { findings, notVerified };
}

/** The exit code after the last result: 0 after a success; after an error result any code, noted for information. */
function exitCodeFindings(process: ExecutedProcess, lastResult: ResultEvent): Finding[] {
  const { exit, label } = process;
  if (exit.exitedAtMs === undefined || exit.killedByHarness) return [];
  if (!lastResult.isError && exit.exitCode !== 0) {
    return [
      runFinding(
        'process.exit-code',
        about(label, `exited with ${exit.signal ?? `code ${exit.exitCode}`} after a success result`),
        { line: lastResult.line },
      ),
    ];
  }
  if (lastResult.isError) {
    return [
      runFinding(
        'process.exit-code-after-error',
        about(label, `exited with ${exit.signal ?? `code ${exit.exitCode}`} after an error result`),
        { line: lastResult.line },
      ),
    ];
  }
  return [];
}

/** Processes of the run the harness could not end (R20): a finding that names them, never a harness error. */
function survivorFindings(process: ExecutedProcess): Finding[] {
  const survivors = process.exit.survivors ?? [];
  if (survivors.length === 0) return [];
  const names = survivors.map((info) => `${info.name || 'an unknown process'} (pid ${info.pid})`).join(', ');
  const failed = process.exit.treeKillFailures?.[0];
  return [
    runFinding(
      'process.descendants-gone',
      about(
        process.label,
        `${survivors.length} process(es) of the run still ran after the harness tried to end them: ${names}${failed ? ` (${failed}, then each pid was ended on its own)` : ''}`,
      ),
    ),
  ];
}

export function secretsCheck(process: ExecutedProcess): Finding[] {
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
