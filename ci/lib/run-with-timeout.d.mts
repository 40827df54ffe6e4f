// Types for run-with-timeout.mjs, so TypeScript tests and tools can call it.
export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  error?: Error;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
}

export function runWithTimeout(command: string, args: string[], options: RunOptions): Promise<RunResult>;
