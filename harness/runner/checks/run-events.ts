// The canonical events of a run's processes, per process and per turn, and how messages name a process.
import type { CanonicalEvent } from '../../protocol/canonical.js';
import type { Finding } from '../../rules/types.js';
import type { ExecutedProcess } from '../execution/execute-run.js';

/** A message about one process: prefixed with its label when the run has several. */
export const about = (label: string, message: string) => (label === 'the shim' ? message : `${label}: ${message}`);

export function prefixed(findings: Finding[], label: string): Finding[] {
  return label === 'the shim'
    ? findings
    : findings.map((finding) => ({ ...finding, message: `${label}: ${finding.message}` }));
}

/** ms since process start at which the line `line` was complete. */
export function lineTime(process: ExecutedProcess, line: number): number | undefined {
  return process.live.events.find((timed) => timed.event.line === line)?.atMs;
}

export function eventsOf(process: ExecutedProcess): CanonicalEvent[] {
  return process.live.events.map((timed) => timed.event);
}

/** Events of one turn of a process (persistent processes serve several). */
export function turnEvents(process: ExecutedProcess, turnIndex: number): CanonicalEvent[] {
  const start = process.turnStarts.get(turnIndex) ?? 0;
  const events = process.live.events.slice(start).map((timed) => timed.event);
  const end = events.findIndex((event) => event.kind === 'result');
  return end < 0 ? events : events.slice(0, end + 1);
}
