// Persistent mode (--input-format stream-json, docs/protocol.md "Stdin frames"): control frames on stdin, one turn per
// `user` frame. Blank lines, CRLF and unknown fields are tolerated; malformed JSON and unknown frame types
// get an `error` line (never a crash). A frame complaint that arrives during a turn is printed after that
// turn's result so it cannot split the turn. stdin EOF ends the process once the queued turns are done.
import type { Readable } from 'node:stream';
import type { Emitter } from '../output/emitter.js';
import { Interrupter } from '../tools/interrupt.js';
import type { PermissionGate } from './permissions.js';
import { type FrameRequest, parseFrameLine } from './stdin-frames.js';
import type { TurnRunner } from './turn-runner.js';
import type { TurnEnd } from './turn-types.js';

export interface PersistentDeps {
  runner: Pick<TurnRunner, 'run'>;
  emitter: Emitter;
  gate: PermissionGate;
  input: Readable;
  log: (message: string) => void;
}

export interface PersistentSession {
  /** Resolves when the process should end; the value is the exit code. */
  done: Promise<number>;
  /** SIGINT: interrupt the running turn, or end the process when idle. */
  interrupt(): void;
  /** SIGTERM: interrupt the running turn and end the process after it. */
  terminate(): void;
}

/** `code` of the `error` line printed for a stdin line that is not a usable frame. */
export const INVALID_FRAME_CODE = 'invalid_frame';

export function startPersistent(deps: PersistentDeps): PersistentSession {
  const session = new Persistent(deps);
  readLines(deps.input, {
    line: (raw) => session.handle(raw),
    end: (rest) => session.inputEnded(rest),
  });
  return {
    done: session.done,
    interrupt: () => session.interrupt(),
    terminate: () => session.terminate(),
  };
}

/** The turns queued from stdin, run one at a time, and when the process may end. */
class Persistent {
  readonly done: Promise<number>;
  private readonly queue: string[] = [];
  private readonly deferred: string[] = [];
  private current: Interrupter | undefined;
  private ended = false;
  private lastEnd: TurnEnd | undefined;
  private lineNumber = 0;
  private finish!: (code: number) => void;

  constructor(private readonly deps: PersistentDeps) {
    this.done = new Promise<number>((resolve) => (this.finish = resolve));
  }

  handle(raw: string): void {
    this.lineNumber += 1;
    this.apply(parseFrameLine(raw, this.lineNumber));
  }

  /** stdin ended (or failed): the last line without a newline counts, then the queued turns finish the process. */
  inputEnded(rest: string): void {
    if (this.ended) return;
    if (rest !== '') this.handle(rest);
    this.ended = true;
    this.maybeFinish();
  }

  interrupt(): void {
    if (this.current) this.current.abort();
    else {
      this.ended = true;
      this.queue.length = 0;
      this.maybeFinish();
    }
  }

  terminate(): void {
    this.ended = true;
    this.queue.length = 0;
    this.current?.abort();
    this.maybeFinish();
  }

  private apply(request: FrameRequest): void {
    const { deps } = this;
    switch (request.kind) {
      case 'none':
        return;
      case 'complaint':
        this.complain(request.message);
        return;
      case 'turn':
        this.queue.push(request.prompt);
        this.next();
        return;
      case 'interrupt':
        if (this.current) this.current.abort();
        else deps.log('interrupt frame while no turn is running: nothing to interrupt');
        return;
      case 'permission-mode':
        deps.gate.mode = request.mode;
        deps.log(`permission mode is now ${request.mode}`);
        return;
      case 'tool-approval':
        deps.gate.approve(request.id, request.approved);
        return;
    }
  }

  // The code lets a reader tell a complaint about stdin apart from a turn's own error (it ends no turn).
  private complain(message: string): void {
    if (this.current) this.deferred.push(message);
    else this.deps.emitter.error(message, INVALID_FRAME_CODE);
  }

  private maybeFinish(): void {
    if (this.ended && !this.current && this.queue.length === 0) this.finish(this.lastEnd?.isError ? 1 : 0);
  }

  private next(): void {
    if (this.current) return;
    const prompt = this.queue.shift();
    if (prompt === undefined) {
      this.maybeFinish();
      return;
    }
    const controller = new Interrupter();
    this.current = controller;
    void this.deps.runner.run(prompt, controller.signal).then(
      (end) => {
        this.lastEnd = end;
        this.current = undefined;
        for (const message of this.deferred.splice(0)) this.deps.emitter.error(message, INVALID_FRAME_CODE);
        this.next();
      },
      (error: unknown) => {
        // A bug, not a provider failure: say so on stderr and keep serving frames.
        this.deps.log(`turn failed unexpectedly: ${(error as Error)?.stack ?? String(error)}`);
        this.current = undefined;
        this.next();
      },
    );
  }
}

/**
 * Lines are split on \n by hand (the parser drops a trailing \r); node:readline would cost start-up time. On
 * end, close or error, `end` gets what followed the last newline.
 */
function readLines(input: Readable, on: { line: (raw: string) => void; end: (rest: string) => void }): void {
  let partial = '';
  const decoder = new TextDecoder();
  input.on('data', (chunk: Buffer | string) => {
    partial += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = partial.indexOf('\n');
    while (newline !== -1) {
      const line = partial.slice(0, newline);
      partial = partial.slice(newline + 1);
      on.line(line);
      newline = partial.indexOf('\n');
    }
  });
  const onEnd = (): void => {
    const rest = partial + decoder.decode();
    partial = '';
    on.end(rest);
  };
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', onEnd);
}
