// The agent loop and the turn runner in-process: retries (R5) with stable ids, max turns, invalid arguments
// (R3), permission modes, interrupts (R6), usage (R4) — every printed stream checked by the harness validator.
import { describe, expect, it } from 'vitest';
import { validateStream } from '../../harness/validate/validate-stream.js';
import {
  type AssembledMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderError,
} from '../../reference-shim/providers/provider.js';
import { inProcessTurn, recordingTool } from './helpers/in-process-turn.js';

type Step =
  | { fail: ProviderError; afterText?: string }
  | { message: Partial<AssembledMessage>; deltas?: string[]; waitForAbort?: boolean };

class ScriptedProvider implements ModelProvider {
  readonly kind = 'model' as const;
  readonly id = 'fake';
  readonly generatedIdPrefix = 'call_fake_';
  readonly requests: Array<{ history: string; at: number }> = [];
  constructor(private readonly steps: Step[]) {}

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    this.requests.push({ history: JSON.stringify(request.history), at: Date.now() });
    const step = this.steps.shift();
    if (!step) throw new ProviderError('request', 'unscripted request');
    if ('fail' in step) {
      if (step.afterText) yield { type: 'text', text: step.afterText };
      throw step.fail;
    }
    for (const delta of step.deltas ?? []) yield { type: 'text', text: delta };
    if (step.waitForAbort) {
      await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve()));
      throw new ProviderError('aborted', 'aborted');
    }
    yield {
      type: 'done',
      message: {
        text: (step.deltas ?? []).join(''),
        thinking: [],
        toolCalls: [],
        stopReason: 'end_turn',
        ...step.message,
      },
    };
  }
}

const usage = { inputTokens: 10, outputTokens: 5 };
const conforms = (bytes: Buffer, mode: 'spawn-per-turn' | 'persistent' = 'spawn-per-turn') =>
  validateStream(bytes, { profile: 'yume-app', mode })
    .findings.filter((f) => f.severity === 'MUST')
    .map((f) => `${f.rule}: ${f.message}`);
const ofType = (lines: Array<Record<string, any>>, type: string) => lines.filter((line) => line.type === type);

describe('retries (R5)', () => {
  it('retries 429/503 honouring retry-after, keeps tool ids stable, and lists the failures in result.errors', async () => {
    const provider = new ScriptedProvider([
      { fail: new ProviderError('retryable', 'HTTP 429 slow down', { status: 429, retryAfterMs: 200 }) },
      { fail: new ProviderError('retryable', 'HTTP 503 busy', { status: 503, retryAfterMs: 100 }) },
      { message: { toolCalls: [{ name: 'Probe', input: {} }], usage } },
      { message: { text: 'done', usage } },
    ]);
    const read = recordingTool('Probe');
    const turn = inProcessTurn(provider, { tools: [read] });
    const end = await turn.run('go');
    expect(end).toEqual({ isError: false, interrupted: false });
    expect(provider.requests[1]!.at - provider.requests[0]!.at).toBeGreaterThanOrEqual(190);
    expect(provider.requests[2]!.at - provider.requests[1]!.at).toBeGreaterThanOrEqual(90);
    expect(ofType(turn.lines, 'tool_use').map((line) => line.id)).toEqual(['call_fake_1']);
    const result = ofType(turn.lines, 'result')[0]!;
    expect(result).toMatchObject({ is_error: false, usage: { input_tokens: 20, output_tokens: 10 } });
    expect(result.errors).toEqual(['attempt 1: HTTP 429 slow down', 'attempt 2: HTTP 503 busy']);
    expect(ofType(turn.lines, 'system').filter((line) => line.subtype === 'api_retry')).toHaveLength(2);
    expect(ofType(turn.lines, 'error')).toEqual([]);
    expect(conforms(turn.bytes())).toEqual([]);
  });

  it('gives up after three attempts: error line, then an error result listing every failure', async () => {
    const busy = () => ({ fail: new ProviderError('retryable', 'HTTP 500', { status: 500, retryAfterMs: 0 }) });
    const provider = new ScriptedProvider([busy(), busy(), busy(), busy()]);
    const turn = inProcessTurn(provider);
    expect(await turn.run('go')).toEqual({ isError: true, interrupted: false });
    expect(provider.requests).toHaveLength(3);
    expect(ofType(turn.lines, 'error')).toHaveLength(1);
    expect(ofType(turn.lines, 'result')[0]).toMatchObject({
      is_error: true,
      errors: ['attempt 1: HTTP 500', 'attempt 2: HTTP 500', 'HTTP 500'],
    });
    expect(ofType(turn.lines, 'result')[0]!.usage).toBeUndefined(); // no call succeeded: no 0/0 usage (R4)
    expect(conforms(turn.bytes())).toEqual([]);
  });

  it('does not retry once text was printed, nor when the server asks for an unreasonable wait', async () => {
    const printed = new ScriptedProvider([
      { fail: new ProviderError('retryable', 'cut', { status: 500 }), afterText: 'partial' },
    ]);
    const first = inProcessTurn(printed);
    expect((await first.run('go')).isError).toBe(true);
    expect(printed.requests).toHaveLength(1);
    const patient = new ScriptedProvider([
      { fail: new ProviderError('retryable', 'wait an hour', { status: 429, retryAfterMs: 3_600_000 }) },
    ]);
    const second = inProcessTurn(patient);
    expect((await second.run('go')).isError).toBe(true);
    expect(patient.requests).toHaveLength(1);
  });

  it('auth failures print system error, then an error result, without retrying', async () => {
    const provider = new ScriptedProvider([{ fail: new ProviderError('auth', 'HTTP 401 bad key', { status: 401 }) }]);
    const turn = inProcessTurn(provider);
    await turn.run('go');
    expect(turn.lines.slice(1).map((line) => `${line.type}/${line.subtype ?? ''}`)).toEqual([
      'system/error',
      'result/error_during_execution',
      'message_stop/',
    ]);
    expect(provider.requests).toHaveLength(1);
    expect(conforms(turn.bytes())).toEqual([]);
  });
});

describe('the loop', () => {
  it('runs parallel calls one at a time, each tool_use followed by its tool_result', async () => {
    const provider = new ScriptedProvider([
      {
        deltas: ['Two reads.'],
        message: {
          toolCalls: [
            { id: 'a', name: 'Read', argumentsText: '{"n":1}' },
            { id: 'b', name: 'Read', argumentsText: '{"n":2}' },
          ],
          usage,
        },
      },
      { deltas: ['Both done.'], message: { usage } },
    ]);
    const read = recordingTool('Read');
    const turn = inProcessTurn(provider, { tools: [read] });
    await turn.run('go');
    expect(turn.lines.slice(1).map((line) => line.type)).toEqual([
      'text',
      'usage',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
      'text',
      'usage',
      'result',
      'message_stop',
    ]);
    expect(read.calls).toEqual([{ n: 1 }, { n: 2 }]);
    expect(ofType(turn.lines, 'result')[0]).toMatchObject({ num_turns: 2, result: 'Both done.' });
    // Both results went back in the second request.
    expect(provider.requests[1]!.history).toContain('"toolCallId":"a"');
    expect(provider.requests[1]!.history).toContain('"toolCallId":"b"');
  });

  it('ends in error_max_turns when the model never stops calling tools', async () => {
    const call = () => ({ message: { toolCalls: [{ name: 'Probe', input: {} }], usage } });
    const provider = new ScriptedProvider([call(), call(), call()]);
    const turn = inProcessTurn(provider, { tools: [recordingTool('Probe')], maxModelCalls: 2 });
    expect((await turn.run('go')).isError).toBe(true);
    expect(provider.requests).toHaveLength(2);
    expect(ofType(turn.lines, 'result')[0]).toMatchObject({ is_error: true, subtype: 'error_max_turns' });
    expect(ofType(turn.lines, 'tool_use').map((line) => line.id)).toEqual(['call_fake_1', 'call_fake_2']);
    expect(conforms(turn.bytes())).toEqual([]);
  });

  it('invalid JSON arguments: tool_use with input {_invalid_arguments}, an error result, nothing run, the loop goes on', async () => {
    const provider = new ScriptedProvider([
      { message: { toolCalls: [{ id: 'bad', name: 'Read', argumentsText: '{"file_path": oops' }], usage } },
      { deltas: ['Sorry.'], message: { usage } },
    ]);
    const read = recordingTool('Read');
    const turn = inProcessTurn(provider, { tools: [read] });
    expect((await turn.run('go')).isError).toBe(false);
    expect(ofType(turn.lines, 'tool_use')[0]).toMatchObject({
      id: 'bad',
      input: { _invalid_arguments: '{"file_path": oops' },
    });
    expect(ofType(turn.lines, 'tool_result')[0]).toMatchObject({
      tool_use_id: 'bad',
      is_error: true,
      content: expect.stringContaining('not valid JSON'),
    });
    expect(read.calls).toEqual([]);
    expect(provider.requests[1]!.history).toContain('"rawArguments":"{\\"file_path\\": oops"');
  });

  it('keeps ids unique in the session when a provider reuses one in a later turn', async () => {
    const provider = new ScriptedProvider([
      { message: { toolCalls: [{ id: 'call_1', name: 'Probe', input: {} }], usage } },
      { message: { text: 'a', usage } },
      { message: { toolCalls: [{ id: 'call_1', name: 'Probe', input: {} }], usage } },
      { message: { text: 'b', usage } },
    ]);
    const turn = inProcessTurn(provider, { tools: [recordingTool('Probe')] });
    await turn.run('one');
    await turn.run('two');
    expect(ofType(turn.lines, 'tool_use').map((line) => line.id)).toEqual(['call_1', 'call_1_1']);
    const second = turn.session.history.find((entry) => entry.role === 'tool' && entry.toolCallId === 'call_1_1');
    expect(second).toMatchObject({ wireId: 'call_1' });
    expect(conforms(turn.bytes(), 'persistent')).toEqual([]);
  });

  it('estimates usage when the provider reports none, and marks it', async () => {
    const provider = new ScriptedProvider([{ deltas: ['Some answer text.'], message: {} }]);
    const turn = inProcessTurn(provider);
    await turn.run('a prompt of some length');
    const result = ofType(turn.lines, 'result')[0]!;
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    expect(result.usage.output_tokens).toBeGreaterThan(0);
    expect(result.total_cost_usd).toBeUndefined();
    expect(ofType(turn.lines, 'usage')).toEqual([]);
  });
});

describe('permission modes', () => {
  const twoCalls = () =>
    new ScriptedProvider([
      {
        message: {
          toolCalls: [
            { id: 'w1', name: 'Write', input: { n: 1 } },
            { id: 'w2', name: 'Write', input: { n: 2 } },
          ],
          usage,
        },
      },
      { message: { text: 'ok', usage } },
    ]);

  it('deny answers every call with an error and runs nothing', async () => {
    const write = recordingTool('Write');
    const turn = inProcessTurn(twoCalls(), { tools: [write], permissionMode: 'deny' });
    await turn.run('go');
    expect(write.calls).toEqual([]);
    expect(ofType(turn.lines, 'tool_result').map((line) => line.is_error)).toEqual([true, true]);
  });

  it('interactive waits for approvals by id, keeping an early answer for a later call', async () => {
    const write = recordingTool('Write');
    const turn = inProcessTurn(twoCalls(), { tools: [write], permissionMode: 'interactive', approvals: true });
    const pending = turn.run('go');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(ofType(turn.lines, 'tool_use').map((line) => line.id)).toEqual(['w1']);
    expect(write.calls).toEqual([]); // waiting
    turn.gate.approve('w2', false); // an answer for a call not printed yet is kept
    turn.gate.approve('w1', true);
    await pending;
    expect(write.calls).toEqual([{ n: 1 }]);
    expect(ofType(turn.lines, 'tool_result').map((line) => line.is_error)).toEqual([false, true]);
  });
});

describe('interrupt (R6)', () => {
  it('during a tool: the tool is aborted and answered with an error, later calls are dropped, then interrupt and an error result', async () => {
    const provider = new ScriptedProvider([
      {
        message: {
          toolCalls: [
            { id: 's1', name: 'Slow', input: {} },
            { id: 's2', name: 'Slow', input: {} },
          ],
          usage,
        },
      },
    ]);
    const slow = recordingTool('Slow', 10_000);
    const turn = inProcessTurn(provider, { tools: [slow] });
    const controller = new AbortController();
    const pending = turn.run('go', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    expect(await pending).toEqual({ isError: true, interrupted: true });
    expect(turn.lines.slice(1).map((line) => line.type)).toEqual([
      'usage',
      'tool_use',
      'tool_result',
      'interrupt',
      'result',
      'message_stop',
    ]);
    expect(ofType(turn.lines, 'tool_result')[0]).toMatchObject({ tool_use_id: 's1', is_error: true });
    expect(ofType(turn.lines, 'result')[0]).toMatchObject({
      is_error: true,
      subtype: 'cancelled',
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    const assistant = turn.session.history.find((entry) => entry.role === 'assistant');
    expect(assistant).toMatchObject({ toolCalls: [{ id: 's1' }] });
    expect(conforms(turn.bytes())).toEqual([]);
  });

  it('while streaming: partial text stays in the history, no usage is invented', async () => {
    const provider = new ScriptedProvider([{ deltas: ['One, '], message: {}, waitForAbort: true }]);
    const turn = inProcessTurn(provider);
    const controller = new AbortController();
    const pending = turn.run('count', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await pending;
    expect(turn.lines.slice(1).map((line) => line.type)).toEqual(['text', 'interrupt', 'result', 'message_stop']);
    expect(ofType(turn.lines, 'result')[0]!.usage).toBeUndefined();
    expect(turn.session.history).toEqual([
      { role: 'user', content: 'count' },
      { role: 'assistant', content: 'One, ', provider: 'fake' },
    ]);
  });
});

describe('claude dialect', () => {
  it('prints envelopes: the first text chunk at once, the rest coalesced; results as user envelopes', async () => {
    const provider = new ScriptedProvider([
      {
        deltas: ['Hel', 'lo ', 'there'],
        message: { toolCalls: [{ id: 't1', name: 'Read', input: { file_path: 'x' } }], usage },
      },
      { deltas: ['Done.'], message: { usage } },
    ]);
    const turn = inProcessTurn(provider, { tools: [recordingTool('Read')], dialect: 'claude' });
    await turn.run('go');
    const envelopes = turn.lines.filter((line) => line.type === 'assistant' || line.type === 'user');
    const blocks = envelopes.map(
      (line) => `${line.type}:${line.message.content.map((b: any) => b.type + (b.text ? `=${b.text}` : '')).join(',')}`,
    );
    expect(blocks).toEqual([
      'assistant:text=Hel',
      'assistant:text=lo there',
      'assistant:tool_use',
      'user:tool_result',
      'assistant:text=Done.',
    ]);
    expect(envelopes[0]!.message.id).toBe(envelopes[2]!.message.id); // blocks of one model message share its id
    expect(new Set(turn.lines.map((line) => line.uuid)).size).toBe(turn.lines.length);
    expect(conforms(turn.bytes())).toEqual([]);
  });
});
