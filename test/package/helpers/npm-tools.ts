// Runs npm and npx the way a user's machine does, on every OS: their JavaScript entry points with this
// Node (spawning npm.cmd/npx.cmd on Windows would need a shell), with a deadline and the tree ended after it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runWithTimeout } from '../../../ci/lib/run-with-timeout.mjs';

/** npm's `bin/<tool>-cli.js` for the npm that came with this Node (or the one running this test). */
export function npmCliPath(tool: 'npm' | 'npx'): string {
  const file = `${tool}-cli.js`;
  const candidates: string[] = [];
  const execPath = process.env.npm_execpath;
  if (execPath && /(npm|npx)-cli\.js$/.test(execPath)) candidates.push(path.join(path.dirname(execPath), file));
  const nodeDir = path.dirname(process.execPath);
  candidates.push(path.join(nodeDir, 'node_modules', 'npm', 'bin', file));
  candidates.push(path.join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'bin', file));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`npm's ${file} not found; looked at ${candidates.join(', ')}`);
  return found;
}

export interface ToolResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `npm ARGS` or `npx ARGS` in `cwd`. */
export async function runNpmTool(
  tool: 'npm' | 'npx',
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<ToolResult> {
  let stdout = '';
  let stderr = '';
  const result = await runWithTimeout(process.execPath, [npmCliPath(tool), ...args], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    env: {
      ...process.env,
      // No colours to strip, no update check or funding/audit calls to the registry.
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      ...options.env,
    },
    onStdout: (chunk) => {
      stdout += chunk.toString('utf8');
    },
    onStderr: (chunk) => {
      stderr += chunk.toString('utf8');
    },
  });
  if (result.error) throw result.error;
  return { exitCode: result.exitCode, stdout, stderr, timedOut: result.timedOut };
}

/** A failure message that shows what the tool said. */
export function describeRun(what: string, result: ToolResult): string {
  const tail = (text: string) => text.split('\n').slice(-40).join('\n');
  return `${what} exited ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`;
}
