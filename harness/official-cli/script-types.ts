// The part of a scenario (docs/architecture.md, "Contract: scenarios") the fake official CLIs read. The field types
// come from the scenario types generated from schemas/scenario.schema.json (via harness/mock/scenario/scenario-types.ts);
// only the set of fields is narrower, so any full `Scenario` fits: the fakes depend only on the fields they render,
// and an older or newer scenario file with extra fields still plays.
import type {
  Fault,
  ModelResponse,
  Scenario,
  ScriptToolCall,
  ScriptUsage,
  Turn,
  TurnExpectation,
} from '../mock/scenario/scenario-types.js';

export type { ScriptToolCall, ScriptUsage };

/** An official CLI a Type-B shim may wrap: the fake ones (official-cli/main.ts) and the real ones share these names. */
export type OfficialCliName = 'gemini' | 'codex' | 'claude' | 'copilot';
export const OFFICIAL_CLI_NAMES: readonly OfficialCliName[] = ['gemini', 'codex', 'claude', 'copilot'];

/** The harness provider id that uses each fake (R7). */
export const CLI_PROVIDER_IDS: Record<OfficialCliName, 'gemini-cli' | 'codex-cli' | 'claude-cli' | 'copilot-cli'> = {
  gemini: 'gemini-cli',
  codex: 'codex-cli',
  claude: 'claude-cli',
  copilot: 'copilot-cli',
};

export type ScriptFault = Fault;
export type ScriptResponse = ModelResponse;

export interface ScriptTurn extends Pick<Turn, 'prompt' | 'resume' | 'stdin' | 'interrupt' | 'kill'> {
  /** Any list plays (an empty one ends the turn with the exhausted-script answer); the loader enforces minItems. */
  responses: ScriptResponse[];
  expect?: Pick<TurnExpectation, 'isError'>;
}

export interface ScriptScenario extends Pick<Scenario, 'id' | 'mode' | 'permissionMode'> {
  turns: ScriptTurn[];
}
