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

/** Why a run is not attempted: the cause, the reason, and the limitation the capabilities imply by it. */
interface Refusal {
  cause: NotVerifiedCause;
  reason: string;
  /** Set when the reason is a limitation the capabilities imply (a required run is then partial, not failed). */
  implied?: string;
}

/** Whether the run can be verified with the shim's capabilities on this platform, and in which mode. */
export function preflight(spec: RunSpec, settings: SuiteSettings): Preflight {
  const { scenario } = spec;
  const run = {
    scenario: scenario.id,
    provider: spec.provider,
    invocation: invocationName(spec.invocation),
    os: settings.platform,
  };
  const ownMode = scenario.mode === 'persistent';
  // A limitation the capabilities declare for this run: not attempted, listed with its reason.
  const explicit = declaredLimitation(settings.capabilities, run);
  if (explicit)
    return refused(ownMode, {
      cause: 'capability',
      reason: `declared limitation: ${explicit.reason}`,
      implied: explicit.reason,
    });
  const modeRefusal = modeCheck(spec, settings);
  if (modeRefusal) return refused(ownMode, modeRefusal);
  // Windows delivers no SIGINT: an interrupt goes through stdin, so the run is persistent (modeCheck made sure it can be).
  const persistent = ownMode || (settings.platform === 'win32' && scenario.turns.some((turn) => turn.interrupt));
  const refusal = needsCheck(spec, settings) ?? invocationCheck(spec, settings, persistent);
  return refusal ? refused(persistent, refusal) : { persistent };
}

function refused(persistent: boolean, refusal: Refusal): Preflight {
  return {
    persistent,
    notVerified: runNotVerified(refusal.cause, refusal.reason),
    ...(refusal.implied ? { limitation: refusal.implied } : {}),
  };
}

/** Whether the run's mode (persistent or one process per turn) and its stops can be carried out. */
function modeCheck(spec: RunSpec, settings: SuiteSettings): Refusal | undefined {
  const { scenario } = spec;
  const { capabilities } = settings;
  const hasInterrupt = scenario.turns.some((turn) => turn.interrupt);
  const persistent = scenario.mode === 'persistent';
  // Under yume-app the stop is the app's: no signal, or SIGKILL to the pid (kill-and-resume); never SIGINT.
  if (hasInterrupt && spec.profile === 'yume-app')
    return {
      cause: 'capability',
      reason:
        'the app never sends a shim SIGINT or an interrupt frame: under the yume-app profile its stop is tested by kill-and-resume',
    };
  if (scenario.turns.some((turn) => turn.kill) && persistent)
    return { cause: 'harness', reason: 'a kill scenario runs one process per turn (spawn-per-turn)' };
  if (persistent && !capabilities.persistent)
    return {
      cause: 'capability',
      reason: 'needs persistent mode (--input-format stream-json), which the capabilities do not declare',
    };
  if (hasInterrupt && settings.platform === 'win32' && !persistent && !capabilities.persistent)
    return {
      cause: 'platform',
      reason: 'Windows cannot deliver SIGINT, and the shim declares no persistent mode to send an interrupt frame (R6)',
      implied: 'no persistent mode, so no interrupt on Windows (R6)',
    };
  return undefined;
}

/** Whether the platform and the capabilities give what the scenario says it needs. */
function needsCheck(spec: RunSpec, settings: SuiteSettings): Refusal | undefined {
  const { capabilities } = settings;
  const windows = settings.platform === 'win32';
  for (const need of spec.scenario.needs ?? []) {
    if (need === 'persistent' && capabilities.persistent) continue;
    if (need === 'signals' && windows)
      return { cause: 'platform', reason: 'needs POSIX signals, which Windows does not have' };
    if (need === 'bash' && !hasBash(settings))
      return { cause: 'platform', reason: 'needs bash, which is not on PATH (R11)' };
    if (need !== 'persistent' && need !== 'signals' && !capabilities.features.has(need))
      return {
        cause: 'capability',
        reason: `needs the optional feature "${need}", which the capabilities do not declare`,
      };
  }
  return undefined;
}

/** Can the invocation express this run at all? (yume-app has no persistent mode, no permission modes, — ids.) */
function invocationCheck(spec: RunSpec, settings: SuiteSettings, persistent: boolean): Refusal | undefined {
  const { scenario } = spec;
  // R7: under yume-app the app's gemini/openai ids also offer the REST backend, so no CLI is not an error there.
  if (scenario.cli === 'missing' && spec.invocation.kind === 'yume-app')
    return {
      cause: 'capability',
      reason:
        'a missing official CLI is an error only when the provider flag names the CLI (spec invocation); the yume-app provider also offers the REST backend (R7)',
    };
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
  if (!('notVerified' in probe)) return undefined;
  const yumeAppDash = spec.invocation.kind === 'yume-app' && !providerEntry(spec.provider)?.yumeApp;
  return {
    cause: probe.notVerified.cause,
    reason: probe.notVerified.reason,
    ...(yumeAppDash ? { implied: 'provider id marked — under the yume-app invocation (R7)' } : {}),
  };
}
