// The session file (R8): written under the provider flag's folder, and continued on --resume.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isCompactPrompt } from '../../../common/compact-command.js';
import { describeSchemaError, validatorFor } from '../../protocol/schemas.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';
import type { CheckInput } from './check-types.js';
import { killedSessionFindings } from './kill-checks.js';

/** Claude's --provider flags: its sessions belong to Claude Code, and the app never reads them from ~/.yume. */
export const CLAUDE_PROVIDER_FLAGS: readonly string[] = ['anthropic', 'claude-cli'];

export function sessionFileCheck(input: CheckInput): Finding[] {
  if (!input.providerFlag || CLAUDE_PROVIDER_FLAGS.includes(input.providerFlag)) return [];
  // Only turns that completed successfully must have saved the session.
  const last = input.processes.at(-1);
  if (!last || last.exit.spawnError) return [];
  const succeeded = input.scenario.turns.some((turn) => !turn.expect.isError && !turn.interrupt);
  if (!succeeded) return [];
  const id = last.reportedSessionId;
  if (!id) return []; // turn.init / schema rules report a missing session id
  const file = path.join(input.home, '.yume', 'sessions', input.providerFlag, `${id}.json`);
  const shown = `~/.yume/sessions/${input.providerFlag}/${id}.json`;
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return []; // app.session-id-filename-safe / validator report it
  if (!existsSync(file)) return [runFinding('session.file', `${shown} was not written`)];
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [runFinding('session.file', `${shown} is not valid JSON (${(error as Error).message})`)];
  }
  const validate = validatorFor('session-file.schema.json');
  if (!validate(data))
    return [
      runFinding(
        'session.file',
        `${shown} does not match schemas/session-file.schema.json: ${describeSchemaError(validate.errors)}`,
      ),
    ];
  const afterKill = killedSessionFindings(input.scenario, file, shown);
  if (afterKill.length > 0) return afterKill;
  const session = data as { id: string; provider: string };
  if (session.id !== id) return [runFinding('session.file', `${shown} holds id ${JSON.stringify(session.id)}`)];
  if (session.provider !== input.providerFlag)
    return [
      runFinding(
        'session.file',
        `${shown} holds provider ${JSON.stringify(session.provider)}, not the --provider flag ${JSON.stringify(input.providerFlag)}`,
      ),
    ];
  return [];
}

/**
 * `--resume ID` continues under the id it was given (R8): the id the runner resumed with, which follows an id the
 * shim announced with `system` `session_id` (spec) or the one the latest init gave (the app's invocation reads
 * init only). A `/compact` turn under yume-app may already carry a new id in its init (docs/protocol.md#r21-compaction).
 */
export function resumeChecks(input: CheckInput): Finding[] {
  if (input.persistent) return [];
  const findings: Finding[] = [];
  input.processes.forEach((process) => {
    const turn = input.scenario.turns[process.turns[0] ?? 0];
    const resumedWith = process.resumedWith;
    if (!turn?.resume || resumedWith === undefined || process.reportedSessionId === undefined) return;
    if (process.reportedSessionId === resumedWith) return;
    if (input.profile === 'yume-app' && isCompactPrompt(turn.prompt)) return;
    const init = process.live.events.find((timed) => timed.event.kind === 'init');
    findings.push(
      runFinding(
        'session.resume-keeps-id',
        `${process.label}: resumed with --resume ${resumedWith}, but its init reports session ${process.reportedSessionId}`,
        init ? { line: init.event.line } : {},
      ),
    );
  });
  return findings;
}
