// Type-B golden adjustments: what a wrapped official CLI cannot print is not expected of it.
import { describe, expect, it } from 'vitest';
import { compareWithGolden } from '../../harness/golden/compare/golden-compare.js';
import { buildTurnModels } from '../../harness/golden/golden-model.js';
import type { Turn } from '../../harness/mock/scenario/scenario-types.js';
import { unclosedTurns } from '../../harness/official-cli/behaviour.js';
import {
  adjustGoldenForCli,
  adjustObservedForCli,
  turnEndsInCutMessage,
} from '../../harness/official-cli/golden-adjustments.js';
import { toCanonicalEvents } from '../../harness/protocol/canonical.js';

const jsonl = (...messages: object[]) => `${messages.map((message) => JSON.stringify(message)).join('\n')}\n`;

describe('Type-B golden adjustments (R10, harness/official-cli/omissions.ts)', () => {
  const readTurn: Turn = {
    prompt: 'p',
    responses: [
      { text: ['Reading.'], toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'hello.txt' } }] },
      { text: ['Done.'] },
    ],
    expect: { isError: false },
  };
  const golden = buildTurnModels(
    toCanonicalEvents(
      jsonl(
        { type: 'text', content: 'Reading.' },
        { type: 'tool_use', id: 'c1', name: 'Read', input: { file_path: 'hello.txt' } },
        { type: 'tool_result', tool_use_id: 'c1', content: 'hi' },
        { type: 'text', content: 'Done.' },
        { type: 'result', is_error: false },
      ),
    ),
    {},
  );

  it("expects codex's own tool call (a Read runs as `cat`) instead of the app's", () => {
    const adjusted = adjustGoldenForCli(golden, [readTurn], 'codex', { workspace: '/w' });
    const observed = buildTurnModels(
      toCanonicalEvents(
        jsonl(
          { type: 'text', content: 'Reading.' },
          { type: 'tool_use', id: 'i1', name: 'Bash', input: { command: 'cat hello.txt' } },
          { type: 'tool_result', tool_use_id: 'i1', content: 'hi' },
          { type: 'text', content: 'Done.' },
          { type: 'result', is_error: false },
        ),
      ),
      { workspace: '/w' },
    );
    expect(compareWithGolden({ label: 'g', turns: adjusted }, observed, 'o')).toEqual([]);
    // Without the adjustment the same transcript is a tool-call difference.
    expect(compareWithGolden({ label: 'g', turns: golden }, observed, 'o')[0]?.rule).toBe('golden.tool-calls');
  });

  // gemini and codex print usage only in their closing event, which an interrupted run never reaches: the shim
  // estimates the usage of the calls that completed, and only its presence is compared. claude still prints its
  // result after SIGINT, so its totals are compared as they are, unless (Windows) the interrupt ended it first.
  it.each([
    ['gemini', 'interrupted', true],
    ['codex', 'interrupted', true],
    ['claude', 'interrupted', false],
    ['claude', 'ended before its result', true],
  ] as const)('compares the usage of a turn on %s %s as an estimate: %s', (cli, how, estimated) => {
    const duringBash: Turn = {
      prompt: 'p',
      interrupt: 'during-tool',
      responses: [
        {
          toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'sleep 30' } }],
          usage: { input_tokens: 128, output_tokens: 22 },
        },
      ],
      expect: { isError: true },
    };
    const turn = (...ending: object[]) =>
      buildTurnModels(
        toCanonicalEvents(
          jsonl(
            { type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'sleep 30' } },
            { type: 'tool_result', tool_use_id: 'c1', content: 'interrupted', is_error: true },
            { type: 'interrupt' },
            ...ending,
          ),
        ),
        {},
      );
    const reported = turn({ type: 'result', is_error: true, usage: { input_tokens: 128, output_tokens: 22 } });
    const estimate = turn({
      type: 'result',
      is_error: true,
      usage: { input_tokens: 40, output_tokens: 9, estimated: true },
    });
    const none = turn({ type: 'result', is_error: true });
    const unclosedTurns = new Set(how === 'interrupted' ? [] : [0]);
    const adjusted = adjustGoldenForCli(reported, [duringBash], cli, { workspace: '/w', unclosedTurns });
    const rulesFor = (observed: typeof reported) =>
      compareWithGolden({ label: 'g', turns: adjusted }, observed, 'o').map((finding) => finding.rule);
    expect(rulesFor(estimate)).toEqual(estimated ? [] : ['usage.totals']);
    expect(rulesFor(reported)).toEqual([]);
    // Left out, the usage fails either way: calls completed before the interrupt (R4).
    expect(rulesFor(none)).toEqual(['usage.totals']);
  });

  it('drops the partial text of a message cut short for CLIs that print whole messages only', () => {
    const interrupted: Turn = {
      prompt: 'p',
      interrupt: 'after-first-text',
      responses: [{ text: ['One, '], stall: 'after-first-text' }],
      expect: { isError: true },
    };
    expect(turnEndsInCutMessage(interrupted)).toBe(true);
    expect(turnEndsInCutMessage(readTurn)).toBe(false);
    const partial = buildTurnModels(
      toCanonicalEvents(
        jsonl({ type: 'text', content: 'One, ' }, { type: 'interrupt' }, { type: 'result', is_error: true }),
      ),
      {},
    );
    const nothing = buildTurnModels(
      toCanonicalEvents(jsonl({ type: 'interrupt' }, { type: 'result', is_error: true })),
      {},
    );
    expect(
      compareWithGolden(
        { label: 'g', turns: adjustGoldenForCli(partial, [interrupted], 'claude', { workspace: '/w' }) },
        adjustObservedForCli(nothing, [interrupted], 'claude'),
        'o',
      ),
    ).toEqual([]);
    // gemini streams partial text, so there it is still compared.
    expect(
      compareWithGolden(
        { label: 'g', turns: adjustGoldenForCli(partial, [interrupted], 'gemini', { workspace: '/w' }) },
        adjustObservedForCli(nothing, [interrupted], 'gemini'),
        'o',
      )[0]?.rule,
    ).toBe('golden.text');
  });
});

describe('which interrupted turns ended before the CLI printed its usage (behaviour.ts, unclosedTurns)', () => {
  const base = { cli: 'claude' as const, pid: 1, time: '2026-11-29T00:00:00.000Z' };
  const start = (turnIndex: number, observedBy?: 'wrapper') => ({
    ...base,
    turnIndex,
    event: 'start' as const,
    argv: [],
    cwd: '/w',
    sessionId: 's',
    ...(observedBy ? { observedBy } : {}),
  });
  const closed = (turnIndex: number) => ({ ...base, turnIndex, event: 'exit' as const, code: 0, finalEvent: true });
  // Turn 0 printed its result and exited; turn 1 was ended before it (a killed fake writes no exit).
  const log = [start(0), closed(0), start(1)];

  it('on Windows, names the compared turns whose CLI run never exited with its closing event', () => {
    expect([...unclosedTurns(log, [0, 1], 'win32')]).toEqual([1]);
    expect([...unclosedTurns(log, [1], 'win32')]).toEqual([0]);
  });

  it('elsewhere names none: the shim interrupts the CLI, which prints its usage', () => {
    expect([...unclosedTurns(log, [0, 1], 'linux')]).toEqual([]);
    expect([...unclosedTurns(log, [0, 1], 'darwin')]).toEqual([]);
  });

  it("names none from a real CLI's wrapper log, which holds starts only", () => {
    expect([...unclosedTurns([start(0, 'wrapper'), start(1, 'wrapper')], [0, 1], 'win32')]).toEqual([]);
  });
});
