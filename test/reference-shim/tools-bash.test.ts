// Bash: output and exit codes, timeout, output cap, and the whole process tree ended on interrupt and when the
// command returns (R6), including a child that moved to its own session.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../reference-shim/tools/bash.js';
import { markedProcesses } from '../../reference-shim/tools/process-tree.js';
import { ToolRegistry } from '../../reference-shim/tools/registry.js';
import { makeSandbox, type Sandbox } from './helpers/tool-context.js';

let box: Sandbox;
const registry = new ToolRegistry([bashTool]);

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat); // zombies count as gone (R6)
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

describe('Bash', () => {
  it('runs in --cwd with bash -c and returns stdout and stderr', async () => {
    box.write('f.txt', 'x');
    const result = await registry.run('Bash', { command: 'pwd; ls; echo oops >&2' }, box.context());
    expect(result.isError).toBe(false);
    expect(result.content).toContain(box.cwd);
    expect(result.content).toContain('f.txt');
    expect(result.content).toContain('oops');
  });

  it('reports a non-zero exit code as an error with the output kept', async () => {
    const result = await registry.run('Bash', { command: 'echo partial; exit 3' }, box.context());
    expect(result).toEqual({ isError: true, content: 'partial\n[exit code 3]' });
  });

  it('says "(no output)" for a silent success', async () => {
    expect(await registry.run('Bash', { command: 'true' }, box.context())).toEqual({
      isError: false,
      content: '(no output)',
    });
  });

  it('needs a command', async () => {
    expect((await registry.run('Bash', {}, box.context())).isError).toBe(true);
  });

  it('kills the command on timeout', async () => {
    const started = Date.now();
    const result = await registry.run('Bash', { command: 'echo start; sleep 20', timeout: 300 }, box.context());
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('start');
    expect(result.content).toContain('timed out after 300 ms');
  });

  it('caps large output, keeping head and tail and saying how much was left out', async () => {
    const result = await registry.run('Bash', { command: 'seq 1 200000' }, box.context());
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThan(40_000);
    expect(result.content).toMatch(/^1\n2\n3\n/);
    expect(result.content).toMatch(/200000$/);
    expect(result.content).toMatch(/output capped: \d+ bytes omitted \(total \d+ bytes\)/);
  });

  it('replaces invalid UTF-8 bytes', async () => {
    const result = await registry.run('Bash', { command: "printf 'a\\377b'" }, box.context());
    expect(result.content).toBe('a\uFFFDb');
  });

  it('redacts credentials from the output', async () => {
    const env = { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-yume-conformance-dummy' };
    const result = await registry.run(
      'Bash',
      { command: 'echo key=$ANTHROPIC_API_KEY; echo ya29.yume-conformance-gcloud-dummy' },
      box.context(undefined, env),
    );
    expect(result.content).toBe('key=[REDACTED]\n[REDACTED]');
  });

  it.runIf(process.platform === 'linux')(
    'ends the whole tree on interrupt, even a child in its own session',
    async () => {
      const controller = new AbortController();
      const pending = registry.run(
        'Bash',
        { command: 'setsid sleep 30 & echo $! > escaped.pid; sleep 30 & echo $! > child.pid; echo ready; wait' },
        box.context(controller.signal),
      );
      await waitFor(() => existsSync(path.join(box.cwd, 'escaped.pid')) && existsSync(path.join(box.cwd, 'child.pid')));
      const escaped = Number(readFileSync(path.join(box.cwd, 'escaped.pid'), 'utf8'));
      const child = Number(readFileSync(path.join(box.cwd, 'child.pid'), 'utf8'));
      expect(alive(escaped) && alive(child)).toBe(true);
      const started = Date.now();
      controller.abort();
      const result = await pending;
      expect(Date.now() - started).toBeLessThan(1500);
      expect(result.isError).toBe(true);
      expect(result.content).toContain('interrupted');
      expect(await waitFor(() => !alive(escaped) && !alive(child))).toBe(true);
    },
  );

  it.runIf(process.platform === 'linux')('does not let background children outlive the call', async () => {
    const result = await registry.run(
      'Bash',
      { command: 'setsid sleep 30 & echo $! > bg.pid; echo done' },
      box.context(),
    );
    expect(result).toEqual({ isError: false, content: 'done' });
    const pid = Number(readFileSync(path.join(box.cwd, 'bg.pid'), 'utf8'));
    expect(await waitFor(() => !alive(pid))).toBe(true);
  });

  it.runIf(process.platform !== 'win32')('leaves no watcher of the command once the call has returned', async () => {
    // The command lists its own watcher (the process named yume-tool-watchdog with the command's run marker).
    const watcherLine = `ps -A -o ppid=,pgid=,args= | grep -F "$YUME_SHIM_TOOL_RUN" | grep -E '^ *[0-9]+ +[0-9]+ yume-tool-watchdog '`;
    const result = await registry.run('Bash', { command: `${watcherLine}; echo "$YUME_SHIM_TOOL_RUN"` }, box.context());
    expect(result.isError).toBe(false);
    const [watcher = '', marker = ''] = result.content.split('\n');
    const [ppid, pgid] = watcher.trim().split(/\s+/).map(Number);
    expect(ppid).toBe(process.pid); // the shim's own child while the command ran, never an orphan
    expect(pgid).not.toBe(process.pid);
    expect(marker).toMatch(new RegExp(`^${process.pid}-`));
    const left = execFileSync('ps', ['-A', '-o', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(marker) && /^ *\d+ yume-tool-watchdog /.test(line));
    expect(left).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('finds processes by their run marker', () => {
    expect(markedProcesses('no-such-marker-value')).toEqual([]);
  });
});
