// Checks the machine kept from being judged: a deadline that ran out while the machine's load took the time
// (fair-deadline.ts), an exit the runner's stalled loop could only place within a range (exit-clock.ts), a
// scripted moment whose fallback fired while the machine was too busy (moment-fallback.ts). Such a check is
// not verified, and the run is played again (harness/suite/replay.ts) rather than failed: the verdict belongs
// to the shim, not to the machine (R19). They are the run's not-verified records with cause "machine".
import { checkNotVerified, type NotVerified } from '../../rules/not-verified.js';

/** A check left undecided by the machine: its rule, and the reason the run reports for it. */
export type MachineUndecided = {
  rule: string;
  reason: string;
};

/** Where checks note what they could not judge (check-types.ts CheckOutput). */
export interface NotVerifiedSink {
  notVerified: NotVerified[];
}

/** Notes a check the machine left undecided: not verified (cause "machine"), a reason to play the run again. */
export function undecidedByMachine(sink: NotVerifiedSink, rule: string, reason: string): void {
  sink.notVerified.push(checkNotVerified(rule, 'machine', reason));
}

/** A sink of its own (for checks run outside a whole run's checks, and tests). */
export function notVerifiedSink(): NotVerifiedSink {
  return { notVerified: [] };
}

/** The records the machine left undecided, as the suite's replay reads them. */
export function machineUndecided(records: readonly NotVerified[]): MachineUndecided[] {
  return records
    .filter((record) => record.cause === 'machine')
    .map((record) => ({ rule: record.rule ?? '(whole run)', reason: record.reason }));
}
