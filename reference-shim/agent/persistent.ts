// Persistent mode (--input-format stream-json, docs/protocol.md "Stdin frames"): control frames on stdin, one turn per
// `user` frame. Blank lines, CRLF and unknown fields are tolerated; malformed JSON and unknown frame types
// get an `error` line (never a crash). A frame complaint that arrives during a turn is printed after that
// turn's result so it cannot split the turn. stdin EOF ends the process once the queued turns are done.
import type { Readable } from 'node:stream';
import type { Emitter } from '../output/emitter.js';
import { Interrupter } from '../tools/interrupt.js';
import type { PermissionGate } from './permissions.js';
import type { TurnEnd, TurnRunner } from './turn-runner.js';

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

type Frame = Record<string, unknown> & { type?: unknown };

/** `code` of the `error` line printed for a stdin line that is not a usable frame. */
export const INVALID_FRAME_CODE = 'invalid_frame';

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((block) =>
        typeof block === 'string'
          ? block
          : (block as { type?: unknown; text?: unknown })?.type === 'text'
            ? (block as { text?: unknown }).text
            : undefined,
      )
      .filter((part): part is string => typeof part === 'string');
    return parts.length > 0 ? parts.join('') : undefined;
  }
  return undefined;
}

export function startPersistent(deps: PersistentDeps): PersistentSession {
  const queue: string[] = [];
  const deferred: string[] = [];
  let current: Interrupter | undefined;
  let ended = false;
  let lastEnd: TurnEnd | undefined;
  let lineNumber = 0;
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));

  // The code lets a reader tell a complaint about stdin apart from a turn's own error (it ends no turn).
  const complain = (message: string): void => {
    if (current) deferred.push(message);
    else deps.emitter.error(message, INVALID_FRAME_CODE);
  };

  const maybeFinish = (): void => {
    if (ended && !current && queue.length === 0) finish(lastEnd?.isError ? 1 : 0);
  };

  const next = (): void => {
    if (current) return;
    const prompt = queue.shift();
    if (prompt === undefined) {
      maybeFinish();
      return;
    }
    const controller = new Interrupter();
    current = controller;
    void deps.runner.run(prompt, controller.signal).then(
      (end) => {
        lastEnd = end;
        current = undefined;
        for (const message of deferred.splice(0)) deps.emitter.error(message, INVALID_FRAME_CODE);
        next();
      },
      (error: unknown) => {
        // A bug, not a provider failure: say so on stderr and keep serving frames.
        deps.log(`turn failed unexpectedly: ${(error as Error)?.stack ?? String(error)}`);
        current = undefined;
        next();
      },
    );
  };

  const handle = (raw: string): void => {
    lineNumber += 1;
    const line = raw.replace(/\r$/, '').trim();
    if (line === '') return;
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch (error) {
      complain(
        `stdin line ${lineNumber} is not valid JSON (${(error as Error).message}); send one JSON object per line, e.g. {"type":"user","content":"hello"}.`,
      );
      return;
    }
    if (!frame || typeof frame !== 'object' || Array.isArray(frame) || typeof frame.type !== 'string') {
      complain(`stdin line ${lineNumber} has no "type"; expected a frame such as {"type":"user","content":"hello"}.`);
      return;
    }
    switch (frame.type) {
      case 'user': {
        const message = frame.message as { content?: unknown } | undefined;
        const prompt = textOf(frame.content) ?? textOf(message?.content);
        if (prompt === undefined || prompt.trim() === '') {
          complain(`stdin line ${lineNumber}: a user frame needs text in "content" (or "message.content").`);
          return;
        }
        queue.push(prompt);
        next();
        return;
      }
      case 'interrupt':
        if (current) current.abort();
        else deps.log('interrupt frame while no turn is running: nothing to interrupt');
        return;
      case 'set_permission_mode': {
        const mode = frame.mode ?? frame.permissionMode;
        if (typeof mode !== 'string' || mode === '') {
          complain(`stdin line ${lineNumber}: set_permission_mode needs "mode" (default, auto, deny or interactive).`);
          return;
        }
        deps.gate.mode = mode;
        deps.log(`permission mode is now ${mode}`);
        return;
      }
      case 'tool_approval': {
        const id =
          typeof frame.id === 'string'
            ? frame.id
            : typeof frame.tool_use_id === 'string'
              ? frame.tool_use_id
              : undefined;
        const approved = frame.approved === true || frame.decision === 'allow' || frame.behavior === 'allow';
        deps.gate.approve(id, approved);
        return;
      }
      default:
        complain(
          `stdin line ${lineNumber}: unknown frame type "${frame.type}"; expected user, interrupt, set_permission_mode or tool_approval.`,
        );
    }
  };

  // Lines are split on \n by hand (handle() drops a trailing \r); node:readline would cost start-up time.
  let partial = '';
  const decoder = new TextDecoder();
  deps.input.on('data', (chunk: Buffer | string) => {
    partial += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = partial.indexOf('\n');
    while (newline !== -1) {
      const line = partial.slice(0, newline);
      partial = partial.slice(newline + 1);
      handle(line);
      newline = partial.indexOf('\n');
    }
  });
  const onEnd = (): void => {
    if (ended) return;
    partial += decoder.decode();
    if (partial !== '') handle(partial);
    partial = '';
    ended = true;
    maybeFinish();
  };
  deps.input.on('end', onEnd);
  deps.input.on('close', onEnd);
  deps.input.on('error', onEnd);

  return {
    done,
    interrupt() {
      if (current) current.abort();
      else {
        ended = true;
        queue.length = 0;
        maybeFinish();
      }
    },
    terminate() {
      ended = true;
      queue.length = 0;
      current?.abort();
      maybeFinish();
    },
  };
}
