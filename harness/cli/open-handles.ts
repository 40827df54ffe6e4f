// What keeps a finished command running, named by owner: the child process (pid and command line), the pipe or
// socket (whose stdout, which addresses), the timer (its delay, its callback and the code that set it). A
// finished `yume-conformance` that something keeps alive says so (main.ts); "open: PipeWrap, PipeWrap,
// Timeout" named no owner, and a timer is only found from the place that made it. So the watch records where
// each timer, child process, server and outgoing socket is made, as it is made: a stack captured unformatted
// (formatted only when a message needs it) and the scope the code ran in. The suite's own tests run each suite
// in a scope of their own (`handleScope`) and ask what that scope left open.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';

/** One thing that keeps the process alive, and what it belongs to. */
export interface OpenHandle {
  kind: 'timer' | 'child' | 'pipe' | 'socket' | 'server' | 'other';
  owner: string;
  /** The handleScope the code that made it ran in. */
  scope?: string;
}

/** A scope code can run in (the suite's own tests run each suite in one) to tell its handles from others'. */
export const handleScope = new AsyncLocalStorage<string>();

interface Made {
  /** Captured where the thing was made; its stack is formatted only when a message needs it. */
  site: Error;
  scope: string | undefined;
}

/** A child's stdio stream: which child, which descriptor. */
interface StdioOf {
  child: ChildProcess;
  fd: number;
}

const made = new WeakMap<object, Made>();
const stdioOwners = new WeakMap<object, StdioOf>();
/** Timers set since the watch began; fired or cleared ones are dropped as the set grows (pruneTimers). */
let timers = new Set<NodeJS.Timeout>();
let pruneAt = 256;
let watching = false;

type Patchable = Record<string, unknown>;

function remember(target: object, caller: (...args: never[]) => unknown): void {
  const site = new Error('made here');
  Error.captureStackTrace(site, caller);
  made.set(target, { site, scope: handleScope.getStore() });
}

/** Node marks a timer that fired (and does not repeat) or was cleared as destroyed. */
function pending(timer: NodeJS.Timeout): boolean {
  return (timer as unknown as { _destroyed?: boolean })._destroyed !== true;
}

function pruneTimers(): void {
  if (timers.size < pruneAt) return;
  timers = new Set([...timers].filter(pending));
  pruneAt = Math.max(256, timers.size * 2);
}

function watchTimers(): void {
  for (const name of ['setTimeout', 'setInterval'] as const) {
    const original = globalThis[name] as unknown as (...args: unknown[]) => NodeJS.Timeout;
    const wrapped = function (this: unknown, ...args: unknown[]): NodeJS.Timeout {
      const timer = original.apply(this, args);
      remember(timer, wrapped);
      pruneTimers();
      timers.add(timer);
      return timer;
    };
    const custom = (original as unknown as Patchable)[promisify.custom as unknown as string];
    if (custom) Object.defineProperty(wrapped, promisify.custom, { value: custom });
    (globalThis as unknown as Patchable)[name] = wrapped;
  }
}

function watchChildren(): void {
  const prototype = ChildProcess.prototype as unknown as { spawn: (...args: unknown[]) => unknown };
  const original = prototype.spawn;
  prototype.spawn = function spawnWatched(this: ChildProcess, ...args: unknown[]) {
    remember(this, spawnWatched);
    const result = original.apply(this, args);
    this.stdio.forEach((stream, fd) => {
      if (stream) stdioOwners.set(stream, { child: this, fd });
    });
    return result;
  };
}

function watchSockets(): void {
  const server = net.Server.prototype as unknown as { listen: (...args: unknown[]) => unknown };
  const listen = server.listen;
  server.listen = function listenWatched(this: net.Server, ...args: unknown[]) {
    remember(this, listenWatched);
    return listen.apply(this, args);
  };
  const socket = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => unknown };
  const connect = socket.connect;
  socket.connect = function connectWatched(this: net.Socket, ...args: unknown[]) {
    if (!made.has(this)) remember(this, connectWatched);
    return connect.apply(this, args);
  };
}

/** Starts recording where timers, child processes, servers and sockets are made. Once per process. */
export function watchOpenHandles(): void {
  if (watching) return;
  watching = true;
  watchTimers();
  watchChildren();
  watchSockets();
}

/** The first frames of a stack outside Node's own code, as `function (file:line:column)`. */
function siteOf(record: Made | undefined): string {
  if (!record) return 'made before the watch began';
  const frames = (record.site.stack ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().replace(/^at /, '').replace('file://', ''))
    .filter((frame) => frame && !frame.includes('node:internal') && !frame.startsWith('new Promise'));
  return frames.length === 0 ? 'made in Node itself' : `made at ${frames.slice(0, 3).join(' ← ')}`;
}

type Reffed = { hasRef?: () => boolean };
/** A handle that still keeps the loop running (a closing socket has no `_handle` left). */
function keepsAlive(thing: object): boolean {
  if ('_handle' in thing) return (thing._handle as Reffed | null)?.hasRef?.() ?? false;
  return (thing as Reffed).hasRef?.() ?? false;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function describeChild(child: ChildProcess): string {
  const command = child.spawnargs.join(' ') || child.spawnfile;
  const state = exited(child) ? `, which exited (${child.exitCode ?? child.signalCode})` : '';
  return `child pid ${child.pid ?? '?'} (${command.slice(0, 120)})${state}`;
}

const STDIO_NAMES = ['stdin', 'stdout', 'stderr'];

function describeSocket(socket: net.Socket): OpenHandle {
  const stdio = stdioOwners.get(socket);
  if (stdio) {
    const child = describeChild(stdio.child);
    const held = exited(stdio.child) ? ': a process it started holds the other end' : '';
    return {
      kind: 'pipe',
      owner: `${STDIO_NAMES[stdio.fd] ?? `fd ${stdio.fd}`} pipe of ${child}${held}, ${siteOf(made.get(stdio.child))}`,
      ...scopeOf(made.get(stdio.child)),
    };
  }
  // A socket a server accepted was made where the server was.
  const server = (socket as { server?: object }).server;
  const origin = made.get(socket) ?? (server ? made.get(server) : undefined);
  const ends = socket.remoteAddress
    ? `${socket.localAddress}:${socket.localPort} ↔ ${socket.remoteAddress}:${socket.remotePort}`
    : 'a pipe or socket with no address';
  return { kind: 'socket', owner: `socket ${ends}, ${siteOf(origin)}`, ...scopeOf(origin) };
}

function scopeOf(record: Made | undefined): { scope?: string } {
  return record?.scope === undefined ? {} : { scope: record.scope };
}

function describeHandle(handle: object): OpenHandle | undefined {
  if (handle === process.stdin || handle === process.stdout || handle === process.stderr) return undefined;
  if (!keepsAlive(handle)) return undefined;
  if (handle instanceof ChildProcess) {
    const record = made.get(handle);
    return { kind: 'child', owner: `${describeChild(handle)}, ${siteOf(record)}`, ...scopeOf(record) };
  }
  if (handle instanceof net.Server) {
    const record = made.get(handle);
    const address = handle.address();
    const where = typeof address === 'string' ? address : address ? `${address.address}:${address.port}` : '?';
    return { kind: 'server', owner: `server listening on ${where}, ${siteOf(record)}`, ...scopeOf(record) };
  }
  if (handle instanceof net.Socket) return describeSocket(handle);
  return { kind: 'other', owner: `a ${handle.constructor?.name ?? 'handle'}` };
}

function describeTimer(timer: NodeJS.Timeout): OpenHandle {
  const record = made.get(timer);
  const fields = timer as unknown as { _idleTimeout?: number; _repeat?: number | null; _onTimeout?: { name?: string } };
  const every = fields._repeat ? `an interval of ${fields._idleTimeout} ms` : `a Timeout of ${fields._idleTimeout} ms`;
  const callback = fields._onTimeout?.name ? ` calling ${fields._onTimeout.name}` : '';
  return { kind: 'timer', owner: `${every}${callback}, ${siteOf(record)}`, ...scopeOf(record) };
}

/** Everything that keeps the process alive now, described; with `scope`, only what code in that scope made. */
export function openHandles(scope?: string): OpenHandle[] {
  const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
  // A child started before the watch began still names its own pipes.
  for (const child of handles) {
    if (!(child instanceof ChildProcess)) continue;
    child.stdio.forEach((stream, fd) => {
      if (stream && !stdioOwners.has(stream)) stdioOwners.set(stream, { child, fd });
    });
  }
  const described = handles.flatMap((handle) => describeHandle(handle) ?? []);
  const live = [...timers].filter((timer) => pending(timer) && timer.hasRef());
  const all = [...described, ...live.map(describeTimer)];
  // Timers set before the watch began (or through node:timers/promises) are counted, not seen.
  const unseen = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length - live.length;
  if (unseen > 0) all.push({ kind: 'timer', owner: `${unseen} Timeout(s) set where the watch cannot see` });
  return scope === undefined ? all : all.filter((handle) => handle.scope === scope);
}
