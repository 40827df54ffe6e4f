// `npm run cli-drift` (dist/cli-drift.js): given an older gemini than the pinned one, it installs it,
// prints what changed (here the version alone: its flags and decisions are 0.61.0's) and exits 1; given
// the pinned codex it finds no change and exits 0. The real-CLI mode runs are left to real-mode.real.test.ts.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const drift = (args: string[]) =>
  execa(process.execPath, [path.join(root, 'dist', 'cli-drift.js'), '--no-real-mode', ...args], {
    reject: false,
    timeout: 280_000,
  });

describe('cli-drift', () => {
  it('reports an older gemini (0.60.0) than the pinned 0.61.0 as a change and exits 1', async () => {
    const result = await drift(['--only', 'gemini', '--version', 'gemini=0.60.0']);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stdout).toContain('gemini: pinned 0.61.0, checked 0.60.0: CHANGED');
    expect(result.stdout).toContain('changed: version: 0.61.0 → 0.60.0');
    // 0.60.0 has the same flags and decides the corpus as 0.61.0 does: the version is what changed.
    expect(result.stdout, result.stdout).not.toContain('fake and release disagree');
  });

  it('finds no change for the pinned codex and exits 0', async () => {
    const result = await drift(['--only', 'codex', '--version', 'codex=0.169.0']);
    expect(result.stdout, result.stdout + result.stderr).toBe('codex: pinned 0.169.0, checked 0.169.0: no change');
    expect(result.exitCode, result.stderr).toBe(0);
  });
});
