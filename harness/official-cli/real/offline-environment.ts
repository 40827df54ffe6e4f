// What each real official CLI needs to run offline against the REST mock: its own HOME with the config
// files it reads there, and the variables that switch off update checks, telemetry and other traffic.
// Checked with each pinned version in a loopback-only network namespace: with these settings none of the
// four made a DNS query or a non-loopback connection (without `features.plugins=false`, codex looked up
// chatgpt.com and github.com). gemini, codex and claude retry a failed call once, so the scripted faults (a
// bounded number of error responses) outlast the retries, and a fault scenario stays short; copilot's retries
// cannot be set (5 after 429/5xx, test/fixtures/streams/captures/HOW-CAPTURED.md), and the scenarios script
// as many.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OfficialCliName } from '../script-types.js';

export interface MockEndpoints {
  /** http://127.0.0.1:PORT/v1 */
  openai: string;
  /** http://127.0.0.1:PORT */
  anthropic: string;
  /** http://127.0.0.1:PORT */
  gemini: string;
}

export interface OfflineEnvironmentOptions {
  /** The CLI's own HOME (created; config files go under it). */
  home: string;
  endpoints: MockEndpoints;
  /** The keys the mock accepts, by variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). */
  keys: { openai: string; anthropic: string; gemini: string };
  /** Retries of a failed model call (default 1). */
  retries?: number;
  /** Let claude's bypass mode run as root (the preset passes --dangerously-skip-permissions). */
  sandboxed?: boolean;
  /** copilot's unpacked runtime (COPILOT_PKG_CACHE_HOME; real/copilot-runtime.ts), so no run unpacks its own. */
  copilotRuntime?: string;
}

/** codex's mock model provider; the model is chosen for its classic function tools (exec_command, apply_patch). */
export const CODEX_MOCK_MODEL = 'gpt-5.5';

function tomlString(value: string): string {
  return JSON.stringify(value);
}

function geminiFiles(options: OfflineEnvironmentOptions): Record<string, string> {
  const retries = options.retries ?? 1;
  mkdirSync(path.join(options.home, '.gemini'), { recursive: true });
  writeFileSync(
    path.join(options.home, '.gemini', 'settings.json'),
    `${JSON.stringify(
      {
        // Without it, a base-URL override makes gemini infer the `gateway` auth type, which headless mode
        // refuses ("Invalid auth method selected.", exit 41).
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: retries + 1 },
      },
      null,
      2,
    )}\n`,
  );
  return {
    GEMINI_API_KEY: options.keys.gemini,
    GOOGLE_GEMINI_BASE_URL: options.endpoints.gemini,
    GEMINI_TELEMETRY_ENABLED: 'false',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
}

function codexFiles(options: OfflineEnvironmentOptions): Record<string, string> {
  const retries = options.retries ?? 1;
  const codexHome = path.join(options.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      `model = ${tomlString(CODEX_MOCK_MODEL)}`,
      'model_provider = "mock"',
      'check_for_update_on_startup = false',
      '[features]',
      'plugins = false',
      '[analytics]',
      'enabled = false',
      // The workspace-write sandbox makes every writable root's protected folders (.git, .codex, .agents, .aws)
      // mount points, creating them when missing, and leaves them behind when a command is interrupted: an
      // empty /tmp/.git would make later programs think /tmp is a repository. The run's own TMPDIR stays.
      '[sandbox_workspace_write]',
      'exclude_slash_tmp = true',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = ${tomlString(options.endpoints.openai)}`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      // A request-level retry is silent; a stream-level one prints "Reconnecting... n/m" on stdout, which is
      // how a translator learns of it (R5: listed in result.errors). So every retry goes through the stream.
      'request_max_retries = 0',
      `stream_max_retries = ${retries}`,
      '',
    ].join('\n'),
  );
  return { CODEX_HOME: codexHome, OPENAI_API_KEY: options.keys.openai, OPENAI_BASE_URL: options.endpoints.openai };
}

function claudeVariables(options: OfflineEnvironmentOptions): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: options.endpoints.anthropic,
    ANTHROPIC_API_KEY: options.keys.anthropic,
    // The umbrella switch (autoupdater, telemetry, error reporting, feedback), and each one explicitly.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_MAX_RETRIES: String(options.retries ?? 1),
    ...(options.sandboxed ? { IS_SANDBOX: '1' } : {}),
  };
}

/**
 * copilot's bring-your-own-key settings (R22): offline, against the anthropic mock, never updating itself. The model
 * comes from the shim's --model (copilot refuses a BYOK run without one).
 */
export function copilotVariables(options: Pick<OfflineEnvironmentOptions, 'endpoints' | 'keys' | 'copilotRuntime'>) {
  return {
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: options.endpoints.anthropic,
    COPILOT_PROVIDER_TYPE: 'anthropic',
    COPILOT_PROVIDER_API_KEY: options.keys.anthropic,
    ...(options.copilotRuntime ? { COPILOT_PKG_CACHE_HOME: options.copilotRuntime } : {}),
  };
}

/**
 * Writes the CLI's config under `options.home` and returns the variables to run it with (HOME included).
 * The caller adds PATH and whatever else the process needs.
 */
export function prepareOfflineEnvironment(
  cli: OfficialCliName,
  options: OfflineEnvironmentOptions,
): Record<string, string> {
  mkdirSync(options.home, { recursive: true });
  const files: Record<OfficialCliName, () => Record<string, string>> = {
    gemini: () => geminiFiles(options),
    codex: () => codexFiles(options),
    claude: () => claudeVariables(options),
    copilot: () => copilotVariables(options),
  };
  const own = files[cli]();
  return { HOME: options.home, USERPROFILE: options.home, ...own };
}
