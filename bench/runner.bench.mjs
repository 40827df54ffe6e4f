// The suite against its floor (`npm run bench`). The floor is the shims' own work: the same shim processes
// started bare against the mocks (bare-driver.mjs: set up and driven as the runner does, every scripted
// step played, no checks), their summed CPU divided by the cores, plus the longest single bare run (the
// longest intrinsic wait: a retry-after, an interrupt). Goals, printed as ratios:
//   - default suite wall <= 1.3x its floor;
//   - harness CPU per run <= 25 % of the shim's CPU per run, both measured in the suite run itself
//     (harness-cpu.mjs: the runner's own process and the helpers it starts, against each shim's cgroup leaf);
//     the suite's CPU minus the bare shims' CPU is printed beside it as a cross-check;
//   - the full matrix in 4 shards (--shard i/4, each as on its own machine): each shard <= 1.3x its own floor
//     (skip with --no-full; it takes a long time).
// It also prints where a run's wall time goes (directories, mock, execute = spawn + shim, checks, cleanup),
// next to a bare run's wall time, how busy the suite kept the cores, and how much CPU other programs on the
// machine took meanwhile (from os.cpus(): a shared machine's other work inflates both the wall and the CPU).
//
//   node bench/runner.bench.mjs [--jobs N] [--scenario ID]... [--provider ID]... [--no-full] [--shards 4]
//                                [--samples 3] [--shard-samples 3] [--no-build]
//
// The default suite is measured --samples times (each sample its bare runs, the suite, then its bare runs
// again, the floor taken from the mean of both passes: the harness's CPU is the difference of two large sums,
// and this machine's speed drifted by up to a fifth between one pass and the next), and each goal is judged on
// the median of the samples' own ratios: on a shared machine one sample's load can move a ratio by a third. The
// full-matrix shards likewise, --shard-samples times each (round after round, each shard between two bare passes
// of its own runs: one pass after the suite read shim CPU from 84 s to 110 s for the same shard from one round to
// the next); a round of four shards takes about eleven minutes on 2 cores.
// CPU comes from /proc/self/stat (this process's own time and that of the children it waited for), so the
// CPU goals are measured on Linux only. The machine may be shared: loaded cores inflate wall times (the
// ratios), while CPU sums stay comparable.
//
// The harness modules are bundled from their TypeScript sources with esbuild into .tmp/ (packages stay
// external and resolve from node_modules); the reference shim is dist/yume-shim.cjs (built first).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BARE_TIMEOUT_MS, bareRun, preflightSettings } from './bare-driver.mjs';
import { buildDist } from './build-dist.mjs';
import { clockTicks, cpuNow, harnessCpu, median } from './harness-cpu.mjs';
import { importFromSources } from './import-sources.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const argValues = (name) =>
  process.argv.flatMap((value, index) => (process.argv[index - 1] === `--${name}` ? [value] : []));
const jobsArg = argValues('jobs')[0];
const scenarioFilter = argValues('scenario');
const providerFilter = argValues('provider');
const withFull = !process.argv.includes('--no-full');
const shardCount = Number(argValues('shards')[0] ?? 4);
const BARE_JOBS_PER_CORE = 6;
const sampleCount = Math.max(1, Number(argValues('samples')[0] ?? 3));
const shardSampleCount = Math.max(1, Number(argValues('shard-samples')[0] ?? 3));

function loadHarness() {
  return importFromSources('bench-runner', {
    stdin: {
      contents: `
        export { runConformanceWithResults, resolveSuite } from './harness/suite/run-conformance.ts';
        export { machineCoreTimes } from './harness/suite/suite-width.ts';
        export { widthLimits } from './harness/suite/width-rule.ts';
        export { PROTOCOL_VERSION } from './generated/protocol.ts';
        export { preflight } from './harness/runner/run-scenario.ts';
        export { buildInvocation } from './harness/runner/config/invocation.ts';
        export { buildEnvironment } from './harness/runner/setup/environment.ts';
        export { createRunDirectories, removeRunDirectories } from './harness/runner/setup/workspace.ts';
        export { scratchDirectory } from './harness/runner/setup/scratch-dir.ts';
        export { processTableFor } from './harness/process/process-table.ts';
        export { providerEntry, providerFlags, cliFor } from './harness/runner/config/providers.ts';
        export { startMockServer } from './harness/mock/mock-server.ts';
        export { writeAuthHelpers } from './harness/mock/auth-helpers.ts';
        export { installOfficialCli } from './harness/official-cli/backend.ts';
        export { runCredentials, defaultAcceptedCredentials } from './harness/mock/credentials.ts';
        export { hideProgramsFromPath, keepNodeReachable } from './harness/runner/setup/missing-cli.ts';
        export { DIALECT_VARIABLE } from './harness/runner/config/capabilities.ts';
        export { WorkspaceTemplates } from './harness/runner/setup/git-workspace.ts';
      `,
      resolveDir: root,
      loader: 'ts',
    },
  });
}

/** "others 1.2 s": CPU the machine spent on programs other than this process and its children, between two readings. */
function othersText(machineBefore, machineAfter, ownCpuMs) {
  return `other programs on the machine ${seconds(Math.max(0, machineAfter - machineBefore - ownCpuMs))} of CPU meanwhile`;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const met = (ok) => (ok ? 'met' : 'NOT met');

/** Runs `items` through `work`, `jobs` at a time. */
async function pool(items, jobs, work) {
  const out = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        out[index] = await work(items[index]);
      }
    }),
  );
  return out;
}

/** The scenarios of a selection the bare driver can play (the others are not verified by the suite either). */
function playableSpecs(harness, suite, settings) {
  return suite.specs
    .map((spec) => ({ spec, check: harness.preflight(spec, settings) }))
    .filter(({ check }) => !check.notVerified);
}

/** One bare pass: every playable run's shim started bare against the mocks, `jobs` at a time. */
async function barePass(harness, suite, playable, jobs, ticks) {
  const specs = playable.map(({ spec }) => spec);
  // Set up as the suite sets up: git workspaces made once per scenario (before the CPU window: git is the
  // harness's work), one cache folder shared by every run.
  const templates = new harness.WorkspaceTemplates();
  await Promise.all(specs.map((spec) => templates.prepare(spec.scenario)));
  // In the folder the suite uses for its own (scratch-dir.ts), so the shims read their caches from the same kind
  // of filesystem.
  const cacheDir = mkdtempSync(path.join(harness.scratchDirectory().directory, 'yume-bench-cache-'));
  const context = { harness, shim: suite.shim, shimArgs: [], capabilities: suite.capabilities, templates, cacheDir };
  const bareBefore = cpuNow(ticks);
  const bareMachineBefore = harness.machineCoreTimes().busy;
  const bareStarted = performance.now();
  const played = await pool(playable, jobs, ({ spec, check }) => bareRun(spec, check.persistent, context));
  const elapsed = performance.now() - bareStarted;
  const bareAfter = cpuNow(ticks);
  const bareMachineAfter = harness.machineCoreTimes().busy;
  await templates.close();
  rmSync(cacheDir, { recursive: true, force: true });
  // A run the bare driver had to end (a step it cannot play) does not set the longest intrinsic wait.
  const walls = played.filter((run) => run.timedOut === 0).map((run) => run.elapsed);
  const longestRuns = played
    .map((run, index) => ({ ...run, spec: specs[index] }))
    .filter((run) => run.timedOut === 0)
    .sort((a, b) => b.elapsed - a.elapsed)
    .slice(0, 3)
    .map((run) => `${run.spec.scenario.id} · ${run.spec.provider} ${seconds(run.elapsed)}`);
  const shimCpu = (bareAfter.children ?? 0) - (bareBefore.children ?? 0);
  return {
    shimCpu,
    elapsed,
    walls,
    longest: Math.max(0, ...walls),
    longestRuns,
    unplayed: played.filter((run) => run.timedOut > 0).length,
    others: othersText(bareMachineBefore, bareMachineAfter, bareAfter.own - bareBefore.own + shimCpu),
  };
}

/** The suite and its floor for one selection; returns the numbers. */
async function measure(harness, label, { bareAround = false, ...options }, ticks, cores) {
  const suite = harness.resolveSuite(options);
  const settings = preflightSettings(suite, harness.PROTOCOL_VERSION);
  // The bare passes run six per core (the suite's fixed width before it moved with the machine): the floor takes
  // their CPU and their longest run, which that width does not change.
  const jobs = options.jobs ?? BARE_JOBS_PER_CORE * cores;
  const limits = harness.widthLimits({ cores });
  const width = { changes: 0, peak: limits.start, last: limits.start };
  const playable = playableSpecs(harness, suite, settings);
  const specs = playable.map(({ spec }) => spec);
  // The floor's bare pass comes after the suite; with bareAround, one before it too (see the floor below).
  const passes = bareAround ? [await barePass(harness, suite, playable, jobs, ticks)] : [];
  const before = cpuNow(ticks);
  const machineBefore = harness.machineCoreTimes().busy;
  const started = performance.now();
  const { report, results } = await harness.runConformanceWithResults({
    ...options,
    onWidth: (current) => {
      width.changes += 1;
      width.peak = Math.max(width.peak, current);
      width.last = current;
    },
  });
  const wall = performance.now() - started;
  const after = cpuNow(ticks);
  // A run that fails here fails only under this load (the reference shim passes the suite): say which, and why.
  for (const run of report.runs.filter((candidate) => candidate.status === 'failed' || candidate.status === 'error')) {
    const why =
      run.error ?? run.findings.map((finding) => `${finding.rule}: ${finding.message.split('\n')[0]}`).join('; ');
    process.stdout.write(
      `${label}: FAILED ${run.scenario} · ${run.provider} · ${run.invocation}/${run.profile}/${run.dialect}${run.seed === undefined ? '' : ` · seed ${run.seed}`}: ${why}\n`,
    );
  }
  const machineAfter = harness.machineCoreTimes().busy;
  const ownCpu = after.own - before.own;
  const childrenCpu = (after.children ?? 0) - (before.children ?? 0);
  const suiteCpu = ownCpu + childrenCpu;
  const direct = harnessCpu({ ownCpuMs: ownCpu, childrenCpuMs: childrenCpu, results: results ?? [] });
  process.stdout.write(
    `${label}: suite ${report.runs.length} runs (${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.notVerified} not verified) in ${seconds(wall)} ${options.jobs === undefined ? `${limits.start} at once at the start, ${width.peak} at the widest, ${width.last} at the end (${width.changes} changes)` : `with --jobs ${jobs}`}; CPU ${seconds(suiteCpu)} (the runner's own ${seconds(ownCpu)}, its resident memory ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB), the cores ${((100 * suiteCpu) / (wall * cores)).toFixed(0)} % busy with the suite; ${othersText(machineBefore, machineAfter, suiteCpu)}\n`,
  );

  passes.push(await barePass(harness, suite, playable, jobs, ticks));
  for (const [position, pass] of passes.entries()) {
    const which = passes.length > 1 ? ` (${position === 0 ? 'before' : 'after'} the suite)` : '';
    process.stdout.write(
      `${label}: bare shim runs${which}: ${specs.length} runs, shim CPU ${seconds(pass.shimCpu)}, ${seconds(pass.elapsed)} wall ${jobs} at a time; longest: ${pass.longestRuns.join(', ')}; ${pass.others}\n`,
    );
    if (pass.unplayed > 0)
      process.stdout.write(
        `${label}: ${pass.unplayed} bare run(s) ended at ${BARE_TIMEOUT_MS / 1000} s (a step the bare driver cannot play); left out of the longest run\n`,
      );
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  // With a pass on each side of the suite, a machine that speeds up or slows down meanwhile moves both alike.
  const shimCpu = mean(passes.map((pass) => pass.shimCpu));
  const longest = mean(passes.map((pass) => pass.longest));
  const bareWalls = passes.flatMap((pass) => pass.walls);
  const floor = shimCpu / cores + longest;
  process.stdout.write(
    `${label}: floor ${seconds(floor)} (shim CPU ${seconds(shimCpu)}${passes.length > 1 ? ', the mean of both passes,' : ''} / ${cores} cores + longest run ${seconds(longest)})\n`,
  );

  const details = results ?? [];
  const phases = { setupMs: 0, mockMs: 0, executeMs: 0, spawnMs: 0, checksMs: 0, cleanupMs: 0 };
  let counted = 0;
  for (const result of details) {
    if (!result.phases) continue;
    counted += 1;
    for (const key of Object.keys(phases)) phases[key] += result.phases[key];
  }
  if (counted > 0) {
    const per = (ms) => `${(ms / counted).toFixed(0)} ms`;
    const bareMean = bareWalls.reduce((a, b) => a + b, 0) / Math.max(1, bareWalls.length);
    process.stdout.write(
      `${label}: per run (wall, mean of ${counted}): setup ${per(phases.setupMs)}, mock ${per(phases.mockMs)}, execute ${per(phases.executeMs)} (of which the runner blocked in spawn calls ${per(phases.spawnMs)}), checks ${per(phases.checksMs)}, cleanup ${per(phases.cleanupMs)}; a bare run (spawn + shim) ${bareMean.toFixed(0)} ms\n`,
    );
  }
  if (direct.measured)
    process.stdout.write(
      `${label}: measured in the suite: shims ${seconds(direct.shimCpuMs)} (their cgroup leaves, ${direct.spawned} runs), the runner's own process ${seconds(direct.ownCpuMs)}, the helpers it starts ${seconds(direct.helpersCpuMs)}\n`,
    );
  return { wall, suiteCpu, ownCpu, shimCpu, floor, runs: report.runs.length, attempted: specs.length, direct };
}

/**
 * The harness-CPU goal, judged on the median of the samples' direct ratios (harness-cpu.mjs), with the
 * difference of passes (the suite's CPU minus the bare shims') printed beside it as a cross-check.
 */
function judgeHarnessCpu(samples, of) {
  const ratios = (list) => list.map((ratio) => `${ratio.toFixed(2)}x`).join(', ');
  const crossRatios = samples.map((sample) => (sample.suiteCpu - sample.shimCpu) / sample.shimCpu);
  const cross = `cross-check, the suite's CPU minus the bare passes': ${median(crossRatios).toFixed(2)}x (samples ${ratios(crossRatios)})`;
  if (!samples.every((sample) => sample.direct.measured)) {
    process.stdout.write(
      `goal harness CPU per run <= 25 % of the shim's: not measured (no cgroup v2 leaf CPU for every run); ${cross}\n`,
    );
    return;
  }
  const directRatios = samples.map((sample) => sample.direct.harnessCpuMs / sample.direct.shimCpuMs);
  const ratio = median(directRatios);
  const middle = samples[directRatios.indexOf(ratio)];
  const per = (ms) => `${(ms / middle.direct.spawned).toFixed(0)} ms`;
  process.stdout.write(
    `goal harness CPU per run <= 25 % of the shim's: ratio ${ratio.toFixed(2)}x${of} (${per(middle.direct.harnessCpuMs)} vs ${per(middle.direct.shimCpuMs)} per run; samples ${ratios(directRatios)}): ${met(ratio <= 0.25)}\n`,
  );
  process.stdout.write(
    `  harness CPU per run: the runner's own process ${per(middle.direct.ownCpuMs)}, the helpers it starts ${per(middle.direct.helpersCpuMs)}; ${cross}\n`,
  );
}

async function main() {
  buildDist();
  const harness = await loadHarness();
  const ticks = clockTicks();
  const cores = availableParallelism();
  const linux = existsSync('/proc/self/stat');
  process.stdout.write(
    `machine: ${cores} cores, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} (a shared, busy machine inflates wall times)\n`,
  );
  const base = {
    ...(jobsArg ? { jobs: Number(jobsArg) } : {}),
    ...(scenarioFilter.length ? { scenarios: scenarioFilter } : {}),
    ...(providerFilter.length ? { providers: providerFilter } : {}),
  };

  const samples = [];
  for (let index = 1; index <= sampleCount; index += 1) {
    const label = sampleCount > 1 ? `default suite, sample ${index}/${sampleCount}` : 'default suite';
    samples.push(await measure(harness, label, { ...base, bareAround: true }, ticks, cores));
  }
  const of = sampleCount > 1 ? ` (median of ${sampleCount} samples)` : '';
  const wallRatios = samples.map((sample) => sample.wall / sample.floor);
  const wallRatio = median(wallRatios);
  const typical = samples[wallRatios.indexOf(wallRatio)];
  process.stdout.write(
    `goal default suite wall <= 1.3x floor: ratio ${wallRatio.toFixed(2)}x${of} (${seconds(typical.wall)} vs ${seconds(typical.floor)}; samples ${wallRatios.map((ratio) => `${ratio.toFixed(2)}x`).join(', ')}): ${met(wallRatio <= 1.3)}\n`,
  );
  if (linux) judgeHarnessCpu(samples, of);
  else process.stdout.write('goal harness CPU per run: not measured (needs /proc)\n');

  if (withFull) {
    // Round after round (every shard once per round), so a stretch of a busy machine falls on every shard alike.
    const shardRatios = Array.from({ length: shardCount }, () => []);
    for (let round = 1; round <= shardSampleCount; round += 1) {
      for (let index = 1; index <= shardCount; index += 1) {
        const sampleLabel = shardSampleCount > 1 ? `, sample ${round}/${shardSampleCount}` : '';
        const shard = await measure(
          harness,
          `full matrix shard ${index}/${shardCount}${sampleLabel}`,
          { ...base, full: true, shard: { index, count: shardCount }, bareAround: true },
          ticks,
          cores,
        );
        shardRatios[index - 1].push({ ratio: shard.wall / shard.floor, wall: shard.wall, floor: shard.floor });
      }
    }
    const shardOf = shardSampleCount > 1 ? ` (median of ${shardSampleCount} samples)` : '';
    for (const [position, ratios] of shardRatios.entries()) {
      const middle = median(ratios.map((sample) => sample.ratio));
      const typicalShard = ratios.find((sample) => sample.ratio === middle);
      process.stdout.write(
        `goal full matrix shard ${position + 1}/${shardCount} wall <= 1.3x its floor: ratio ${middle.toFixed(2)}x${shardOf} (${seconds(typicalShard.wall)} vs ${seconds(typicalShard.floor)}; samples ${ratios.map((sample) => `${sample.ratio.toFixed(2)}x`).join(', ')}): ${met(middle <= 1.3)}\n`,
      );
    }
  } else process.stdout.write('goal full matrix shards: not measured (--no-full)\n');
  process.stdout.write(
    `machine: load average at the end ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} (other work on the machine takes cores the floor assumes are the suite's)\n`,
  );
  rmSync(path.join(root, '.tmp', 'bench-runner'), { recursive: true, force: true });
}

await main();
