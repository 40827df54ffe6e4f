// The timeline's words for how a shim process ended: its exit (code or signal, and what the harness did to its
// tree) and an exit clock that ran out.
import type { ShimExit } from '../../process/shim-process.js';
import type { ExitClockExpiry } from './exit-clock.js';

const MOMENT_TEXT = { result: 'its last result', 'stdin-eof': 'stdin EOF', interrupt: 'the interrupt' } as const;

export function exitClockNote(expiry: ExitClockExpiry, label: string): string {
  const elapsedMs = expiry.killedAtMs - expiry.startedAtMs;
  const own = elapsedMs - expiry.ownMs >= 50 ? `, ${(expiry.ownMs / 1000).toFixed(1)} s of it the shim's own time` : '';
  return `${label}: still running ${(elapsedMs / 1000).toFixed(1)} s after ${MOMENT_TEXT[expiry.after]}${own}: the harness ended its process tree`;
}

export function describeExit(exit: ShimExit, label: string): string {
  if (exit.spawnError) return `${label}: could not start (${exit.spawnError})`;
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`;
  const when = exit.exitedAtMs === undefined ? '' : ` ${(exit.exitedAtMs / 1000).toFixed(2)} s after its start`;
  const ended = exit.descendantsKilled.map((info) => `${info.name} pid ${info.pid}`);
  const extras = [
    exit.timedOut && 'timed out',
    exit.flooded && 'flooded stdout',
    exit.stdioHeldOpen && 'stdout held open',
    exit.killedByHarness && 'tree killed by the harness',
    ended.length > 0 && `ended: ${ended.slice(0, 8).join(', ')}${ended.length > 8 ? ', …' : ''}`,
    ...(exit.treeKillFailures ?? []).map((failure) => `${failure}: each pid of the tree's snapshot was ended`),
    exit.processTableUnreadable && `process table unreadable: ${exit.processTableUnreadable}`,
  ].filter(Boolean);
  return `${label}: exited with ${how}${when}${extras.length ? ` (${extras.join(', ')})` : ''}`;
}
