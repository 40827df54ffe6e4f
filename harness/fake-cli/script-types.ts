// The part of a scenario (docs/architecture.md, "Contract: scenarios") the fake official CLIs read.
// Declared here structurally, so any object of the full `Scenario` type fits: the fakes depend only on the
// fields they render, and an older or newer scenario file with extra fields still plays.

export type FakeCliName = 'gemini' | 'codex' | 'claude';
export const FAKE_CLI_NAMES: readonly FakeCliName[] = ['gemini', 'codex', 'claude'];

/** The harness provider id that uses each fake (R7). */
export const CLI_PROVIDER_IDS: Record<FakeCliName, 'gemini-cli' | 'codex-cli' | 'claude-cli'> = {
  gemini: 'gemini-cli',
  codex: 'codex-cli',
  claude: 'claude-cli',
};

export interface ScriptToolCall {
  id: string;
  /** The app's tool name (D1): Read, Write, Edit, Bash, Glob, Grep, LS. */
  name: string;
  input?: Record<string, unknown>;
  /** Arguments that are not valid JSON (R3). */
  rawArguments?: string;
}

export interface ScriptUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
}

export type ScriptFault =
  | { kind: 'http'; status: number; retryAfter?: number }
  | { kind: 'cut' }
  | { kind: 'malformed' }
  | { kind: 'mid-stream-error' }
  | { kind: 'drip'; gapMs: number };

export interface ScriptResponse {
  thinking?: string[];
  text?: string[];
  toolCalls?: ScriptToolCall[];
  usage?: ScriptUsage;
  stop?: 'end_turn' | 'tool_use' | 'max_tokens';
  fault?: ScriptFault;
  stall?: 'after-first-text';
  repeat?: number;
}

export interface ScriptTurn {
  prompt: string;
  resume?: boolean;
  /** Persistent mode: raw stdin lines the runner writes before the turn's user frame. */
  stdin?: string[];
  interrupt?: 'after-first-text' | 'during-tool';
  responses: ScriptResponse[];
  expect?: { isError: boolean };
}

export interface ScriptScenario {
  id: string;
  permissionMode?: string;
  mode?: 'spawn-per-turn' | 'persistent';
  turns: ScriptTurn[];
}
