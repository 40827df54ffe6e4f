// A turn may script both stops a shim meets: the spec's interrupt (SIGINT, or an interrupt frame) and the app's
// kill (SIGKILL to the pid; docs/protocol.md#r14-the-yume-app-profile-follows-the-app, the app never sends
// SIGINT). A run plays the one its profile's stop is: the kill under yume-app, the interrupt otherwise. So one
// scenario (compact-interrupted) and one golden cover both, the kill compared on what was printed before it.
import type { LoadedScenario, Turn } from '../../mock/scenario/scenario-types.js';
import type { Profile } from '../../rules/types.js';

/** The turn as a run under `profile` plays it; the same object when it scripts only one stop. */
function turnUnder(turn: Turn, profile: Profile): Turn {
  if (!turn.interrupt || !turn.kill) return turn;
  const { interrupt, kill, ...rest } = turn;
  return profile === 'yume-app' ? { ...rest, kill } : { ...rest, interrupt };
}

/** The scenario as a run under `profile` plays it: the same object when no turn scripts both stops. */
export function scenarioUnderProfile(scenario: LoadedScenario, profile: Profile): LoadedScenario {
  if (!scenario.turns.some((turn) => turn.interrupt && turn.kill)) return scenario;
  const [first, ...rest] = scenario.turns.map((turn) => turnUnder(turn, profile));
  return { ...scenario, turns: [first!, ...rest] };
}
