// --artifacts keeps each provider request whole (what the shim sent, to debug from), while the JSON report
// keeps a cut of each body and its length.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../harness/report/model.js';
import { REQUEST_BODY_CHARS } from '../../harness/report/run-output.js';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';

describe('request bodies in the artifacts and in the JSON report', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'yume-artifact-bodies-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes whole bodies to the artifacts and cut ones to the report', () => {
    const result = spawnSync(
      process.execPath,
      [
        path.join(root, 'dist', 'cli.js'),
        fixtureShim('sends-a-large-request.mjs'),
        ...['--scenario', 'plain-text', '--provider', 'openai-chat'],
        ...['--reporter', `json:${path.join(work, 'report.json')}`, '--artifacts', path.join(work, 'artifacts')],
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path.join(work, 'report.json'), 'utf8')) as ConformanceReport;
    const run = report.runs[0]!;
    const reported = run.requests![0]!;
    const written = JSON.parse(readFileSync(path.join(work, 'artifacts', run.artifacts!, 'requests.json'), 'utf8')) as {
      body: string;
    }[];
    const whole = written[0]!.body;
    expect(whole.length).toBeGreaterThan(100_000);
    expect((JSON.parse(whole) as { metadata: { padding: string } }).metadata.padding).toHaveLength(100_000);
    expect(reported.bodyChars).toBe(whole.length);
    expect(reported.body).toHaveLength(REQUEST_BODY_CHARS);
    expect(whole.startsWith(reported.body)).toBe(true);
  });
});
