// Progress on stderr: one line per run off a terminal; on a terminal a status line redrawn in place, with the
// runs that did not pass printed above it. The identity in the line is the reporters' own.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgress, progressLine, statusLine } from '../../harness/cli/progress.js';
import { renderHtml } from '../../harness/report/html.js';
import { renderJunit } from '../../harness/report/junit.js';
import { buildReport, type ReportRun } from '../../harness/report/model.js';
import { runLabel } from '../../harness/report/run-label.js';
import type { RunResult } from '../../harness/runner/results/run-types.js';

const result = (status: RunResult['status'], seed?: number): RunResult =>
  ({
    scenario: 'single-tool',
    provider: 'gemini',
    invocation: 'yume-app',
    profile: 'yume-app',
    dialect: 'flat',
    ...(seed === undefined ? {} : { seed }),
    status,
    findings: status === 'failed' ? [{ rule: 'golden.text', severity: 'MUST', message: 'x' }] : [],
    durationMs: 1500,
  }) as unknown as RunResult;

function terminal() {
  const writes: string[] = [];
  return { stream: { isTTY: true, columns: 200, write: (text: string) => writes.push(text) }, writes };
}

afterEach(() => vi.useRealTimers());

describe('progress', () => {
  it('names a run by the identity every reporter uses: runs that differ only by seed differ', () => {
    const [one, two] = [result('passed', 1), result('passed', 2)];
    expect(progressLine(one, 3, 12)).toBe(`[ 3/12] ✔ passed       ${runLabel(one)} · 1.5 s\n`);
    expect(runLabel(one)).toBe('single-tool [gemini] invocation=yume-app profile=yume-app dialect=flat seed=1');
    expect(runLabel(one)).not.toBe(runLabel(two));
    const runs = [one, two].map((run) => ({ ...run, findings: [] }) as unknown as ReportRun);
    const report = buildReport(runs);
    const junit = renderJunit(report);
    const html = renderHtml(report);
    for (const run of runs) {
      expect(junit).toContain(`<testcase name="${runLabel(run)}"`);
      expect(html).toContain(`</span> ${runLabel(run)}</summary>`);
    }
    // The HTML report opens with the scenario × provider matrix; the cell links to a run's section.
    expect(html).toMatch(
      /<table class="matrix">.*<th class="s">single-tool<\/th><td class="m passed"[^>]*><a href="#run-0">✔ 2\/2<\/a>/,
    );
  });

  it('off a terminal writes one line per finished run and nothing else', () => {
    const writes: string[] = [];
    const progress = createProgress({ isTTY: false, write: (text: string) => writes.push(text) });
    progress.onRun(result('passed'), 1, 2);
    progress.onWidth(3, 'cores 20 % busy, 9000 MB free');
    progress.onRun(result('failed'), 2, 2);
    progress.finish();
    expect(writes).toEqual([progressLine(result('passed'), 1, 2), progressLine(result('failed'), 2, 2)]);
  });

  it('off a terminal with --verbose also says each change of the runs at once, and why', () => {
    const writes: string[] = [];
    const progress = createProgress({ isTTY: false, write: (text: string) => writes.push(text) }, Date.now, {
      verbose: true,
    });
    progress.onWidth(3, 'cores 20 % busy, 9000 MB free');
    progress.onRun(result('passed'), 1, 1);
    expect(writes).toEqual(['runs at once: 3 (cores 20 % busy, 9000 MB free)\n', progressLine(result('passed'), 1, 1)]);
  });

  it('on a terminal shows the runs at once in the status line once the width moves', () => {
    const { stream, writes } = terminal();
    const progress = createProgress(stream, () => 0);
    progress.onWidth(5, 'cores 40 % busy, 9000 MB free');
    expect(writes.at(-1)).toBe('\r\u001b[2K▶ 0 runs · 0 failed · 0:00 elapsed · ETA … · 5 at once');
    progress.finish();
  });

  it('on a terminal redraws done/total, failed, elapsed and ETA in place, keeping a line for each run that did not pass', () => {
    vi.useFakeTimers();
    let now = 0;
    const { stream, writes } = terminal();
    const progress = createProgress(stream, () => now);
    expect(writes.at(-1)).toBe('\r\u001b[2K▶ 0 runs · 0 failed · 0:00 elapsed · ETA …');
    now = 10_000;
    progress.onRun(result('passed'), 1, 4);
    expect(writes.at(-1)).toBe('\r\u001b[2K▶ 1/4 runs · 0 failed · 0:10 elapsed · ETA 0:30');
    now = 20_000;
    progress.onRun(result('failed'), 2, 4);
    expect(writes.at(-2)).toBe(`\r\u001b[2K${progressLine(result('failed'), 2, 4)}`);
    expect(writes.at(-1)).toBe('\r\u001b[2K▶ 2/4 runs · 1 failed · 0:20 elapsed · ETA 0:20');
    // The clock moves between runs too.
    now = 21_000;
    vi.advanceTimersByTime(1000);
    expect(writes.at(-1)).toBe('\r\u001b[2K▶ 2/4 runs · 1 failed · 0:21 elapsed · ETA 0:21');
    expect(writes.filter((text) => text.includes('✔ passed'))).toEqual([]);
    progress.finish();
    const count = writes.length;
    vi.advanceTimersByTime(5000);
    expect(writes.length).toBe(count); // the clock stopped
    expect(writes.at(-1)).toBe('\n');
  });

  it('says done at the end and fits the terminal width', () => {
    expect(statusLine({ done: 3, total: 3, failed: 0, elapsedMs: 3_723_000 })).toBe(
      '▶ 3/3 runs · 0 failed · 1:02:03 elapsed · done',
    );
    const { stream, writes } = terminal();
    stream.columns = 20;
    createProgress(stream, () => 0).finish();
    expect(writes[0]).toBe('\r\u001b[2K▶ 0 runs · 0 failed');
  });
});
