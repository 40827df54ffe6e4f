// A check (or a whole run) the harness could not judge, as a record: which rule, why, and what kind of
// reason it is, so reports can count, baseline and filter skipped checks by rule and by cause
// (schemas/report.schema.json, `ReportNotVerified`).
import type { ReportNotVerified } from '../../generated/protocol.js';

/**
 * `capability`: the shim's capabilities declare the limitation or lack what the run needs (or the invocation
 * cannot express it); `platform`: this operating system or machine setup cannot show it; `machine`: the
 * machine's load or the runner's stalls left it undecided (a quieter machine could decide it); `harness`: a
 * limitation of the harness itself.
 */
export type NotVerifiedCause = ReportNotVerified['cause'];

export type NotVerified = ReportNotVerified;

/** One check (rule) that could not be judged in a run that otherwise ran. */
export function checkNotVerified(rule: string | undefined, cause: NotVerifiedCause, reason: string): NotVerified {
  return rule === undefined ? { scope: 'check', cause, reason } : { rule, scope: 'check', cause, reason };
}

/** A whole run that was not attempted (no rule: every check of the run is left out). */
export function runNotVerified(cause: NotVerifiedCause, reason: string): NotVerified {
  return { scope: 'run', cause, reason };
}

/** The record as one line of prose: "rule: reason" (the form reports printed before records). */
export function notVerifiedText(record: NotVerified): string {
  return record.rule === undefined ? record.reason : `${record.rule}: ${record.reason}`;
}

/** Several records as one line (progress lines, finding messages). */
export function notVerifiedLine(records: readonly NotVerified[]): string {
  return records.map(notVerifiedText).join('; ');
}
