// Regression: an interrupt to the CLI's process group reaches the running `sleep` and the CLI in the same
// kill(), but Node may hand the fake the command's exit before its own SIGINT handler runs. The fake then
// reported the killed command (gemini: as a success), played the rest of the turn, and ignored the signal as
// "already exiting" — seen in the full matrix on a loaded 2-core machine. Here the order is forced: the
// command is signalled alone first, the group a moment later. A fake that was being stopped must print
// nothing more, whichever it notices first; a command killed on its own is reported and the turn goes on.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkInterrupt } from '../../harness/official-cli/checks.js';
import type { OfficialCliName, ScriptScenario } from '../../harness/official-cli/script-types.js';
import type { CliLogEntry } from '../../harness/official-cli/state.js';
import { HEADLESS_ARGS, runFake, sleep } from './helpers/run-fake.js';

const FINAL_TEXT = 'The command finished.';

const scenario: ScriptScenario = {
  id: 'interrupt-during-bash',
  turns: [
    {
      prompt: 'Wait for half a minute using the shell.',
      interrupt: 'during-tool',
      responses: [
        {
          text: ['Starting a long command.'],
          toolCalls: [{ id: 'bash-sleep', name: 'Bash', input: { command: 'sleep 30' } }],
        },
        { text: [FINAL_TEXT] },
      ],
      expect: { isError: true },
    },
  ],
};

/** The `sleep` of the fake's process group (the tool command), once it runs. */
async function sleepOfGroup(group: number): Promise<number> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const table = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,comm='], { encoding: 'utf8' });
    for (const row of table.split('\n')) {
      const [pid, pgid, command] = row.trim().split(/\s+/);
      if (Number(pgid) === group && command === 'sleep') return Number(pid);
    }
    await sleep(20);
  }
  throw new Error(`no sleep process in group ${group}`);
}

const SANDBOX = { IS_SANDBOX: '1' };
const CLIS: OfficialCliName[] = ['gemini', 'claude', 'codex'];

describe.runIf(process.platform !== 'win32')('a group interrupt whose tool exit is seen first', () => {
  it.each(CLIS)('%s stops without reporting the killed command or playing on', async (cli) => {
    const run = await runFake({
      cli,
      args: HEADLESS_ARGS[cli](scenario.turns[0]!.prompt),
      scenario,
      env: SANDBOX, // claude refuses --dangerously-skip-permissions to root otherwise
      onEvent: {
        event: 'tool-start',
        act: async (group) => {
          process.kill(await sleepOfGroup(group), 'SIGINT'); // the command's exit reaches the fake first...
          await sleep(100);
          process.kill(-group, 'SIGINT'); // ...then the group signal (gemini: launcher and worker)
        },
      },
    });
    expect(run.stdout).not.toContain(FINAL_TEXT);
    // The fake stopped at the signal: no tool outcome was logged, and a process doing the work got it.
    expect(run.log.filter((entry) => entry.event === 'tool')).toEqual([]);
    expect(run.log.some((entry) => entry.event === 'signal' && entry.handled === 'stopped')).toBe(true);
    if (cli === 'gemini') expect(run.stdout).not.toContain('"type":"tool_result"');
    if (cli === 'claude') expect(run.stdout).toContain('[Request interrupted by user for tool use]');
  });

  it('a command killed on its own (no group signal) is reported and the turn goes on', async () => {
    const run = await runFake({
      cli: 'claude',
      args: HEADLESS_ARGS.claude(scenario.turns[0]!.prompt),
      scenario,
      env: SANDBOX,
      onEvent: { event: 'tool-start', act: async (group) => void process.kill(await sleepOfGroup(group), 'SIGINT') },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(FINAL_TEXT);
    const tool = run.log.find((entry) => entry.event === 'tool');
    expect(tool).toMatchObject({ isError: true, reportedIsError: true });
    expect(run.log.some((entry) => entry.event === 'signal')).toBe(false);
  });
});

describe('cli.interrupt-reaches-cli and a signal during exit', () => {
  const entry = (handled: 'ignored' | 'stopped' | 'exiting', pid: number): CliLogEntry => ({
    event: 'signal',
    cli: 'gemini',
    pid,
    turnIndex: 0,
    time: new Date().toISOString(),
    signal: 'SIGINT',
    handled,
  });
  const judge = (log: CliLogEntry[]) => checkInterrupt({ cli: 'gemini', scenario, log }).map((finding) => finding.rule);

  it('a worker that got the signal while already ending was reached', () => {
    expect(judge([entry('ignored', 100), entry('exiting', 101)])).toEqual([]);
  });

  it('only the launcher getting it still fails', () => {
    expect(judge([entry('ignored', 100)])).toEqual(['cli.interrupt-reaches-cli']);
  });
});
