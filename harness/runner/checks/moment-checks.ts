// scenario.moment-reached: an interrupt or a kill that waited for a scripted moment (moment-fallback.ts) and was
// sent by the fallback instead. The shim did not reach the moment in its own time (a MUST finding), or, when the
// machine's load took that time, the run could not be judged (played again). The checks that assume the moment
// are left unjudged where they are made (interrupt-checks.ts, golden-checks.ts, kill-checks.ts).

import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';
import { describeMissed, type MissedMoment } from '../execution/moment-fallback.js';
import { notVerifiedSink, undecidedByMachine } from '../results/machine-undecided.js';
import type { CheckResult } from './check-types.js';
import { about } from './run-events.js';

const RULE = 'scenario.moment-reached';

/** The moments of a process that its interrupt or kill missed, with the action and the turn. */
export function missedMoments(process: ExecutedProcess): { turn: number; action: string; missed: MissedMoment }[] {
  const action = (method: string) => (method === 'sigint-group' ? 'SIGINT' : 'the interrupt frame');
  const interrupts = process.interrupts.flatMap((record) =>
    record.missed ? [{ turn: record.turn, action: action(record.method), missed: record.missed }] : [],
  );
  const killed = process.killed?.missed
    ? [{ turn: process.killed.turn, action: 'SIGKILL', missed: process.killed.missed }]
    : [];
  return [...interrupts, ...killed];
}

/** Whether some check of the process assumes a moment it missed (its golden is then not compared). */
export function missedAMoment(process: ExecutedProcess): MissedMoment | undefined {
  return missedMoments(process)[0]?.missed;
}

export function momentChecks(process: ExecutedProcess): CheckResult {
  const findings: Finding[] = [];
  const sink = notVerifiedSink();
  for (const { turn, action, missed } of missedMoments(process)) {
    const text = about(process.label, `turn ${turn + 1}: ${describeMissed(missed, action)}`);
    if (missed.undecided) undecidedByMachine(sink, RULE, `${RULE}: ${text}`);
    else findings.push(runFinding(RULE, text));
  }
  return { findings, notVerified: sink.notVerified };
}
