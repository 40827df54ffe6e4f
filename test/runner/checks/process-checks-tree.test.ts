// What the process checks say when the harness could not see or end a run's processes (R20): an unreadable
// process table makes the process rules not verified with its cause; a process the harness could not end is
// a finding that names it. Never "nothing was left", never a harness error.

import { describe, expect, it } from 'vitest';
import type { ShimExit } from '../../../harness/process/shim-process.js';
import { processChecks } from '../../../harness/runner/checks/process-checks.js';
import type { ExecutedProcess } from '../../../harness/runner/execution/execute-run.js';

function executed(exit: Partial<ShimExit>): ExecutedProcess {
  return {
    label: 'the shim',
    turns: [0],
    argv: [],
    exit: {
      command: { file: 'shim', args: [], kind: 'direct' },
      pid: 100,
      stdout: Buffer.from('{"type":"text","content":"x"}\n'),
      stdoutChunks: [],
      stdoutBytes: 30,
      stderr: Buffer.alloc(0),
      stderrBytes: 0,
      exitCode: 0,
      signal: null,
      timedOut: false,
      flooded: false,
      stdioHeldOpen: false,
      exitedAtMs: 10,
      endedAtMs: 20,
      descendantsSeen: [],
      descendantsLeft: [],
      descendantsKilled: [],
      killedByHarness: false,
      ...exit,
    },
    live: { events: [] } as unknown as ExecutedProcess['live'],
    interrupts: [],
    gateTimeouts: [],
    gatesUndecided: [],
    stdinLines: [],
    turnStarts: new Map(),
  };
}

describe('processChecks: what the harness could not see or end', () => {
  it('an unreadable process table leaves the process rules not verified, with the cause', () => {
    const { findings, notVerified } = processChecks(
      executed({ processTableUnreadable: 'powershell.exe Get-CimInstance Win32_Process listed 0 process(es)' }),
      false,
    );
    expect(findings.map((finding) => finding.rule)).not.toContain('process.descendants-gone');
    const why =
      'the process table could not be read (powershell.exe Get-CimInstance Win32_Process listed 0 process(es)), so what the shim left running is unknown';
    expect(notVerified).toEqual([
      { rule: 'process.descendants-gone', scope: 'check', cause: 'platform', reason: why },
      { rule: 'process.orphaned-tools', scope: 'check', cause: 'platform', reason: why },
    ]);
  });

  it('a readable table adds nothing to the not-verified list', () => {
    expect(processChecks(executed({}), false).notVerified).toEqual([]);
  });

  it('a process the harness could not end is a process.descendants-gone finding naming it and the failed tree kill', () => {
    const { findings } = processChecks(
      executed({
        killedByHarness: true,
        treeKillFailures: [
          'taskkill /pid 100 /T /F failed (exit 1: Error: Unknown or invalid command line option specified.)',
        ],
        survivors: [{ pid: 4242, ppid: 100, pgid: 4242, state: 'R', start: '1', name: 'node.exe' }],
      }),
      false,
    );
    const gone = findings.filter((finding) => finding.rule === 'process.descendants-gone');
    expect(gone.map((finding) => finding.message)).toEqual([
      '1 process(es) of the run still ran after the harness tried to end them: node.exe (pid 4242) (taskkill /pid 100 /T /F failed (exit 1: Error: Unknown or invalid command line option specified.), then each pid was ended on its own)',
    ]);
    expect(gone[0]!.severity).toBe('MUST');
  });
});
