// Runner overhead (issue 4 "Must show"): wall time of the default suite against the reference shim, next
// to the sum of bare shim runs on the same matrix — spawn the shim with the same arguments and environment,
// read its stdout to the end, drive it the same way (prompt frames, interrupt at the first text), no checks.
// Setup that a bare run also needs (its mock, directories, fake CLIs) is outside the bare timings, so the
// ratio charges the harness for all of its own work. Goal: the harness adds < 25 %.
//
//   node bench/runner.bench.mjs [--jobs 1] [--rounds 2] [--scenario ID]...
//
// The suite and the bare runs alternate for `rounds` rounds and the fastest of each counts, so load from
// other work on the machine skews both sides alike instead of one of them.
//
// The harness modules are bundled from their TypeScript sources with esbuild into .tmp/ (packages stay
// external and resolve from node_modules); the reference shim is dist/yume-shim.js (built first).
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const argValues = (name) =>
  process.argv.flatMap((value, index) => (process.argv[index - 1] === `--${name}` ? [value] : []));
const jobs = Number(argValues('jobs')[0] ?? 1);
const rounds = Number(argValues('rounds')[0] ?? 2);
const scenarioFilter = argValues('scenario');

async function loadHarness() {
  const dir = path.join(root, '.tmp', 'bench-runner');
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, 'harness.mjs');
  await build({
    stdin: {
      contents: `
        export { runConformance, resolveSuite } from './harness/runner/run-conformance.ts';
        export { preflight } from './harness/runner/run-scenario.ts';
        export { buildInvocation } from './harness/runner/invocation.ts';
        export { buildEnvironment } from './harness/runner/environment.ts';
        export { createRunDirectories, removeRunDirectories } from './harness/runner/workspace.ts';
        export { providerEntry, providerFlags, cliFor } from './harness/runner/providers.ts';
        export { startMockServer } from './harness/mock/mock-server.ts';
        export { writeAuthHelpers } from './harness/mock/auth-helpers.ts';
        export { installFakeClis, setFakeCliTurn } from './harness/official-cli/install.ts';
      `,
      resolveDir: root,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

/** Spawns the shim and reads stdout to the end; `drive` reacts to each complete line. Returns elapsed ms. */
function bareProcess(shim, args, { cwd, env, stdin, drive, onStart }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [shim, ...args], {
      cwd,
      env,
      stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
    onStart?.(child);
    let pending = '';
    child.stdout.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        drive?.(line, child);
      }
    });
    child.stderr.resume();
    child.on('close', () => {
      const elapsed = performance.now() - started;
      try {
        process.kill(-child.pid, 'SIGKILL'); // anything the shim left: not part of the bare timing
      } catch {
        // gone
      }
      resolve(elapsed);
    });
  });
}

/** Interrupt when the scripted moment comes, as the runner does (first text, a running tool, or 3 s). */
function interrupter(turn, send) {
  let sent = false;
  const fire = () => {
    if (!sent) {
      sent = true;
      send();
    }
  };
  const fallback = setTimeout(fire, 3000);
  return {
    onLine(line) {
      if (turn.interrupt === 'after-first-text' && /"type":"(text|assistant)"/.test(line)) fire();
      if (turn.interrupt === 'during-tool' && /"tool_use"/.test(line)) setTimeout(fire, 500);
    },
    stop: () => clearTimeout(fallback),
  };
}

async function bareRun(harness, spec, shim) {
  const entry = harness.providerEntry(spec.provider);
  const dirs = await harness.createRunDirectories(`bench-${spec.scenario.id}`, spec.scenario.workspaceDir);
  const mock = await harness.startMockServer({
    scenario: spec.scenario,
    provider: entry.mock,
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
  });
  let elapsed = 0;
  try {
    await harness.writeAuthHelpers(dirs.bin);
    const cli = harness.cliFor(entry, spec.invocation.kind);
    const stateFile = path.join(dirs.state, 'state.json');
    let extra = {};
    if (cli)
      extra = (
        await harness.installFakeClis(dirs.bin, {
          scenario: spec.scenario,
          turnIndex: 0,
          stateFile,
          logFile: path.join(dirs.state, 'log.jsonl'),
          clis: [cli],
        })
      ).env;
    if (spec.dialect === 'claude') extra.YUME_SHIM_DIALECT = 'claude';
    const env = harness.buildEnvironment({
      platform: process.platform,
      parent: process.env,
      home: dirs.home,
      baseUrls: mock.baseUrls,
      pathFirst: [dirs.bin],
      scenario: spec.scenario.env,
      harness: extra,
    });
    const values = {
      providerId: spec.provider,
      cwd: dirs.workspace,
      sessionId: `bench-${spec.scenario.id}`,
      apiBase: mock.baseUrls[entry.baseUrl],
      ...(spec.scenario.permissionMode ? { permissionMode: spec.scenario.permissionMode } : {}),
      protocolVersion: '1.0',
    };
    if (spec.scenario.mode === 'persistent') {
      const built = harness.buildInvocation(spec.invocation, { ...values, persistent: true });
      let turnIndex = -1;
      let results = 0;
      let interrupt;
      let approvals = [];
      const next = (child) => {
        turnIndex += 1;
        const turn = spec.scenario.turns[turnIndex];
        if (!turn) return child.stdin.end();
        mock.setTurn(turnIndex);
        if (cli) harness.setFakeCliTurn(stateFile, turnIndex);
        approvals = [...(turn.approvals ?? [])];
        interrupt = turn.interrupt ? interrupter(turn, () => child.stdin.write('{"type":"interrupt"}\n')) : undefined;
        for (const raw of turn.stdin ?? []) child.stdin.write(raw.endsWith('\n') ? raw : `${raw}\n`);
        child.stdin.write(`${JSON.stringify({ type: 'user', content: turn.prompt })}\n`);
      };
      elapsed += await bareProcess(shim, built.args, {
        cwd: dirs.workspace,
        env,
        stdin: true,
        onStart: (child) => next(child),
        drive: (line, child) => {
          interrupt?.onLine(line);
          const toolUse = /"type":"tool_use","id":"([^"]+)"/.exec(line);
          if (toolUse && approvals.length > 0)
            child.stdin.write(
              `${JSON.stringify({ type: 'tool_approval', id: toolUse[1], approved: approvals.shift() })}\n`,
            );
          if (/"type":"result"/.test(line)) {
            results += 1;
            interrupt?.stop();
            if (results === turnIndex + 1) next(child);
          }
        },
      });
    } else {
      let resumeId;
      for (const [index, turn] of spec.scenario.turns.entries()) {
        mock.setTurn(index);
        if (cli) harness.setFakeCliTurn(stateFile, index);
        const built = harness.buildInvocation(spec.invocation, {
          ...values,
          prompt: turn.prompt,
          resumeId: turn.resume ? (resumeId ?? values.sessionId) : undefined,
          persistent: false,
        });
        let interrupt;
        elapsed += await bareProcess(shim, built.args, {
          cwd: dirs.workspace,
          env,
          stdin: false,
          onStart: (child) => {
            if (turn.interrupt) interrupt = interrupter(turn, () => process.kill(-child.pid, 'SIGINT'));
          },
          drive: (line) => {
            interrupt?.onLine(line);
            const init = /"subtype":"init","session_id":"([^"]+)"/.exec(line);
            if (init) resumeId ??= init[1];
          },
        });
        interrupt?.stop();
      }
    }
  } finally {
    await mock.close();
    await harness.removeRunDirectories(dirs);
  }
  return elapsed;
}

async function main() {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  const harness = await loadHarness();
  const options = { jobs, ...(scenarioFilter.length ? { scenarios: scenarioFilter } : {}) };

  const suite = harness.resolveSuite(options);
  const settings = {
    shim: suite.shim,
    shimArgs: [],
    userEnv: {},
    timeoutMs: 30_000,
    platform: process.platform,
    capabilities: suite.capabilities,
    protocolVersion: '1.0',
  };
  const specs = suite.specs.filter((spec) => !harness.preflight(spec, settings).notVerified);
  let suiteMs = Infinity;
  let bareMs = Infinity;
  for (let round = 1; round <= rounds; round += 1) {
    const suiteStarted = performance.now();
    const report = await harness.runConformance(options);
    const elapsed = performance.now() - suiteStarted;
    suiteMs = Math.min(suiteMs, elapsed);
    process.stdout.write(
      `round ${round}: suite ${report.runs.length} runs (${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.notVerified} not verified) in ${(elapsed / 1000).toFixed(1)} s with --jobs ${jobs}\n`,
    );
    let bare = 0;
    for (const spec of specs) bare += await bareRun(harness, spec, suite.shim);
    bareMs = Math.min(bareMs, bare);
    process.stdout.write(`round ${round}: bare shim runs: ${specs.length} runs, sum ${(bare / 1000).toFixed(1)} s\n`);
  }
  // The suite ran `jobs` at a time; the bare runs one after another: compare like with like.
  const bareWall = bareMs / jobs;
  const overhead = (suiteMs - bareWall) / bareWall;
  process.stdout.write(
    `fastest suite ${(suiteMs / 1000).toFixed(1)} s; fastest bare sum ${(bareMs / 1000).toFixed(1)} s${jobs > 1 ? ` (÷ ${jobs} jobs = ${(bareWall / 1000).toFixed(1)} s)` : ''}\n`,
  );
  process.stdout.write(
    `ratio suite / bare: ${(suiteMs / bareWall).toFixed(2)}x — the harness adds ${(overhead * 100).toFixed(0)} % (goal < 25 %: ${overhead < 0.25 ? 'met' : 'NOT met'})\n`,
  );
  rmSync(path.join(root, '.tmp', 'bench-runner'), { recursive: true, force: true });
}

await main();
