// The CLI sessions a fake's log knows: which sessions earlier starts created or continued, which one a `--resume`
// names, and what the runs of a session billed (codex and copilot report a session's running total).
import { isCompactPrompt } from '../../common/compact-command.js';
import { addUsage, type UsageTotals, usageOf } from './script-playback.js';
import type { OfficialCliName } from './script-types.js';
import { type CliLogEntry, type FakeCliState, readLog, type StartEntry } from './state.js';

/**
 * What the earlier runs of `cli` in session `sessionId` that completed their turn used (their scripted answers but
 * HTTP errors, which bill nothing, and copilot's own compaction call): codex reports a thread's running total,
 * copilot's usage file a session's. A run completed when an exit with its final event follows its start before the next start (copilot's worker logs it).
 */
export function sessionUsage(
  cli: OfficialCliName,
  log: readonly CliLogEntry[],
  state: FakeCliState,
  sessionId: string,
): UsageTotals {
  const totals: UsageTotals = { input: 0, output: 0, cached: 0 };
  const starts = log.flatMap((entry, index) => (entry.event === 'start' && entry.cli === cli ? [index] : []));
  starts.forEach((at, order) => {
    const start = log[at] as StartEntry;
    if (start.sessionId !== sessionId) return;
    const completed = log
      .slice(at, starts[order + 1] ?? log.length)
      .some((entry) => entry.event === 'exit' && entry.cli === cli && entry.code === 0 && entry.finalEvent === true);
    if (!completed) return;
    // copilot's own `/compact` leaves its summary call out of the usage file (captures/copilot/7-compact).
    const ownCompaction = cli === 'copilot' && start.prompt !== undefined && isCompactPrompt(start.prompt);
    for (const response of state.scenario.turns[start.turnIndex]?.responses ?? [])
      if (response.fault?.kind !== 'http' && !(ownCompaction && response.summary === true))
        addUsage(totals, usageOf(response));
  });
  return totals;
}

/** The sessions earlier starts of this CLI created or continued, oldest first. */
export function knownSessions(cli: OfficialCliName, logFile: string | undefined): string[] {
  if (!logFile) return [];
  return readLog(logFile)
    .filter(
      (entry): entry is StartEntry =>
        entry.event === 'start' && entry.cli === cli && entry.argError === undefined && entry.sessionId !== '',
    )
    .map((entry) => entry.sessionId);
}

/** The CLI session a `--resume` names, among the sessions earlier starts of this CLI created. */
export function findSession(cli: OfficialCliName, requested: string, logFile: string | undefined): string | undefined {
  const sessions = knownSessions(cli, logFile);
  if (requested === 'last' || requested === 'latest') return sessions.at(-1);
  return sessions.includes(requested) ? requested : undefined;
}

/**
 * Whether session `sessionId` of `cli` holds conversation before its latest start (the one running now, logged
 * first): an earlier start in it with a prompt that is not `/compact`. copilot refuses to compact a session without.
 */
export function sessionHasConversation(cli: OfficialCliName, log: readonly CliLogEntry[], sessionId: string): boolean {
  const starts = log.filter(
    (entry): entry is StartEntry => entry.event === 'start' && entry.cli === cli && entry.sessionId === sessionId,
  );
  return starts.slice(0, -1).some((start) => start.prompt !== undefined && !isCompactPrompt(start.prompt));
}
