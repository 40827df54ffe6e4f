// The harness's cost as a session grows (`npm run bench`): a spawn-per-turn session whose every turn resumes the
// last and reads a file of about 24 KB (long-session-scenario.mjs), played with 20 turns and with 40, one run
// at a time, by the reference shim. Each request carries the whole history so far, so the bytes the shim sends
// grow with the square of the turns; the harness's own work should not. Goal, printed as a ratio: the harness
// CPU of 40 turns <= 2.5x that of 20 (work linear in the turns reads 2, work that grows with the square 4).
// Harness CPU is measured as the runner bench measures it (harness-cpu.mjs: the runner's own process and the
// helpers it starts, the shims' cgroup leaves taken off); each sample plays both lengths back to back and the
// goal is judged on the median of the samples' ratios.
//
//   node bench/long-session.bench.mjs [--short 20] [--long 40] [--samples 3] [--file-kb 24]
//                                     [--provider openai-chat] [--no-build]
//
// The scenarios and their goldens (recorded first from the reference shim, so the golden comparison is part of
// what is measured) live in a temporary folder shaped like transcripts/, removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDist } from './build-dist.mjs';
import { clockTicks, cpuNow, harnessCpu, median } from './harness-cpu.mjs';
import { importFromSources } from './import-sources.mjs';
import { writeLongSession } from './long-session-scenario.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const argValue = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
};
const shortTurns = Number(argValue('short', 20));
const longTurns = Number(argValue('long', 40));
const sampleCount = Number(argValue('samples', 3));
const fileKb = Number(argValue('file-kb', 24));
const fileBytes = fileKb * 1024;
const provider = argValue('provider', 'openai-chat');
const GOAL = 2.5;

/** Why the arguments cannot be played, or undefined. */
function argumentProblem() {
  const counts = { short: shortTurns, long: longTurns, samples: sampleCount, 'file-kb': fileKb };
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isInteger(value) || value < 1) return `--${name} must be a whole number of at least 1`;
  }
  if (longTurns <= shortTurns) return `--long (${longTurns}) must be more turns than --short (${shortTurns})`;
  return undefined;
}

function loadHarness() {
  return importFromSources('bench-long-session', {
    stdin: {
      contents: `
        export { runConformanceWithResults } from './harness/suite/run-conformance.ts';
        export { computeGoldens, writeGoldens } from './harness/golden/regenerate/goldens.ts';
      `,
      resolveDir: root,
      loader: 'ts',
    },
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Records the goldens of the generated scenarios from the reference shim; throws when a run does not conform. */
async function recordGoldens(harness, transcriptsDir, ids) {
  const updates = await harness.computeGoldens({ transcriptsDir, scenarios: ids, jobs: 1 });
  const problems = updates.flatMap((update) => update.problems.map((problem) => `${update.scenario}: ${problem}`));
  if (problems.length > 0)
    throw new Error(`the reference shim does not conform on the long session:\n${problems.join('\n')}`);
  harness.writeGoldens(updates, 'recorded by the long-session bench', transcriptsDir);
}

/** Plays one session of `turns` turns through the suite with --jobs 1; returns its harness and shim CPU. */
async function playSession(harness, transcriptsDir, { id, turns }, ticks) {
  const before = cpuNow(ticks);
  const started = performance.now();
  const { report, results } = await harness.runConformanceWithResults({
    transcriptsDir,
    scenarios: [id],
    providers: [provider],
    jobs: 1,
  });
  const wall = performance.now() - started;
  const after = cpuNow(ticks);
  const cpu = harnessCpu({
    ownCpuMs: after.own - before.own,
    childrenCpuMs: (after.children ?? 0) - (before.children ?? 0),
    results,
  });
  const run = report.runs[0];
  const checksMs = results.reduce((sum, result) => sum + (result.phases?.checksMs ?? 0), 0);
  const findings = run.findings.map((finding) => `${finding.rule}: ${finding.message.split('\n')[0]}`);
  return { turns, wall, cpu, checksMs, status: run.status, findings, runs: report.runs.length };
}

function describe(label, session) {
  const { cpu } = session;
  const harnessText = cpu.measured
    ? `harness CPU ${seconds(cpu.harnessCpuMs)} (the runner's own ${seconds(cpu.ownCpuMs)}, its helpers ${seconds(cpu.helpersCpuMs)}), shims ${seconds(cpu.shimCpuMs)}`
    : `harness CPU not measured (no cgroup v2 leaf CPU for the run); the runner's own ${seconds(cpu.ownCpuMs)}`;
  const problems = session.status === 'passed' ? '' : ` [${session.status}: ${session.findings.join('; ')}]`;
  process.stdout.write(
    `${label}: ${session.turns} turns (${session.runs} run, ${session.status}) in ${seconds(session.wall)}; ${harnessText}; checks ${seconds(session.checksMs)} wall${problems}\n`,
  );
}

async function main() {
  const problem = argumentProblem();
  if (problem) {
    process.stderr.write(`long-session bench: ${problem}\n`);
    process.exitCode = 2;
    return;
  }
  buildDist();
  const harness = await loadHarness();
  const ticks = clockTicks();
  const transcriptsDir = mkdtempSync(path.join(tmpdir(), 'yume-bench-long-session-'));
  try {
    const sessions = [shortTurns, longTurns].map((turns) => ({ id: `long-session-${turns}`, turns }));
    for (const session of sessions) writeLongSession(transcriptsDir, { ...session, fileBytes });
    await recordGoldens(
      harness,
      transcriptsDir,
      sessions.map((session) => session.id),
    );
    process.stdout.write(
      `long session: ${sessions.map((session) => session.turns).join(' and ')} turns, each reading ${(fileBytes / 1024).toFixed(0)} KB, provider ${provider}, --jobs 1; goldens recorded from the reference shim\n`,
    );
    const ratios = [];
    const shimRatios = [];
    for (let index = 1; index <= sampleCount; index += 1) {
      const label = `sample ${index}/${sampleCount}`;
      const played = [];
      for (const session of sessions) {
        const result = await playSession(harness, transcriptsDir, session, ticks);
        describe(label, result);
        played.push(result);
      }
      const [first, second] = played;
      if (!first.cpu.measured || !second.cpu.measured) continue;
      ratios.push(second.cpu.harnessCpuMs / first.cpu.harnessCpuMs);
      shimRatios.push(second.cpu.shimCpuMs / first.cpu.shimCpuMs);
    }
    const of = `${longTurns} turns over ${shortTurns}`;
    if (ratios.length < sampleCount) {
      process.stdout.write(`goal long-session harness CPU ${of} <= ${GOAL}x: not measured (no cgroup v2 leaf CPU)\n`);
      return;
    }
    const list = (values) => values.map((value) => `${value.toFixed(2)}x`).join(', ');
    const ratio = median(ratios);
    process.stdout.write(
      `goal long-session harness CPU ${of} <= ${GOAL}x: ratio ${ratio.toFixed(2)}x (median of ${sampleCount} samples: ${list(ratios)}): ${ratio <= GOAL ? 'met' : 'NOT met'}\n`,
    );
    process.stdout.write(`  the shims' CPU, ${of}: ${median(shimRatios).toFixed(2)}x (samples ${list(shimRatios)})\n`);
  } finally {
    rmSync(transcriptsDir, { recursive: true, force: true });
    rmSync(path.join(root, '.tmp', 'bench-long-session'), { recursive: true, force: true });
  }
}

await main();
