import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without declarations
import { ensureRealProgram, REAL_PROGRAM_PINS, realProgramEnv } from '../scripts/real-programs.mjs';

// The pins are what every real-program test relies on: each installed executable runs and is the pinned version.
// A program that unpacks a runtime on its first run (copilot) finds the copy unpacked beside its install and
// unpacks nothing of its own: its run leaves its fresh HOME and cache folders empty.
describe('pinned real programs', () => {
  for (const [name, pin] of Object.entries(REAL_PROGRAM_PINS as Record<string, { version: string; unpack?: string }>)) {
    it(`${name} runs and reports version ${pin.version}`, () => {
      const bin = ensureRealProgram(name, { log: () => {} });
      const home = mkdtempSync(path.join(os.tmpdir(), 'yume-real-program-home-'));
      try {
        const env = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), ...realProgramEnv(name) };
        const output = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, env });
        expect(output).toContain(pin.version);
        if (pin.unpack) {
          expect(existsSync(env[pin.unpack] as string)).toBe(true);
          expect(readdirSync(home).filter((entry) => entry === 'cache' || entry === '.cache')).toEqual([]);
        }
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  }
});
