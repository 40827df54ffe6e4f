// A snapshot of the machine's processes, the raw material for descendant tracking. Linux reads /proc
// (cheap enough to poll), macOS and other POSIX systems ask `ps`, Windows asks CIM through PowerShell.
import { readdirSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { YumeError } from '../../common/errors.js';
import { parseWindowsProcessLines, WINDOWS_PROCESS_QUERY_COMMAND } from '../../common/windows-processes.js';
import { hasProcFiles, type PlatformName } from './platform.js';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process group id (POSIX); equal to pid on Windows, which has none. */
  pgid: number;
  /** One-letter state; 'Z' is a zombie, which counts as gone. */
  state: string;
  /** Start time in the table's own units: with pid it identifies a process even after pid reuse. */
  start: string;
  /** Command name, for messages. */
  name: string;
}

/** The machine's process list could not be read: what the process rules need is unknown (code PROCESS_TABLE). */
export class ProcessTableUnreadable extends YumeError {
  override name = 'ProcessTableUnreadable';
  constructor(message: string) {
    super('PROCESS_TABLE', message);
  }
}

export interface ProcessTable {
  /** Every process; `newerThanPid`: only pids above it (processes a run started, barring pid wrap-around). */
  snapshot(newerThanPid?: number): Promise<ProcessInfo[]>;
  /**
   * Cheap polling where the platform allows it (Linux): the children of one process and one process's
   * info, so a run's descendants are followed without scanning every process each time.
   */
  childrenOf?(pid: number): number[];
  info?(pid: number): ProcessInfo | undefined;
  /**
   * Processes whose environment holds `entry` (NAME=value), where the platform lets us read it (Linux).
   * Every process a shim starts inherits the run's marker variable unless it clears its environment, so
   * this finds descendants that left both the group and the parent chain before a sample saw them.
   * `among`: only these processes are looked at (a snapshot just taken), instead of every pid above
   * `newerThanPid`.
   */
  withEnvironmentEntry?(entry: string, newerThanPid?: number, among?: ProcessInfo[]): Promise<ProcessInfo[]>;
}

/** Parses the content of /proc/<pid>/stat. The command name sits in parentheses and may contain spaces. */
export function parseProcStat(text: string): ProcessInfo | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 of proc(5): state; then ppid, pgrp, session, ...; starttime is field 22.
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const start = fields[19];
  if (!Number.isInteger(pid) || state === undefined || start === undefined) return undefined;
  return { pid, ppid, pgid, state, start, name: text.slice(open + 1, close) };
}

// Reads are synchronous: /proc files are tiny and in memory, and a few sync reads cost less than a round
// trip through the thread pool for each file (measured: ~0.1 ms per read either way, without the queueing).
export class LinuxProcessTable implements ProcessTable {
  constructor(private readonly procRoot = '/proc') {}

  private pids(newerThanPid = 0): number[] {
    return readdirSync(this.procRoot)
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => pid > newerThanPid);
  }

  info(pid: number): ProcessInfo | undefined {
    try {
      return parseProcStat(readFileSync(`${this.procRoot}/${pid}/stat`, 'latin1'));
    } catch {
      return undefined; // the process ended meanwhile
    }
  }

  childrenOf(pid: number): number[] {
    const children: number[] = [];
    let tasks: string[];
    try {
      tasks = readdirSync(`${this.procRoot}/${pid}/task`);
    } catch {
      return children;
    }
    // A child belongs to the thread that forked it: read every thread's list.
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`${this.procRoot}/${pid}/task/${task}/children`, 'latin1')
          .trim()
          .split(/\s+/)) {
          if (child) children.push(Number(child));
        }
      } catch {
        // thread gone
      }
    }
    return children;
  }

  async snapshot(newerThanPid?: number): Promise<ProcessInfo[]> {
    return this.pids(newerThanPid).flatMap((pid) => this.info(pid) ?? []);
  }

  async withEnvironmentEntry(entry: string, newerThanPid?: number, among?: ProcessInfo[]): Promise<ProcessInfo[]> {
    const needle = Buffer.from(`\0${entry}\0`);
    const found: ProcessInfo[] = [];
    for (const info of among ?? (await this.snapshot(newerThanPid))) {
      if (this.environment(info)?.includes(needle)) found.push(info);
    }
    return found;
  }

  /** A process's environment with a NUL in front (so every entry is NUL-delimited), read once per process. */
  private environment(info: ProcessInfo): Buffer | undefined {
    const key = `${this.procRoot}:${info.pid}@${info.start}`;
    const cached = environments.get(key);
    if (cached) return cached;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`${this.procRoot}/${info.pid}/environ`)]);
      if (environments.size >= ENVIRONMENT_CACHE_SIZE) environments.delete(environments.keys().next().value!);
      environments.set(key, environ);
      return environ;
    } catch {
      return undefined; // ended meanwhile, or not ours to read
    }
  }
}

/**
 * Environments already read, by process (pid and start time), shared by every run's table: each run's final
 * sweep looks at every process newer than its shim, the other runs' included, and reading /proc/<pid>/environ
 * (another process's memory) was most of a sweep's cost. A process that starts another program keeps its pid
 * and start time: the environment read first is kept, which for a process that clears its environment on the way
 * out of the run is the one that still names the run.
 */
const environments = new Map<string, Buffer>();
const ENVIRONMENT_CACHE_SIZE = 4096;

/** Parses `ps -A -o pid=,ppid=,pgid=,stat=,lstart=,comm=` output (lstart is five words). */
export function parsePsOutput(text: string): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words.length < 9) continue;
    const [pid, ppid, pgid, stat] = words.slice(0, 4).map((word, index) => (index === 3 ? word : Number(word))) as [
      number,
      number,
      number,
      string,
    ];
    if (!Number.isInteger(pid)) continue;
    processes.push({
      pid,
      ppid,
      pgid,
      state: stat.charAt(0),
      start: words.slice(4, 9).join(' '),
      name: words.slice(9).join(' '),
    });
  }
  return processes;
}

/**
 * One table query at a time, shared by the runs: `ps` and PowerShell each cost a program start and a walk over
 * every process, and each run samples often. A call made while a query runs waits for the next, which starts after
 * it and serves every call made meanwhile, so each caller still gets a table read after its call.
 */
class SharedQuery {
  private running: Promise<ProcessInfo[]> | undefined;
  private next: Promise<ProcessInfo[]> | undefined;

  constructor(private readonly read: () => Promise<ProcessInfo[]>) {}

  get(): Promise<ProcessInfo[]> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<ProcessInfo[]> {
    const running = this.read().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}

export class PsProcessTable implements ProcessTable {
  private static readonly query = new SharedQuery(() => PsProcessTable.read());

  /** Every process: `ps` cannot list only newer pids, and pids wrap around (callers filter what they need). */
  snapshot(): Promise<ProcessInfo[]> {
    return PsProcessTable.query.get();
  }

  private static read(): Promise<ProcessInfo[]> {
    // lstart in the C locale's words, which untied-orphans.ts reads as a date.
    const args = ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart=,comm='];
    return readTable({ file: 'ps', args, label: 'ps -A', timeoutMs: 10_000, env: { LC_ALL: 'C' } }, parsePsOutput);
  }
}

/**
 * How often a table query is tried before the table counts as unreadable, and the pause between tries. A query
 * that fails once (Wine now and then fails a program start outright while several start at once; on Windows a
 * start can fail for want of resources) must not leave a run's process rules not verified.
 */
const QUERY_ATTEMPTS = 2;
const QUERY_RETRY_MS = 250;

/** Runs one table query (no shell) and returns its list, checked by checkedProcessList; a failed one once more. */
async function readTable(
  query: { file: string; args: readonly string[]; label: string; timeoutMs: number; env?: Record<string, string> },
  parse: (output: string) => ProcessInfo[],
): Promise<ProcessInfo[]> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await execa(query.file, query.args, {
      reject: false,
      timeout: query.timeoutMs,
      windowsHide: true,
      ...(query.env ? { env: query.env } : {}),
    });
    const output = String(result.stdout);
    try {
      return checkedProcessList(parse(output), {
        command: query.label,
        exitCode: result.exitCode,
        // A start that failed has neither output nor code: its error message says why.
        output: output || String(result.stderr || result.message || ''),
        selfPid: process.pid,
      });
    } catch (error) {
      if (attempt >= QUERY_ATTEMPTS || !(error instanceof ProcessTableUnreadable)) throw error;
      await new Promise((resolve) => setTimeout(resolve, QUERY_RETRY_MS));
    }
  }
}

/** Parses the `pid ppid creationTicks name` lines printed by WINDOWS_PROCESS_QUERY. */
export function parseWindowsProcessList(text: string): ProcessInfo[] {
  return parseWindowsProcessLines(text).map((line) => ({ ...line, pgid: line.pid, state: 'R' }));
}

/**
 * The process list a table query printed, or ProcessTableUnreadable: a query that failed, or whose list does not
 * hold the runner's own process (`selfPid`), did not list the machine's processes (Wine's powershell.exe is a
 * stub that prints nothing and exits 0), and an empty table must never read as "nothing was left".
 */
export function checkedProcessList(
  processes: ProcessInfo[],
  query: { command: string; exitCode: number | undefined; output: string; selfPid: number },
): ProcessInfo[] {
  const said = query.output.trim().split(/\r?\n/).slice(0, 2).join(' ').slice(0, 200);
  if (query.exitCode !== 0)
    throw new ProcessTableUnreadable(
      `${query.command} exited with ${query.exitCode ?? 'no code'}${said ? ` (${said})` : ''}`,
    );
  if (!processes.some((info) => info.pid === query.selfPid))
    throw new ProcessTableUnreadable(
      `${query.command} listed ${processes.length} process(es), not the runner's own (pid ${query.selfPid})${said ? ` (it printed: ${said})` : ' (it printed nothing)'}`,
    );
  return processes;
}

export class WindowsProcessTable implements ProcessTable {
  private static readonly query = new SharedQuery(() => WindowsProcessTable.read());

  snapshot(): Promise<ProcessInfo[]> {
    return WindowsProcessTable.query.get();
  }

  private static read(): Promise<ProcessInfo[]> {
    const { file, args } = WINDOWS_PROCESS_QUERY_COMMAND;
    const label = 'powershell.exe Get-CimInstance Win32_Process';
    return readTable({ file, args, label, timeoutMs: 20_000 }, parseWindowsProcessList);
  }
}

/** The table for a platform. */
export function processTableFor(platform: PlatformName): ProcessTable {
  if (hasProcFiles(platform)) return new LinuxProcessTable();
  if (platform === 'win32') return new WindowsProcessTable();
  return new PsProcessTable();
}

/** How often a run's descendants are sampled: /proc is cheap, `ps` and PowerShell are not. */
export function pollIntervalFor(platform: PlatformName): number {
  if (hasProcFiles(platform)) return 100;
  // Each Windows sample starts PowerShell: sample rarely; the final sweep follows the (never reparented)
  // parent pids instead.
  if (platform === 'win32') return 5000;
  return 300;
}
