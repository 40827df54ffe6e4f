// Entry point of the fake official CLIs: `node dist/fake-cli.js <gemini|codex|claude|copilot> <the CLI's argv>`.
// The launchers that installFakeClis() writes call it with the state and log files in the environment
// (D4). Each start is logged before anything else, so the harness sees every way a shim called it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchStarter } from '../../common/starter-watch.js';
import { parseClaudeArgs } from './args/claude-args.js';
import { parseCodexArgs } from './args/codex-args.js';
import { parseCopilotArgs } from './args/copilot-args.js';
import { parseGeminiArgs } from './args/gemini-args.js';
import type { Invocation, ParseOutcome } from './args/invocation.js';
import { findSession, knownSessions, sessionHasConversation, sessionUsage } from './cli-sessions.js';
import { LOG_ARGUMENT, LOG_START_ARGUMENT, STATE_ARGUMENT } from './launcher-arguments.js';
import { probeStdin } from './real/stdin-probe.js';
import { newClaudeSessionId, runClaude } from './render/claude.js';
import { claudeSessionPast } from './render/claude-session.js';
import { newCodexThreadId, runCodex } from './render/codex.js';
import { runCopilot } from './render/copilot.js';
import { environmentRefusal } from './render/copilot-events.js';
import {
  COPILOT_BINARY_ENV,
  COPILOT_SESSION_ENV,
  copilotSession,
  relaunchCopilot,
  unknownCopilotSession,
} from './render/copilot-loader.js';
import { newGeminiSessionId, runGemini } from './render/gemini.js';
import { CliRuntime, DEFAULT_STDIN_WAIT_MS, promptSource } from './runtime.js';
import { OFFICIAL_CLI_NAMES, type OfficialCliName } from './script-types.js';
import { appendLog, type FakeCliState, LOG_ENV, readLog, readState, STATE_ENV, type StartEntry } from './state.js';
import { stopRunningCommand } from './workspace-tools.js';

/** Set in the environment of the worker process gemini relaunches itself as. */
const CHILD_ENV = 'YUME_CONFORMANCE_FAKE_CLI_CHILD';
const SESSION_ENV = 'YUME_CONFORMANCE_FAKE_CLI_SESSION';

function fatal(message: string, code = 2): never {
  process.stderr.write(`fake-cli: ${message}\n`);
  process.exit(code);
}

function parse(cli: OfficialCliName, args: string[]): ParseOutcome {
  if (cli === 'gemini') return parseGeminiArgs(args);
  if (cli === 'codex') return parseCodexArgs(args);
  if (cli === 'copilot') return parseCopilotArgs(args, process.env);
  return parseClaudeArgs(args, process.env, typeof process.getuid === 'function' && process.getuid() === 0);
}

function newSessionId(cli: OfficialCliName): string {
  if (cli === 'gemini') return newGeminiSessionId();
  if (cli === 'codex') return newCodexThreadId();
  return newClaudeSessionId();
}

/** The log entry of one start: what the harness reads to see how a shim called the CLI. */
function startEntry(
  cli: OfficialCliName,
  args: string[],
  outcome: ParseOutcome,
  { state, pid, sessionId }: { state: FakeCliState; pid: number; sessionId: string },
): StartEntry {
  const invocation = outcome.kind === 'run' ? outcome.invocation : undefined;
  return {
    event: 'start',
    cli,
    pid,
    turnIndex: state.turnIndex,
    time: new Date().toISOString(),
    argv: args,
    cwd: process.cwd(),
    prompt: invocation?.prompt,
    argError: outcome.kind === 'error' ? outcome.message.trim() : undefined,
    model: invocation?.model,
    resume: invocation?.resume,
    sessionId,
  };
}

/** What one start of a fake plays from: the scenario state, the log, its argv and what the argv means. */
interface Play {
  state: FakeCliState;
  logFile: string | undefined;
  args: string[];
  outcome: ParseOutcome;
}

/**
 * copilot: the loader logs the start (with the session it continues or creates) and starts the binary; the binary
 * refuses its arguments, its environment or an unknown session as copilot does, or plays the turn.
 */
async function playCopilot({ state, logFile, args, outcome }: Play): Promise<void> {
  const invocation = outcome.kind === 'run' ? outcome.invocation : undefined;
  if (process.env[COPILOT_BINARY_ENV] !== '1') {
    const session = invocation ? copilotSession(invocation, knownSessions('copilot', logFile)) : undefined;
    appendLog(logFile, startEntry('copilot', args, outcome, { state, pid: process.pid, sessionId: session ?? '' }));
    relaunchCopilot(fileURLToPath(import.meta.url), args, {
      session: session ?? '',
      onSignal: (signal) =>
        appendLog(logFile, {
          event: 'signal',
          signal,
          handled: 'died',
          cli: 'copilot',
          pid: process.pid,
          turnIndex: state.turnIndex,
          time: new Date().toISOString(),
        }),
    });
    return;
  }
  if (outcome.kind === 'info') {
    process.stdout.write(outcome.text);
    return;
  }
  const runtime = new CliRuntime('copilot', state, logFile, path.resolve(process.cwd(), invocation?.workdir ?? '.'));
  if (outcome.kind === 'error') {
    runtime.stderr(outcome.message);
    return runtime.exit(outcome.exitCode);
  }
  const refusal = environmentRefusal(process.env, outcome.invocation.model);
  const session = process.env[COPILOT_SESSION_ENV] ?? '';
  if (refusal || session === '') {
    runtime.stderr(refusal ?? unknownCopilotSession(outcome.invocation));
    return runtime.exit(1);
  }
  const log = logFile ? readLog(logFile) : [];
  await runCopilot(runtime, outcome.invocation, {
    sessionId: session,
    priorUsage: sessionUsage('copilot', log, state, session),
    conversation: sessionHasConversation('copilot', log, session),
  });
}

function unknownSessionMessage(cli: OfficialCliName, requested: string): string {
  if (cli === 'gemini')
    return `Error resuming session: Invalid session identifier "${requested}". Use --list-sessions to see available sessions.\n`;
  if (cli === 'codex') return `Error: no rollout found for thread id ${requested}\n`;
  return `No conversation found with session ID: ${requested}\n`;
}

/** gemini's launcher: relaunches itself as a worker and ignores the signals sent to its own pid. */
function relaunchGemini(state: FakeCliState, logFile: string | undefined, args: string[], sessionId: string): void {
  const script = fileURLToPath(import.meta.url);
  const worker = spawn(process.execPath, [script, 'gemini', ...args], {
    stdio: 'inherit',
    env: { ...process.env, GEMINI_CLI_NO_RELAUNCH: 'true', [CHILD_ENV]: '1', [SESSION_ENV]: sessionId },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      appendLog(logFile, {
        event: 'signal',
        signal,
        handled: 'ignored',
        cli: 'gemini',
        pid: process.pid,
        turnIndex: state.turnIndex,
        time: new Date().toISOString(),
      });
    });
  }
  worker.on('exit', (code, signal) => {
    const exitCode = code ?? (signal === 'SIGKILL' ? 137 : 1);
    appendLog(logFile, {
      event: 'exit',
      code: exitCode,
      cli: 'gemini',
      pid: process.pid,
      turnIndex: state.turnIndex,
      time: new Date().toISOString(),
    });
    process.exit(exitCode);
  });
}

/**
 * The real-CLI wrapper's logger: records a start of the real CLI (what its argv means, read with the pinned
 * parser, which the differential test holds to the real one) and exits; the wrapper then runs the CLI. For
 * codex, which reads stdin to EOF, it reads stdin first (up to the state's wait): EOF → the prompt it makes
 * is logged and the bytes go to a file whose path it prints, for the wrapper to give the CLI as stdin; still
 * open → `stdin-open` is logged and the CLI gets the shim's stdin as it is.
 */
function logRealStart(cli: OfficialCliName, launcherArgs: string[]): void {
  let stateFile: string | undefined;
  let logFile: string | undefined;
  const args = [...launcherArgs];
  while (args[0]?.startsWith(STATE_ARGUMENT) || args[0]?.startsWith(LOG_ARGUMENT)) {
    const launcherArgument = args.shift()!;
    if (launcherArgument.startsWith(STATE_ARGUMENT)) stateFile = launcherArgument.slice(STATE_ARGUMENT.length);
    else logFile = launcherArgument.slice(LOG_ARGUMENT.length);
  }
  if (!stateFile || !logFile) fatal('the real-CLI wrapper passes the state and log files');
  const state = readState(stateFile);
  const outcome = parse(cli, args);
  // The wrapper execs the real CLI in its own process: the CLI will have the wrapper's pid.
  const pid = process.ppid;
  const start = { ...startEntry(cli, args, outcome, { state, pid, sessionId: '' }), observedBy: 'wrapper' as const };
  appendLog(logFile, start);
  if (cli !== 'codex' || outcome.kind !== 'run') return;
  const base = { cli, pid, turnIndex: state.turnIndex };
  const probe = probeStdin(state.stdinWaitMs ?? DEFAULT_STDIN_WAIT_MS);
  if (probe.kind === 'unread') {
    process.stderr.write(
      `yume-conformance: codex's stdin was not read (${probe.reason}); cli.stdin-closed is not judged\n`,
    );
    return;
  }
  if (probe.kind === 'open') {
    appendLog(logFile, { ...base, event: 'stdin-open', waitedMs: probe.waitedMs, time: new Date().toISOString() });
    return;
  }
  const argvPrompt = outcome.invocation.prompt;
  const stdinText = probe.kind === 'closed' ? probe.data.toString('utf8') : '';
  const prompt = [argvPrompt ?? '', stdinText.trim()].filter((part) => part !== '').join('\n\n');
  if (prompt !== '')
    appendLog(logFile, {
      ...base,
      event: 'prompt',
      prompt,
      source: promptSource(argvPrompt, stdinText),
      time: new Date().toISOString(),
    });
  if (probe.kind === 'closed') {
    const file = path.join(path.dirname(stateFile), `stdin-${pid}-${state.turnIndex}.bin`);
    writeFileSync(file, probe.data);
    process.stdout.write(file);
  }
}

/**
 * On Windows the launcher is a .cmd (harness/process/command-shims.ts): cmd.exe starts this process, and a shim
 * that ends its CLI by the pid it started ends cmd.exe alone (the reference shim does so when it must exit at
 * once, and wherever `taskkill /T` fails, as under Wine). This process then ends with its cmd.exe, the running
 * command first, and the gemini worker with its launcher (common/starter-watch.ts). On POSIX the launcher execs
 * Node, and the shim ends the CLI's process group.
 */
function watchLauncher(): void {
  if (process.platform !== 'win32') return;
  const onGone = () => {
    stopRunningCommand();
    process.exit(1);
  };
  watchStarter(onGone, { platform: 'win32', starter: process.ppid });
}

async function main(): Promise<void> {
  const first = process.argv[2] ?? '';
  if (first.startsWith(LOG_START_ARGUMENT)) {
    const cli = first.slice(LOG_START_ARGUMENT.length) as OfficialCliName;
    if (!OFFICIAL_CLI_NAMES.includes(cli)) fatal(`unknown CLI ${cli}`);
    logRealStart(cli, process.argv.slice(3));
    return;
  }
  watchLauncher();
  const [name, ...rest] = process.argv.slice(2);
  if (!OFFICIAL_CLI_NAMES.includes(name as OfficialCliName))
    fatal(`usage: fake-cli.js <${OFFICIAL_CLI_NAMES.join('|')}> [the CLI's arguments]`);
  const cli = name as OfficialCliName;
  // The launcher's own leading arguments name the D4 files; the environment is the fallback.
  let stateFile = process.env[STATE_ENV];
  let logFile = process.env[LOG_ENV];
  const args = [...rest];
  while (args[0]?.startsWith(STATE_ARGUMENT) || args[0]?.startsWith(LOG_ARGUMENT)) {
    const launcherArgument = args.shift()!;
    if (launcherArgument.startsWith(STATE_ARGUMENT)) stateFile = launcherArgument.slice(STATE_ARGUMENT.length);
    else logFile = launcherArgument.slice(LOG_ARGUMENT.length);
  }
  // The gemini worker and any child the CLI starts find them here.
  if (stateFile) process.env[STATE_ENV] = stateFile;
  if (logFile) process.env[LOG_ENV] = logFile;
  if (!stateFile) fatal(`${STATE_ENV} is not set: the fake ${cli} is installed and configured by installFakeClis()`);
  let state: FakeCliState;
  try {
    state = readState(stateFile);
  } catch (error) {
    fatal((error as Error).message);
  }
  const isWorker = process.env[CHILD_ENV] === '1';
  const outcome = parse(cli, args);
  if (cli === 'copilot') return playCopilot({ state, logFile, args, outcome });
  const invocation: Invocation | undefined = outcome.kind === 'run' ? outcome.invocation : undefined;
  const sessionId = process.env[SESSION_ENV] ?? newSessionId(cli);

  let resumed: string | undefined;
  if (invocation?.resume) resumed = findSession(cli, invocation.resume, logFile);
  if (!isWorker) {
    appendLog(logFile, startEntry(cli, args, outcome, { state, pid: process.pid, sessionId: resumed ?? sessionId }));
  }
  if (outcome.kind === 'info') {
    process.stdout.write(outcome.text);
    return;
  }
  const workspace = path.resolve(process.cwd(), invocation?.workdir ?? '.');
  const runtime = new CliRuntime(cli, state, logFile, workspace);
  if (outcome.kind === 'error') {
    runtime.stderr(outcome.message);
    await runtime.exit(outcome.exitCode);
    return;
  }
  const run = outcome.invocation;
  if (run.resume && !resumed) {
    runtime.stderr(unknownSessionMessage(cli, run.resume));
    await runtime.exit(1);
    return;
  }
  await play(cli, runtime, run, { state, logFile, args, isWorker, resumed, session: resumed ?? sessionId });
}

/** Where a run of a fake CLI stands: its D4 files, its argv, whether it is gemini's worker, its session. */
interface PlayContext {
  state: FakeCliState;
  logFile: string | undefined;
  args: string[];
  isWorker: boolean;
  /** The session a `--resume` continued. */
  resumed: string | undefined;
  session: string;
}

/** Plays the turn as `cli` does; gemini's launcher relaunches itself as a worker first. */
async function play(cli: OfficialCliName, runtime: CliRuntime, run: Invocation, context: PlayContext): Promise<void> {
  const { state, logFile, resumed, session } = context;
  if (cli === 'gemini') {
    if (!context.isWorker && process.env.GEMINI_CLI_NO_RELAUNCH !== 'true') {
      relaunchGemini(state, logFile, context.args, session);
      return;
    }
    const stdinText = await runtime.readStdin(500);
    await runGemini(runtime, run, { sessionId: session, stdinText });
  } else if (cli === 'codex') {
    await runCodex(runtime, run, {
      threadId: session,
      ...(resumed && logFile ? { priorUsage: sessionUsage('codex', readLog(logFile), state, resumed) } : {}),
    });
  } else {
    const stdinText = run.prompt === undefined ? await runtime.readStdin() : '';
    await runClaude(runtime, run, {
      sessionId: session,
      stdinText,
      ...(resumed && logFile ? { past: claudeSessionPast(readLog(logFile), resumed) } : {}),
    });
  }
}

main().catch((error: unknown) =>
  fatal(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, 70),
);
