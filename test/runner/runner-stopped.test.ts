// The runner itself stopped mid-suite (Ctrl-C sends SIGINT to its group only; a cancelled CI job sends
// SIGTERM): it ends every process its runs started, closes its mocks and writes the report of the runs so
// far, marked interrupted.

import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { SuiteStop, stopSignalsFor } from '../../harness/suite/stop-signals.js';
import { fixtureShim, processesTagged, root } from './helpers/run-fixture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('stop signals per platform (handled in code, injected platform)', () => {
  it('POSIX: SIGINT, SIGTERM and SIGHUP; Windows: Ctrl-C (SIGINT) and Ctrl-Break (SIGBREAK)', () => {
    expect(stopSignalsFor('linux')).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP']);
    expect(stopSignalsFor('win32')).toEqual(['SIGINT', 'SIGBREAK']);
    const source = new EventEmitter();
    const seen: string[] = [];
    const stop = new SuiteStop(source, 'win32', (signal) => seen.push(signal));
    expect(source.listenerCount('SIGBREAK')).toBe(1);
    expect(source.listenerCount('SIGTERM')).toBe(0);
    source.emit('SIGBREAK', 'SIGBREAK');
    source.emit('SIGINT', 'SIGINT'); // a second signal changes nothing
    expect(seen).toEqual(['SIGBREAK']);
    expect(stop.signal).toBe('SIGBREAK');
    stop.close();
    expect(source.listenerCount('SIGBREAK')).toBe(0);
  });
});

describe.runIf(process.platform !== 'win32')('yume-conformance stopped mid-suite', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s: no process of its runs left, a report written', async (signal) => {
    const tag = randomUUID();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yume-stopped-'));
    const reportFile = path.join(dir, 'report.json');
    const runner = execa(
      process.execPath,
      [
        path.join(root, 'dist', 'cli.js'),
        'run',
        fixtureShim('hangs-forever.mjs'),
        '--provider',
        'openai-chat',
        '--scenario',
        'plain-text',
        '--scenario',
        'single-tool',
        '--scenario',
        'multi-tool',
        '--jobs',
        '2',
        '--timeout',
        '60000',
        '--env',
        `YUME_CONFORMANCE_TEST_TAG=${tag}`,
        '--reporter',
        `json:${reportFile}`,
      ],
      { reject: false },
    );
    try {
      const deadline = Date.now() + 20_000;
      while (processesTagged(tag).length < 2 && Date.now() < deadline) await sleep(100);
      expect(processesTagged(tag).length).toBeGreaterThanOrEqual(2);
      runner.kill(signal);
      const ended = await runner;
      expect(ended.exitCode, ended.stderr).toBe(1);
      expect(processesTagged(tag)).toEqual([]);
      expect(existsSync(reportFile)).toBe(true);
      const report = JSON.parse(readFileSync(reportFile, 'utf8'));
      expect(report.interrupted).toBe(true);
      expect(report.error).toBe(`stopped by ${signal}`);
      expect(report.runs.some((run: { interrupted?: boolean }) => run.interrupted)).toBe(true);
      expect(report.runs.every((run: { status: string }) => run.status !== 'passed')).toBe(true);
    } finally {
      runner.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
