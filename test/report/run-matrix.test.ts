// The scenario × provider matrix (HTML report, `--matrix`): each cell counts its pair's passing runs and points
// at the worst run, worst by the terminal report's group order.
import { describe, expect, it } from 'vitest';
import type { ReportRun } from '../../harness/report/model.js';
import { matrixHtml, matrixLines, runMatrix } from '../../harness/report/run-matrix.js';

const run = (scenario: string, provider: string, status: string, extra: Partial<ReportRun> = {}) =>
  ({ scenario, provider, status, ...extra }) as unknown as ReportRun;

const runs = [
  run('plain-text', 'gemini', 'passed'),
  run('plain-text', 'gemini', 'not-verified'),
  run('plain-text', 'gemini', 'failed'),
  run('plain-text', 'anthropic', 'partial'),
  run('single-tool', 'gemini', 'failed', { expectedFailure: 'known' } as Partial<ReportRun>),
  run('single-tool', 'gemini', 'passed'),
];

describe('runMatrix', () => {
  it('has one row per scenario and one column per provider, in report order', () => {
    const matrix = runMatrix(runs);
    expect(matrix.scenarios).toEqual(['plain-text', 'single-tool']);
    expect(matrix.providers).toEqual(['gemini', 'anthropic']);
  });

  it('counts passing runs (passed, partial, expected failures) and points at the worst run', () => {
    const matrix = runMatrix(runs);
    expect(matrix.cell('plain-text', 'gemini')).toEqual({ worst: 'failed', position: 2, passed: 1, total: 3 });
    expect(matrix.cell('plain-text', 'anthropic')).toEqual({ worst: 'partial', position: 3, passed: 1, total: 1 });
    expect(matrix.cell('single-tool', 'gemini')).toEqual({
      worst: 'expected-failure',
      position: 4,
      passed: 2,
      total: 2,
    });
    expect(matrix.cell('single-tool', 'anthropic')).toBeUndefined();
  });

  it('ranks a status no group lists as worse than any listed one', () => {
    const matrix = runMatrix([run('s', 'p', 'failed'), run('s', 'p', 'brand-new')]);
    expect(matrix.cell('s', 'p')?.worst).toBe('brand-new');
  });
});

describe('matrixLines', () => {
  it('prints aligned columns with the worst mark and passing/total, and - for a missing pair', () => {
    expect(matrixLines(runs)).toEqual([
      'scenario     gemini  anthropic',
      'plain-text   ✘ 1/3   ◐ 1/1',
      'single-tool  ✘ 2/2   -',
    ]);
  });
});

describe('matrixHtml', () => {
  it('links each cell to its worst run and escapes names', () => {
    const html = matrixHtml([run('<s>', 'p&q', 'failed'), run('<s>', 'p&q', 'passed')]);
    expect(html).toContain('<th>p&amp;q</th>');
    expect(html).toContain('<th class="s">&lt;s&gt;</th>');
    expect(html).toContain('<a href="#run-0">✘ 1/2</a>');
  });

  it('is empty without runs', () => {
    expect(matrixHtml([])).toBe('');
  });
});
