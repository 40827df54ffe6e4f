// How each start of the official CLI ended, against the shim's result: both rules proven both ways on logs.
import { describe, expect, it } from 'vitest';
import { checkCliExits } from '../../harness/official-cli/exit-checks.js';
import type { ScriptScenario } from '../../harness/official-cli/script-types.js';
import type { CliLogEntry } from '../../harness/official-cli/state.js';
import type { CanonicalEvent } from '../../harness/protocol/canonical.js';

const scenario: ScriptScenario = {
  id: 'plain',
  turns: [{ prompt: 'hi', responses: [{ text: ['Hello.'] }], expect: { isError: false } }],
};
const base = { cli: 'codex' as const, pid: 10, turnIndex: 0, time: '2026-01-01T00:00:00Z' };
const start: CliLogEntry = {
  ...base,
  event: 'start',
  argv: ['exec', '--json', '--', 'hi'],
  cwd: '/w',
  sessionId: 't',
};
const refusal = 'Not inside a trusted directory and --skip-git-repo-check was not specified.';
const exit = (code: number, finalEvent: boolean, lines: number): CliLogEntry => ({
  ...base,
  event: 'exit',
  code,
  finalEvent,
  lines,
  stderrLine: refusal,
});
const success = [{ kind: 'result', isError: false, line: 3 }] as unknown as CanonicalEvent[];
const failure = [{ kind: 'result', isError: true, line: 3 }] as unknown as CanonicalEvent[];
const judge = (log: CliLogEntry[], events: CanonicalEvent[]) =>
  checkCliExits({ cli: 'codex', scenario, log, turns: [0], eventsByTurn: [events] });

describe('CLI exits', () => {
  it("fail a success result after a CLI that refused to start, naming the exit code and its stderr's last line", () => {
    const findings = judge([start, exit(1, false, 0)], success);
    expect(findings.map((finding) => finding.rule)).toEqual(['cli.failure-not-success', 'cli.refused-to-start']);
    expect(findings[0]!.message).toBe(
      `turn 1: codex exited with code 1 before its final event; its stderr ends: ${JSON.stringify(refusal)}, but the shim printed a success result (line 3)`,
    );
    expect(findings[1]!.message).toContain(
      `codex refused to start (exit code 1, nothing on stdout): ${JSON.stringify(refusal)}`,
    );
  });

  it('fail a success result after a CLI that failed midway, but not its refusal as a start', () => {
    expect(judge([start, exit(1, false, 4)], success).map((finding) => finding.rule)).toEqual([
      'cli.failure-not-success',
    ]);
  });

  it('pass an error result after a failed CLI (the refusal is still named), and a CLI ended after its final event', () => {
    expect(judge([start, exit(1, false, 4)], failure)).toEqual([]);
    expect(judge([start, exit(1, false, 0)], failure).map((finding) => finding.rule)).toEqual(['cli.refused-to-start']);
    expect(judge([start, exit(143, true, 6)], success)).toEqual([]);
    expect(judge([start, exit(0, true, 6)], success)).toEqual([]);
  });

  it('leave argument errors to cli.prompt-not-option and interrupted turns alone', () => {
    const refusedArgv: CliLogEntry = {
      ...start,
      argError: "error: unexpected argument '-r' found",
    } as CliLogEntry;
    expect(judge([refusedArgv, exit(2, false, 0)], failure)).toEqual([]);
    const interrupted: ScriptScenario = {
      ...scenario,
      turns: [{ ...scenario.turns[0]!, interrupt: 'after-first-text' }],
    };
    expect(
      checkCliExits({
        cli: 'codex',
        scenario: interrupted,
        log: [start, exit(1, false, 2)],
        turns: [0],
        eventsByTurn: [success],
      }),
    ).toEqual([]);
  });
});
