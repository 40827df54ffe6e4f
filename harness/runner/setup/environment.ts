// The environment a shim runs in (R7, D2, D8): its own HOME and TMPDIR inside the run's folder, the mocks'
// base URLs, the run's own dummy credentials, the run's bin folder first on PATH. Built from an allowlist of
// the runner's variables, so a developer's real API keys and proxy settings are not *given* to a shim. That is
// all it guarantees: a shim runs as the same user as the runner and can read whatever that user can, the
// runner's own environment included (/proc/<pid>/environ of its parent on Linux). Run the suite where no real
// secret is in the environment (see README, "What runs share").
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { DUMMY_CREDENTIALS, type DummyCredentials } from '../../mock/credentials.js';
import type { PlatformName } from '../../process/platform.js';

/** The variables that carry a run's dummy keys (D2), with the credential each gets. */
export function dummyKeyVariables(credentials: DummyCredentials): Record<string, string> {
  return {
    OPENAI_API_KEY: credentials.openaiApiKey,
    ANTHROPIC_API_KEY: credentials.anthropicApiKey,
    GEMINI_API_KEY: credentials.geminiApiKey,
    GOOGLE_API_KEY: credentials.geminiApiKey,
  };
}

/**
 * What a shim must not print (rule secrets.no-credential-echo): D2's values, which every run's credentials
 * start with, so another run's key is caught as well as the run's own.
 */
export const ALL_DUMMY_SECRETS: readonly string[] = [...new Set(Object.values(DUMMY_CREDENTIALS))];

/** Parent variables a shim may need to work at all (finding programs, temp dirs, locale). */
const INHERITED = [
  'PATH',
  'PATHEXT',
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'WINDIR',
  'ComSpec',
  'COMSPEC',
  'SystemDrive',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'SHELL',
  'USER',
  'LOGNAME',
  'USERNAME',
  'TERM',
];

export interface MockBaseUrls {
  /** http://127.0.0.1:PORT/v1 (what the OpenAI SDK expects). */
  openai: string;
  anthropic: string;
  gemini: string;
}

export interface EnvironmentOptions {
  platform: PlatformName;
  parent: NodeJS.ProcessEnv;
  home: string;
  /** The run's temporary directory (TMPDIR, TEMP, TMP). */
  temp?: string;
  /** Shared by every run of one suite invocation (XDG_CACHE_HOME); default: under the run's HOME. */
  cache?: string;
  /** The run's dummy credentials (default: D2's values). */
  credentials?: DummyCredentials;
  baseUrls: MockBaseUrls;
  /** Folders put first on PATH (auth helpers, fake CLIs), in order. */
  pathFirst: string[];
  /** The scenario's env block (`unset` wins over everything the harness sets, `set` adds). */
  scenario?: { unset?: string[]; set?: Record<string, string> };
  /** Harness variables (fake CLI state and log files, ...). */
  harness?: Record<string, string>;
  /** The user's --env K=V, applied last. */
  user?: Record<string, string>;
}

/** Name of the PATH variable as the parent spells it (Windows: usually `Path`; names are case-insensitive there). */
function pathKey(env: Record<string, string>, platform: PlatformName): string {
  if (platform !== 'win32') return 'PATH';
  return Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'Path';
}

/** Deletes a variable whatever its spelling on Windows. */
function unset(env: Record<string, string>, name: string, platform: PlatformName): void {
  for (const key of Object.keys(env)) {
    if (key === name || (platform === 'win32' && key.toUpperCase() === name.toUpperCase())) delete env[key];
  }
}

/** Sets a variable, replacing any other spelling of it on Windows. */
function set(env: Record<string, string>, name: string, value: string, platform: PlatformName): void {
  unset(env, name, platform);
  env[name] = value;
}

export function buildEnvironment(options: EnvironmentOptions): Record<string, string> {
  const { platform } = options;
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const env: Record<string, string> = {};
  const wanted = new Set(INHERITED.map((name) => (platform === 'win32' ? name.toUpperCase() : name)));
  for (const [key, value] of Object.entries(options.parent)) {
    if (value === undefined) continue;
    if (wanted.has(platform === 'win32' ? key.toUpperCase() : key)) env[key] = value;
  }
  // Isolation: every place a shim or a CLI keeps per-user state points into the run's HOME.
  set(env, 'HOME', options.home, platform);
  set(env, 'USERPROFILE', options.home, platform);
  set(env, 'XDG_CONFIG_HOME', pathApi.join(options.home, '.config'), platform);
  set(env, 'XDG_DATA_HOME', pathApi.join(options.home, '.local', 'share'), platform);
  set(env, 'XDG_CACHE_HOME', options.cache ?? pathApi.join(options.home, '.cache'), platform);
  const temp = options.temp ?? pathApi.join(options.home, 'tmp');
  for (const name of ['TMPDIR', 'TEMP', 'TMP']) set(env, name, temp, platform);
  set(env, 'XDG_STATE_HOME', pathApi.join(options.home, '.local', 'state'), platform);
  if (platform === 'win32') {
    set(env, 'APPDATA', pathApi.join(options.home, 'AppData', 'Roaming'), platform);
    set(env, 'LOCALAPPDATA', pathApi.join(options.home, 'AppData', 'Local'), platform);
  }
  // Loopback only: no proxy may intercept the mocks.
  set(env, 'NO_PROXY', '127.0.0.1,localhost', platform);
  set(env, 'no_proxy', '127.0.0.1,localhost', platform);
  set(env, 'NO_COLOR', '1', platform);
  // R7: base URLs in the form each official SDK expects, and D2's dummy keys.
  set(env, 'OPENAI_BASE_URL', options.baseUrls.openai, platform);
  set(env, 'ANTHROPIC_BASE_URL', options.baseUrls.anthropic, platform);
  set(env, 'GOOGLE_GEMINI_BASE_URL', options.baseUrls.gemini, platform);
  for (const [name, value] of Object.entries(dummyKeyVariables(options.credentials ?? DUMMY_CREDENTIALS)))
    set(env, name, value, platform);
  const key = pathKey(env, platform);
  const existing = env[key];
  const delimiter = platform === 'win32' ? ';' : ':';
  set(env, key, [...options.pathFirst, ...(existing ? [existing] : [])].join(delimiter), platform);
  for (const [name, value] of Object.entries(options.harness ?? {})) set(env, name, value, platform);
  for (const [name, value] of Object.entries(options.scenario?.set ?? {})) set(env, name, value, platform);
  for (const name of options.scenario?.unset ?? []) unset(env, name, platform);
  for (const [name, value] of Object.entries(options.user ?? {})) set(env, name, value, platform);
  return env;
}

/** Parses `--env K=V` values; throws a usage message naming the bad one. */
export function parseEnvAssignments(values: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    if (equals <= 0)
      throw new UsageError(`--env ${JSON.stringify(value)}: expected NAME=VALUE (e.g. --env MY_SHIM_DEBUG=1)`);
    result[value.slice(0, equals)] = value.slice(equals + 1);
  }
  return result;
}
