// Types of transcripts/<id>/scenario.json. schemas/scenario.schema.json is the one source of truth: these are the
// types `npm run gen` derives from it (generated/protocol.ts), under the names the harness imports.
import type {
  Expect,
  Fault as GeneratedFault,
  ModelResponse as GeneratedModelResponse,
  Scenario as GeneratedScenario,
  Turn as GeneratedTurn,
  ToolCall,
} from '../../../generated/protocol.js';

export type TurnExpectation = Expect;
export type ScriptToolCall = ToolCall;
export type ScriptUsage = NonNullable<GeneratedModelResponse['usage']>;

/**
 * The generated `Fault` carries an index signature (`[k: string]: unknown`) because the schema also declares `kind` at
 * the fault's top level, which is what lets the loader report a missing `kind` by name (without it validation is the
 * same but that message is lost). The signature is stripped here so each variant keeps only its declared fields and a
 * misspelt field in a fault literal stays a compile error.
 */
export type Fault = GeneratedFault extends infer Variant
  ? Variant extends unknown
    ? DeclaredFields<Variant>
    : never
  : never;
type DeclaredFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
export type HttpFaultStatus = Extract<Fault, { kind: 'http' }>['status'];

// The generated types with the refined `Fault` above threaded through; every other field is the generated one.
export interface ModelResponse extends Omit<GeneratedModelResponse, 'fault'> {
  fault?: Fault;
}
export interface Turn extends Omit<GeneratedTurn, 'responses'> {
  responses: [ModelResponse, ...ModelResponse[]];
}
export interface Scenario extends Omit<GeneratedScenario, 'turns'> {
  turns: [Turn, ...Turn[]];
}

/** Every provider id a scenario may name, including the fake official CLIs (Type B). */
export type ScenarioProviderId = NonNullable<Scenario['providers']>[number];
/** Provider ids served by the HTTP mocks (R7). */
export type MockProviderId = Exclude<ScenarioProviderId, 'gemini-cli' | 'codex-cli' | 'claude-cli' | 'copilot-cli'>;

export const MOCK_PROVIDER_IDS: readonly MockProviderId[] = ['openai-chat', 'openai-responses', 'gemini', 'anthropic'];

/** A scenario as loaded from disk: the parsed script plus where it came from. */
export interface LoadedScenario extends Scenario {
  /** Absolute path of the scenario folder. */
  dir: string;
  /** Absolute path of workspace/ (fixtures), when present. */
  workspaceDir?: string;
  /** Absolute path of workspace-after/ (expected tree), when present. */
  workspaceAfterDir?: string;
}

/** Whether `scenario` is one of the mandatory scenarios under `profile` (`required`: true, or the profiles listed). */
export function requiredUnder(scenario: Pick<Scenario, 'required'>, profile: 'spec' | 'yume-app'): boolean {
  const required = scenario.required;
  return Array.isArray(required) ? required.includes(profile) : required === true;
}
