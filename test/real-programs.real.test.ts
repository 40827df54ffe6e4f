import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without declarations
import { ensureRealProgram, REAL_PROGRAM_PINS } from '../scripts/real-programs.mjs';

// The pins are what every real-program test relies on: each installed executable runs and is the pinned version.
describe('pinned real programs', () => {
  for (const [name, pin] of Object.entries(REAL_PROGRAM_PINS as Record<string, { version: string }>)) {
    it(`${name} runs and reports version ${pin.version}`, () => {
      const bin = ensureRealProgram(name, { log: () => {} });
      const output = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
      expect(output).toContain(pin.version);
    });
  }
});
