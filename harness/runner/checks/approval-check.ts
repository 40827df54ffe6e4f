// permission.approval-honoured: in interactive mode a call the user denied (a `tool_approval` frame with
// approved: false) is answered with an error tool_result and never runs (docs/protocol.md, "Permission modes").
// The runner answers the turn's tool_use lines in order with the scenario's `approvals`; the workspace check
// sees whether a denied call ran anyway.
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import type { CanonicalEvent } from '../../protocol/canonical.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';

export function approvalChecks(
  scenario: LoadedScenario,
  turns: readonly number[],
  eventsOfTurn: (turn: number) => CanonicalEvent[],
): Finding[] {
  if (scenario.permissionMode !== 'interactive') return [];
  const findings: Finding[] = [];
  for (const turnIndex of turns) {
    const approvals = scenario.turns[turnIndex]?.approvals;
    if (!approvals) continue;
    const events = eventsOfTurn(turnIndex);
    const uses = events.filter(
      (event): event is Extract<CanonicalEvent, { kind: 'tool_use' }> => event.kind === 'tool_use',
    );
    approvals.forEach((approved, index) => {
      const use = uses[index];
      if (approved || !use) return;
      const answer = events.find(
        (event): event is Extract<CanonicalEvent, { kind: 'tool_result' }> =>
          event.kind === 'tool_result' && event.toolUseId === use.id,
      );
      if (answer && !answer.isError)
        findings.push(
          runFinding(
            'permission.approval-honoured',
            `turn ${turnIndex + 1}: the ${use.name} call on line ${use.line} was denied by a tool_approval frame, but its tool_result on line ${answer.line} reports success: the tool ran without approval`,
            { line: answer.line },
          ),
        );
    });
  }
  return findings;
}

/** True when the scenario denies a call in interactive mode, so a changed workspace means a denied tool ran. */
export function deniesACall(scenario: LoadedScenario): boolean {
  return (
    scenario.permissionMode === 'interactive' &&
    scenario.turns.some((turn) => (turn.approvals ?? []).some((approved) => !approved))
  );
}
