// Every bench in bench/ runs to its end in its smallest form and prints its goal lines: a bench that no longer
// loads (a moved module) or throws would otherwise be found only by whoever next runs `npm run bench`, which
// takes half an hour. The numbers of such tiny runs mean nothing and are not checked.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript } from './helpers/run-node-script.js';

const benchDir = path.join(repoRoot, 'bench');

/** The smallest run of each bench, with the lines it must print (dist/ is built by the tests' global setup). */
const SMOKE: Record<string, { args: string[]; prints: RegExp[] }> = {
  'long-session.bench.mjs': {
    args: ['--no-build', '--short', '1', '--long', '2', '--samples', '1', '--file-kb', '1'],
    prints: [
      /^sample 1\/1: 2 turns \(1 run, passed\)/m,
      /^goal long-session harness CPU 2 turns over 1 <= 2\.5x: ratio \d/m,
    ],
  },
  'runner.bench.mjs': {
    args: ['--no-build', '--no-full', '--samples', '1', '--scenario', 'plain-text', '--provider', 'openai-chat'],
    prints: [
      /^goal default suite wall <= 1\.3x floor: ratio \d/m,
      /^goal harness CPU per run <= 25 % of the shim's: ratio \d/m,
      /^goal full matrix shards: not measured \(--no-full\)/m,
      /^default suite: per run .* execute \d+ ms \(of which the runner blocked in spawn calls \d+ ms\)/m,
    ],
  },
  'shim.bench.mjs': {
    args: ['--no-build', '--runs', '1', '--goal-runs', '2', '--stream-mb', '1', '--bash-mb', '1'],
    prints: [
      /^cold start: yume-shim --version vs node -e 0: ratio \d/m,
      /^single-tool turn vs the minimal node:http client \(Node [\d.]+\): ratio \d.*95% interval/m,
      /^throughput: .* MB\/s/m,
    ],
  },
  'validate.bench.mjs': {
    args: ['--mb', '1', '--runs', '1'],
    prints: [/^validate \(as the CLI runs it\): .* ratio \d/m, /^goal: ratio >= 0\.5 -> /m],
  },
};

describe('benches', () => {
  it('has a smoke run for every bench file', () => {
    const benches = readdirSync(benchDir).filter((name) => name.endsWith('.bench.mjs'));
    expect(Object.keys(SMOKE).sort()).toEqual(benches.sort());
  });

  it.each(Object.entries(SMOKE))('%s runs to its end in its smallest form', (name, { args, prints }) => {
    const { status, stdout, stderr } = runNodeScript(path.join(benchDir, name), args, { timeoutMs: 60_000 });
    expect(status, `${name} exited ${status}\n${stderr}\n${stdout}`).toBe(0);
    for (const line of prints) expect(stdout).toMatch(line);
  });
});
