// Spawns the bundled shim (dist/yume-shim.cjs) the way the harness does: its own process group, raw stdout
// bytes, a timeout that kills the whole group, and a hook per parsed stdout line (to interrupt at the right
// moment or answer approvals).
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SHIM_BIN = path.join(ROOT, 'dist', 'yume-shim.cjs');

export interface ShimRun {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: Array<Record<string, unknown>>;
  /** ms from spawn to exit. */
  durationMs: number;
  /** ms from spawn to each line (same order as lines). */
  lineTimes: number[];
  timedOut: boolean;
}

export interface ShimRunOptions {
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Text written to stdin before it is closed; 'keep-open' leaves stdin open for onLine to write to. */
  stdin?: string | 'keep-open';
  timeoutMs?: number;
  onLine?: (line: Record<string, unknown>, child: ChildProcess) => void;
}

export function interruptGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function runShim(options: ShimRunOptions): Promise<ShimRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [SHIM_BIN, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const lineTimes: number[] = [];
  let pending = '';
  let stderr = '';
  let timedOut = false;
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
      try {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        lines.push(parsed);
        lineTimes.push(performance.now() - started);
        options.onLine?.(parsed, child);
      } catch {
        lines.push({ type: '__unparsable__', text });
        lineTimes.push(performance.now() - started);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (options.stdin !== 'keep-open') child.stdin.end(options.stdin ?? '');
  const timer = setTimeout(() => {
    timedOut = true;
    interruptGroup(child, 'SIGKILL');
  }, options.timeoutMs ?? 20_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever the shim left behind in its group goes too.
      interruptGroup(child, 'SIGKILL');
      resolve({
        stdout: Buffer.concat(chunks),
        stderr,
        code,
        signal,
        lines,
        durationMs: performance.now() - started,
        lineTimes,
        timedOut,
      });
    });
  });
}

/** The flat or envelope text of a line, if it carries assistant text. */
export function lineText(line: Record<string, unknown>): string | undefined {
  if (line.type === 'text') return line.content as string;
  if (line.type === 'assistant') {
    const content = (line.message as { content?: Array<{ type: string; text?: string }> })?.content ?? [];
    const text = content
      .filter((block) => block.type === 'text')
      .map((block) => block.text ?? '')
      .join('');
    return text || undefined;
  }
  return undefined;
}

export function toolUses(
  lines: Array<Record<string, unknown>>,
): Array<{ id: string; name: string; input: Record<string, unknown> }> {
  const uses: Array<{ id: string; name: string; input: Record<string, unknown> }> = [];
  for (const line of lines) {
    if (line.type === 'tool_use') uses.push(line as never);
    if (line.type === 'assistant') {
      for (const block of (line.message as { content: Array<Record<string, unknown>> }).content) {
        if (block.type === 'tool_use') uses.push(block as never);
      }
    }
  }
  return uses;
}

export function toolResults(
  lines: Array<Record<string, unknown>>,
): Array<{ tool_use_id: string; content: string; is_error: boolean }> {
  const results: Array<{ tool_use_id: string; content: string; is_error: boolean }> = [];
  for (const line of lines) {
    if (line.type === 'tool_result') results.push(line as never);
    if (line.type === 'user') {
      for (const block of (line.message as { content: Array<Record<string, unknown>> }).content) {
        if (block.type === 'tool_result') results.push(block as never);
      }
    }
  }
  return results;
}
