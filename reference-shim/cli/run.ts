// Wires a process together: arguments → session → provider → init line → one turn (spawn-per-turn) or a
// frame loop (persistent mode), with signal handling (R6) and exit codes (R5: 0 after success).
import { realpathSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { watchStarter } from '../../common/starter-watch.js';
import { PermissionGate } from '../agent/permissions.js';
import { type PersistentDeps, startPersistent } from '../agent/persistent.js';
import { systemPrompt } from '../agent/system-prompt.js';
import { TurnRunner } from '../agent/turn-runner.js';
import { createEmitter, type Emitter } from '../output/emitter.js';
import { SecretRedactor } from '../output/redact.js';
import { StdoutSink } from '../output/stdout-sink.js';
import { LineWriter } from '../output/writer.js';
import { type Provider, ProviderError } from '../providers/provider.js';
import { createProvider } from '../providers/registry.js';
import { HistoryFileError } from '../session/history-file.js';
import { SessionFileError } from '../session/store.js';
import { Interrupter } from '../tools/interrupt.js';
import { ToolRegistry } from '../tools/registry.js';
import { endRunningToolsNow } from '../tools/running-tools.js';
import { SHIM_VERSION } from '../version.js';
import { ArgumentError, parseCommandLine, type ShimOptions } from './args.js';
import { HELP_TEXT } from './help.js';
import { readPromptFromStdin } from './prompt.js';
import { setUpSession } from './session-setup.js';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
/** R6: exit within 2 s of an interrupt; the watchdog ends a turn that has not wrapped up by then. */
const INTERRUPT_WATCHDOG_MS = 1500;

async function exit(writer: LineWriter, code: number): Promise<never> {
  // Set first: should nothing be left to wait for while the flush is pending, Node ends the process on its
  // own, and it must end with this code rather than 0.
  process.exitCode = code;
  await writer.flush();
  process.exit(code);
}

/** R2's argument-error path: system subtype:error, an error result, exit 2 (no init line). */
async function argumentError(writer: LineWriter, message: string): Promise<never> {
  writer.write({ type: 'system', subtype: 'error', message });
  writer.write({
    type: 'result',
    subtype: 'error_invalid_arguments',
    is_error: true,
    duration_ms: 0,
    duration_api_ms: 0,
    num_turns: 0,
    result: message,
    errors: [message],
  });
  process.stderr.write(`yume-shim: ${message}\n`);
  return exit(writer, EXIT_USAGE);
}

function workingDirectory(options: ShimOptions): { cwd: string; realCwd: string } {
  const cwd = resolvePath(options.cwd ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new ArgumentError(`--cwd ${cwd} is not an existing directory.`);
  return { cwd, realCwd: realpathSync.native(cwd) };
}

interface Startup {
  options: ShimOptions;
  session: Awaited<ReturnType<typeof setUpSession>>;
  dirs: { cwd: string; realCwd: string };
  /** Spawn-per-turn: the turn's prompt (persistent mode reads its prompts from stdin frames). */
  prompt: string | undefined;
}

interface ShimIo {
  stdout: StdoutSink;
  writer: LineWriter;
  stderr: (message: string) => void;
}

/**
 * The process that started the shim is gone: a `.cmd` launcher's cmd.exe that the app's stop ended (SIGKILL to
 * the pid it started, R14), or the app itself. Nothing reads the shim any more, and on Windows nothing would end
 * it: its tools end, and it exits at once, printing nothing more (common/starter-watch.ts).
 */
function endWithStarter(): never {
  endRunningToolsNow();
  process.exit(EXIT_INTERRUPTED);
}

export async function runShim(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<never> {
  watchStarter(endWithStarter, { platform: process.platform, starter: process.ppid });
  const redactor = new SecretRedactor(env);
  const stdout = new StdoutSink();
  const writer = new LineWriter(stdout, redactor);
  const stderr = (message: string): void => {
    process.stderr.write(`yume-shim: ${redactor.redact(message)}\n`);
  };
  const { options, session, dirs, prompt } = await startUp(argv, env, { stdout, writer, stderr });

  const log = options.verbose ? stderr : () => undefined;
  const emitter = createEmitter(options.dialect, writer, { sessionId: () => session.id, model: options.model });
  const tools = ToolRegistry.available(env);
  const gate = new PermissionGate(options.permissionMode, options.persistent, log);
  const { provider, providerError } = await openProvider(options, { env, redactor, log });

  emitter.init({
    sessionId: session.id,
    model: options.model,
    cwd: dirs.cwd,
    permissionMode: options.permissionMode,
    tools: provider?.kind === 'turn' ? [...provider.tools] : tools.names,
    protocolVersion: options.protocolVersion,
  });
  log(`session ${session.id} (${session.file}), provider ${options.provider}, model ${options.model}`);

  if (!provider) return noProvider(emitter, writer, providerError?.message ?? 'no provider');

  const runner = new TurnRunner({
    emitter,
    provider,
    tools,
    toolContext: { cwd: dirs.cwd, realCwd: dirs.realCwd, redactor, env },
    gate,
    session,
    model: options.model,
    system: systemPrompt(dirs.cwd, tools.names),
    maxModelCalls: options.maxTurns,
    log,
  });
  if (options.persistent) return runPersistent({ runner, emitter, gate, writer, log });
  return runOneTurn(runner, emitter, { writer, prompt: prompt as string });
}

/**
 * The command line, the working directory, the session and (spawn-per-turn) the prompt; help and version
 * print and exit, and an argument error takes R2's path (exit 2).
 */
async function startUp(argv: readonly string[], env: NodeJS.ProcessEnv, io: ShimIo): Promise<Startup> {
  const { stdout, writer, stderr } = io;
  try {
    const command = parseCommandLine(argv, env);
    if (command.kind === 'help') {
      stdout.write(HELP_TEXT);
      return exit(writer, EXIT_OK);
    }
    if (command.kind === 'version') {
      stdout.write(`yume-shim ${SHIM_VERSION}\n`);
      return exit(writer, EXIT_OK);
    }
    const options = command.options;
    const dirs = workingDirectory(options);
    const session = await setUpSession(options, dirs.cwd, stderr);
    let prompt: string | undefined;
    if (!options.persistent) {
      prompt = options.prompt ?? (await readPromptFromStdin());
      if (prompt === undefined || prompt.trim() === '') {
        throw new ArgumentError(
          'No prompt: pass --prompt <text>, pipe the prompt on stdin, or use --input-format stream-json.',
        );
      }
    }
    return { options, session, dirs, prompt };
  } catch (error) {
    if (error instanceof ArgumentError || error instanceof HistoryFileError || error instanceof SessionFileError) {
      return argumentError(writer, error.message);
    }
    throw error;
  }
}

/** The provider, or the ProviderError that says why there is none (reported after the init line). */
async function openProvider(
  options: ShimOptions,
  context: { env: NodeJS.ProcessEnv; redactor: SecretRedactor; log: (message: string) => void },
): Promise<{ provider?: Provider; providerError?: ProviderError }> {
  try {
    const provider = await createProvider({
      provider: options.provider,
      model: options.model,
      apiBase: options.apiBase,
      ...context,
    });
    return { provider };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { providerError: error };
  }
}

/** No provider to run the turn: a system error, an error result, exit 1. */
function noProvider(emitter: Emitter, writer: LineWriter, message: string): Promise<never> {
  emitter.systemError(message);
  emitter.result({
    isError: true,
    subtype: 'error_during_execution',
    durationMs: 0,
    durationApiMs: 0,
    numTurns: 0,
    text: message,
    errors: [message],
  });
  emitter.messageStop();
  return exit(writer, EXIT_ERROR);
}

/** Persistent mode: SIGINT interrupts the turn (or ends an idle process), SIGTERM ends the process. */
async function runPersistent(deps: Omit<PersistentDeps, 'input'> & { writer: LineWriter }): Promise<never> {
  const { writer } = deps;
  const persistent = startPersistent({ ...deps, input: process.stdin });
  process.on('SIGINT', () => persistent.interrupt());
  process.on('SIGTERM', () => {
    persistent.terminate();
    // A turn that does not wrap up after its abort must not keep a terminated process alive.
    setTimeout(() => void exit(writer, EXIT_INTERRUPTED), INTERRUPT_WATCHDOG_MS).unref();
  });
  writer.onClose(() => persistent.terminate());
  return exit(writer, await persistent.done);
}

/** Spawn-per-turn: one turn; the first SIGINT or SIGTERM interrupts it, a second one exits at once. */
async function runOneTurn(
  runner: TurnRunner,
  emitter: Emitter,
  { writer, prompt }: { writer: LineWriter; prompt: string },
): Promise<never> {
  const controller = new Interrupter();
  let signals = 0;
  const onSignal = (): void => {
    signals += 1;
    if (signals > 1) process.exit(EXIT_INTERRUPTED);
    controller.abort();
    // Should a tool or the provider refuse to wrap up, still end the turn properly and in time.
    setTimeout(() => {
      if (emitter.resultsPrinted === 0) {
        emitter.interrupt();
        emitter.result({
          isError: true,
          subtype: 'cancelled',
          durationMs: 0,
          durationApiMs: 0,
          numTurns: 0,
          text: 'Interrupted by the user.',
        });
        emitter.messageStop();
      }
      void exit(writer, EXIT_INTERRUPTED);
    }, INTERRUPT_WATCHDOG_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  writer.onClose(() => controller.abort());

  const end = await runner.run(prompt, controller.signal);
  return exit(writer, end.interrupted ? EXIT_INTERRUPTED : end.isError ? EXIT_ERROR : EXIT_OK);
}
