// How much of a turn R21 leaves to its golden (docs/protocol.md#r21-compaction). A `/compact` turn is compared on
// its result's is_error alone: where the summary goes (result text, or claude's synthetic user message) and its
// 0/0 usage are the compaction.* rules' to judge. A `/compact` of a session with nothing in it may end either way
// (claude's 0/0 success, or an error result saying so), and a turn that met a context overflow may end in an
// error result quoting the provider instead of compacting: neither is compared (compaction.nothing-to-compact,
// compaction.overflow-outcome judge them).
import { isCompactPrompt } from '../../../common/compact-command.js';
import { nothingToCompact } from '../../mock/compaction-requests.js';
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
  if (isCompactPrompt(turn.prompt)) return nothingToCompact(scenario, turnIndex) ? 'none' : 'result-only';
  const overflow = turn.responses.some((response) => response.fault?.kind === 'context-overflow');
  const endedInError = observed?.items.some((item) => item.kind === 'result' && item.isError) ?? false;
  return overflow && endedInError ? 'none' : 'whole';
}

/** The part of a turn model a comparison looks at. */
export function comparedPart(turn: TurnModel, how: CompactionComparison): TurnModel {
  if (how === 'none') return { items: [] };
  if (how === 'result-only') return { items: turn.items.filter((item) => item.kind === 'result') };
  return turn;
}
