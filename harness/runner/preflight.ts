// Before a run starts: whether it can be verified at all with the shim's capabilities on this platform (and why
// not), and whether it runs in persistent mode (its own mode, or an interrupt that must go through stdin on Windows).
import { existsSync } from 'node:fs';
import { pathFor } from '../process/platform.js';
import { type NotVerified, type NotVerifiedCause, runNotVerified } from '../rules/not-verified.js';
import { declaredLimitation } from './config/capabilities.js';
import { buildInvocation, invocationName } from './config/invocation.js';
import { providerEntry } from './config/providers.js';
import type { RunSpec, SuiteSettings } from './results/run-types.js';

export interface Preflight {
  /** Run the scenario in persistent mode (its own mode, or an interrupt that must go through stdin on Windows). */
  persistent: boolean;
  /** Set when the run cannot be verified, with the reason (a whole-run record: no rule). */
  notVerified?: NotVerified;
  /** The not-verified reason is a limitation the capabilities imply or declare (a required run is then partial). */
  limitation?: string;
}

function hasBash(settings: SuiteSettings): boolean {
  if (settings.platform !== 'win32') return true;
  const api = pathFor('win32');
  const paths = (process.env.PATH ?? process.env.Path ?? '').split(';').filter(Boolean);
  return paths.some((dir) =>
    ['bash.exe', 'bash'].some((name) => api.isAbsolute(dir) && existsSync(api.join(dir, name))),
  );
}

/** Whether the run can be verified with the shim's capabilities on this platform, and in which mode. */
export function preflight(spec: RunSpec, settings: SuiteSettings): Preflight {
  const { scenario } = spec;
  const capabilities = settings.capabilities;
  const hasInterrupt = scenario.turns.some((turn) => turn.interrupt);
  const windows = settings.platform === 'win32';
  let persistent = scenario.mode === 'persistent';
  const run = {
    scenario: scenario.id,
    provider: spec.provider,
    invocation: invocationName(spec.invocation),
    os: settings.platform,
  };
  const explicit = declaredLimitation(capabilities, run);
  const notVerified = (cause: NotVerifiedCause, reason: string, implied?: string): Preflight => ({
    persistent,
    notVerified: runNotVerified(cause, reason),
    ...((implied ?? explicit?.reason) ? { limitation: implied ?? explicit!.reason } : {}),
  });
  // A limitation the capabilities declare for this run: not attempted, listed with its reason.
  if (explicit) return notVerified('capability', `declared limitation: ${explicit.reason}`, explicit.reason);
  // Under yume-app the stop is the app's: no signal, or SIGKILL to the pid (kill-and-resume); never SIGINT.
  if (hasInterrupt && spec.profile === 'yume-app') {
    return notVerified(
      'capability',
      'the app never sends a shim SIGINT or an interrupt frame: under the yume-app profile its stop is tested by kill-and-resume',
    );
  }
  if (scenario.turns.some((turn) => turn.kill) && persistent)
    return notVerified('harness', 'a kill scenario runs one process per turn (spawn-per-turn)');
  if (persistent && !capabilities.persistent)
    return notVerified(
      'capability',
      'needs persistent mode (--input-format stream-json), which the capabilities do not declare',
    );
  if (hasInterrupt && windows && !persistent) {
    if (!capabilities.persistent) {
      return notVerified(
        'platform',
        'Windows cannot deliver SIGINT, and the shim declares no persistent mode to send an interrupt frame (R6)',
        'no persistent mode, so no interrupt on Windows (R6)',
      );
    }
    persistent = true;
  }
  for (const need of scenario.needs ?? []) {
    if (need === 'persistent' && capabilities.persistent) continue;
    if (need === 'signals' && windows)
      return notVerified('platform', 'needs POSIX signals, which Windows does not have');
    if (need === 'bash' && !hasBash(settings)) return notVerified('platform', 'needs bash, which is not on PATH (R11)');
    if (need !== 'persistent' && need !== 'signals' && !capabilities.features.has(need)) {
      return notVerified('capability', `needs the optional feature "${need}", which the capabilities do not declare`);
    }
  }
  // Can the invocation express this run at all? (yume-app has no persistent mode, no permission modes, — ids.)
  const probe = buildInvocation(spec.invocation, {
    providerId: spec.provider,
    cwd: '.',
    sessionId: 'probe',
    prompt: 'probe',
    apiBase: 'http://127.0.0.1:1',
    permissionMode: scenario.permissionMode,
    protocolVersion: settings.protocolVersion,
    persistent,
  });
  // R7: under yume-app the app's gemini/openai ids also offer the REST backend, so no CLI is not an error there.
  if (scenario.cli === 'missing' && spec.invocation.kind === 'yume-app') {
    return notVerified(
      'capability',
      'a missing official CLI is an error only when the provider flag names the CLI (spec invocation); the yume-app provider also offers the REST backend (R7)',
    );
  }
  if ('notVerified' in probe) {
    const yumeAppDash = spec.invocation.kind === 'yume-app' && !providerEntry(spec.provider)?.yumeApp;
    return notVerified(
      probe.notVerified.cause,
      probe.notVerified.reason,
      yumeAppDash ? 'provider id marked — under the yume-app invocation (R7)' : undefined,
    );
  }
  return { persistent };
}
