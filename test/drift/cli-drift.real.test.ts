// `npm run cli-drift` (dist/cli-drift.js): given an older gemini than the pinned one, it installs it,
// prints what changed (here the version alone: its flags and decisions are 0.61.0's) and exits 1; given
// the pinned codex it finds no change and exits 0; given a copilot whose help lists one flag more (and whose
// version number is another), it names that flag and not the number (R22). The real-CLI mode runs are left to
// real-mode.real.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { realProgramEnv } from '../../scripts/real-programs.mjs';
import { realCliPath } from '../official-cli/shared-programs.js';

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

  it('reports a copilot flag the pin lacks, and not its version number', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'yume-drift-copilot-'));
    try {
      // A copilot package 1.0.103 whose help lists one more flag; for everything else it runs the pinned copilot.
      const help = readFileSync(path.join(root, 'harness', 'official-cli', 'pinned', 'help', 'copilot.txt'), 'utf8');
      const newer = help.replace(
        '  -h, --help\n',
        '      --telemetry-off\n          Send no telemetry\n  -h, --help\n',
      );
      const packageDir = path.join(work, 'package');
      mkdirSync(packageDir);
      writeFileSync(
        path.join(packageDir, 'package.json'),
        JSON.stringify({
          name: '@github/copilot',
          version: '1.0.103',
          type: 'module',
          bin: { copilot: 'copilot.mjs' },
        }),
      );
      writeFileSync(
        path.join(packageDir, 'copilot.mjs'),
        [
          '#!/usr/bin/env node',
          "import { spawnSync } from 'node:child_process';",
          'const args = process.argv.slice(2);',
          `if (args[0] === '--help') process.stdout.write(${JSON.stringify(newer)});`,
          "else if (args[0] === '--version') process.stdout.write('GitHub Copilot CLI 1.0.103.\\n');",
          'else {',
          `const env = { ...process.env, ...${JSON.stringify(realProgramEnv('copilot'))} };`,
          `process.exit(spawnSync(${JSON.stringify(realCliPath('copilot'))}, args, { stdio: 'inherit', env }).status ?? 1);`,
          '}',
          '',
        ].join('\n'),
      );
      const tarball = path.join(
        work,
        execFileSync('npm', ['pack', packageDir, '--pack-destination', work], { encoding: 'utf8' }).trim(),
      );
      const result = await drift(['--only', 'copilot', '--tarball', `copilot=${tarball}`]);
      expect(result.exitCode, result.stderr).toBe(1);
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^copilot: pinned 1\.0\.102, checked tarball .*: CHANGED$/);
      expect(lines.slice(1)).toEqual(['  changed: copilot: flag added: --telemetry-off none']);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
