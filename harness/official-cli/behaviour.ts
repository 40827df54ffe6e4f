// What the runner's checks must know of the official CLI a Type-B shim wraps, asked of the CLI instead of
// read from per-CLI flags: whether the shim started it, how its stdout differs from the golden (R10,
// omissions.ts), whose outcome a turn is, whether its retries reach the shim, how the tool-output check
// names its tool calls, and which checks judge its use (the fake's full log, or a real CLI's wrapper log).
// The runner holds one of these per run (backend.ts installs it) and never names a CLI itself.
import { readFileSync } from 'node:fs';
import { stableJson, type TurnModel } from '../golden/golden-model.js';
import { type NormaliseContext, normaliseToolInput } from '../golden/normalise.js';
import type { RecordedRequest } from '../mock/mock-server.js';
import { requestView } from '../mock/request-views.js';
import type { MockProviderId, Turn } from '../mock/scenario/scenario-types.js';
import type { CanonicalEvent } from '../protocol/canonical.js';
import type { NotVerified } from '../rules/not-verified.js';
import type { Finding } from '../rules/types.js';
import { checkFakeCliRun, loggedByWrapper } from './checks.js';
import { adjustGoldenForCli, adjustObservedForCli, endsInMalformedChunk } from './golden-adjustments.js';
import { CLI_OMISSIONS, type CliOmissions, expectedToolCall } from './omissions.js';
import { checkObservedCliRun, type InterruptedTurn } from './real/observed-checks.js';
import type { OfficialCliName, ScriptScenario } from './script-types.js';
import type { CliLogEntry } from './state.js';

/** The run a CLI's quirks are applied to: its workspace (normalised paths) and the mock's requests. */
export interface CliRunContext extends NormaliseContext {
  workspace: string;
  requests: readonly RecordedRequest[];
  /** The CLI's log and the scenario turn each compared turn stands for: which runs ended without a closing event. */
  log?: readonly CliLogEntry[];
  turnIndexes?: readonly number[];
}

/**
 * On Windows, the positions of `turnIndexes` whose CLI runs the fake's log shows starting but never exiting with
 * their closing event (killed before it: a killed fake writes no exit at all). Windows has no SIGINT a shim could
 * send its CLI, so an interrupt there ends the CLI before it prints its usage; elsewhere a shim interrupts the CLI
 * and reads the usage it prints. A real CLI's wrapper logs only starts, so there nothing is known.
 */
export function unclosedTurns(
  log: readonly CliLogEntry[],
  turnIndexes: readonly number[],
  platform: NodeJS.Platform = process.platform,
): Set<number> {
  const unclosed = new Set<number>();
  if (platform !== 'win32' || loggedByWrapper(log)) return unclosed;
  turnIndexes.forEach((turn, position) => {
    const started = log.some((entry) => entry.event === 'start' && entry.turnIndex === turn);
    const closed = log.some((entry) => entry.event === 'exit' && entry.turnIndex === turn && entry.finalEvent === true);
    if (started && !closed) unclosed.add(position);
  });
  return unclosed;
}

/** What the use checks read of a run. */
export interface CliUseInput {
  scenario: ScriptScenario;
  log: readonly CliLogEntry[];
  requests: readonly RecordedRequest[];
  /** The mock provider the CLI was pointed at. */
  provider: MockProviderId;
  /** The shim's events per turn index. */
  eventsByTurn: ReadonlyArray<readonly CanonicalEvent[] | undefined>;
  /** Turns the harness interrupted, and what it had to end afterwards. */
  interrupted: readonly InterruptedTurn[];
  workspace: string;
  /** The shim must use the CLI (else it may use the REST mock instead: R7's yume-app ids). */
  required: boolean;
}

/**
 * How the tool-output check reads a Type-B shim's turns (R10): the tools whose output the wrapped CLI does not
 * print (compared without it), whether a failing shell command shows as a success, and how the CLI names a
 * scripted call (its own tools).
 */
export interface ToolOutputCliOptions {
  outputNotPrinted: readonly string[];
  shellFailureAsSuccess: boolean;
  keyOf?: (call: { id: string; name: string; input?: Record<string, unknown>; rawArguments?: string }) => string;
}

export interface OfficialCliBehaviour {
  /** Whether the log shows this CLI was started during the run (the shim used it). */
  startedIn(log: readonly CliLogEntry[]): boolean;
  /** The golden turns as a correct shim wrapping this CLI would print them (R10). */
  adjustGoldens(golden: TurnModel[], turns: readonly Turn[], context: CliRunContext): TurnModel[];
  /** The observed turns with what the shim may or may not print left out. */
  adjustObserved(observed: TurnModel[], turns: readonly Turn[]): TurnModel[];
  /** Whether the turn's outcome is the CLI's own: it drops a malformed event and ends the turn as a success. */
  ownsOutcome(turn: Turn): boolean;
  /** Whether the CLI's retries of the provider call reach the shim (else they are on its stderr only). */
  showsRetries(): boolean;
  /** How the tool-output check reads this CLI's turns: outputs it does not print, its own tool-call key. */
  toolOutputOptions(context: CliRunContext): ToolOutputCliOptions;
  /** Its use judged: from the fake's full log, or (a real CLI) from the wrapper's log, the mock and leftovers. */
  checkUse(input: CliUseInput): { findings: Finding[]; limitations: NotVerified[] };
}

function readAfter(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A real codex offers apply_patch for some models only; without it the mock had the edits made through the shell. */
function editsThroughShell(cli: OfficialCliName, requests: readonly RecordedRequest[]): boolean {
  return (
    cli === 'codex' &&
    requests.some(
      (request) =>
        request.provider === 'openai-responses' &&
        request.body !== undefined &&
        !requestView('openai-responses', request.body, request.path).declaredTools.includes('apply_patch'),
    )
  );
}

/** The behaviour of `cli`; `logsInside` is false for a real CLI (its wrapper sees only its starts). */
export function officialCliBehaviour(
  cli: OfficialCliName,
  options: { logsInside: boolean; omissions?: CliOmissions },
): OfficialCliBehaviour {
  const omissions = options.omissions ?? CLI_OMISSIONS[cli];
  const ownsOutcome = (turn: Turn) => omissions.dropsMalformedEvents && endsInMalformedChunk(turn);
  return {
    startedIn: (log) => log.some((entry) => entry.event === 'start' && entry.cli === cli),
    adjustGoldens: (golden, turns, context) =>
      adjustGoldenForCli(golden, turns, cli, {
        ...context,
        editsThroughShell: editsThroughShell(cli, context.requests),
        unclosedTurns: options.logsInside ? unclosedTurns(context.log ?? [], context.turnIndexes ?? []) : new Set(),
        omissions,
      }),
    adjustObserved: (observed, turns) => adjustObservedForCli(observed, turns, cli, omissions),
    ownsOutcome,
    showsRetries: () => !omissions.retriesOnStderrOnly,
    toolOutputOptions: (context) => {
      const throughShell = editsThroughShell(cli, context.requests);
      return {
        outputNotPrinted: omissions.toolOutputs,
        shellFailureAsSuccess: omissions.shellFailureAsSuccess,
        ...(omissions.ownToolCalls
          ? {
              keyOf: (call) => {
                const translated = expectedToolCall(cli, call, {
                  workspace: context.workspace,
                  readAfter,
                  editsThroughShell: throughShell,
                });
                const normalised = normaliseToolInput(translated.input, context);
                return stableJson({ name: translated.name, input: normalised });
              },
            }
          : {}),
      };
    },
    checkUse: (input) => {
      if (options.logsInside === false || loggedByWrapper(input.log)) {
        const observed = checkObservedCliRun({
          cli,
          scenario: input.scenario,
          log: input.log,
          requests: [...input.requests],
          provider: input.provider,
          turns: input.scenario.turns.map((_, turn) => turn),
          eventsByTurn: input.eventsByTurn,
          interrupted: input.interrupted,
        });
        return { findings: observed.findings, limitations: observed.notVerified };
      }
      const findings = checkFakeCliRun({
        cli,
        scenario: input.scenario,
        log: input.log,
        eventsByTurn: input.eventsByTurn,
        workspace: input.workspace,
        usage: input.required ? 'required' : 'if-used',
      });
      return { findings, limitations: [] };
    },
  };
}
