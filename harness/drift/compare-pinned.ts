// What changed between the pinned data of a CLI and a candidate release: its version (where a new number alone
// counts: VERSION_IS_DRIFT), the options each
// recorded help lists (added, removed, changed value or choices), the tools it declares to the model and
// the event types it prints. Each difference is one line of the drift report.
import type { HelpOption } from '../official-cli/pinned/help-options.js';
import { type PinnedCli, VERSION_IS_DRIFT } from '../official-cli/pinned/pinned-types.js';

const describeOption = (option: HelpOption) =>
  `${option.long ? `--${option.long}${option.short ? ` (-${option.short})` : ''}` : `-${option.short}`} ${option.value}${option.choices ? ` [${option.choices.join(', ')}]` : ''}`;
/** An option's identity across versions: its long name, or its short one when it has no long name (copilot's -C). */
const nameOf = (option: HelpOption) => option.long || `-${option.short}`;

function listChange(
  label: string,
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
): string[] {
  if (!before || !after) return [];
  const added = after.filter((name) => !before.includes(name));
  const removed = before.filter((name) => !after.includes(name));
  const lines: string[] = [];
  if (added.length > 0) lines.push(`${label} added: ${added.join(', ')}`);
  if (removed.length > 0) lines.push(`${label} removed: ${removed.join(', ')}`);
  return lines;
}

export function comparePinned(pinned: PinnedCli, candidate: PinnedCli): string[] {
  const lines: string[] = [];
  if (VERSION_IS_DRIFT[pinned.cli] && pinned.version !== candidate.version)
    lines.push(`version: ${pinned.version} → ${candidate.version}`);
  for (const [command, recorded] of Object.entries(pinned.commands)) {
    const where = command === '' ? pinned.cli : `${pinned.cli} ${command}`;
    const now = candidate.commands[command];
    if (!now) {
      lines.push(`${where}: its help could not be recorded`);
      continue;
    }
    for (const option of recorded.options) {
      const match = now.options.find((candidateOption) => nameOf(candidateOption) === nameOf(option));
      if (!match) lines.push(`${where}: flag removed: ${describeOption(option)}`);
      else if (describeOption(match) !== describeOption(option))
        lines.push(`${where}: flag changed: ${describeOption(option)} → ${describeOption(match)}`);
    }
    for (const option of now.options) {
      if (!recorded.options.some((pinnedOption) => nameOf(pinnedOption) === nameOf(option)))
        lines.push(`${where}: flag added: ${describeOption(option)}`);
    }
  }
  lines.push(...listChange('tools declared to the model', pinned.declaredTools, candidate.declaredTools));
  lines.push(...listChange('stdout event types', pinned.eventTypes, candidate.eventTypes));
  return lines;
}
