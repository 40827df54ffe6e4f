// The files a fake CLI shares with the harness (decision D4): the state file it reads its script from
// (YUME_CONFORMANCE_FAKE_CLI_STATE) and the log it appends every start, tool run, stall and signal to
// (YUME_CONFORMANCE_FAKE_CLI_LOG), so the harness can check how the shim called it.
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { messageOf } from '../../common/errors.js';
import type { OfficialCliName, ScriptScenario } from './script-types.js';

export const STATE_ENV = 'YUME_CONFORMANCE_FAKE_CLI_STATE';
export const LOG_ENV = 'YUME_CONFORMANCE_FAKE_CLI_LOG';

export interface FakeCliState {
  scenario: ScriptScenario;
  /** 0-based: which turn's responses the next start plays. */
  turnIndex: number;
  /** How long a stalled stream is held before the fake acts as if the connection were cut. */
  stallTimeoutMs?: number;
  /** How long codex waits for stdin EOF before it gives up (the real one waits for ever). */
  stdinWaitMs?: number;
}

interface LogBase {
  cli: OfficialCliName;
  pid: number;
  turnIndex: number;
  /** ISO time. */
  time: string;
}

/** One start of a fake CLI, as the user's shim launched it. */
export interface StartEntry extends LogBase {
  event: 'start';
  argv: string[];
  cwd: string;
  /** The prompt the CLI understood (absent when the arguments were rejected). */
  prompt?: string;
  /** Why the CLI refused its arguments, as the real one would say it. */
  argError?: string;
  model?: string;
  /** The CLI session/thread id this start continued (--resume ...). */
  resume?: string;
  /** The CLI's own session/thread id for this start ('' when a real CLI ran: not observed). */
  sessionId: string;
  /** 'wrapper': logged by the real-CLI mode's PATH wrapper, which sees the start but nothing inside the CLI. */
  observedBy?: 'wrapper';
}

/** The prompt the CLI finally worked on (argv and stdin combined), once it knew it. */
export interface PromptEntry extends LogBase {
  event: 'prompt';
  prompt: string;
  /** Where the text came from. */
  source: 'argv' | 'stdin' | 'argv+stdin';
}

/** A tool began to run inside the fake CLI (printed before its side effects). */
export interface ToolStartEntry extends LogBase {
  event: 'tool-start';
  callId: string;
  name: string;
  cliToolId: string;
}

/** A tool the fake CLI ran, with its outcome and the files it left changed. */
export interface ToolEntry extends LogBase {
  event: 'tool';
  callId: string;
  name: string;
  cliToolId: string;
  input: Record<string, unknown>;
  isError: boolean;
  /** Whether the CLI's own output called it a failure (gemini reports a shell command that exits 3 as success). */
  reportedIsError: boolean;
  output: string;
  /** Workspace-relative path → sha256 of the content after the tool (null: removed; 'dir': a directory). */
  effects: Record<string, string | null>;
}

export interface StallEntry extends LogBase {
  event: 'stall';
}

export interface SignalEntry extends LogBase {
  event: 'signal';
  signal: string;
  /**
   * `ignored`: the gemini launcher, which does not forward signals; `died`: copilot's loader, which a signal
   * ends at once, leaving its binary running; `stopped`: the CLI ended its turn; `exiting`: it arrived while the
   * CLI was already ending (nothing left to stop).
   */
  handled: 'ignored' | 'died' | 'stopped' | 'exiting';
}

/** codex (like the real one) read stdin to EOF and the shim never closed it. */
export interface StdinOpenEntry extends LogBase {
  event: 'stdin-open';
  waitedMs: number;
}

/** The real-CLI wrapper could not read codex's stdin (`cat` failed): whether it was closed is not known. */
export interface StdinUnreadEntry extends LogBase {
  event: 'stdin-unread';
  reason: string;
}

/** What one run of a CLI added to its session, for the runs that resume it (claude's session-wide counts). */
export interface SessionNote {
  /** What the session's model calls billed up to the end of this run (`costUsd` summed call by call, as claude does). */
  billed?: { input: number; output: number; cached: number; costUsd: number };
  /** Input + cache + output tokens of its last completed call (a later compaction's `pre_tokens`). */
  lastCallTokens?: number;
  /** Whether it added conversation to the session (a `/compact` of a session without any has nothing to compact). */
  conversation?: boolean;
}

export interface ExitEntry extends LogBase, SessionNote {
  event: 'exit';
  code: number;
  /** Whether the CLI had printed its own final event (gemini/claude `result`, codex `turn.completed`/`turn.failed`). */
  finalEvent?: boolean;
  /** How many stdout lines the CLI printed. */
  lines?: number;
  /** The last line the CLI wrote to stderr. */
  stderrLine?: string;
}

/** One line of an official CLI's log (the fake's own, or a real CLI's wrapper's). */
export type CliLogEntry =
  | StartEntry
  | PromptEntry
  | ToolStartEntry
  | ToolEntry
  | StallEntry
  | SignalEntry
  | StdinOpenEntry
  | StdinUnreadEntry
  | ExitEntry;

export function readState(file: string): FakeCliState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the fake CLI state file ${file} (${STATE_ENV}): ${messageOf(error)}`, {
      cause: error,
    });
  }
  let state: FakeCliState;
  try {
    state = JSON.parse(text) as FakeCliState;
  } catch (error) {
    throw new Error(`the fake CLI state file ${file} is not JSON: ${messageOf(error)}`, { cause: error });
  }
  if (!state || typeof state !== 'object' || !state.scenario || !Array.isArray(state.scenario.turns)) {
    throw new Error(`the fake CLI state file ${file} has no scenario with turns; write it with installFakeClis()`);
  }
  if (!Number.isInteger(state.turnIndex) || state.turnIndex < 0 || state.turnIndex >= state.scenario.turns.length) {
    throw new Error(
      `the fake CLI state file ${file} names turn ${state.turnIndex}, but scenario ${state.scenario.id} has ` +
        `${state.scenario.turns.length} turn(s); call setFakeCliTurn() with a 0-based index`,
    );
  }
  return state;
}

/** Writes the state atomically, so a CLI starting at that moment never reads half a file. */
export function writeState(file: string, state: FakeCliState): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/** Appends one entry. Each line is one write() on an O_APPEND file, so concurrent writers do not interleave. */
export function appendLog(file: string | undefined, entry: CliLogEntry): void {
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  } catch {
    // A log that cannot be written must not change what the CLI prints; the harness reports the gap.
  }
}

/** Every entry of a log file; a missing file is an empty log (no CLI was started). */
export function readLog(file: string): CliLogEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: CliLogEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as CliLogEntry);
    } catch {
      // a line torn by a killed writer: skip it
    }
  }
  return entries;
}
