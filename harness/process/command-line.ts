// A process's command line, so the runner can tell the scripted tool's own process (`bash -c "sleep 30"`,
// then `sleep 30`) from the other processes a shim starts (a launcher's helpers, a wrapper's `sleep 0.5`).
import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { hasProcFiles, type PlatformName } from './platform.js';

/** Whether command lines can be read on `platform` (Windows would need a PowerShell start per process). */
export function canReadCommandLines(platform: PlatformName): boolean {
  return platform !== 'win32';
}

/** The argv of `pid`, or undefined when it ended or cannot be read. */
export async function commandLineOf(pid: number, platform: PlatformName): Promise<string[] | undefined> {
  if (hasProcFiles(platform)) {
    try {
      const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // A zombie's cmdline is empty: it no longer runs anything.
      return raw.length === 0 ? undefined : raw.replace(/\0$/, '').split('\0');
    } catch {
      return undefined;
    }
  }
  if (!canReadCommandLines(platform)) return undefined;
  const { stdout, exitCode } = await execa('ps', ['-o', 'args=', '-p', String(pid)], { reject: false, timeout: 5000 });
  const text = String(stdout).trim();
  return exitCode === 0 && text ? text.split(/\s+/) : undefined;
}

/**
 * Whether `argv` runs `command`: the command is one argument (`bash -c "sleep 30"`), or the argv ends with its
 * words (`sleep 30` after bash exec'd it, `/usr/bin/sleep 30`). `sleep 0.5` or `sleep 300` never match `sleep 30`.
 */
export function runsCommand(argv: readonly string[], command: string): boolean {
  const wanted = command.trim();
  if (!wanted) return false;
  if (argv.some((arg) => arg.trim() === wanted)) return true;
  const joined = argv.join(' ').trim();
  if (!joined.endsWith(wanted)) return false;
  const before = joined.charAt(joined.length - wanted.length - 1);
  return before === '' || before === ' ' || before === '/';
}
