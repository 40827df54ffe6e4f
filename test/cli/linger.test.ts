// The command line never looks hung once its work is done: a stray handle (here a 60 s timer started before
// the CLI's own code) ends with a message and the command's exit code after LINGER_LIMIT_MS, not after the
// handle's own time. A stall timer of the mock once held the runner for 120 s after its verdict.
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const STRAY_TIMER = '--import=data:text/javascript,setTimeout(()=>{},60000)';

describe.concurrent('a finished command with something left open', () => {
  it('exits after the linger limit with its own exit code and says what was open', async () => {
    const started = performance.now();
    const r = await runCli(['rules'], { env: { NODE_OPTIONS: STRAY_TIMER } });
    const seconds = (performance.now() - started) / 1000;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ rules/);
    expect(r.stderr).toMatch(
      /internal error: still running 5 s after the command finished \(open: .*Timeout.*\); exiting/,
    );
    expect(seconds).toBeGreaterThan(4.5);
    expect(seconds).toBeLessThan(25);
  });

  it('keeps a failing exit code', async () => {
    const r = await runCli(['validate', 'no-such-file.jsonl'], { env: { NODE_OPTIONS: STRAY_TIMER } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/still running 5 s after the command finished/);
  });

  it('says nothing when nothing is left open', async () => {
    const r = await runCli(['rules']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/still running/);
  });
});
