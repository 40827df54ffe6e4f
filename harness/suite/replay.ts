// Playing a run again (R19). A run the machine left undecided on a check its verdict depends on (a deadline its
// load took, an exit the runner's stalled loop could only place within a range: runner/machine-undecided.ts) is
// played again, up to MAX_ATTEMPTS in all; a required run still undecided then is `inconclusive`, neither passed
// nor failed. A finding the machine did not cause is never played again (a failed run stays failed), nor is a
// run an intermittent expected failure covers (R13: it comes and goes by itself).
//
// `--repeat N` plays each run N times (as Playwright's --repeat-each): a run whose outcome class differs between
// them is `flaky`. Classes: passed or expected failure; failed; not verified; inconclusive. Every attempt is
// kept on the run.
//
// Where the runner can read neither the run's CPU wait nor the machine's load (Windows: os.loadavg() is 0 there),
// no deadline can tell the machine's time from the shim's, so none is ever undecided. There a run that failed
// only on deadlines (DEADLINE_RULES) is played once more before it counts (R19); the second play's verdict
// stands, failed or not.
import { type ExpectedFailure, entryMatches, matchedRun } from '../runner/config/expected-failures.js';
import type { RunAttempt, RunResult } from '../runner/results/run-types.js';

/** Attempts of a run the machine leaves undecided, the first included. */
export const MAX_ATTEMPTS = 3;

export interface ReplayContext {
  expected: readonly ExpectedFailure[];
  os: string;
  /** Neither CPU wait nor load can be read here (Windows): a failure on deadlines alone is played once more. */
  deadlinesUnmeasured?: boolean;
  /** The suite was stopped: no attempt more. */
  stopped: () => boolean;
}

/** Whether the machine left the run undecided (and nothing else decided it: a failure is the shim's). */
export function leftUndecided(result: RunResult): boolean {
  if (result.status === 'failed' || result.status === 'error' || result.interrupted) return false;
  return (result.machineUndecided?.length ?? 0) > 0;
}

/** Rules whose failure is a deadline that ran out: the machine's load can cause it as much as the shim. */
export const DEADLINE_RULES: ReadonlySet<string> = new Set([
  'scenario.moment-reached',
  'interrupt.acknowledged',
  'interrupt.exit-in-time',
  'persistent.eof-exit',
  'process.exit-after-result',
  'process.timeout',
  'process.stdout-held-open',
  'streaming.incremental',
]);

/** Failed on deadlines alone, where no deadline could be judged on the shim's own time (ReplayContext). */
export function failedOnUnmeasuredDeadlines(result: RunResult, context: ReplayContext): boolean {
  if (!context.deadlinesUnmeasured || result.status !== 'failed' || result.interrupted) return false;
  const musts = result.findings.filter((finding) => finding.severity === 'MUST');
  return musts.length > 0 && musts.every((finding) => DEADLINE_RULES.has(finding.rule));
}

/** An intermittent expected failure covers the run: it is never played again. */
function intermittentlyExpected(result: RunResult, context: ReplayContext): boolean {
  return context.expected.some((entry) => entry.intermittent && entryMatches(entry, matchedRun(result, context.os)));
}

/** A failed run whose every MUST finding the expected-failures file lists. */
function expectedFailure(result: RunResult, context: ReplayContext): boolean {
  if (result.status !== 'failed') return false;
  const entries = context.expected.filter((entry) => entryMatches(entry, matchedRun(result, context.os)));
  if (entries.some((entry) => entry.rule === undefined)) return true;
  const musts = result.findings.filter((finding) => finding.severity === 'MUST');
  return musts.length > 0 && musts.every((finding) => entries.some((entry) => entry.rule === finding.rule));
}

/** One attempt as the report keeps it. */
export function attemptOf(result: RunResult, context: ReplayContext): RunAttempt {
  return {
    // A single play is never flaky (that is a verdict over attempts).
    status: result.status === 'flaky' ? 'failed' : result.status,
    durationMs: result.durationMs,
    findings: result.findings
      .filter((finding) => finding.severity !== 'INFO')
      .map(({ rule, severity, message }) => ({ rule, severity, message })),
    ...(result.notVerified ? { notVerified: result.notVerified } : {}),
    ...(expectedFailure(result, context) ? { expectedFailure: true } : {}),
    ...(result.machineUndecided ? { machineUndecided: result.machineUndecided } : {}),
  };
}

/** The outcome class of an attempt (--repeat compares them). */
export function outcomeClass(attempt: RunAttempt): 'passed' | 'failed' | 'not-verified' | 'inconclusive' {
  if (attempt.status === 'passed' || attempt.status === 'partial' || attempt.expectedFailure) return 'passed';
  if (attempt.status === 'failed' || attempt.status === 'error') return 'failed';
  return attempt.status === 'inconclusive' ? 'inconclusive' : 'not-verified';
}

/** Plays a run until the machine leaves it decided or MAX_ATTEMPTS are spent; returns every attempt's result. */
async function playUntilDecided(play: () => Promise<RunResult>, context: ReplayContext): Promise<RunResult[]> {
  const results = [await play()];
  if (failedOnUnmeasuredDeadlines(results[0]!, context) && !intermittentlyExpected(results[0]!, context)) {
    if (!context.stopped()) results.push(await play());
  }
  for (;;) {
    const last = results.at(-1)!;
    if (!leftUndecided(last) || results.length >= MAX_ATTEMPTS || context.stopped()) break;
    if (intermittentlyExpected(last, context)) break;
    results.push(await play());
  }
  const last = results.at(-1)!;
  if (leftUndecided(last) && last.required && results.length >= MAX_ATTEMPTS) last.status = 'inconclusive';
  return results;
}

/**
 * Plays a run `repeat` times, each until decided; the result is the last attempt's, with every attempt kept
 * when there was more than one, and status `flaky` when the outcome classes of the repeats differ.
 */
export async function playRun(play: () => Promise<RunResult>, context: ReplayContext, repeat = 1): Promise<RunResult> {
  const rounds: RunResult[][] = [];
  for (let round = 0; round < repeat; round += 1) {
    if (round > 0 && context.stopped()) break;
    rounds.push(await playUntilDecided(play, context));
  }
  const all = rounds.flat();
  const final = all.at(-1)!;
  if (all.length === 1) return final;
  const attempts = all.map((result) => attemptOf(result, context));
  // Compared per repeat: the last attempt of each (an undecided attempt played again is not an outcome).
  const classes = new Set(rounds.map((round) => outcomeClass(attemptOf(round.at(-1)!, context))));
  // The shims' CPU of every attempt (the bench sets the harness's CPU against it).
  const shimCpuMs = all.every((result) => result.shimCpuMs !== undefined)
    ? all.reduce((sum, result) => sum + result.shimCpuMs!, 0)
    : undefined;
  const { shimCpuMs: _lastAttempt, ...rest } = final;
  return {
    ...rest,
    attempts,
    ...(shimCpuMs === undefined ? {} : { shimCpuMs }),
    ...(classes.size > 1 ? { status: 'flaky' as const } : {}),
  };
}
