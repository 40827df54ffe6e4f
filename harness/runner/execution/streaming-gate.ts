// The streaming gate (docs/protocol.md, "Output discipline"): the mock withholds the rest of a stream after its
// first text chunk until the shim prints assistant text, so a shim that prints only whole messages is caught,
// and then opens it either way.
import type { MockServer } from '../../mock/mock-server.js';
import type { FirstTextSent } from '../../mock/mock-types.js';
import type { TimerScope } from '../../process/timer-scope.js';
import type { TimelineEntry } from '../results/run-types.js';
import { fairDeadline, machineShare, ownMs } from './fair-deadline.js';
import { isAssistantText } from './live-stdout.js';
import type { ShimTurn } from './moment-watch.js';

export interface GateInput {
  mock: MockServer;
  note: (source: TimelineEntry['source'], text: string) => void;
  timers: TimerScope;
}

/**
 * How long the mock withholds a stream before the runner gives up waiting for streamed text (a finding of
 * streaming.incremental); an interrupt timed on a stalled official CLI waits as long.
 */
export const GATE_WAIT_MS = 3000;
/**
 * The streaming gate for one turn: opens the mock's withheld stream on the shim's first assistant text,
 * or after GATE_WAIT_MS of the shim's own time from the mock's first text chunk (fair-deadline.ts): a gate
 * timeout, or, when the machine's load took most of the wait, an undecided one (not verified).
 */
export function watchGate(input: GateInput, watched: ShimTurn, onTimeout: (undecided: boolean) => void): () => void {
  const { mock } = input;
  const { shim, live, fromIndex, turnIndex: turn } = watched;
  let waiting = false;
  let done = false;
  const open = () => {
    if (done) return;
    done = true;
    mock.events.off('first-text-sent', onFirstText);
    mock.openGate();
  };
  const onFirstText = (sent: FirstTextSent) => {
    // A compaction summary is never withheld: a shim prints no assistant text for it (docs/protocol.md#r21-compaction).
    if (sent.turn !== turn || sent.summary || waiting || done) return;
    waiting = true;
    void fairDeadline(input.timers, GATE_WAIT_MS, shim.cpuWait).then((outcome) => {
      if (done) return;
      onTimeout(outcome.undecided || outcome.oversubscribed);
      input.note(
        'runner',
        `no assistant text on stdout ${(outcome.elapsedMs / 1000).toFixed(1)} s after the mock streamed its first text chunk${machineShare(outcome.elapsedMs, ownMs(outcome))}: gate opened`,
      );
      open();
    });
  };
  mock.events.on('first-text-sent', onFirstText);
  void live.waitFor(isAssistantText, fromIndex).then((found) => {
    if (found && !done) input.note('runner', `first assistant text on stdout (line ${found.event.line}): gate opened`);
    open();
  });
  return open;
}
