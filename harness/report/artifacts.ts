// `--artifacts DIR`: each run's full (redacted) output as files, for a CI job to upload: per process its
// stdout and stderr, and when it was compared with a golden, the golden and a line diff against it; per run
// the provider requests it sent and its timeline (what the runner, the mock and the shim did when: the first
// thing to read when a verdict depends on timing). One folder per run, named after its position and point of the matrix; the
// report's `artifacts` field names it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProcessRecord, RunResult, TimelineEntry } from '../runner/results/run-types.js';
import type { ReportRun } from './model.js';

/** A file-name-safe slug. */
function slug(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'x'
  );
}

export function runFolderName(run: ReportRun, position: number): string {
  const parts = [
    String(run.index ?? position).padStart(4, '0'),
    run.scenario,
    run.provider,
    String(run.invocation ?? ''),
    String(run.profile ?? ''),
    String(run.dialect ?? ''),
    run.seed === undefined ? '' : `seed${String(run.seed)}`,
  ];
  return slug(parts.filter(Boolean).join('-'));
}

/** Expected and observed lines, position by position: `  ` same, `- ` golden only, `+ ` observed only. */
export function goldenDiff(golden: string, observed: string): string {
  const split = (text: string) => {
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines;
  };
  const expected = split(golden);
  const actual = split(observed);
  const out = ['--- golden', '+++ observed stdout'];
  for (let index = 0; index < Math.max(expected.length, actual.length); index += 1) {
    const left = expected[index];
    const right = actual[index];
    if (left === right) out.push(`  ${left}`);
    else {
      if (left !== undefined) out.push(`- ${left}`);
      if (right !== undefined) out.push(`+ ${right}`);
    }
  }
  return `${out.join('\n')}\n`;
}

function writeProcess(folder: string, process: ProcessRecord): void {
  const name = slug(process.label);
  writeFileSync(path.join(folder, `${name}.stdout.jsonl`), process.stdout);
  writeFileSync(path.join(folder, `${name}.stderr.txt`), process.stderr);
  if (process.goldenText !== undefined) {
    writeFileSync(path.join(folder, `${name}.golden.jsonl`), process.goldenText);
    writeFileSync(
      path.join(folder, `${name}.golden.diff`),
      goldenDiff(process.goldenText, process.stdout.toString('utf8')),
    );
  }
}

/** One line per entry: time since the run started, source, text (multi-line texts indented). */
export function timelineText(timeline: readonly TimelineEntry[]): string {
  return timeline
    .map(
      (entry) =>
        `${String(entry.atMs).padStart(7)} ms  ${entry.source.padEnd(6)}  ${entry.text.replace(/\n/g, `\n${' '.repeat(20)}`)}\n`,
    )
    .join('');
}

/** Writes every run's files under `dir` and records each folder on its report run. */
export function writeArtifacts(dir: string, runs: ReportRun[], results: readonly RunResult[]): void {
  try {
    mkdirSync(dir, { recursive: true });
    runs.forEach((run, position) => {
      const result = results[position];
      if (!result || (result.processes.length === 0 && result.requests.length === 0)) return;
      const name = runFolderName(run, position);
      const folder = path.join(dir, name);
      mkdirSync(folder, { recursive: true });
      for (const process of result.processes) writeProcess(folder, process);
      writeFileSync(path.join(folder, 'requests.json'), `${JSON.stringify(result.requests, null, 2)}\n`);
      writeFileSync(path.join(folder, 'timeline.txt'), timelineText(result.timeline));
      run.artifacts = name;
    });
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String((error as NodeJS.ErrnoException).code) : error;
    throw new Error(`cannot write artifacts to ${dir} (${String(reason)})`);
  }
}
