// The interop matrix on hand-made reports: worst status per cell, and the not-verified checks of each cell
// counted and named (rule and cause) from the runs' records.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeInteropPages } from '../../harness/report/interop.js';
import { buildReport, type ReportRun } from '../../harness/report/model.js';

const work = mkdtempSync(path.join(tmpdir(), 'yume-interop-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (status: ReportRun['status'], extra: Partial<ReportRun> = {}): ReportRun => ({
  scenario: 'plain-text',
  provider: 'openai-chat',
  status,
  findings: [],
  ...extra,
});

describe('interop matrix', () => {
  it('counts the checks not verified in a cell and names their rules and causes', () => {
    const busy = run('passed', {
      notVerified: [
        { rule: 'process.exit-after-result', scope: 'check', cause: 'machine', reason: 'too busy to judge' },
      ],
    });
    const skipped = run('not-verified', {
      notVerified: [{ scope: 'run', cause: 'capability', reason: 'needs persistent mode' }],
    });
    const index = writeInteropPages(
      [
        { file: 'a.json', report: { ...buildReport([busy, run('passed')]), shim: '/x/a-shim' } },
        { file: 'b.json', report: { ...buildReport([skipped]), shim: '/x/b-shim' } },
      ],
      work,
    );
    const html = readFileSync(index, 'utf8');
    expect(html).toContain('>passed (2/2) · 1 unchecked</a>');
    expect(html).toContain('— not verified: process.exit-after-result (machine)');
    // A whole run not verified is its status, not an unchecked count.
    expect(html).toContain('— not verified: run (capability)">not-verified</a>');
  });
});
