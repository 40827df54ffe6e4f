// The interrupt-during-tool trigger: the runner waits for the scripted tool's own process (its command line,
// after the mock served the tool call), so a conforming shim started through a wrapper that runs a child first
// is not interrupted before the model asked for the tool; every interrupt says when it was sent and why.
import { describe, expect, it } from 'vitest';
import { runsCommand } from '../../../harness/process/command-line.js';
import { describeFindings, fixtureShim, rules, runFixture } from '../helpers/run-fixture.js';

describe('the scripted command in a command line', () => {
  it.each([
    [['bash', '-c', 'sleep 30'], true],
    [['sleep', '30'], true],
    [['/usr/bin/sleep', '30'], true],
    [['/bin/bash', '-lc', 'sleep 30'], true],
    [['sleep', '0.5'], false],
    [['sleep', '300'], false],
    [['nosleep', '30'], false],
    [['node', 'shim.mjs', '--prompt', 'Wait for half a minute using the shell.'], false],
  ])('%j runs "sleep 30": %s', (argv, expected) => {
    expect(runsCommand(argv, 'sleep 30')).toBe(expected);
  });
});

describe.runIf(process.platform === 'linux')('a shim started through a wrapper', () => {
  const wrapper = fixtureShim('starts-through-wrapper.sh');

  const passes = async () => {
    const result = await runFixture(wrapper, 'interrupt-during-bash', { timeoutMs: 20_000 });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(result.status).toBe('passed');
    const sent = result.findings.find((finding) => finding.rule === 'interrupt.sent');
    expect(sent?.severity).toBe('INFO');
    expect(sent?.message).toMatch(
      /SIGINT was sent to the process group \d+\.\d\d s after the process started, because the scripted tool's process \d+ \(.*sleep 30\) was running after the mock served the tool call \(request #1\)/,
    );
    expect(result.timeline.some((entry) => entry.text.includes('interrupt (SIGINT to the process group) at'))).toBe(
      true,
    );
  };

  it('passes interrupt-during-bash every time, one run after another', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) await passes();
  }, 90_000);

  it('passes interrupt-during-bash two runs at a time (--jobs 2)', async () => {
    await Promise.all([passes(), passes()]);
    await Promise.all([passes(), passes()]);
  }, 90_000);
});
