// Small in-memory inputs for the per-run checks: a scenario, canonical events and findings' rule ids, so each
// check's unit test can state its case in a few lines.
import type { LoadedScenario, Scenario } from '../../../harness/mock/scenario/scenario-types.js';
import type { ShimExit } from '../../../harness/process/shim-process.js';
import type { CanonicalEvent } from '../../../harness/protocol/canonical.js';
import type { Finding } from '../../../harness/rules/types.js';
import type { ExecutedProcess } from '../../../harness/runner/execution/execute-run.js';

type Turn = Scenario['turns'][number];

/** A scenario of the given turns (each with one text response unless it says otherwise). */
export function scenarioOf(turns: Partial<Turn>[], extra: Partial<LoadedScenario> = {}): LoadedScenario {
  const full = turns.map((turn) => ({
    prompt: 'hi',
    responses: [{ text: ['ok'] }],
    expect: { isError: false },
    ...turn,
  })) as Scenario['turns'];
  return { id: 'unit', title: 't', description: 'd', spec: 'unit', dir: '/nowhere', turns: full, ...extra };
}

export function toolUse(line: number, id: string, name: string, input: unknown = {}): CanonicalEvent {
  return { kind: 'tool_use', line, id, name, input };
}

export function toolResult(line: number, toolUseId: string, isError: boolean): CanonicalEvent {
  return { kind: 'tool_result', line, toolUseId, content: isError ? 'denied' : 'done', isError };
}

export const rules = (findings: readonly Finding[]): string[] => findings.map((finding) => finding.rule);

/** A finished process as execute-run.ts reports it, with only what the checks under test read filled in. */
export function processOf(
  extra: { exit?: Partial<ShimExit>; events?: CanonicalEvent[] } & Partial<Omit<ExecutedProcess, 'exit'>> = {},
): ExecutedProcess {
  const { exit, events = [], ...rest } = extra;
  return {
    label: 'the shim',
    turns: [0],
    argv: [],
    interrupts: [],
    gateTimeouts: [],
    gatesUndecided: [],
    stdinLines: [],
    turnStarts: new Map([[0, 0]]),
    live: { events: events.map((event) => ({ event, atMs: 0 })) } as unknown as ExecutedProcess['live'],
    exit: {
      stdout: Buffer.from('{}\n'),
      stderr: Buffer.alloc(0),
      exitCode: 0,
      signal: null,
      timedOut: false,
      flooded: false,
      stdioHeldOpen: false,
      descendantsLeft: [],
      descendantsKilled: [],
      ...exit,
    } as ShimExit,
    ...rest,
  };
}
