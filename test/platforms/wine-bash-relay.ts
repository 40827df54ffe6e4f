// The Linux side of the Wine lane's bash (R11, R20): Windows Node cannot start a Linux program (Wine runs one
// with no process handle, and libuv aborts the spawn), and Wine has no bash for Windows. So the lane's bash.exe
// is a stand-in (wine-stand-ins/bash.cjs) that hands its argv, working directory and environment to this relay
// over a loopback socket; the relay runs Debian's /bin/bash with them, in a process group of its own, and sends
// back its stdout, its stderr and its exit. The command's group lives exactly as long as its stand-in: when the
// stand-in's connection closes (it exited, or a tree kill ended it), whatever is left of the group is killed,
// as a tree kill on Windows ends bash.exe and everything below it.
//
// Frames to the stand-in: one byte of kind, four of length (big-endian), the payload.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const BASH = '/bin/bash';
/** The variable that tells the stand-in where the relay listens (host:port). */
export const RELAY_VARIABLE = 'YUME_WINE_BASH_RELAY';
const FRAME = { stdout: 1, stderr: 2, exit: 3 } as const;
const LINUX_PATH = '/usr/local/bin:/usr/bin:/bin';

/** One command a stand-in had run. */
export interface RelayedCommand {
  /** bash's arguments after -c, or all of them. */
  command: string;
  /** How it ended: `exit N`, `signal S`, or `with its stand-in` (the connection closed while bash ran). */
  end?: string;
  /** Its process group (bash's pid). */
  group?: number;
}

export interface BashRelay {
  /** host:port, for RELAY_VARIABLE. */
  address: string;
  /** `bash --version`'s first line. */
  version: string;
  /** The commands it ran, in order. */
  commands(): readonly RelayedCommand[];
  /** Processes of a finished command's group still running (none, if every group ended with its stand-in). */
  leftovers(): string[];
  stop(): Promise<void>;
}

interface Request {
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * A Windows path as a Linux one, through the prefix's drive links (dosdevices/c: → drive_c, z: → /); a component
 * not found as written is matched without regard to case, as Windows would. A Linux path (the stand-in run by
 * Linux Node, in this file's tests) is kept; undefined for anything else (no drive: a UNC or relative path).
 */
export function unixPathOf(windowsPath: string, prefix: string): string | undefined {
  if (windowsPath.startsWith('/')) return windowsPath;
  const match = /^([A-Za-z]):[\\/]?(.*)$/.exec(windowsPath);
  if (!match) return undefined;
  let resolved = path.join(prefix, 'dosdevices', `${match[1]!.toLowerCase()}:`);
  for (const part of match[2]!.split(/[\\/]+/).filter(Boolean)) {
    const exact = path.join(resolved, part);
    if (existsSync(exact) || !existsSync(resolved)) {
      resolved = exact;
      continue;
    }
    const found = readdirSync(resolved).find((entry) => entry.toLowerCase() === part.toLowerCase());
    resolved = path.join(resolved, found ?? part);
  }
  return resolved;
}

/**
 * The command's Linux environment: the stand-in's, without Windows' search paths, with its folders (HOME, the
 * temporary folder) as Linux paths and Debian's PATH.
 */
export function linuxEnvironment(env: Record<string, string>, prefix: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const upper = name.toUpperCase();
    if (name.startsWith('=') || upper === 'PATH' || upper === 'PATHEXT') continue;
    const folder = ['HOME', 'TMP', 'TEMP', 'TMPDIR', 'USERPROFILE'].includes(upper);
    result[folder ? upper : name] = (folder ? unixPathOf(value, prefix) : undefined) ?? value;
  }
  if (result.TEMP && !result.TMPDIR) result.TMPDIR = result.TEMP;
  return { ...result, PATH: LINUX_PATH };
}

function frame(kind: number, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(5);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** The processes of group `pgid` that still run (Linux /proc), each as "pid name". */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const [state, , group] = stat.slice(close + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') members.push(`${entry} ${stat.slice(stat.indexOf('(') + 1, close)}`);
    } catch {
      // exited meanwhile
    }
  }
  return members;
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs one stand-in's command; its group is killed when the connection closes. */
function serve(socket: net.Socket, request: Request, prefix: string, commands: RelayedCommand[]): void {
  const record: RelayedCommand = { command: request.args[0] === '-c' ? request.args[1]! : request.args.join(' ') };
  commands.push(record);
  const cwd = unixPathOf(request.cwd, prefix);
  if (cwd === undefined) {
    socket.write(frame(FRAME.stderr, `bash relay: no Linux path for the working folder ${request.cwd}\n`));
    socket.end(frame(FRAME.exit, JSON.stringify({ code: 127, signal: null })));
    return;
  }
  const child = spawn(BASH, request.args, {
    cwd,
    env: linuxEnvironment(request.env, prefix),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  record.group = child.pid;
  socket.on('close', () => {
    record.end ??= 'with its stand-in';
    if (child.pid !== undefined) killGroup(child.pid);
  });
  for (const [stream, kind] of [
    [child.stdout, FRAME.stdout],
    [child.stderr, FRAME.stderr],
  ] as const) {
    stream.on('data', (chunk: Buffer) => {
      if (socket.write(frame(kind, chunk))) return;
      // The stand-in reads slower than bash writes: hold bash until it caught up.
      child.stdout.pause();
      child.stderr.pause();
      socket.once('drain', () => {
        child.stdout.resume();
        child.stderr.resume();
      });
    });
  }
  child.on('error', (error) => {
    record.end ??= `not started: ${error.message}`;
    socket.write(frame(FRAME.stderr, `bash relay: cannot run ${BASH} in ${cwd}: ${error.message}\n`));
    socket.end(frame(FRAME.exit, JSON.stringify({ code: 127, signal: null })));
  });
  child.on('close', (code, signal) => {
    record.end ??= signal ? `signal ${signal}` : `exit ${code}`;
    socket.end(frame(FRAME.exit, JSON.stringify({ code, signal })));
  });
}

/** The commands, each once, with how many times it ran and how those runs ended ("sleep 30 ×2: with its stand-in ×2"). */
export function describeCommands(commands: readonly RelayedCommand[]): string {
  const byCommand = new Map<string, string[]>();
  for (const record of commands)
    byCommand.set(record.command, [...(byCommand.get(record.command) ?? []), record.end ?? 'running']);
  return [...byCommand]
    .map(([command, ends]) => {
      const counts = new Map<string, number>();
      for (const end of ends) counts.set(end, (counts.get(end) ?? 0) + 1);
      return `${command} ×${ends.length}: ${[...counts].map(([end, count]) => `${end} ×${count}`).join(', ')}`;
    })
    .join('; ');
}

/** Listens on a loopback port for the lane's bash.exe stand-ins. */
export async function startBashRelay(options: { prefix: string }): Promise<BashRelay> {
  const commands: RelayedCommand[] = [];
  const groups = () => commands.flatMap((record) => (record.group === undefined ? [] : [record.group]));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // the stand-in was ended: 'close' follows
    let header = '';
    const onData = (chunk: Buffer) => {
      header += chunk.toString('utf8');
      const newline = header.indexOf('\n');
      if (newline < 0) return;
      socket.off('data', onData);
      let request: Request;
      try {
        request = JSON.parse(header.slice(0, newline)) as Request;
      } catch {
        socket.destroy();
        return;
      }
      serve(socket, request, options.prefix, commands);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const version = execFileSync(BASH, ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
  return {
    address: `127.0.0.1:${port}`,
    version,
    commands: () => commands,
    leftovers: () => groups().flatMap(groupMembers),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      for (const group of groups()) killGroup(group);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
