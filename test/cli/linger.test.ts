// The command line never looks hung once its work is done: a stray handle (here a 60 s timer and a child
// process started before the CLI's own code) ends with a message naming each handle's owner and the command's
// exit code after LINGER_LIMIT_MS, not after the handle's own time. A stall timer of the mock once held the
// runner for 120 s after its verdict; a wait on a fake CLI's log, 8 s after a kill scenario's verdict.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const STRAY_TIMER = '--import=data:text/javascript,setTimeout(()=>{},60000)';
// The child gets an empty environment: with NODE_OPTIONS it would start a child of its own, and so on.
const STRAY_CHILD =
  "--import=data:text/javascript,import{spawn}from'node:child_process';spawn(process.execPath,['-e','setTimeout(()=>{},7000)'],{stdio:['ignore','pipe','pipe'],env:{}})";

describe.concurrent('a finished command with something left open', () => {
  it('exits after the linger limit with its own exit code and says what was open', async () => {
    const started = performance.now();
    const r = await runCli(['rules'], { env: { NODE_OPTIONS: STRAY_TIMER } });
    const seconds = (performance.now() - started) / 1000;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ rules/);
    expect(r.stderr).toMatch(/internal error: still running 5 s after the command finished; exiting/);
    expect(r.stderr).toContain('  - 1 Timeout(s) set where the watch cannot see');
    expect(seconds).toBeGreaterThan(4.5);
    expect(seconds).toBeLessThan(25);
  });

  it('names the child process and each of its pipes', async () => {
    const r = await runCli(['rules'], { env: { NODE_OPTIONS: STRAY_CHILD } });
    expect(r.code).toBe(0);
    const child = / {2}- child pid (\d+) \(.*node.* -e setTimeout\(\(\)=>\{\},7000\)\)/.exec(r.stderr);
    expect(child, r.stderr).not.toBeNull();
    expect(r.stderr).toContain(`  - stdout pipe of child pid ${child![1]} (`);
    expect(r.stderr).toContain(`  - stderr pipe of child pid ${child![1]} (`);
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

// The selection it once lingered after: the app's invocation, where the gemini and openai ids offer a fake CLI
// beside the REST mock, with a shim that leaves processes behind when it is killed.
describe('a suite of kill scenarios under the app invocation', () => {
  it('ends with its verdict, nothing left running', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'yume-linger-'));
    const capabilities = path.join(folder, 'capabilities.json');
    const providers = ['openai-chat', 'openai-responses', 'gemini'];
    writeFileSync(capabilities, JSON.stringify({ providers, dialect: 'claude', features: ['bash', 'resume'] }));
    const shim = path.join(import.meta.dirname, '..', 'fixtures', 'shims', 'leaves-tools-on-sigkill.mjs');
    const args = [shim, '--capabilities', capabilities, '--invocation', 'yume-app'];
    for (const provider of providers) args.push('--provider', provider);
    const r = await runCli([...args, '--scenario', 'kill-and-resume', '--scenario', 'kill-and-resume-bash']);
    expect(r.stdout).toMatch(/6 run\(s\): 4 passed/);
    expect(r.stderr).not.toMatch(/still running/);
    expect(r.code).toBe(0);
  });
});
