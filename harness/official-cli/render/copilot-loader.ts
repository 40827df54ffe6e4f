// copilot's two processes. The npm `copilot` is a Node loader that runs the native binary with spawnSync and exits
// with its status; the fake's loader starts the fake again as that binary. The loader handles no signal (Node's
// defaults end it at once), so a signal to its pid alone leaves the binary running, orphaned; a binary killed by a
// signal makes the loader print that and "no platform package found" and exit 1 (what copilot 1.0.102 does,
// test/fixtures/streams/captures/HOW-CAPTURED.md). Also which session a start continues or creates.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Invocation } from '../args/invocation.js';

/** Set in the environment of the process the fake loader starts as copilot's binary. */
export const COPILOT_BINARY_ENV = 'YUME_CONFORMANCE_FAKE_COPILOT_BINARY';
/** The session the loader resolved, for the binary; empty when the start names none copilot knows. */
export const COPILOT_SESSION_ENV = 'YUME_CONFORMANCE_FAKE_COPILOT_SESSION';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Starts the fake again as copilot's native binary, and ends as copilot's loader does when the binary ends.
 * `onSignal` hears a signal sent to the loader, which then dies of it (Node's default) and leaves the binary.
 */
export function relaunchCopilot(
  script: string,
  args: readonly string[],
  { session, onSignal }: { session: string; onSignal: (signal: NodeJS.Signals) => void },
): void {
  const binary = spawn(process.execPath, [script, 'copilot', ...args], {
    stdio: 'inherit',
    env: { ...process.env, [COPILOT_BINARY_ENV]: '1', [COPILOT_SESSION_ENV]: session },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      onSignal(signal);
      process.kill(process.pid, signal);
    });
  }
  binary.on('exit', (code, signal) => {
    if (signal) {
      process.stderr.write(
        `GitHub Copilot native binary at ${fileURLToPath(import.meta.url)} was terminated by signal ${signal}.\nGitHub Copilot CLI: no platform package found. Reinstall with \`npm install -g @github/copilot\` to fetch the package for your platform.\n`,
      );
      process.exit(1);
    }
    process.exit(code ?? 1);
  });
}

/**
 * The session a start works in, among the sessions earlier starts made (`known`, oldest first): `--session-id`
 * names one to resume or, as a UUID, one to create; `--resume` names one by id or id prefix (`last` for
 * `--continue`); otherwise a new one. Undefined when copilot refuses the name.
 */
export function copilotSession(invocation: Invocation, known: readonly string[]): string | undefined {
  const sessionId = invocation.flags['session-id'];
  if (typeof sessionId === 'string') {
    if (known.includes(sessionId) || UUID.test(sessionId)) return sessionId;
    return undefined;
  }
  const requested = invocation.resume;
  if (requested === undefined) return randomUUID();
  if (requested === 'last') return known.at(-1) ?? randomUUID();
  if (known.includes(requested)) return requested;
  const byPrefix = requested.length >= 7 ? known.filter((id) => id.startsWith(requested)) : [];
  return byPrefix.length === 1 ? byPrefix[0] : undefined;
}

/** What copilot says when `--resume` or `--session-id` names no session it knows. */
export function unknownCopilotSession(invocation: Invocation): string {
  const sessionId = invocation.flags['session-id'];
  if (typeof sessionId === 'string')
    return `Error: No session or task matched '${sessionId}'.\nThe value is not a valid UUID, so a new session cannot be created.\n\nTo resume an existing session or task:  copilot --session-id=<id>\nTo start a new session with ID:        copilot --session-id=<valid-uuid>\nTo resume by name or ID prefix:        copilot --resume=<name-or-prefix>\n`;
  return `Error: No session, task, or name matched '${invocation.resume ?? ''}'.\n\nTo resume by session or task ID:  copilot --resume=<id>\nTo resume by name:                copilot --resume=<name>\nTo name a new session:            copilot --name=<name>\nTo pick from existing sessions:   copilot --resume\nTo start a new session with ID:   copilot --session-id=<valid-uuid>\n`;
}
