// Reports to debug from, and nothing secret in them: a fixture shim reads its runner's environment (through
// /proc) and prints it on stdout and stderr with its own API key. The run fails; its JSON report keeps the
// stdout head and stderr tail, --artifacts writes the files, and neither the secret planted in the runner's
// environment, nor a known key shape in an innocently named variable, nor the run's dummy key appears in the
// JSON, HTML, JUnit or human output, the CI annotations, or any artifact.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../harness/report/model.js';
import { REDACTED, Redactor } from '../../harness/runner/redact.js';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';

const PLANTED = 'planted-0f9e8d7c6b5a4-runner-secret';
const SHAPED = 'ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const DUMMY = 'sk-yume-conformance-openai-dummy';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

describe('reports of a shim that prints its runner’s environment', () => {
  let work: string;
  let report: ConformanceReport;
  let leakFile: string;
  let cli: { status: number | null; stdout: string; stderr: string };
  const file = (name: string) => path.join(work, name);

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'yume-redaction-'));
    leakFile = file('leaked.txt');
    // The runner's own environment holds the secrets from its start (a shim reads /proc/<pid>/environ).
    const result = spawnSync(
      process.execPath,
      [
        path.join(root, 'dist', 'cli.js'),
        fixtureShim('prints-parent-environment.mjs'),
        '--scenario',
        'plain-text',
        '--provider',
        'openai-chat',
        '--env',
        `YUME_LEAK_FILE=${leakFile}`,
        '--reporter',
        `json:${file('report.json')}`,
        '--reporter',
        `html:${file('report.html')}`,
        '--reporter',
        `junit:${file('junit.xml')}`,
        '--reporter',
        'human',
        '--artifacts',
        file('artifacts'),
      ],
      {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, YUME_TEST_PLANTED_TOKEN: PLANTED, YUME_TEST_INNOCENT_NAME: SHAPED, NO_COLOR: '1' },
      },
    );
    cli = { status: result.status, stdout: result.stdout, stderr: result.stderr };
    report = JSON.parse(readFileSync(file('report.json'), 'utf8')) as ConformanceReport;
  }, 150_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('fails, and its JSON report holds the stdout head and stderr tail', () => {
    // The leak really happened: the shim saw the planted values.
    expect(readFileSync(leakFile, 'utf8')).toContain(PLANTED);
    expect(readFileSync(leakFile, 'utf8')).toContain(SHAPED);
    expect(cli.status, cli.stderr).toBe(1);
    expect(report.exitCode).toBe(1);
    const run = report.runs[0]!;
    expect(run.status).toBe('failed');
    const process = run.processes![0]!;
    expect(process.stdout.head).toContain('"type":"text"');
    expect(process.stdout.head).toContain(`YUME_TEST_PLANTED_TOKEN=${REDACTED}`);
    expect(process.stdout.chars).toBeGreaterThan(100);
    expect(process.stderr.tail).toContain(`using key ${REDACTED}`);
    expect(run.requests?.length).toBeGreaterThan(0);
  });

  it('writes the artifacts', () => {
    const folder = path.join(work, 'artifacts', report.runs[0]!.artifacts!);
    const names = readdirSync(folder).sort();
    expect(names).toEqual([
      'requests.json',
      'the-shim.golden.diff',
      'the-shim.golden.jsonl',
      'the-shim.stderr.txt',
      'the-shim.stdout.jsonl',
      'timeline.txt',
    ]);
    expect(readFileSync(path.join(folder, 'the-shim.golden.diff'), 'utf8')).toMatch(/^\+ \{"type":"text"/m);
    expect(readFileSync(path.join(folder, 'the-shim.stdout.jsonl'), 'utf8')).toContain(REDACTED);
    // What happened when, in order: the runner, the mock and the shim's lines, each with its time in the run.
    const timeline = readFileSync(path.join(folder, 'timeline.txt'), 'utf8').trimEnd().split('\n');
    const times = timeline.map((line) => Number(/^ *(\d+) ms {2}(runner|mock|shim|stdin) /.exec(line)?.[1]));
    expect(times.every((time) => Number.isInteger(time))).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const sources = new Set(timeline.map((line) => line.slice(12, 18).trim()));
    expect(sources.has('runner') && sources.has('mock')).toBe(true);
  });

  it('shows the secrets nowhere', () => {
    const annotations = execFileSync(
      process.execPath,
      [path.join(root, 'ci', 'annotate.mjs'), '--report', file('report.json')],
      { encoding: 'utf8', env: { ...process.env, GITHUB_STEP_SUMMARY: file('summary.md') } },
    );
    const outputs: [string, string][] = [
      ['human output', cli.stdout + cli.stderr],
      ['annotations', annotations + readFileSync(file('summary.md'), 'utf8')],
      ...filesUnder(work)
        .filter((name) => name !== leakFile)
        .map((name): [string, string] => [name, readFileSync(name, 'utf8')]),
    ];
    expect(outputs.map(([where]) => path.basename(where))).toEqual(
      expect.arrayContaining(['report.json', 'report.html', 'junit.xml', 'the-shim.stderr.txt']),
    );
    for (const [where, text] of outputs) {
      for (const secret of [PLANTED, SHAPED, DUMMY]) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
    // The finding that quotes the leaked line is there, redacted.
    expect(cli.stdout).toContain(REDACTED);
  });
});

describe('Redactor', () => {
  it('replaces secrets as written and JSON-escaped, longest first, and known key shapes', () => {
    const redactor = new Redactor(['short', 'abc"def/ghi-123', 'abc"def/ghi-123-longer']);
    expect(redactor.text('x abc"def/ghi-123-longer y')).toBe(`x ${REDACTED} y`);
    expect(redactor.text(JSON.stringify({ k: 'abc"def/ghi-123' }))).toBe(`{"k":"${REDACTED}"}`);
    expect(redactor.text('short stays')).toBe('short stays');
    expect(redactor.text('AIzaSyA1234567890abcdefghijklmnopqrstu and xoxb-1234567890-abcdef')).toBe(
      `${REDACTED} and ${REDACTED}`,
    );
  });

  it('takes secret-looking values of the runner’s environment, not paths or short values', () => {
    const redactor = Redactor.forRunner({
      MY_API_KEY: 'k-1234567890',
      GITHUB_TOKEN: 'tok-abcdefgh',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.1',
      DEBUG_TOKEN: 'yes',
      PATH_LIKE: 'k-1234567890-not-a-secret-name',
    });
    expect(redactor.text('k-1234567890 tok-abcdefgh /tmp/ssh-XXXX/agent.1 yes')).toBe(
      `${REDACTED} ${REDACTED} /tmp/ssh-XXXX/agent.1 yes`,
    );
  });
});
