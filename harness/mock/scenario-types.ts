// Types of transcripts/<id>/scenario.json, mirroring schemas/scenario.schema.json (docs/architecture.md).
// Written by hand so that harness/mock does not depend on generated/ being up to date.

/** Provider ids served by the HTTP mocks (R7). */
export type MockProviderId = 'openai-chat' | 'openai-responses' | 'gemini' | 'anthropic';
/** Every provider id a scenario may name, including the fake official CLIs (Type B). */
export type ScenarioProviderId = MockProviderId | 'gemini-cli' | 'codex-cli' | 'claude-cli';

export const MOCK_PROVIDER_IDS: readonly MockProviderId[] = ['openai-chat', 'openai-responses', 'gemini', 'anthropic'];

export interface Scenario {
  $schema?: string;
  id: string;
  title: string;
  description: string;
  spec: string;
  required?: boolean;
  mode?: 'spawn-per-turn' | 'persistent';
  permissionMode?: 'default' | 'auto' | 'deny' | 'interactive';
  needs?: string[];
  providers?: ScenarioProviderId[];
  env?: { unset?: string[]; set?: Record<string, string> };
  turns: Turn[];
}

export interface Turn {
  prompt: string;
  resume?: boolean;
  stdin?: string[];
  interrupt?: 'after-first-text' | 'during-tool';
  approvals?: boolean[];
  responses: ModelResponse[];
  expect: TurnExpectation;
}

export interface TurnExpectation {
  isError: boolean;
  toolResults?: ExpectedToolResult[];
}

export interface ExpectedToolResult {
  id: string;
  isError: boolean;
  contains?: string[];
}

export interface ScriptToolCall {
  id: string;
  name: string;
  input?: Record<string, unknown>;
  rawArguments?: string;
}

export interface ScriptUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
}

export type HttpFaultStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 422 | 429 | 500 | 502 | 503 | 504 | 529;

export type Fault =
  | { kind: 'http'; status: HttpFaultStatus; retryAfter?: number; message?: string }
  | { kind: 'cut' }
  | { kind: 'malformed' }
  | { kind: 'mid-stream-error' }
  | { kind: 'drip'; gapMs: number };

export interface ModelResponse {
  thinking?: string[];
  text?: string[];
  toolCalls?: ScriptToolCall[];
  usage?: ScriptUsage;
  stop?: 'end_turn' | 'tool_use' | 'max_tokens';
  fault?: Fault;
  stall?: 'after-first-text';
  repeat?: number;
}

/** A scenario as loaded from disk: the parsed script plus where it came from. */
export interface LoadedScenario extends Scenario {
  /** Absolute path of the scenario folder. */
  dir: string;
  /** Absolute path of workspace/ (fixtures), when present. */
  workspaceDir?: string;
  /** Absolute path of workspace-after/ (expected tree), when present. */
  workspaceAfterDir?: string;
}
