// `run --shard i/3` three times and `merge-reports --shards` give the unsharded run's verdict, exit code and
// runs (same points of the matrix, same statuses, same order), with JUnit and HTML from the merged report;
// merging refuses shards of another selection, a missing or doubled shard, and an interrupted shard.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedReport, mergeShardReports } from '../../harness/report/merge-shards.js';
import type { ConformanceReport, ReportRun } from '../../harness/report/model.js';
import { runKey } from '../../harness/runner/results/run-identity.js';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';

const cliPath = path.join(root, 'dist', 'cli.js');
// passes plain-text, fails fault-500-exhausted, and declares no persistent mode: three statuses.
const SELECTION = [
  fixtureShim('prints-success-after-error.mjs'),
  '--full',
  '--scenario',
  'plain-text,fault-500-exhausted,persistent-mode',
  '--provider',
  'openai-chat',
];

function cli(args: string[]) {
  const result = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', timeout: 150_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function cliAsync(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliPath, ...args], { timeout: 150_000 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { status: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const points = (report: ConformanceReport) =>
  report.runs.map((run: ReportRun) => `${runKey(run)} → ${run.status}${run.expectedFailure ? ' (expected)' : ''}`);

describe('merge-reports --shards', () => {
  let work: string;
  const file = (name: string) => path.join(work, name);
  const read = (name: string) => JSON.parse(readFileSync(file(name), 'utf8')) as ConformanceReport;
  let whole: ReturnType<typeof cli>;
  let merge: ReturnType<typeof cli>;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'yume-shards-'));
    const runs = [
      { args: [...SELECTION, '--reporter', `json:${file('whole.json')}`], name: 'whole' },
      ...[1, 2, 3].map((index) => ({
        args: [...SELECTION, '--shard', `${index}/3`, '--reporter', `json:${file(`shard-${index}.json`)}`],
        name: `shard ${index}`,
      })),
    ];
    // All four at once, as four CI machines would.
    const results = await Promise.all(runs.map((run) => cliAsync(run.args)));
    whole = results[0]!;
    merge = cli([
      'merge-reports',
      '--shards',
      file('shard-3.json'),
      file('shard-1.json'),
      file('shard-2.json'),
      '--out',
      file('merged.json'),
      '--reporter',
      `junit:${file('merged.xml')}`,
      '--reporter',
      `html:${file('merged.html')}`,
    ]);
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('gives the unsharded verdict, exit code and runs', () => {
    const unsharded = read('whole.json');
    const merged = read('merged.json');
    const statuses = new Set(unsharded.runs.map((run) => run.status));
    expect([...statuses].sort()).toEqual(['failed', 'not-verified', 'passed']);
    // The split is real: every shard holds some runs, none holds them all.
    const sizes = [1, 2, 3].map((index) => read(`shard-${index}.json`).runs.length);
    expect(sizes.every((size) => size > 0 && size < unsharded.runs.length)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(unsharded.runs.length);
    expect(merge.status, merge.stderr).toBe(whole.status);
    expect(merged.exitCode).toBe(unsharded.exitCode);
    expect(merged.verdict).toBe(unsharded.verdict);
    // On a difference, say why each run that did not pass got its status (timing-sensitive rules show here).
    const why = (report: ConformanceReport, name: string) =>
      report.runs
        .filter((run) => run.status !== 'passed')
        .map(
          (run) =>
            `${name} ${runKey(run)}: ${run.findings
              .filter((f) => f.severity !== 'INFO')
              .map((f) => `${f.severity} ${f.rule}: ${f.message}`)
              .join(' | ')}`,
        )
        .join('\n');
    expect(points(merged), `${why(merged, 'merged')}\n${why(unsharded, 'unsharded')}`).toEqual(points(unsharded));
    expect({ ...merged.summary }).toEqual({ ...unsharded.summary });
    expect(merged.mergedShards).toBe(3);
    expect(merged.reportVersion).toBe('2.1');
    // Not-verified records pass through whole: persistent-mode needs a capability the shim does not declare.
    const notVerified = (report: ConformanceReport) =>
      report.runs.filter((run) => run.status === 'not-verified').map((run) => run.notVerified);
    expect(notVerified(merged)).toEqual(notVerified(unsharded));
    expect(notVerified(merged)[0]).toEqual([
      { scope: 'run', cause: 'capability', reason: expect.stringContaining('persistent mode') },
    ]);
    expect(readFileSync(file('merged.xml'), 'utf8')).toContain(`tests="${unsharded.runs.length}"`);
    expect(readFileSync(file('merged.html'), 'utf8')).toContain('fault-500-exhausted');
  });

  it('refuses shards that are not one suite run', () => {
    const shard1 = read('shard-1.json');
    writeFileSync(file('other.json'), JSON.stringify({ ...shard1, selection: { fingerprint: 'x', runs: 3 } }));
    const other = cli(['merge-reports', '--shards', file('other.json'), file('shard-2.json'), file('shard-3.json')]);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/different selections/);

    const missing = cli(['merge-reports', '--shards', file('shard-1.json'), file('shard-2.json')]);
    expect(missing.stderr).toMatch(/shard 3\/3 missing/);
    const twice = cli(['merge-reports', '--shards', file('shard-1.json'), file('shard-1.json'), file('shard-2.json')]);
    expect(twice.stderr).toMatch(/both shard 1\/3/);

    writeFileSync(file('stopped.json'), JSON.stringify({ ...shard1, interrupted: true }));
    const stopped = cli([
      'merge-reports',
      '--shards',
      file('stopped.json'),
      file('shard-2.json'),
      file('shard-3.json'),
    ]);
    expect(stopped.status).toBe(2);
    expect(stopped.stderr).toMatch(/was interrupted/);

    writeFileSync(file('newer.json'), JSON.stringify({ ...shard1, suiteVersion: '9.9.9' }));
    const newer = cli(['merge-reports', '--shards', file('newer.json'), file('shard-2.json'), file('shard-3.json')]);
    expect(newer.stderr).toMatch(/different suite versions/);

    // A shard written before report format 2.0 (prose not-verified lists) is refused, not half-read.
    const { reportVersion: _dropped, ...older } = shard1;
    writeFileSync(file('older.json'), JSON.stringify(older));
    const oldFormat = cli([
      'merge-reports',
      '--shards',
      file('older.json'),
      file('shard-2.json'),
      file('shard-3.json'),
    ]);
    expect(oldFormat.status).toBe(2);
    expect(oldFormat.stderr).toMatch(/report format before 2\.0 .*reads 2\.1/);
  });
});

describe('merging shards that ran nothing, or noted something on their suite', () => {
  const shard = (index: number, extra: Partial<ConformanceReport>): LoadedReport => ({
    file: `shard-${index}.json`,
    report: {
      summary: { passed: 0, failed: 0, warnings: 0, notVerified: 0 },
      runs: [],
      suiteVersion: '1',
      protocolVersion: '1.2',
      reportVersion: '2.1',
      shim: 'my-shim',
      platform: 'linux',
      capabilities: 'default',
      selection: { fingerprint: 'f', runs: 1 },
      shard: { index, count: 2 },
      ...extra,
    },
  });
  const note = { rule: 'workspace.outside-home-temp', severity: 'INFO' as const, message: 'new in /tmp: /tmp/x' };
  const run: ReportRun = { scenario: 'plain-text', provider: 'openai-chat', status: 'passed', findings: [], index: 0 };

  it('a shard whose shim could not be started: the merged suite ran nothing either, and says why', () => {
    const merged = mergeShardReports([
      shard(1, { startFailure: 'my-shim: no such file or command', exitCode: 2 }),
      shard(2, { runs: [], exitCode: 0 }),
    ]);
    expect(merged).toMatchObject({ runs: [], exitCode: 2, startFailure: 'my-shim: no such file or command' });
    expect(merged.summary).toMatchObject({ passed: 0, failed: 0 });
  });

  it("keeps each distinct note of the shards' suites once", () => {
    const merged = mergeShardReports([
      shard(1, { runs: [run], suiteFindings: [note] }),
      shard(2, { suiteFindings: [note, { ...note, message: 'new in /home/u: /home/u/y' }] }),
    ]);
    expect(merged.suiteFindings?.map((finding) => finding.message)).toEqual([
      'new in /tmp: /tmp/x',
      'new in /home/u: /home/u/y',
    ]);
    expect(merged.exitCode).toBe(0);
    expect(mergeShardReports([shard(1, { runs: [run] }), shard(2, {})]).suiteFindings).toBeUndefined();
  });
});
