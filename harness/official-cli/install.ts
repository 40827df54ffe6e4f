// Installs the fake official CLIs for one run: launchers named `gemini`, `codex`, `claude` (POSIX and
// .cmd) in a directory the runner puts first on the shim's PATH, plus the state file they play from.
// The launchers carry the state and log paths themselves, so a shim that cleans its child's environment
// still starts a working fake. "Missing CLI" runs simply do not install the binary the shim looks for.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type WrittenCommandShim, writeCommandShim } from '../process/command-shims.js';
import { LOG_ARGUMENT, STATE_ARGUMENT } from './launcher-arguments.js';
import { OFFICIAL_CLI_NAMES, type OfficialCliName, type ScriptScenario } from './script-types.js';
import { type CliLogEntry, LOG_ENV, readLog, readState, STATE_ENV, writeState } from './state.js';

export interface InstallFakeClisOptions {
  /** The scenario (any object with the Scenario fields the fakes read). */
  scenario: ScriptScenario;
  /** 0-based turn the next start plays; change it between turns with setFakeCliTurn(). */
  turnIndex: number;
  stateFile: string;
  logFile: string;
  /** Which CLIs to install; default all three. Leave one out for the "missing CLI" scenario. */
  clis?: readonly OfficialCliName[];
  /** dist/fake-cli.js; found next to this module or in the package's dist/ when not given. */
  script?: string;
  /** The Node binary the launchers run; default the current one. */
  node?: string;
  /** How long a stalled stream is held before the fake gives up (default 30 s). */
  stallTimeoutMs?: number;
  /** How long codex waits for stdin EOF before logging `stdin-open` and going on (default 5 s). */
  stdinWaitMs?: number;
}

export interface InstalledFakeClis {
  binDir: string;
  launchers: Partial<Record<OfficialCliName, WrittenCommandShim>>;
  /** The D4 variables, for runners that also want them in the shim's environment. */
  env: Record<string, string>;
}

/** The bundled fake CLI script. */
export function fakeCliScriptPath(): string {
  const candidates = [new URL('./fake-cli.js', import.meta.url), new URL('../../dist/fake-cli.js', import.meta.url)];
  for (const candidate of candidates) {
    const file = fileURLToPath(candidate);
    if (existsSync(file)) return file;
  }
  throw new Error(
    'dist/fake-cli.js is missing: run `npm run build` (scripts/build.mjs bundles harness/official-cli/main.ts)',
  );
}

export async function installFakeClis(binDir: string, options: InstallFakeClisOptions): Promise<InstalledFakeClis> {
  const script = options.script ?? fakeCliScriptPath();
  writeState(options.stateFile, {
    scenario: options.scenario,
    turnIndex: options.turnIndex,
    stallTimeoutMs: options.stallTimeoutMs,
    stdinWaitMs: options.stdinWaitMs,
  });
  readState(options.stateFile); // fails here, with the reason, rather than inside the shim's run
  const launchers: Partial<Record<OfficialCliName, WrittenCommandShim>> = {};
  for (const cli of options.clis ?? OFFICIAL_CLI_NAMES) {
    launchers[cli] = await writeCommandShim(binDir, cli, {
      kind: 'node',
      script,
      args: [cli, `${STATE_ARGUMENT}${options.stateFile}`, `${LOG_ARGUMENT}${options.logFile}`],
      node: options.node,
    });
  }
  return { binDir, launchers, env: { [STATE_ENV]: options.stateFile, [LOG_ENV]: options.logFile } };
}

/** Points the installed fakes at another turn (spawn-per-turn runs call it before each turn). */
export function setFakeCliTurn(stateFile: string, turnIndex: number): void {
  const state = readState(stateFile);
  writeState(stateFile, { ...state, turnIndex });
  readState(stateFile);
}

export function readFakeCliLog(logFile: string): CliLogEntry[] {
  return readLog(logFile);
}

/**
 * Resolves with the first log entry matching `predicate` (e.g. the `stall` a fake writes when it holds
 * its stream, or the `tool-start` of a running tool: the moment to interrupt), or undefined after the
 * timeout. Polls: log files are tiny and the fakes append whole lines.
 */
export async function waitForFakeCliEvent(
  logFile: string,
  predicate: (entry: CliLogEntry) => boolean,
  options: { timeoutMs: number; pollMs?: number; signal?: AbortSignal },
): Promise<CliLogEntry | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (options.signal?.aborted) return undefined;
    const found = readLog(logFile).find(predicate);
    if (found) return found;
    if (Date.now() >= deadline) return undefined;
    await pause(options.pollMs ?? 25, options.signal);
  }
}

/** Waits `ms`, or less when `signal` aborts: a poll whose run is over must not keep the runner alive. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
