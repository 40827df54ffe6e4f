// What the JSON report keeps of a run's processes and provider requests, so a failure in CI can be read
// from the report alone: stdout's head and tail (64 KiB each) and its length, stderr's tail, and each
// request with its body capped. The run was redacted before (runner/redact-result.ts); the cuts come after.
import type { ProcessRecord, RequestRecord } from '../runner/results/run-types.js';
import type { ReportProcess, ReportRequest } from './model.js';

export const OUTPUT_PART_CHARS = 64 * 1024;
export const REQUEST_BODY_CHARS = 16 * 1024;

export function reportProcess(record: ProcessRecord): ReportProcess {
  const stdout = record.stdout.toString('utf8');
  const whole = stdout.length <= 2 * OUTPUT_PART_CHARS;
  const out: ReportProcess = {
    label: record.label,
    argv: record.argv,
    exitCode: record.exitCode,
    signal: record.signal,
    stdout: {
      head: whole ? stdout : stdout.slice(0, OUTPUT_PART_CHARS),
      ...(whole ? {} : { tail: stdout.slice(-OUTPUT_PART_CHARS) }),
      chars: stdout.length,
      bytes: record.stdout.length,
    },
    stderr: { tail: record.stderr.slice(-OUTPUT_PART_CHARS), chars: record.stderr.length },
  };
  if (record.golden !== undefined) out.golden = record.golden;
  return out;
}

export function reportRequest(record: RequestRecord): ReportRequest {
  return {
    index: record.index,
    turn: record.turn,
    method: record.method,
    path: record.path,
    status: record.status,
    outcome: record.outcome,
    elapsedMs: record.elapsedMs,
    closedByClient: record.closedByClient,
    body: record.body.slice(0, REQUEST_BODY_CHARS),
    bodyChars: record.body.length,
  };
}
