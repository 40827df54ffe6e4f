// Running the runner (dist/cli.js) under Windows Node on Wine, for windows-wine.wine.test.ts. Windows Node
// cannot write to a Linux pipe (EBADF), so its stdout and stderr go to files; the Unix environment is not
// handed on (Wine builds the Windows one: its own PATH, with WINEPATH in front).
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quoteForBatchFile } from '../../common/windows-command-line.js';
import { parseWindowsProcessLines, WINDOWS_PROCESS_QUERY } from '../../common/windows-processes.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** What scripts/platforms-wine-setup.mjs set up. */
export interface WinePlatform {
  wine: string;
  prefix: string;
  nodes: Record<string, string>;
  standIns: { all: string; gitOnly: string };
}

/** A Linux path as Windows programs under Wine see it (drive Z: is the Unix root). */
export function windowsPath(unixPath: string): string {
  return `Z:${path.resolve(unixPath).replace(/\//g, '\\')}`;
}

export function wineEnvironment(platform: WinePlatform, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LANG: 'C.UTF-8',
    WINEPREFIX: platform.prefix,
    WINEDEBUG: '-all',
    WINEARCH: 'win64',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    ...extra,
  };
}

/** Runs a Windows program under Wine; its output goes to files, read back when it ends. */
export function runUnderWine(
  platform: WinePlatform,
  argv: string[],
  options: { outDir: string; env?: Record<string, string>; timeoutMs: number },
): Promise<{ exitCode: number | null; stdout: string; stderr: string; ms: number }> {
  mkdirSync(options.outDir, { recursive: true });
  const stdoutFile = path.join(options.outDir, 'stdout.txt');
  const stderrFile = path.join(options.outDir, 'stderr.txt');
  const started = Date.now();
  // cmd.exe redirects inside the Windows side; sh only starts Wine with its streams on files.
  const script = `exec "$0" "$@" >${JSON.stringify(stdoutFile)} 2>${JSON.stringify(stderrFile)} </dev/null`;
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', script, platform.wine, ...argv],
      { env: wineEnvironment(platform, options.env), cwd: repoRoot, timeout: options.timeoutMs, killSignal: 'SIGKILL' },
      (error) => {
        const code = error ? ((error as { code?: unknown }).code ?? null) : 0;
        resolve({
          exitCode: typeof code === 'number' ? code : null,
          stdout: readFileSync(stdoutFile, 'utf8'),
          stderr: readFileSync(stderrFile, 'utf8'),
          ms: Date.now() - started,
        });
      },
    );
  });
}

/**
 * Starts the lane's Wine session before any pass, as Windows is up before any program: a persistent wineserver,
 * Wine's own services (services.exe, winedevice.exe, plugplay.exe, svchost.exe, rpcss.exe, which Wine starts with
 * the first program of a session, naming it as their parent), and one process query through the stand-in into
 * `startsDir`, so those services' first-seen times (the stand-in's CreationDate, see powershell.cjs) are older
 * than any run's process. Without it, the services were first seen in the same query as a run's first
 * processes, and one whose parent pid a run's process had reused was taken for that run's leftover (and ended).
 * Returns the names the query saw, and how to end the session (`wineserver -k`).
 */
export async function startWineSession(
  platform: WinePlatform,
  options: { outDir: string; startsDir: string },
): Promise<{ seen: string[]; stop: () => void }> {
  const server = '/usr/bin/wineserver';
  const env = wineEnvironment(platform);
  execFileSync(server, ['-p'], { env, stdio: 'ignore', timeout: 30_000 });
  const stop = () => execFileSync(server, ['-k'], { env, stdio: 'ignore', timeout: 30_000 });
  const up = await runUnderWine(platform, ['cmd.exe', '/d', '/c', 'exit'], {
    outDir: path.join(options.outDir, 'session'),
    timeoutMs: 60_000,
  });
  const query = await runUnderWine(
    platform,
    ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', WINDOWS_PROCESS_QUERY],
    {
      outDir: path.join(options.outDir, 'session-query'),
      timeoutMs: 60_000,
      env: { WINEPATH: windowsPath(platform.standIns.all), YUME_WINE_PROCESS_STARTS: windowsPath(options.startsDir) },
    },
  );
  if (up.exitCode !== 0 || query.exitCode !== 0) {
    stop();
    throw new Error(`the Wine session did not start: cmd.exe exit ${up.exitCode}, process query exit ${query.exitCode}
${up.stderr}${query.stderr}`);
  }
  const seen = parseWindowsProcessLines(query.stdout).map((info) => info.name);
  return { seen, stop };
}

export interface RunnerPass {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The JSON report (schemas/report.schema.json), when one was written; each run with its timeline. */
  report?: { runs: LaneRun[] };
}

export interface LaneRun {
  scenario: string;
  provider: string;
  status: string;
  seed?: number;
  findings: { rule: string; severity: string; message: string }[];
  /** What could not be verified, one record per check (schemas/report.schema.json). */
  notVerified?: { rule?: string; cause: string; reason: string }[];
  error?: string;
  /** Its folder under --artifacts, and the timeline.txt read from there. */
  artifacts?: string;
  timeline?: string;
}

/** One pass of the runner under Windows Node `major`, with `standIns` first on PATH. */
export async function runnerPass(
  platform: WinePlatform,
  options: {
    major: '20' | '22';
    standIns: string;
    args: string[];
    outDir: string;
    timeoutMs: number;
    /** The session's first-seen times (startWineSession), copied in before the pass starts. */
    sessionStarts?: string;
  },
): Promise<RunnerPass> {
  const report = path.join(options.outDir, 'report.json');
  const starts = path.join(options.outDir, 'process-starts');
  if (options.sessionStarts) cpSync(options.sessionStarts, starts, { recursive: true });
  const artifacts = path.join(options.outDir, 'artifacts');
  const start = () =>
    runUnderWine(
      platform,
      [
        platform.nodes[options.major]!,
        windowsPath(path.join(repoRoot, 'dist', 'cli.js')),
        'run',
        ...options.args,
        '--out',
        windowsPath(report),
        '--artifacts',
        windowsPath(artifacts),
      ],
      {
        outDir: options.outDir,
        timeoutMs: options.timeoutMs,
        env: {
          WINEPATH: windowsPath(options.standIns),
          // The powershell stand-in keeps each process's first-seen time here (Wine's WMI has no CreationDate).
          YUME_WINE_PROCESS_STARTS: windowsPath(starts),
        },
      },
    );
  let result = await start();
  // Wine now and then fails a start outright (exit 1 within a second, nothing printed) while several start at
  // once: that start, and only that one, is tried again.
  if (result.ms < 5000 && result.exitCode === 1 && !result.stdout && !result.stderr) result = await start();
  let parsed: RunnerPass['report'];
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8')) as RunnerPass['report'];
  } catch {
    return result;
  }
  for (const run of parsed?.runs ?? []) {
    if (run.artifacts) run.timeline = readFileSync(path.join(artifacts, run.artifacts, 'timeline.txt'), 'utf8');
  }
  return { ...result, ...(parsed ? { report: parsed } : {}) };
}

/** The text that the reference shim's launcher checks before it runs the shim: quotes and percent signs. */
export const ARGUMENT_INSIDE_CMD = 'say "hi" at 100% of %PATH% & more';

/**
 * The reference shim behind a `.cmd` in a folder whose name holds spaces, `&`, `^` and non-ASCII. The .cmd
 * starts Windows Node on a small launcher with ARGUMENT_INSIDE_CMD written in it (quoted by
 * quoteForBatchFile, as the harness writes its own wrappers); the launcher checks it arrived unchanged (else it
 * exits 3 naming what it got), drops it, and runs the bundled reference shim.
 */
export function writeCmdShim(dir: string, node: string): string {
  const folder = path.join(dir, 'yume shim & co ^ émigré');
  mkdirSync(folder, { recursive: true });
  const launcher = path.join(folder, 'check-then-run.cjs');
  writeFileSync(
    launcher,
    [
      "// Checks the argument the .cmd wrote, then runs the bundled reference shim with the runner's argv.",
      `const expected = ${JSON.stringify(ARGUMENT_INSIDE_CMD)};`,
      'if (process.argv[2] !== expected) {',
      "  process.stderr.write('the .cmd passed ' + JSON.stringify(process.argv[2]) + ', not ' + JSON.stringify(expected) + '\\n');",
      '  process.exit(3);',
      '}',
      'process.argv.splice(2, 1);',
      `require(${JSON.stringify(windowsPath(path.join(repoRoot, 'dist', 'yume-shim.cjs')))});`,
      '',
    ].join('\n'),
  );
  // cmd.exe reads a batch file in the console's code page, not UTF-8: the launcher beside it is named through
  // %~dp0 (the .cmd's own folder, which cmd.exe knows in Unicode), as a wrapper installed anywhere would.
  const cmd = path.join(folder, 'reference shim.cmd');
  const line = [`"${windowsPath(node)}"`, '"%~dp0check-then-run.cjs"', quoteForBatchFile(ARGUMENT_INSIDE_CMD), '%*'];
  writeFileSync(
    cmd,
    ['@echo off', 'setlocal DisableDelayedExpansion', line.join(' '), 'exit /b %ERRORLEVEL%', ''].join('\r\n'),
  );
  return cmd;
}

/** A fixture shim (test/fixtures/shims/<name>) behind a plain .cmd that starts it under Windows Node `node`. */
export function writeFixtureCmdShim(dir: string, node: string, fixture: string): string {
  mkdirSync(dir, { recursive: true });
  const cmd = path.join(dir, `${fixture.replace(/\.[^.]+$/, '')}.cmd`);
  const script = windowsPath(path.join(repoRoot, 'test', 'fixtures', 'shims', fixture));
  writeFileSync(cmd, ['@echo off', `"${windowsPath(node)}" "${script}" %*`, 'exit /b %ERRORLEVEL%', ''].join('\r\n'));
  return cmd;
}
