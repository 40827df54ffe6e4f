// End to end, beyond the committed scenarios: persistent mode with its control frames, the claude form of the
// user frame, and an interrupt frame (R6).
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../harness/mock/scenario/scenario-types.js';
import { bodiesText, mustFindings } from './helpers/feature-setup.js';
import { runPersistentScenario } from './helpers/persistent-run.js';

describe('persistent mode', () => {
  const twoTurns: Scenario = {
    id: 'persistent-two',
    title: 't',
    description: 'd',
    spec: 'R6',
    mode: 'persistent',
    turns: [
      {
        prompt: 'First question.',
        responses: [{ text: ['First answer.'], usage: { input_tokens: 10, output_tokens: 2 } }],
        expect: { isError: false },
      },
      {
        prompt: 'Second question.',
        stdin: [
          '',
          '   ',
          '{"type":"set_permission_mode","mode":"auto","extra":1}\r',
          'not json',
          '{"type":"bogus_frame"}',
          '[1,2]',
        ],
        responses: [{ text: ['Second answer.'], usage: { input_tokens: 20, output_tokens: 2 } }],
        expect: { isError: false },
      },
    ],
  };

  it('serves one turn per user frame, tolerates blank lines/CRLF/unknown fields, answers bad frames with error lines, ends on EOF', async () => {
    const result = await runPersistentScenario(twoTurns, 'gemini');
    try {
      const { run } = result;
      expect(run.timedOut).toBe(false);
      expect(run.code).toBe(0);
      expect(run.lines.filter((line) => line.type === 'system' && line.subtype === 'init')).toHaveLength(1);
      expect(run.lines.filter((line) => line.type === 'result').map((line) => line.is_error)).toEqual([false, false]);
      const errors = run.lines.filter((line) => line.type === 'error').map((line) => String(line.message));
      expect(errors).toHaveLength(3);
      expect(errors[0]).toMatch(/not valid JSON/);
      expect(errors[1]).toMatch(/unknown frame type "bogus_frame"/);
      expect(errors[2]).toMatch(/no "type"/);
      expect(run.lines.filter((line) => line.type === 'error').every((line) => line.code === 'invalid_frame')).toBe(
        true,
      );
      // The second turn carries the first one.
      expect(bodiesText(result.requests, 1)).toContain('First answer.');
    } finally {
      result.cleanup();
    }
  });

  it('accepts the claude form of the user frame', async () => {
    const result = await runPersistentScenario(twoTurns, 'anthropic', {
      frameFor: (prompt) =>
        JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] } }),
    });
    try {
      expect(result.run.lines.filter((line) => line.type === 'result').map((line) => line.is_error)).toEqual([
        false,
        false,
      ]);
      expect(bodiesText(result.requests, 0)).toContain('First question.');
    } finally {
      result.cleanup();
    }
  });

  it('an interrupt frame ends the turn (interrupt, error result) and the next user frame is served', async () => {
    const scenario: Scenario = {
      id: 'persistent-interrupt',
      title: 't',
      description: 'd',
      spec: 'R6',
      mode: 'persistent',
      turns: [
        {
          prompt: 'Count.',
          interrupt: 'after-first-text',
          responses: [{ text: ['One, ', 'two.'], stall: 'after-first-text' }],
          expect: { isError: true },
        },
        { prompt: 'Again?', responses: [{ text: ['Sure.'] }], expect: { isError: false } },
      ],
    };
    const result = await runPersistentScenario(scenario, 'openai-responses');
    try {
      const types = result.run.lines.map((line) => line.type);
      const interruptAt = types.indexOf('interrupt');
      expect(interruptAt).toBeGreaterThan(0);
      expect(result.run.lines[interruptAt + 1]).toMatchObject({ type: 'result', is_error: true, subtype: 'cancelled' });
      expect(result.run.lines.filter((line) => line.type === 'result').map((line) => line.is_error)).toEqual([
        true,
        false,
      ]);
      expect(result.requests[0]!.closedByClient).toBe(true);
      expect(mustFindings(result.run.stdout, 'persistent')).toEqual([]);
    } finally {
      result.cleanup();
    }
  });

  // R4: an interrupt frame during a tool ends the turn with the usage of the model call that completed before it.
  it('an interrupt frame during a tool reports the usage of the call that completed', async () => {
    const scenario: Scenario = {
      id: 'persistent-interrupt-during-bash',
      title: 't',
      description: 'd',
      spec: 'R4; R6',
      mode: 'persistent',
      turns: [
        {
          prompt: 'Wait.',
          interrupt: 'during-tool',
          responses: [
            {
              toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'sleep 30' } }],
              usage: { input_tokens: 128, output_tokens: 22 },
            },
          ],
          expect: { isError: true },
        },
      ],
    };
    const result = await runPersistentScenario(scenario, 'openai-chat');
    try {
      const ending = result.run.lines.find((line) => line.type === 'result');
      expect(ending).toMatchObject({ is_error: true, subtype: 'cancelled' });
      expect(ending?.usage).toEqual({ input_tokens: 128, output_tokens: 22 });
    } finally {
      result.cleanup();
    }
  });
});
