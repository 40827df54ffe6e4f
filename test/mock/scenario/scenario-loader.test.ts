// Scenario files: the shipped ones load; broken ones give one clear line per problem (file:line, JSON path, fix).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  loadAllScenarios,
  loadScenario,
  ScenarioLoadError,
  validateScenario,
} from '../../../harness/mock/scenario/scenario-loader.js';
import { requiredUnder } from '../../../harness/mock/scenario/scenario-types.js';

const transcripts = path.resolve(import.meta.dirname, '../../../transcripts');
const MINE = [
  'plain-text',
  'single-tool',
  'multi-tool',
  'tool-error',
  'interrupt',
  'fault-401',
  'fault-403',
  'fault-400',
  'fault-404',
  'fault-429-then-success',
  'fault-429-retry-after',
  'fault-500-exhausted',
  'fault-503',
  'fault-stream-cut',
  'fault-malformed-chunk',
  'invalid-tool-arguments',
  'parallel-tools',
  'gcloud-auth',
];

function writeScenario(text: string, folder = 'broken'): string {
  const root = mkdtempSync(path.join(tmpdir(), 'yume-scenario-'));
  const dir = path.join(root, folder);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'scenario.json'), text);
  return dir;
}
function problemsOf(dir: string): string[] {
  try {
    loadScenario(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioLoadError);
    return (error as ScenarioLoadError).message.split('\n');
  }
  throw new Error('expected the scenario to be rejected');
}
const valid = {
  id: 'broken',
  title: 't',
  description: 'd',
  spec: 's',
  turns: [{ prompt: 'p', responses: [{ text: ['hi'] }], expect: { isError: false } }],
};

describe('shipped scenarios', () => {
  test('every scenario under transcripts/ loads, and the required five of each profile are marked required', () => {
    const scenarios = loadAllScenarios(transcripts);
    const ids = scenarios.map((scenario) => scenario.id);
    for (const id of MINE) expect(ids).toContain(id);
    const requiredUnderProfile = (profile: 'spec' | 'yume-app') =>
      scenarios
        .filter((scenario) => requiredUnder(scenario, profile))
        .map((scenario) => scenario.id)
        .sort();
    // The app never signals a shim: under yume-app the stop is kill-and-resume, not the SIGINT interrupt.
    expect(requiredUnderProfile('spec')).toEqual([
      'interrupt',
      'multi-tool',
      'plain-text',
      'single-tool',
      'tool-error',
    ]);
    expect(requiredUnderProfile('yume-app')).toEqual([
      'kill-and-resume',
      'multi-tool',
      'plain-text',
      'single-tool',
      'tool-error',
    ]);
  });

  test.each(MINE)('%s has its workspace fixtures', (id) => {
    const scenario = loadScenario(path.join(transcripts, id));
    expect(scenario.workspaceDir).toBeDefined();
    expect(readFileSync(path.join(scenario.workspaceDir!, 'hello.txt'), 'utf8')).toBe(
      'Hello from the fixture file.\nSecond line.\n',
    );
    expect(existsSync(path.join(scenario.workspaceDir!, 'notes.txt'))).toBe(true);
  });

  test('multi-tool writes and edits files, and workspace-after holds exactly the result of its tool calls', () => {
    const scenario = loadScenario(path.join(transcripts, 'multi-tool'));
    const calls = scenario.turns.flatMap((turn) => turn.responses.flatMap((response) => response.toolCalls ?? []));
    expect(calls.map((call) => call.name)).toEqual(expect.arrayContaining(['Write', 'Edit']));
    // Real agents (Claude Code) refuse to edit a file they have not read: every Edit follows a Read of its file.
    calls.forEach((call, index) => {
      if (call.name !== 'Edit') return;
      const file = (call.input as Record<string, string>).file_path;
      const readBefore = calls
        .slice(0, index)
        .some((earlier) => earlier.name === 'Read' && (earlier.input as Record<string, string>).file_path === file);
      expect(readBefore, `Edit of ${file} without a Read before it`).toBe(true);
    });
    // Apply the script's Write/Edit calls to the fixtures and compare with workspace-after/.
    const files = new Map(
      readdirSync(scenario.workspaceDir!).map((name) => [
        name,
        readFileSync(path.join(scenario.workspaceDir!, name), 'utf8'),
      ]),
    );
    for (const call of calls) {
      const input = call.input as Record<string, string>;
      if (call.name === 'Write') files.set(input.file_path!, input.content!);
      if (call.name === 'Edit')
        files.set(input.file_path!, files.get(input.file_path!)!.replace(input.old_string!, input.new_string!));
    }
    const after = new Map(
      readdirSync(scenario.workspaceAfterDir!).map((name) => [
        name,
        readFileSync(path.join(scenario.workspaceAfterDir!, name), 'utf8'),
      ]),
    );
    expect(after).toEqual(files);
  });
});

describe('clear errors', () => {
  test('invalid JSON names the file and the line', () => {
    const dir = writeScenario('{\n  "id": "broken",\n  "title": "t",,\n}');
    const [line] = problemsOf(dir);
    expect(line).toContain(`${path.join(dir, 'scenario.json')}:3`);
    expect(line).toMatch(/not valid JSON.*fix: fix the JSON syntax/);
  });

  test('a missing file says so', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yume-scenario-'));
    expect(problemsOf(dir)[0]).toMatch(/cannot read scenario\.json — fix: create scenario\.json/);
  });

  test('schema errors name line, JSON path and a fix', () => {
    const broken = structuredClone(valid) as any;
    broken.turns[0].responses.push({ fault: { kind: 'timeout' } });
    broken.turns[0].responses.push({ toolCalls: [{ id: 'a', name: 'Read', input: {}, rawArguments: '{' }] });
    broken.turns[0].expect.isEror = true;
    delete broken.title;
    const lines = problemsOf(writeScenario(JSON.stringify(broken, null, 2)));
    const text = lines.join('\n');
    expect(text).toMatch(/scenario\.json:1 \(document\): missing property "title" — fix: add "title"/);
    expect(text).toMatch(/:\d+ \/turns\/0\/responses\/1\/fault: unknown fault kind "timeout" — fix: use one of "http"/);
    expect(text).toMatch(
      /\/turns\/0\/responses\/2\/toolCalls\/0: has both "input" and "rawArguments" — fix: keep "input"/,
    );
    expect(text).toMatch(
      /\/turns\/0\/expect\/isEror: unknown property "isEror" — fix: remove "isEror" or correct its spelling/,
    );
    const isErorLine = lines.find((entry) => entry.includes('isEror'))!;
    const reported = Number(/scenario\.json:(\d+)/.exec(isErorLine)![1]);
    expect(JSON.stringify(broken, null, 2).split('\n')[reported - 1]).toContain('"isEror"');
  });

  test('cross-field rules: folder name, duplicate ids, unknown expected ids, HTTP fault with text, interrupt without stall', () => {
    const broken = {
      ...structuredClone(valid),
      id: 'other-name',
      turns: [
        {
          prompt: 'p',
          interrupt: 'after-first-text',
          responses: [
            { fault: { kind: 'http', status: 500 }, text: ['lost'] },
            {
              toolCalls: [
                { id: 'dup', name: 'Read', input: {} },
                { id: 'dup', name: 'Read', input: {} },
              ],
            },
          ],
          expect: { isError: false, toolResults: [{ id: 'nope', isError: false }] },
        },
      ],
    };
    const text = problemsOf(writeScenario(JSON.stringify(broken, null, 2))).join('\n');
    expect(text).toContain('/id: id "other-name" differs from the folder name "broken" — fix: set "id" to "broken"');
    expect(text).toContain('/turns/0/responses/1/toolCalls/1/id: tool call id "dup" is used twice');
    expect(text).toContain(
      '/turns/0/expect/toolResults/0/id: no tool call with id "nope" in this turn — fix: use one of "dup"',
    );
    expect(text).toContain('/turns/0/responses/0: an HTTP fault answers before any streaming');
    expect(text).toContain('/turns/0/interrupt: an interrupt after the first text needs a response that stalls');
  });

  test('cross-field rules of compaction: a summary is text alone; a context overflow carries no text', () => {
    const broken = {
      ...structuredClone(valid),
      turns: [
        {
          prompt: '/compact',
          responses: [
            { summary: true, toolCalls: [{ id: 'c1', name: 'Read', input: { file_path: 'a' } }] },
            { fault: { kind: 'context-overflow' }, text: ['lost'] },
          ],
          expect: { isError: false },
        },
      ],
    };
    const text = problemsOf(writeScenario(JSON.stringify(broken, null, 2))).join('\n');
    expect(text).toContain('/turns/0/responses/0/summary: a summary needs its text');
    expect(text).toContain('/turns/0/responses/0/summary: a summary cannot call tools, carry a fault or repeat');
    expect(text).toContain('/turns/0/responses/1: a context-overflow fault answers before any streaming');
  });

  test('loadAllScenarios reports the problems of every broken folder at once', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'yume-scenarios-'));
    for (const id of ['a-ok', 'b-bad', 'c-bad']) {
      mkdirSync(path.join(root, id));
      const scenario = { ...valid, id, ...(id === 'a-ok' ? {} : { turns: [] }) };
      writeFileSync(path.join(root, id, 'scenario.json'), JSON.stringify(scenario));
    }
    try {
      loadAllScenarios(root);
      throw new Error('expected a failure');
    } catch (error) {
      const problems = (error as ScenarioLoadError).problems;
      expect(problems.map((problem) => path.basename(path.dirname(problem.file)))).toEqual(['b-bad', 'c-bad']);
      expect(problems[0]).toMatchObject({ pointer: '/turns', fix: 'give at least 1 item(s)' });
    }
  });

  test('validateScenario checks an in-memory script', () => {
    expect(validateScenario(valid).id).toBe('broken');
    expect(() => validateScenario({ ...valid, turns: [{ prompt: '', responses: [], expect: {} }] })).toThrow(
      ScenarioLoadError,
    );
  });
});
