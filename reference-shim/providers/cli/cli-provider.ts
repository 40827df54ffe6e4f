// A TurnProvider that runs an official CLI (Type B): the CLI runs the agent loop and the tools itself; the
// shim starts it exactly once per turn and translates what it prints. Each CLI contributes its argv and
// a translator (gemini-cli.ts, codex-cli.ts, claude-cli.ts, copilot-cli.ts); everything about processes, missing
// binaries, exit codes, interrupts and session continuity is here, once. `/compact` runs the CLI once too
// (cli-compaction.ts says how each CLI compacts).

import { cmdCanCarry } from '../../../common/windows-command-line.js';
import type { HistoryEntry } from '../../session/history.js';
import {
  type CompactOutcome,
  type CompactRequest,
  ProviderError,
  type TurnOutcome,
  type TurnProvider,
  type TurnRequest,
  type TurnSink,
} from '../provider.js';
import { locateBinary } from './binary.js';
import { CompactionSink, compactionOutcome } from './cli-compaction.js';
import { type CliExit, runCli } from './cli-process.js';

export type CliProviderId = 'gemini-cli' | 'codex-cli' | 'claude-cli' | 'copilot-cli';

/** What the shim keeps between turns (saved in the session file as providerState). */
export interface CliSessionState {
  cli: CliProviderId;
  /** The CLI's own session / thread id, passed back on the next turn; absent: the next turn starts a new one. */
  sessionId?: string;
  /** The running total the CLI reported for its session so far (codex: a resumed thread counts every turn). */
  usageTotals?: CliUsageTotals;
}

export interface CliUsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
}

export interface ArgsInput {
  prompt: string;
  model: string;
  cwd: string;
  permissionMode: string;
  /** The CLI session to continue. */
  resumeId?: string;
  /** The session this turn runs in: `resumeId`, else a new UUID (for a CLI that lets its caller name the session). */
  sessionId: string;
  /** A file of this turn's own the CLI may write to (copilot's usage file); removed after the turn. */
  workFile: string;
  /** The prompt goes on stdin instead of argv (a Windows .cmd launcher cannot carry line breaks). */
  promptOnStdin: boolean;
}

export interface CliTranslator {
  onEvent(event: Record<string, unknown>): void;
  onStderr?(text: string): void;
  /** The CLI's own session id, once it printed one. */
  readonly cliSessionId: string | undefined;
  /** The session's running usage total the CLI reported (only for a CLI that reports totals). */
  readonly usageTotals?: CliUsageTotals | undefined;
  /** What the CLI reported at the end: success with its final text, or its error. Undefined: nothing. */
  readonly ending: { ok: true; text: string } | { ok: false; error: ProviderError } | undefined;
  /** Why the CLI said its own compaction failed (a CLI that compacts on its command). */
  readonly compactError?: string | undefined;
}

export interface TranslatorContext {
  log: (message: string) => void;
  /** The turn's working directory (relative paths the CLI reports resolve against it). */
  cwd: string;
  /** The running total the resumed session had reached (saved by the last turn). */
  previousTotals?: CliUsageTotals;
  /** ArgsInput's session and work file, for the translator of the same turn. */
  sessionId: string;
  workFile: string;
}

export interface CliDefinition {
  id: CliProviderId;
  /** The command looked up on PATH. */
  binary: string;
  /** How to install it, for the missing-binary message. */
  installHint: string;
  /** Tool names the translator can report (system.tools). */
  tools: readonly string[];
  /** `/compact` as the prompt compacts the session in non-interactive mode (claude); else the shim asks for a summary. */
  compactsOnCommand?: boolean;
  buildArgs(input: ArgsInput): string[];
  createTranslator(sink: TurnSink, context: TranslatorContext): CliTranslator;
}

export interface CliProviderSettings {
  env: NodeJS.ProcessEnv;
  log?: (message: string) => void;
  platform?: NodeJS.Platform;
  interruptGraceMs?: number;
}

/** A short text version of earlier turns, for a CLI that has no session of its own to resume. */
function withHistory(prompt: string, history: readonly HistoryEntry[]): string {
  const lines: string[] = [];
  for (const entry of history) {
    if (entry.role === 'user') lines.push(`User: ${entry.content}`);
    else if (entry.role === 'assistant') {
      if (entry.content) lines.push(`Assistant: ${entry.content}`);
      for (const call of entry.toolCalls ?? [])
        lines.push(`Assistant called ${call.name} ${JSON.stringify(call.input)}`);
    } else
      lines.push(`Tool ${entry.name} returned${entry.isError ? ' an error' : ''}: ${entry.content.slice(0, 2000)}`);
  }
  if (lines.length === 0) return prompt;
  return `<conversation_so_far>\n${lines.join('\n')}\n</conversation_so_far>\n\n${prompt}`;
}

function previousSession(state: unknown, id: CliProviderId): string | undefined {
  if (!state || typeof state !== 'object') return undefined;
  const candidate = state as Partial<CliSessionState>;
  return candidate.cli === id && typeof candidate.sessionId === 'string' && candidate.sessionId !== ''
    ? candidate.sessionId
    : undefined;
}

function previousUsage(state: unknown): CliUsageTotals | undefined {
  const totals = (state as Partial<CliSessionState> | undefined)?.usageTotals;
  if (!totals || typeof totals !== 'object') return undefined;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
  return {
    inputTokens: count(totals.inputTokens),
    outputTokens: count(totals.outputTokens),
    cacheReadTokens: count(totals.cacheReadTokens),
  };
}

const lastLines = (text: string, count = 3) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-count)
    .join(' | ');

export class CliTurnProvider implements TurnProvider {
  readonly kind = 'turn' as const;
  readonly id: string;
  readonly tools: readonly string[];

  constructor(
    private readonly definition: CliDefinition,
    private readonly settings: CliProviderSettings,
  ) {
    this.id = definition.id;
    this.tools = definition.tools;
  }

  async runTurn(request: TurnRequest, sink: TurnSink): Promise<TurnOutcome> {
    return (await this.play(request, sink)).outcome;
  }

  /**
   * `/compact`: one run of the CLI. A CLI that compacts on its command gets the command in the session it keeps;
   * any other (or one without a session to resume) is asked for the summary, and the next turn starts a new CLI
   * session from the shim's compacted history.
   */
  async compact(request: CompactRequest): Promise<CompactOutcome> {
    const { definition } = this;
    const ownCommand =
      definition.compactsOnCommand === true && previousSession(request.state, definition.id) !== undefined;
    const sink = new CompactionSink(this.settings.log ?? (() => undefined));
    const prompt = ownCommand ? request.command : request.instruction;
    const { outcome, translator } = await this.play({ ...request, prompt }, sink);
    return compactionOutcome({
      ownCommand,
      binary: definition.binary,
      turn: outcome,
      sink,
      ...(translator?.compactError ? { compactError: translator.compactError } : {}),
      freshState: { cli: definition.id } satisfies CliSessionState,
    });
  }

  private async play(
    request: TurnRequest,
    sink: TurnSink,
  ): Promise<{ outcome: TurnOutcome; translator?: CliTranslator }> {
    const { definition, settings } = this;
    const log = settings.log ?? (() => undefined);
    const platform = settings.platform ?? process.platform;
    const keepState = request.state;
    const binary = locateBinary(definition.binary, settings.env, platform);
    if (!binary) {
      const error = new ProviderError(
        'config',
        `${definition.binary} was not found on PATH: --provider ${definition.id} runs the official CLI. ${definition.installHint}`,
        { code: 'ENOENT' },
      );
      return { outcome: { ok: false, error, state: keepState } };
    }
    const resumeId = previousSession(request.state, definition.id);
    const prompt = resumeId ? request.prompt : withHistory(request.prompt, request.history);
    const promptOnStdin = platform === 'win32' && binary.batch && !cmdCanCarry(prompt);
    const [{ randomUUID }, os, path, { rmSync }] = await Promise.all([
      import('node:crypto'),
      import('node:os'),
      import('node:path'),
      import('node:fs'),
    ]);
    const turn = {
      sessionId: resumeId ?? randomUUID(),
      workFile: path.join(os.tmpdir(), `yume-cli-${randomUUID()}.json`),
    };
    const args = definition.buildArgs({
      prompt,
      model: request.model,
      cwd: request.cwd,
      permissionMode: request.permissionMode,
      resumeId,
      promptOnStdin,
      ...turn,
    });
    const previousTotals = resumeId ? previousUsage(request.state) : undefined;
    const translator = definition.createTranslator(sink, {
      log,
      cwd: request.cwd,
      ...turn,
      ...(previousTotals ? { previousTotals } : {}),
    });
    log(`${definition.id}: ${binary.file} ${args.map((arg) => JSON.stringify(arg)).join(' ')}`);

    const exit = await runCli({
      binary,
      args,
      cwd: request.cwd,
      env: settings.env,
      stdinText: promptOnStdin ? prompt : undefined,
      signal: request.signal,
      onEvent: (event) => translator.onEvent(event),
      onOtherLine: (line) => log(`${definition.binary} stdout: ${line}`),
      onStderr: (text) => translator.onStderr?.(text),
      interruptGraceMs: settings.interruptGraceMs,
      platform,
    });
    rmSync(turn.workFile, { force: true });
    const totals = translator.usageTotals ?? previousTotals;
    const state: CliSessionState | unknown = translator.cliSessionId
      ? { cli: definition.id, sessionId: translator.cliSessionId, ...(totals ? { usageTotals: totals } : {}) }
      : keepState;
    return { outcome: { ...this.outcome(exit, translator), state }, translator };
  }

  /** R5: a CLI error, a failed start, a timeout or a non-zero exit is an error; an interrupt is `aborted`. */
  private outcome(exit: CliExit, translator: CliTranslator): TurnOutcome {
    const name = this.definition.binary;
    if (exit.spawnError) {
      const missing = exit.spawnError.code === 'ENOENT';
      return {
        ok: false,
        error: new ProviderError(
          'config',
          missing
            ? `${name} was not found: ${this.definition.installHint}`
            : `${name} could not be started: ${exit.spawnError.message}`,
          { code: exit.spawnError.code },
        ),
      };
    }
    if (exit.interrupted) return { ok: false, error: new ProviderError('aborted', `${name} was interrupted`) };
    if (exit.timedOut)
      return { ok: false, error: new ProviderError('stream', `${name} did not finish in time and was stopped`) };
    const ending = translator.ending;
    if (ending && !ending.ok) return { ok: false, error: ending.error };
    const code = exit.code ?? (exit.signal ? 128 : 1);
    if (code !== 0) {
      const detail = lastLines(exit.stderrTail) || 'no message on stderr';
      if (!ending) {
        // Nothing on stdout: it refused its arguments or its configuration (auth, trust, flags).
        return {
          ok: false,
          error: new ProviderError('config', `${name} exited with code ${code} before answering: ${detail}`, {
            code: String(code),
          }),
        };
      }
      return {
        ok: false,
        error: new ProviderError('stream', `${name} reported success but exited with code ${code}: ${detail}`, {
          code: String(code),
        }),
      };
    }
    if (!ending)
      return { ok: false, error: new ProviderError('stream', `${name} exited without reporting the end of the turn`) };
    return { ok: true, assistantText: ending.text };
  }
}
