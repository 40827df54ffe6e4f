import { compactTurnOf, metOverflow } from '../../mock/compaction-requests.js';
import type { Scenario } from '../../mock/scenario/scenario-types.js';
import type { TurnModel } from '../golden-model.js';

export type CompactionComparison = 'whole' | 'result-only' | 'none';

export function compactionComparison(
  scenario: Pick<Scenario, 'turns'>,
  turnIndex: number,
  observed: TurnModel | undefined,
): CompactionComparison {
  const turn = scenario.turns[turnIndex];
  if (!turn) return 'whole';
  const kind = compactTurnOf(scenario, turnIndex);
  if (kind !== 'none') return kind === 'nothing-to-compact' ? 'none' : 'result-only';
  const endedInError = observed?.items.some((item) => item.kind === 'result' && item.isError) ?? false;
  return metOverflow(turn) && endedInError ? 'none' : 'whole';
}

/** The part of a turn model a comparison looks at. */
export function comparedPart(turn: TurnModel, how: CompactionComparison): TurnModel {
  if (how === 'none') return { items: [] };
  if (how === 'result-only') return { items: turn.items.filter((item) => item.kind === 'result') };
  return turn;
}
