// Runs turns in-process with a scripted ModelProvider and captures stdout lines, so the agent loop, retries,
// permissions and interrupts can be tested without HTTP.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { PermissionGate } from '../../../reference-shim/agent/permissions.js';
import { TurnRunner } from '../../../reference-shim/agent/turn-runner.js';
import type { ShimSession, TurnEnd } from '../../../reference-shim/agent/turn-types.js';
import { createEmitter, type Dialect } from '../../../reference-shim/output/emitter.js';
import { SecretRedactor } from '../../../reference-shim/output/redact.js';
import { LineWriter, streamOutput } from '../../../reference-shim/output/writer.js';
import type { Provider } from '../../../reference-shim/providers/provider.js';
import { ToolRegistry } from '../../../reference-shim/tools/registry.js';
import type { Tool } from '../../../reference-shim/tools/types.js';

export interface Harness {
  runner: TurnRunner;
  session: ShimSession;
  gate: PermissionGate;
  lines: Array<Record<string, any>>;
  bytes(): Buffer;
  run(prompt: string, signal?: AbortSignal): Promise<TurnEnd>;
}

export function inProcessTurn(
  provider: Provider,
  options: {
    tools?: Tool[];
    permissionMode?: string;
    maxModelCalls?: number;
    dialect?: Dialect;
    approvals?: boolean;
  } = {},
): Harness {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  const lines: Array<Record<string, any>> = [];
  let pending = '';
  out.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    pending += chunk.toString();
    let index = pending.indexOf('\n');
    while (index !== -1) {
      lines.push(JSON.parse(pending.slice(0, index)));
      pending = pending.slice(index + 1);
      index = pending.indexOf('\n');
    }
  });
  const home = mkdtempSync(path.join(os.tmpdir(), 'yume-shim-loop-'));
  const redactor = new SecretRedactor({});
  const writer = new LineWriter(streamOutput(out), redactor);
  const session: ShimSession = {
    id: 'sess-test',
    file: path.join(home, 'sess-test.json'),
    providerFlag: 'fake',
    model: 'fake-model',
    cwd: home,
    title: '',
    created: new Date().toISOString(),
    history: [],
    compactionCount: 0,
    lastCallTokens: 0,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 },
  };
  const emitter = createEmitter(options.dialect ?? 'flat', writer, {
    sessionId: () => session.id,
    model: 'fake-model',
    coalesceMs: 20,
  });
  emitter.init({
    sessionId: session.id,
    model: 'fake-model',
    cwd: home,
    permissionMode: options.permissionMode ?? 'default',
    tools: (options.tools ?? []).map((t) => t.spec.name),
  });
  const gate = new PermissionGate(options.permissionMode ?? 'default', options.approvals ?? false);
  const runner = new TurnRunner({
    emitter,
    provider,
    tools: new ToolRegistry(options.tools ?? []),
    toolContext: { cwd: home, realCwd: home, redactor, env: {} },
    gate,
    session,
    model: 'fake-model',
    system: 'system prompt',
    maxModelCalls: options.maxModelCalls ?? 10,
    log: () => undefined,
  });
  return {
    runner,
    session,
    gate,
    lines,
    bytes: () => Buffer.concat(chunks),
    run: async (prompt, signal = new AbortController().signal) => {
      const end = await runner.run(prompt, signal);
      await new Promise((resolve) => setImmediate(resolve));
      return end;
    },
  };
}

/** A tool that records its calls and waits for `ms` (or the abort). */
export function recordingTool(name: string, ms = 0): Tool & { calls: Array<Record<string, unknown>> } {
  const calls: Array<Record<string, unknown>> = [];
  return {
    calls,
    spec: { name, description: name, parameters: { type: 'object', properties: {} } },
    run(input, context) {
      calls.push(input);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: `${name} ok`, isError: false }), ms);
        context.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve({ content: `${name} interrupted`, isError: true });
        });
      });
    },
  };
}
