import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SecretRedactor } from '../../../reference-shim/output/redact.js';
import type { ToolContext } from '../../../reference-shim/tools/types.js';

export interface Sandbox {
  /** The working directory tools are confined to. */
  cwd: string;
  /** A sibling directory outside it (targets of escape attempts). */
  outside: string;
  context(signal?: AbortSignal, env?: NodeJS.ProcessEnv): ToolContext;
  write(relative: string, content: string): string;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'yume-shim-tools-')));
  const cwd = path.join(root, 'work');
  const outside = path.join(root, 'outside');
  mkdirSync(cwd);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'outside secret\n');
  return {
    cwd,
    outside,
    context(signal = new AbortController().signal, env: NodeJS.ProcessEnv = { PATH: process.env.PATH }) {
      return { cwd, realCwd: realpathSync(cwd), signal, redactor: new SecretRedactor(env), env };
    },
    write(relative, content) {
      const file = path.join(cwd, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
