// A flood of junk lines is judged in linear time: run and validate report framing, not a timeout.

import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { describeFindings, fixtureShim, processesTagged, root, rules, runFixture } from './helpers/run-fixture.js';

describe('junk lines', () => {
  it('run: 6 MB of 2-byte junk lines get framing.single-line-json quickly, not process.timeout', async () => {
    const started = performance.now();
    const result = await runFixture(fixtureShim('prints-6mb-of-junk-lines.mjs'), 'plain-text', { timeoutMs: 20_000 });
    const elapsed = performance.now() - started;
    expect(rules(result), describeFindings(result)).toContain('framing.single-line-json');
    expect(rules(result)).not.toContain('process.timeout');
    const framing = result.findings.filter((finding) => finding.rule === 'framing.single-line-json');
    // First N listed, then one line counting the rest.
    expect(framing.at(-1)?.message).toMatch(/more findings of this rule not listed \(3145728 in total\)/);
    expect(elapsed).toBeLessThan(15_000);
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it('validate: the same bytes as a file, through the CLI, in a few seconds', async () => {
    const file = path.join(os.tmpdir(), `yume-junk-${process.pid}.jsonl`);
    writeFileSync(file, Buffer.alloc(6 * 1024 * 1024, 'x\n'));
    const started = performance.now();
    const cli = await execa(
      process.execPath,
      [path.join(root, 'dist', 'cli.js'), 'validate', file, '--reporter', 'json'],
      {
        reject: false,
      },
    );
    expect(cli.exitCode).toBe(1);
    expect(JSON.parse(cli.stdout).runs[0].findings[0].rule).toBe('framing.single-line-json');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('lines opened but not closed are judged without a parse each', () => {
    const result = validateStream(Buffer.alloc(1024 * 1024, '{\n'));
    expect(result.findings[0]).toMatchObject({ rule: 'framing.single-line-json', line: 1 });
    expect(result.findings.at(-1)?.message).toMatch(/524288 in total/);
  });
});
