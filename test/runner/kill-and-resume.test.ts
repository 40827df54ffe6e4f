// The yume-app profile follows the app: its stop is SIGKILL to the shim's pid (kill-and-resume), never SIGINT;
// session files are checked for every --provider flag but Claude's, with `title` optional; `required` is per
// profile. Each check proven both ways.
import { describe, expect, it } from 'vitest';
import type { TurnModel } from '../../harness/golden/golden-model.js';
import { validatorFor } from '../../harness/protocol/schemas.js';
import { compareKilledWithGolden } from '../../harness/runner/checks/kill-checks.js';
import type { CapabilitiesFile } from '../../harness/runner/config/capabilities.js';
import {
  describeFindings,
  fixtureShim,
  processesTagged,
  referenceShim,
  rules,
  runFixture,
} from './helpers/run-fixture.js';

const YUME_APP = { invocation: { kind: 'yume-app' } as const, profile: 'yume-app' as const };

describe.concurrent('kill-and-resume', () => {
  it.each([
    ['kill-and-resume', 'gemini', YUME_APP],
    ['kill-and-resume', 'openai-chat', {}],
    ['kill-and-resume-bash', 'openai-responses', YUME_APP],
    ['kill-and-resume-bash', 'codex-cli', {}],
  ] as const)('the reference shim passes %s (%s)', async (scenario, provider, options) => {
    const result = await runFixture(referenceShim, scenario, { provider, ...options, timeoutMs: 20_000 });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(result.status).toBe('passed');
    // Turn 2 was killed with SIGKILL at its scripted moment, and said so; turn 3 resumed and finished.
    expect(result.processes.map((process) => process.signal)).toEqual([null, 'SIGKILL', null]);
    const kill = result.timeline.find((entry) => entry.text.startsWith("SIGKILL to the shim's pid"));
    expect(kill?.text).toMatch(
      scenario === 'kill-and-resume'
        ? /the mock sent the first text chunk and the shim printed it/
        : /the scripted tool's process \d+ \(.*sleep 30\) was running|the official CLI logged that it started the tool/,
    );
    // Its tools end with it, SIGKILL included (each runs under a watchdog): no warning at all, none left.
    expect(result.findings.filter((finding) => finding.severity === 'SHOULD')).toEqual([]);
    expect(result.notVerified).toBeUndefined();
    expect(processesTagged(result.tag)).toEqual([]);
    // Started as the app starts it, with no dialect asked, it speaks Claude envelopes (R1a); else flat.
    const app = 'invocation' in options;
    expect(result.dialect).toBe(app ? undefined : 'flat');
    expect(result.dialectSeen).toBe(app ? 'claude' : 'flat');
  });

  it('warns of a Bash tool that outlives the killed shim, and ends it', async () => {
    const result = await runFixture(fixtureShim('leaves-tools-on-sigkill.mjs'), 'kill-and-resume-bash', {
      timeoutMs: 20_000,
    });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(result.processes.map((process) => process.signal)).toEqual([null, 'SIGKILL', null]);
    const orphaned = result.findings.filter((finding) => finding.rule === 'process.orphaned-tools');
    expect(orphaned).toHaveLength(1);
    expect(orphaned[0]?.severity).toBe('SHOULD');
    expect(orphaned[0]?.message).toMatch(/sleep \(pid \d+\).*the harness ended them/);
    expect(processesTagged(result.tag)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')(
    'sees the same under the process-group fallback: nothing of the reference shim left, the fixture warned of',
    async () => {
      const options = { provider: 'openai-chat', timeoutMs: 20_000, isolation: 'process-group' } as const;
      const reference = await runFixture(referenceShim, 'kill-and-resume-bash', options);
      expect(rules(reference), describeFindings(reference)).toEqual([]);
      expect(reference.findings.filter((finding) => finding.severity === 'SHOULD')).toEqual([]);
      expect(reference.notVerified).toBeUndefined();
      const broken = await runFixture(fixtureShim('leaves-tools-on-sigkill.mjs'), 'kill-and-resume-bash', options);
      expect(rules(broken, 'SHOULD')).toContain('process.orphaned-tools');
      expect(processesTagged(broken.tag)).toEqual([]);
    },
  );

  // The killed turn printed `stream_event` deltas and no envelope yet: read alone its lines look flat, where a
  // delta does not count as streamed text. It is judged in the dialect the run's other turns printed (R1).
  it('judges a turn killed after stream_event deltas alone in the dialect of the other turns', async () => {
    const capabilities: CapabilitiesFile = { providers: ['openai-responses'], dialect: 'claude', features: ['resume'] };
    const result = await runFixture(fixtureShim('prints-claude-forms.mjs'), 'kill-and-resume', {
      ...YUME_APP,
      provider: 'openai-responses',
      capabilities,
      timeoutMs: 20_000,
    });
    const killed = result.processes[1]!;
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout.toString()).toContain('"type":"stream_event"');
    expect(killed.stdout.toString()).not.toContain('"type":"assistant"');
    expect(result.dialectSeen).toBe('claude');
    expect(rules(result, 'SHOULD'), describeFindings(result)).toEqual([]);
    expect(rules(result), describeFindings(result)).toEqual([]);
    // The same deltas in a run whose other turns print flat lines still count for nothing.
    const flat = await runFixture(fixtureShim('prints-claude-forms-flat.mjs'), 'kill-and-resume', {
      provider: 'openai-chat',
      timeoutMs: 20_000,
    });
    expect(flat.dialectSeen).toBe('flat');
    expect(rules(flat, 'SHOULD')).toContain('streaming.incremental');
  });

  it('fails a shim that forgets the completed turn on resume', async () => {
    const result = await runFixture(fixtureShim('forgets-session-file.mjs'), 'kill-and-resume', { timeoutMs: 20_000 });
    expect(rules(result)).toContain('requests.history-on-resume');
    expect(describeFindings(result)).toContain('the prompt of turn 1 ("Remember the word lighthouse for later.")');
    // The killed turn's prompt is never demanded.
    expect(describeFindings(result)).not.toContain('the prompt of turn 2');
  });
});

describe('the killed turn against its golden', () => {
  const text = (value: string, line: number) => ({ kind: 'text' as const, text: value, lines: [line] });
  const golden: TurnModel[] = [{ items: [text('Once upon a time, ', 2)] }];

  it('compares only what was printed before the kill', () => {
    expect(compareKilledWithGolden(golden, [{ items: [] }], 'golden.2.jsonl', 'turn 2')).toEqual([]);
    expect(compareKilledWithGolden(golden, [{ items: [text('Once upon', 2)] }], 'golden.2.jsonl', 'turn 2')).toEqual(
      [],
    );
  });

  it('fails other text printed before the kill', () => {
    const [finding] = compareKilledWithGolden(golden, [{ items: [text('Twice', 2)] }], 'golden.2.jsonl', 'turn 2');
    expect(finding).toMatchObject({ rule: 'golden.text', line: 2 });
  });
});

describe('the SIGINT interrupt under yume-app', () => {
  it('is not run: the app never signals a shim', async () => {
    const result = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'interrupt', { profile: 'yume-app' });
    expect(result.status).toBe('not-verified');
    expect(result.notVerified?.[0]?.reason).toContain('the app never sends a shim SIGINT');
    expect(result.processes).toEqual([]);
    expect(result.findings).toEqual([]);
  });

  it('stays required under spec', async () => {
    const result = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'interrupt', {});
    expect(result).toMatchObject({ status: 'passed', required: true });
  });
});

describe('session files', () => {
  it('need no title', async () => {
    const validate = validatorFor('session-file.schema.json');
    const file = {
      id: 'abc',
      provider: 'gemini',
      model: 'm',
      cwd: '/w',
      history: [],
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    const result = await runFixture(fixtureShim('saves-session-without-title.mjs'), 'plain-text');
    expect(rules(result), describeFindings(result)).toEqual([]);
  });

  it("are checked for every provider flag but Claude's", async () => {
    const forgets = fixtureShim('forgets-session-file.mjs');
    expect(rules(await runFixture(forgets, 'plain-text', { provider: 'openai-chat' }))).toEqual(['session.file']);
    // Claude's sessions belong to Claude Code, which the app never reads from ~/.yume.
    // (The mini shim speaks only Chat Completions, so other rules fail for anthropic; session.file is not judged.)
    expect(rules(await runFixture(forgets, 'plain-text', { provider: 'anthropic' }))).not.toContain('session.file');
  });
});
