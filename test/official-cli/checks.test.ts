// Every fake-CLI check proven both ways on small logs: a conforming run passes, a broken one fails with the
// rule's id. (The end-to-end proofs with real processes are in test/translator/broken-translators.test.ts.)
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFakeCliRun, type FakeCliRunInput } from '../../harness/official-cli/checks.js';
import type { ScriptScenario } from '../../harness/official-cli/script-types.js';
import type { CliLogEntry } from '../../harness/official-cli/state.js';
import { snapshotWorkspace } from '../../harness/official-cli/workspace-tools.js';
import type { CanonicalEvent } from '../../harness/protocol/canonical.js';
import { allRules } from '../../harness/rules/catalog.js';
import { FAKE_CLI_RULES } from '../../harness/rules/fake-cli-rules.js';

const scenario: ScriptScenario = {
  id: 's',
  turns: [
    { prompt: 'Read hello.txt.', responses: [] },
    { prompt: 'Again.', resume: true, responses: [] },
  ],
};

let clock = 0;
const at = () => {
  clock += 10;
  return new Date(Date.UTC(2026, 0, 1, 0, 0, 0, clock)).toISOString();
};

function start(turnIndex: number, fields: Partial<Extract<CliLogEntry, { event: 'start' }>> = {}): CliLogEntry {
  return {
    event: 'start',
    cli: 'codex',
    pid: 100 + turnIndex,
    turnIndex,
    time: at(),
    argv: ['exec', '--', scenario.turns[turnIndex]!.prompt],
    cwd: '/w',
    prompt: scenario.turns[turnIndex]!.prompt,
    sessionId: 'thread-a',
    ...fields,
  };
}

function tool(turnIndex: number, fields: Partial<Extract<CliLogEntry, { event: 'tool' }>> = {}): CliLogEntry[] {
  const base = {
    cli: 'codex' as const,
    pid: 100 + turnIndex,
    turnIndex,
    callId: 'read-1',
    name: 'Read',
    cliToolId: 'item_1',
  };
  return [
    { event: 'tool-start', ...base, time: at() },
    {
      event: 'tool',
      ...base,
      time: at(),
      input: { file_path: 'hello.txt' },
      isError: false,
      reportedIsError: false,
      output: 'Hello',
      effects: {},
      ...fields,
    },
  ];
}

const result = (isError: boolean, line = 3): CanonicalEvent => ({
  kind: 'tool_result',
  line,
  toolUseId: 'x',
  content: '',
  isError,
});

function check(log: CliLogEntry[], extra: Partial<FakeCliRunInput> = {}): string[] {
  return checkFakeCliRun({ cli: 'codex', scenario, log, turns: [0], ...extra }).map((finding) => finding.rule);
}

const goodTurn = (): CliLogEntry[] => [start(0), ...tool(0)];

describe('fake-CLI rules', () => {
  it('are well-formed and do not collide with the catalog', () => {
    for (const rule of FAKE_CLI_RULES) {
      expect(rule.level).toBe('run');
      // Either not in the catalog yet, or in it as this very definition.
      const inCatalog = allRules().find((candidate) => candidate.id === rule.id);
      expect(inCatalog === undefined || inCatalog === rule, `${rule.id} is defined elsewhere too`).toBe(true);
    }
  });

  it('a conforming run has no finding', () => {
    expect(check(goodTurn(), { eventsByTurn: [[result(false)]] })).toEqual([]);
  });
});

describe('cli.one-start-per-turn and cli.no-rerun-after-tool', () => {
  it('a turn without a start fails', () => {
    expect(check([])).toContain('cli.one-start-per-turn');
  });

  it('a second start after a tool fails both', () => {
    const rules = check([...goodTurn(), start(0, { pid: 200 }), ...tool(0).map((entry) => ({ ...entry, pid: 200 }))]);
    expect(rules).toContain('cli.one-start-per-turn');
    expect(rules).toContain('cli.no-rerun-after-tool');
  });

  it("'if-used' says nothing when the shim used the REST backend instead", () => {
    expect(check([], { usage: 'if-used' })).toEqual([]);
  });
});

describe('cli.prompt-not-option', () => {
  it('refused arguments fail', () => {
    expect(check([start(0, { prompt: undefined, argError: "error: unexpected argument '-x' found" })])).toContain(
      'cli.prompt-not-option',
    );
  });

  it('a different prompt fails, a prompt arriving on stdin passes', () => {
    expect(check([start(0, { prompt: 'Read' })])).toContain('cli.prompt-not-option');
    const viaStdin: CliLogEntry[] = [
      start(0, { prompt: undefined }),
      { event: 'prompt', cli: 'codex', pid: 100, turnIndex: 0, time: at(), prompt: 'Read hello.txt.', source: 'stdin' },
    ];
    expect(check(viaStdin)).not.toContain('cli.prompt-not-option');
  });

  it('a start that never got a prompt fails', () => {
    expect(check([start(0, { prompt: undefined })])).toContain('cli.prompt-not-option');
  });
});

describe('cli.stdin-closed', () => {
  it('a CLI that waited for stdin fails', () => {
    expect(
      check([...goodTurn(), { event: 'stdin-open', cli: 'codex', pid: 100, turnIndex: 0, time: at(), waitedMs: 5000 }]),
    ).toContain('cli.stdin-closed');
    expect(check(goodTurn())).not.toContain('cli.stdin-closed');
  });
});

describe('cli.resume-continues-session', () => {
  const both = [0, 1];
  it('a resumed turn without the previous CLI session fails', () => {
    expect(check([start(0), start(1)], { turns: both })).toContain('cli.resume-continues-session');
    expect(check([start(0), start(1, { resume: 'other', sessionId: 'other' })], { turns: both })).toContain(
      'cli.resume-continues-session',
    );
  });

  it('resuming the previous session passes', () => {
    expect(check([start(0), start(1, { resume: 'thread-a', sessionId: 'thread-a' })], { turns: both })).not.toContain(
      'cli.resume-continues-session',
    );
  });
});

describe('tool.not-run-twice', () => {
  it('a scripted call executed twice in a turn fails', () => {
    expect(check([...goodTurn(), ...tool(0)])).toContain('tool.not-run-twice');
  });

  it('a file changed after the CLI left it fails; the state the CLI left passes', () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'yume-checks-'));
    writeFileSync(path.join(workspace, 'runs.log'), 'ran\n');
    const effects = { 'runs.log': snapshotWorkspace(workspace).get('runs.log')! };
    const log = [start(0), ...tool(0, { name: 'Bash', effects })];
    expect(check(log, { workspace })).not.toContain('tool.not-run-twice');
    writeFileSync(path.join(workspace, 'runs.log'), 'ran\nran\n');
    expect(check(log, { workspace })).toContain('tool.not-run-twice');
  });
});

describe('cli.tool-outcome-matches', () => {
  it("a result whose is_error differs from the CLI's report fails", () => {
    expect(check(goodTurn(), { eventsByTurn: [[result(true)]] })).toContain('cli.tool-outcome-matches');
  });

  it('a missing result fails', () => {
    expect(check(goodTurn(), { eventsByTurn: [[]] })).toContain('cli.tool-outcome-matches');
  });

  it('a tool the CLI never finished (interrupted) must be an error result', () => {
    const interrupted = [start(0), tool(0)[0]!];
    expect(check(interrupted, { eventsByTurn: [[result(false)]] })).toContain('cli.tool-outcome-matches');
    expect(check(interrupted, { eventsByTurn: [[result(true)]] })).not.toContain('cli.tool-outcome-matches');
  });
});

describe('cli.interrupt-reaches-cli', () => {
  const interrupted: ScriptScenario = {
    id: 'i',
    turns: [{ prompt: 'Read hello.txt.', interrupt: 'after-first-text', responses: [] }],
  };
  const signal = (handled: 'ignored' | 'died' | 'stopped', pid: number): CliLogEntry => ({
    event: 'signal',
    cli: 'codex',
    pid,
    turnIndex: 0,
    time: at(),
    signal: 'SIGINT',
    handled,
  });

  it('a signal only the launcher got (and ignored) fails', () => {
    expect(check([start(0), signal('ignored', 100)], { scenario: interrupted })).toContain('cli.interrupt-reaches-cli');
  });

  it('a signal that reached the worker passes', () => {
    expect(check([start(0), signal('ignored', 100), signal('stopped', 101)], { scenario: interrupted })).not.toContain(
      'cli.interrupt-reaches-cli',
    );
  });

  it("a signal only copilot's loader got (it died of it, leaving its binary) fails; one the binary got too passes", () => {
    expect(check([start(0), signal('died', 100)], { scenario: interrupted })).toContain('cli.interrupt-reaches-cli');
    expect(check([start(0), signal('died', 100), signal('stopped', 101)], { scenario: interrupted })).not.toContain(
      'cli.interrupt-reaches-cli',
    );
  });
});

describe('cli.compaction-through-cli', () => {
  const summary = 'Summary: hello.txt says hello.';
  const compacting: ScriptScenario = {
    id: 'c',
    turns: [
      { prompt: 'Read hello.txt.', responses: [] },
      {
        prompt: '/compact task: remember it | files: hello.txt',
        resume: true,
        responses: [{ summary: true, text: [summary] }],
      },
      { prompt: 'What did it say?', resume: true, responses: [] },
    ],
  };
  const instruction = 'Summarize this conversation.\n\nAdditional instructions: task: remember it | files: hello.txt';
  const withSummary = `<conversation_so_far>\nUser: ${summary}\n</conversation_so_far>\n\nWhat did it say?`;
  type StartFields = Partial<Extract<CliLogEntry, { event: 'start' }>>;
  const startOf = (turnIndex: number, fields: StartFields) =>
    start(0, { turnIndex, pid: 100 + turnIndex, argv: ['exec', '--', String(fields.prompt)], ...fields });
  const run = (turn2: StartFields, turn3: StartFields = {}) => [
    startOf(0, { prompt: 'Read hello.txt.' }),
    startOf(1, { prompt: instruction, resume: 'thread-a', ...turn2 }),
    startOf(2, { prompt: withSummary, sessionId: 'thread-b', ...turn3 }),
  ];
  const rules = (log: CliLogEntry[], cli: 'codex' | 'claude' = 'codex') =>
    checkFakeCliRun({ cli, scenario: compacting, log, turns: [0, 1, 2] }).map((finding) => finding.rule);

  it('a summary request with the hints, then a new CLI session carrying the summary, passes', () => {
    expect(rules(run({}))).toEqual([]);
  });

  it('/compact passed to the CLI fails (it reaches the model as text)', () => {
    expect(rules(run({ prompt: compacting.turns[1]!.prompt }))).toContain('cli.compaction-through-cli');
  });

  it('a summary request without the hints fails', () => {
    expect(rules(run({ prompt: 'Summarize this conversation.' }))).toContain('cli.compaction-through-cli');
  });

  it('resuming the compacted CLI session fails under this rule, not cli.resume-continues-session', () => {
    const found = rules(run({}, { resume: 'thread-a', sessionId: 'thread-a' }));
    expect(found).toContain('cli.compaction-through-cli');
    expect(found).not.toContain('cli.resume-continues-session');
  });

  it('a new session whose prompt lacks the summary fails', () => {
    expect(rules(run({}, { prompt: 'What did it say?' }))).toContain('cli.compaction-through-cli');
  });

  it('claude runs /compact itself: passing it on and resuming claude afterwards passes', () => {
    const log = [
      startOf(0, { cli: 'claude', prompt: 'Read hello.txt.' }),
      startOf(1, { cli: 'claude', prompt: compacting.turns[1]!.prompt, resume: 'thread-a' }),
      startOf(2, { cli: 'claude', prompt: 'What did it say?', resume: 'thread-a' }),
    ];
    expect(rules(log, 'claude')).toEqual([]);
  });

  it('a /compact of an empty session needs no start; starting a CLI that cannot compact there fails', () => {
    const empty: ScriptScenario = { id: 'e', turns: [{ prompt: '/compact', responses: [] }] };
    const of = (log: CliLogEntry[]) =>
      checkFakeCliRun({ cli: 'codex', scenario: empty, log, turns: [0] }).map((finding) => finding.rule);
    expect(of([])).toEqual([]);
    expect(of([start(0, { prompt: '/compact' })])).toContain('cli.compaction-through-cli');
  });
});
