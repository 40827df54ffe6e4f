// The floor's bare runs: the shim processes of a selection started without the harness around them (no
// checks, no process tracking, no cgroup, no streaming gate, no grace periods), against the same mocks and
// set up the way the runner sets a run up: the scenario's git workspace, the run's own dummy keys, the fake
// official CLIs (or none, and none on PATH, for cli-missing), the suite's shared cache folder, the dialect
// variable, the argument-error flag. Each turn is driven the way the runner drives it: prompt frames,
// approvals, interrupts and kills at their scripted moments, so a bare run does the same work as the run.
// Only the shim's side is measured: the caller counts the CPU of this process's children (the shims, their
// tools and fake CLIs), never this process's own.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

/** A bare process still running at this point is ended and counted as a step the driver cannot play. */
export const BARE_TIMEOUT_MS = 30_000;

/** The run settings preflight() judges a selection's runs with, as the suite's own runner sets them. */
export function preflightSettings(suite, protocolVersion) {
  return {
    shim: suite.shim,
    shimArgs: [],
    userEnv: {},
    timeoutMs: 30_000,
    platform: process.platform,
    capabilities: suite.capabilities,
    protocolVersion,
  };
}
/** The runner's fallback for an interrupt or kill whose scripted moment never comes. */
const FALLBACK_MS = 8000;
/** The runner's wait for streamed text once the mock sent its first chunk (the gate and the interrupt). */
const TEXT_WAIT_MS = 3000;
/** After the mock's first text chunk, how long the runner waits for the shim to print it before a kill. */
const KILL_TEXT_WAIT_MS = 1000;
/** After a tool_use line, time for the tool's process to start (the runner's wait where it cannot see it). */
const TOOL_START_MS = 500;

const isText = (line) => /"type":"(text|assistant)"/.test(line);
const isToolUse = (line) => /"tool_use"/.test(line);

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/**
 * Spawns the shim and reads stdout to the end; `drive` reacts to each complete line. Resolves with the
 * elapsed ms and whether the driver had to end it at BARE_TIMEOUT_MS. Once the shim itself is gone, what it
 * left behind (a tool outliving a killed shim) is ended at once: not part of the shim's time.
 */
function bareProcess(shim, args, { cwd, env, stdin, drive, onStart }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [shim, ...args], {
      cwd,
      env,
      stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin?.on('error', () => undefined);
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
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, BARE_TIMEOUT_MS);
    let exitedAt;
    child.on('exit', () => {
      exitedAt = performance.now();
      killGroup(child.pid);
    });
    child.on('close', () => {
      clearTimeout(deadline);
      killGroup(child.pid);
      resolve({ elapsed: (exitedAt ?? performance.now()) - started, timedOut });
    });
    onStart?.(child);
  });
}

/** Fires `act` once, at the turn's scripted interrupt or kill moment, as the runner's triggers do. */
function scriptedMoment(moment, { mock, turnIndex, cliEvent }, act) {
  let done = false;
  let textSeen = false;
  let firstChunk = false;
  const timers = [];
  const later = (ms, fn) => timers.push(setTimeout(fn, ms));
  const stop = () => {
    done = true;
    for (const timer of timers) clearTimeout(timer);
    mock.events.off('first-text-sent', onFirstChunk);
  };
  const fire = () => {
    if (done) return;
    stop();
    act();
  };
  // The mock sent the stalled stream's first text chunk: an interrupt waits for the shim to print it (or
  // gives up after TEXT_WAIT_MS); a kill waits for the print at most KILL_TEXT_WAIT_MS.
  function onFirstChunk(sent) {
    if (sent.turn !== turnIndex || firstChunk) return;
    firstChunk = true;
    if (moment.kind === 'kill' && textSeen) fire();
    else later(moment.kind === 'kill' ? KILL_TEXT_WAIT_MS : TEXT_WAIT_MS, fire);
  }
  later(FALLBACK_MS, fire);
  if (moment.when === 'after-first-text') {
    mock.events.on('first-text-sent', onFirstChunk);
    // An official CLI behind the shim logs its stall instead (the mock is its, not the shim's).
    void cliEvent?.(turnIndex, 'stall', FALLBACK_MS).then((seen) => {
      if (seen) onFirstChunk({ turn: turnIndex });
    });
  }
  // An official CLI runs the tool itself and logs when it starts it (the shim may print the tool_use later).
  if (moment.when === 'during-tool')
    void cliEvent?.(turnIndex, 'tool-start', FALLBACK_MS).then((seen) => {
      if (seen && !done) later(TOOL_START_MS, fire);
    });
  return {
    onLine(line) {
      if (done) return;
      if (moment.when === 'after-first-text' && isText(line)) {
        textSeen = true;
        if (moment.kind === 'interrupt' || firstChunk) fire();
      }
      if (moment.when === 'during-tool' && isToolUse(line)) later(TOOL_START_MS, fire);
    },
    stop,
  };
}

/**
 * Plays one run bare; returns the summed wall time of its processes and how many the driver had to end.
 * `persistent` as the runner's preflight decided; `context`: { harness, shim, shimArgs, capabilities,
 * templates, cacheDir }.
 */
export async function bareRun(spec, persistent, context) {
  const { harness, shim } = context;
  const { scenario } = spec;
  const marker = randomUUID();
  const entry = harness.providerEntry(spec.provider);
  const prepared = await context.templates.prepare(scenario);
  if ('notVerified' in prepared) return { elapsed: 0, timedOut: 0 };
  const dirs = await harness.createRunDirectories(`bench-${scenario.id}`, prepared.source, {
    ...(prepared.gitObjects ? { gitObjects: prepared.gitObjects } : {}),
  });
  const credentials = harness.runCredentials();
  const cliMissing = scenario.cli === 'missing';
  const cli = cliMissing
    ? undefined
    : harness.cliFor(entry, spec.invocation.kind === 'template' ? 'template' : spec.invocation.kind);
  const mock = await harness.startMockServer({
    acceptedCredentials: harness.defaultAcceptedCredentials(credentials),
    scenario,
    provider: entry.mock,
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
  });
  let elapsed = 0;
  let timedOut = 0;
  const played = ({ elapsed: ms, timedOut: ended }) => {
    elapsed += ms;
    if (ended) timedOut += 1;
  };
  try {
    await harness.writeAuthHelpers(dirs.bin, credentials);
    let installed;
    if (cli) {
      installed = await harness.installOfficialCli(
        { mode: 'fake' },
        {
          cli,
          binDir: dirs.bin,
          stateDir: dirs.state,
          scenario,
          endpoints: mock.baseUrls,
          credentials,
          stallTimeoutMs: BARE_TIMEOUT_MS,
          platform: process.platform,
        },
      );
    }
    const extra = { ...(installed?.env ?? {}) };
    if (spec.dialect !== context.capabilities.dialects[0]) extra[harness.DIALECT_VARIABLE] = spec.dialect;
    let parent = process.env;
    if (cliMissing) {
      const hidden = harness.hideProgramsFromPath(process.env, process.platform, dirs.workspace);
      parent = hidden.parent;
      harness.keepNodeReachable(hidden.dropped, {
        nodePath: process.execPath,
        binDir: dirs.bin,
        platform: process.platform,
        cwd: dirs.workspace,
      });
    }
    const env = {
      ...harness.buildEnvironment({
        platform: process.platform,
        parent,
        home: dirs.home,
        temp: dirs.temp,
        cache: context.cacheDir,
        credentials,
        baseUrls: mock.baseUrls,
        pathFirst: [dirs.bin],
        scenario: scenario.env,
        harness: extra,
      }),
      [BARE_MARKER]: marker,
    };
    const values = {
      providerId: spec.provider,
      cwd: dirs.workspace,
      sessionId: `bench-${scenario.id}`,
      apiBase: mock.baseUrls[entry.baseUrl],
      ...(scenario.permissionMode ? { permissionMode: scenario.permissionMode } : {}),
      protocolVersion: harness.PROTOCOL_VERSION,
    };
    const momentContext = (turnIndex) => ({ mock, turnIndex, cliEvent: installed?.waitFor });
    if (persistent) {
      const built = harness.buildInvocation(spec.invocation, { ...values, persistent: true });
      let turnIndex = -1;
      let results = 0;
      let interrupt;
      let approvals = [];
      const next = (child) => {
        turnIndex += 1;
        const turn = scenario.turns[turnIndex];
        if (!turn) return child.stdin.end();
        mock.setTurn(turnIndex);
        installed?.setTurn(turnIndex);
        approvals = [...(turn.approvals ?? [])];
        interrupt = turn.interrupt
          ? scriptedMoment({ kind: 'interrupt', when: turn.interrupt }, momentContext(turnIndex), () =>
              child.stdin.write('{"type":"interrupt"}\n'),
            )
          : undefined;
        for (const raw of turn.stdin ?? []) child.stdin.write(raw.endsWith('\n') ? raw : `${raw}\n`);
        child.stdin.write(`${JSON.stringify({ type: 'user', content: turn.prompt })}\n`);
      };
      played(
        await bareProcess(shim, [...built.args, ...context.shimArgs], {
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
        }),
      );
      interrupt?.stop();
    } else {
      let resumeId;
      for (const [index, turn] of scenario.turns.entries()) {
        mock.setTurn(index);
        installed?.setTurn(index);
        const built = harness.buildInvocation(spec.invocation, {
          ...values,
          prompt: turn.prompt,
          resumeId: turn.resume ? (resumeId ?? values.sessionId) : undefined,
          persistent: false,
        });
        const args = [...built.args, ...(scenario.badArgument ? [scenario.badArgument] : []), ...context.shimArgs];
        let moments = [];
        played(
          await bareProcess(shim, args, {
            cwd: dirs.workspace,
            env: { ...env, ...built.env },
            stdin: built.stdinPrompt !== undefined,
            onStart: (child) => {
              if (built.stdinPrompt !== undefined) child.stdin.end(built.stdinPrompt);
              if (turn.interrupt)
                moments.push(
                  scriptedMoment({ kind: 'interrupt', when: turn.interrupt }, momentContext(index), () =>
                    killGroupWith(child.pid, 'SIGINT'),
                  ),
                );
              // The app's stop: SIGKILL to the shim's pid, not its group.
              if (turn.kill)
                moments.push(
                  scriptedMoment({ kind: 'kill', when: turn.kill }, momentContext(index), () => child.kill('SIGKILL')),
                );
            },
            drive: (line) => {
              for (const moment of moments) moment.onLine(line);
              const init = /"subtype":"init","session_id":"([^"]+)"/.exec(line);
              if (init) resumeId ??= init[1];
            },
          }),
        );
        for (const moment of moments) moment.stop();
        moments = [];
      }
    }
  } finally {
    await endMarked(harness, marker);
    await mock.close();
    await harness.removeRunDirectories(dirs);
  }
  return { elapsed, timedOut };
}

/** Set in every bare run's environment, so what a run leaves behind is found and ended with it. */
const BARE_MARKER = 'YUME_BENCH_BARE_RUN';

/**
 * Ends every process still carrying this run's marker (Linux): an official CLI a killed shim had started runs in a
 * group of its own and would otherwise wait out its stall, after the bench.
 */
async function endMarked(harness, marker) {
  const table = harness.processTableFor(process.platform);
  for (const info of (await table.withEnvironmentEntry?.(`${BARE_MARKER}=${marker}`)) ?? []) {
    try {
      process.kill(info.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

function killGroupWith(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone
  }
}
