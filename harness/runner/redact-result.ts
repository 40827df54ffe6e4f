// Redacts one run's results in place as soon as the run ends, before anything reports, cuts or stores them
// (see runner/redact.ts): what the shim printed, what it sent to the mock, the findings quoting it, the
// timeline. The checks have already judged the raw output (the credential-echo rule must see the key).
import type { Redactor } from './redact.js';
import type { RunResult } from './results/run-types.js';

export function redactResult(result: RunResult, suite: Redactor): RunResult {
  const redactor = result.secrets?.length ? suite.with(result.secrets) : suite;
  const text = (value: string) => redactor.text(value);
  for (const finding of result.findings) {
    finding.message = text(finding.message);
    if (finding.excerpt !== undefined) finding.excerpt = text(finding.excerpt);
    if (finding.fix !== undefined) finding.fix = text(finding.fix);
  }
  for (const record of result.notVerified ?? []) record.reason = text(record.reason);
  if (result.startFailure !== undefined) result.startFailure = text(result.startFailure);
  for (const process of result.processes) {
    process.argv = process.argv.map(text);
    // Decoded first: a secret split across a multi-byte boundary of a raw chunk is still one string here.
    process.stdout = Buffer.from(text(process.stdout.toString('utf8')), 'utf8');
    process.stderr = text(process.stderr);
  }
  for (const request of result.requests) {
    request.path = text(request.path);
    request.body = text(request.body);
  }
  for (const entry of result.timeline) entry.text = text(entry.text);
  delete result.secrets;
  return result;
}
