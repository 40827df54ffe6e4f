// The real-CLI mode's checks (harness/official-cli/real/observed-checks.ts), each shown both ways on the
// evidence a real CLI leaves: the wrapper's log, the mock's requests (as each CLI sends them) and the
// processes the harness ended. Real runs of the reference and broken translators are in the .real tests.

import { describe, expect, it } from 'vitest';
import { reportedFailure } from '../../harness/official-cli/real/observed-checks.js';
import type { CliLogEntry, StartEntry } from '../../harness/official-cli/state.js';
import type { CanonicalEvent } from '../../harness/protocol/canonical.js';
import { notVerifiedText } from '../../harness/rules/not-verified.js';

import { anthropicAfterTool, judge, request, scenario, start, T0, toolResult } from './helpers/observed-run.js';

describe('cli.no-rerun-after-tool from starts and requests', () => {
  const single = scenario('single-tool');
  const prompt = single.turns[0]!.prompt;
  const requests = [
    request('anthropic', 0, 0, 100, { messages: [{ role: 'user', content: prompt }] }),
    request('anthropic', 1, 0, 300, anthropicAfterTool(prompt, false)),
  ];
  it('passes one start before the tool call', () => {
    expect(judge({ scenario: single, log: [start('claude', 0, 0)], requests }).rules).toEqual([]);
  });
  it('fails a start after the mock handed out the tool call', () => {
    const { rules, findings } = judge({
      scenario: single,
      log: [start('claude', 0, 0), start('claude', 0, 200)],
      requests,
    });
    expect(rules).toContain('cli.no-rerun-after-tool');
    expect(rules).toContain('cli.one-start-per-turn');
    expect(findings.find((finding) => finding.rule === 'cli.no-rerun-after-tool')!.message).toMatch(/request #1/);
  });
});

describe('cli.stdin-closed from the wrapper’s stdin probe (codex)', () => {
  const plain = scenario('plain-text');
  it('fails when the wrapper logged stdin left open', () => {
    const log: CliLogEntry[] = [
      start('codex', 0, 0),
      {
        event: 'stdin-open',
        cli: 'codex',
        pid: 4000,
        turnIndex: 0,
        time: new Date(T0 + 5000).toISOString(),
        waitedMs: 5000,
      },
    ];
    expect(judge({ scenario: plain, cli: 'codex', provider: 'openai-responses', log }).rules).toEqual([
      'cli.stdin-closed',
    ]);
  });
  it('is not verified when the wrapper could not read stdin', () => {
    const log: CliLogEntry[] = [
      start('codex', 0, 0),
      {
        event: 'stdin-unread',
        cli: 'codex',
        pid: 4000,
        turnIndex: 0,
        time: new Date(T0).toISOString(),
        reason: 'spawnSync cat ENOENT',
      },
    ];
    const out = judge({ scenario: plain, cli: 'codex', provider: 'openai-responses', log });
    expect(out.rules).toEqual([]);
    expect(out.notVerified).toEqual([
      {
        rule: 'cli.stdin-closed',
        scope: 'check',
        cause: 'harness',
        reason: "turn 1: the wrapper could not read codex's stdin (spawnSync cat ENOENT)",
      },
    ]);
  });
  it('passes when stdin reached EOF', () => {
    expect(
      judge({ scenario: plain, cli: 'codex', provider: 'openai-responses', log: [start('codex', 0, 0)] }).rules,
    ).toEqual([]);
  });
});

describe('cli.resume-continues-session from argv and the first request of the resumed turn', () => {
  const resume = scenario('resume');
  const first = resume.turns[0]!.prompt;
  const second = resume.turns[1]!.prompt;
  const log = (resumeId?: string) => [
    start('claude', 0, 0),
    start('claude', 1, 1000, resumeId ? { resume: resumeId } : {}),
  ];
  const turnOne = request('anthropic', 0, 0, 100, { messages: [{ role: 'user', content: first }] });
  const remembered = request('anthropic', 1, 1, 1100, {
    messages: [
      { role: 'user', content: first },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: second },
    ],
  });
  const forgot = request('anthropic', 1, 1, 1100, { messages: [{ role: 'user', content: second }] });
  it('passes a resume id whose session carries the last turn', () => {
    expect(judge({ scenario: resume, log: log('abc'), requests: [turnOne, remembered] }).rules).toEqual([]);
  });
  it('fails a start without a resume id', () => {
    expect(judge({ scenario: resume, log: log(), requests: [turnOne, remembered] }).rules).toEqual([
      'cli.resume-continues-session',
    ]);
  });
  it('fails a resume whose first request forgot the last turn', () => {
    const { rules, findings } = judge({ scenario: resume, log: log('abc'), requests: [turnOne, forgot] });
    expect(rules).toEqual(['cli.resume-continues-session']);
    expect(findings[0]!.message).toMatch(/does not carry turn 1's prompt/);
  });
  it('after a killed turn, asks for the last turn that was not killed (R14), and fails a session without it', () => {
    const killed = scenario('kill-and-resume');
    const [one, , three] = killed.turns.map((turn) => turn.prompt);
    const starts = [
      start('claude', 0, 0),
      start('claude', 1, 1000, { resume: 'abc' }),
      start('claude', 2, 2000, { resume: 'abc' }),
    ];
    const asked = (index: number, turn: number, texts: string[]) =>
      request('anthropic', index, turn, 100 + turn * 1000, {
        messages: texts.map((content) => ({ role: 'user', content })),
      });
    const withoutKilled = asked(2, 2, [one!, three!]);
    expect(judge({ scenario: killed, log: starts, requests: [asked(0, 0, [one!]), withoutKilled] }).rules).toEqual([]);
    const { findings } = judge({
      scenario: killed,
      log: starts,
      requests: [asked(0, 0, [one!]), asked(2, 2, [three!])],
    });
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringMatching(/does not carry turn 1's prompt/),
    ]);
  });
  it('is not verified when the resumed turn sent no request', () => {
    const { rules, notVerified } = judge({ scenario: resume, log: log('abc'), requests: [turnOne] });
    expect(rules).toEqual([]);
    expect(notVerified.map(notVerifiedText).join()).toMatch(/^cli.resume-continues-session: turn 2/);
  });
});

describe('a real CLI around /compact (docs/protocol.md#r21-compaction)', () => {
  const compact = scenario('compact');
  const summary = (compact.turns[1]!.responses[0]!.text ?? []).join('');
  const [remember, command, ask] = compact.turns.map((turn) => turn.prompt);

  it("claude's turn after its /compact carries the summary, not turn 1's prompt, and continues the session", () => {
    const log = [
      start('claude', 0, 0),
      start('claude', 1, 1000, { resume: 'abc' }),
      start('claude', 2, 2000, { resume: 'abc' }),
    ];
    const after = request('anthropic', 3, 2, 2100, {
      messages: [{ role: 'user', content: `This session is being continued. ${summary}\n\n${ask}` }],
    });
    const lost = request('anthropic', 3, 2, 2100, { messages: [{ role: 'user', content: ask }] });
    expect(judge({ scenario: compact, log, requests: [after] }).rules).toEqual([]);
    const { rules, findings } = judge({ scenario: compact, log, requests: [lost] });
    expect(rules).toEqual(['cli.resume-continues-session']);
    expect(findings[0]!.message).toMatch(/does not carry turn 2's summary/);
  });

  it('gemini: /compact in its argv fails; a summary request, then a new session carrying the summary, passes', () => {
    const instruction = `Summarize this conversation.\n\nAdditional instructions: ${command!.replace('/compact ', '')}`;
    const log = (turn2: string, turn3: Partial<StartEntry> = {}) => [
      start('gemini', 0, 0, { prompt: remember }),
      start('gemini', 1, 1000, { prompt: turn2, resume: 'g1' }),
      start('gemini', 2, 2000, { prompt: `${summary}\n\n${ask}`, ...turn3 }),
    ];
    const of = (entries: CliLogEntry[]) =>
      judge({ scenario: compact, cli: 'gemini', provider: 'gemini', log: entries });
    expect(of(log(instruction)).rules).toEqual([]);
    expect(of(log(command!)).rules).toEqual(['cli.compaction-through-cli']);
    expect(of(log(instruction, { resume: 'g1' })).rules).toEqual(['cli.compaction-through-cli']);
  });
});

describe('tool.not-run-twice from how often a tool call went to the CLI', () => {
  const single = scenario('single-tool');
  const prompt = single.turns[0]!.prompt;
  const toolCall = request('anthropic', 0, 0, 100, { messages: [{ role: 'user', content: prompt }] });
  it('passes a tool call served once', () => {
    expect(judge({ scenario: single, log: [start('claude', 0, 0)], requests: [toolCall] }).rules).toEqual([]);
  });
  it('fails a tool call served twice', () => {
    const again = request(
      'anthropic',
      1,
      0,
      200,
      { messages: [{ role: 'user', content: prompt }] },
      { responseIndex: 0 },
    );
    expect(judge({ scenario: single, log: [start('claude', 0, 0)], requests: [toolCall, again] }).rules).toContain(
      'tool.not-run-twice',
    );
  });
});

describe('cli.tool-outcome-matches from the tool results the CLI sent the model', () => {
  const toolError = scenario('tool-error');
  const prompt = toolError.turns[0]!.prompt;
  const requests = [
    request('anthropic', 0, 0, 100, { messages: [{ role: 'user', content: prompt }] }),
    request('anthropic', 1, 0, 300, anthropicAfterTool(prompt, true)),
  ];
  const run = (events: CanonicalEvent[]) =>
    judge({ scenario: toolError, log: [start('claude', 0, 0)], requests, eventsByTurn: [events] });
  it('passes a tool_result with the CLI’s outcome', () => {
    expect(run([toolResult(4, true)]).rules).toEqual([]);
  });
  it('fails a failure reported as a success', () => {
    const { rules, findings } = run([toolResult(4, false)]);
    expect(rules).toEqual(['cli.tool-outcome-matches']);
    expect(findings[0]!.message).toMatch(/told the model that .* failed, but the shim's tool_result on line 4/);
  });
  it('fails a missing tool_result', () => {
    expect(run([]).rules).toEqual(['cli.tool-outcome-matches']);
  });
  it('reads each CLI’s way of saying a tool failed', () => {
    const codex = (content: string) => reportedFailure('openai-responses', { content });
    expect(codex('Chunk ID: f9\nProcess exited with code 1\nOutput:\ncat: missing.txt')).toBe(true);
    expect(codex('Chunk ID: e9\nProcess exited with code 0\nOutput:\nHello')).toBe(false);
    expect(codex('Exit code: 2\nWall time: 0.1 seconds')).toBe(true);
    expect(codex('Success. Updated the following files:\nA summary.txt')).toBe(false);
    expect(codex('something codex never says')).toBeUndefined();
    expect(reportedFailure('gemini', { content: 'File not found', isError: true })).toBe(true);
    expect(reportedFailure('gemini', { content: 'Hello' })).toBe(false);
    expect(reportedFailure('anthropic', { content: 'x', isError: false })).toBe(false);
    // copilot marks nothing: its words say it (test/fixtures/streams/captures/copilot/4-tool-error.requests.jsonl).
    const copilot = (content: string) => reportedFailure('anthropic', { content }, 'copilot');
    expect(copilot('Path /w/missing.txt does not exist. Please provide a valid path.')).toBe(true);
    expect(copilot('cat: missing.txt: No such file\n<shellId: 0 completed with exit code 3>')).toBe(true);
    expect(copilot('hello.txt\n<shellId: 1 completed with exit code 0>')).toBe(false);
    expect(copilot('Permission denied because no interactive user response was available. Retry ...')).toBe(true);
    expect(copilot('Hello from the fixture file.\n')).toBe(false);
  });
  it('leaves out what a resumed session carries from an earlier (killed) turn', () => {
    const resume = scenario('resume');
    const [first, second] = [resume.turns[0]!.prompt, resume.turns[1]!.prompt];
    // Turn 1 was killed while its tool ran: the CLI's first request of turn 2 carries that call and its
    // aborted result, before turn 2's prompt; turn 2 itself runs no tool.
    const resumed = request('anthropic', 0, 1, 1100, {
      messages: [
        { role: 'user', content: first },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_killed', name: 'Bash', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_killed', content: 'aborted', is_error: true }],
        },
        { role: 'user', content: second },
      ],
    });
    const out = judge({
      scenario: resume,
      log: [start('claude', 0, 0), start('claude', 1, 1000, { resume: 'abc' })],
      requests: [resumed],
      eventsByTurn: [[], []],
    });
    expect(out.rules).toEqual([]);
  });

  it('lists an outcome it cannot read as not verified', () => {
    const codexRequests = [
      request('openai-responses', 0, 0, 100, { input: prompt }),
      request('openai-responses', 1, 0, 300, {
        input: [
          { type: 'message', role: 'user', content: prompt },
          { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'no exit code here' },
        ],
      }),
    ];
    const out = judge({
      scenario: toolError,
      cli: 'codex',
      provider: 'openai-responses',
      log: [start('codex', 0, 0)],
      requests: codexRequests,
      eventsByTurn: [[toolResult(4, true)]],
    });
    expect(out.rules).toEqual([]);
    expect(out.notVerified.map(notVerifiedText).join()).toMatch(
      /^cli.tool-outcome-matches: turn 1: the outcome of c1 is not legible/,
    );
  });
});

describe('cli.interrupt-reaches-cli from what the harness had to end', () => {
  const interrupt = scenario('interrupt');
  const log = [start('gemini', 0, 0)];
  const process = (pid: number, ppid: number, pgid: number) => ({
    pid,
    ppid,
    pgid,
    state: 'S',
    start: '1',
    name: 'node',
  });
  const run = (endedByHarness: ReturnType<typeof process>[], withStart = true) =>
    judge({
      scenario: interrupt,
      cli: 'gemini',
      provider: 'gemini',
      log: withStart ? log : [],
      interrupted: [{ turn: 0, endedByHarness }],
    });
  it('passes when the CLI stopped by itself', () => {
    expect(run([]).rules).toEqual([]);
  });
  it('fails when the CLI, its worker or its process group outlived the interrupt', () => {
    expect(run([process(4000, 1, 4000)]).rules).toEqual(['cli.interrupt-reaches-cli']);
    expect(run([process(4100, 4000, 3000)]).rules).toEqual(['cli.interrupt-reaches-cli']);
    expect(run([process(4200, 1, 4000)]).rules).toEqual(['cli.interrupt-reaches-cli']);
  });
  it('does not blame the CLI for an unrelated leftover', () => {
    expect(run([process(5000, 1, 5000)]).rules).toEqual([]);
  });
  it('is not verified when the CLI never ran', () => {
    expect(run([], false).notVerified.map(notVerifiedText).join()).toMatch(/^cli.interrupt-reaches-cli: turn 1/);
  });
});
