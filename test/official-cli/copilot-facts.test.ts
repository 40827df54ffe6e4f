// The fake copilot against the copilot facts (test/fixtures/streams/captures/copilot/facts/, recorded by
// recorder/record-facts.sh): the real 1.0.102 playing the suite's fault scenarios, a 401 on every request, a 400,
// commands without --allow-all-tools and an interrupt while a command runs. The fake, started as the recorder
// started copilot, prints the same events with the same fields and values once ids, times and paths are
// normalised, exits with the same code and prints the same stderr noise.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../harness/mock/scenario/scenario-loader.js';
import { collapse, type Json, noise, parse, shapeOf, values } from './helpers/capture-compare.js';
import { withoutProgress } from './helpers/copilot-capture-values.js';
import { COPILOT_ENV, HEADLESS_ARGS, ROOT, runFake, sleep } from './helpers/run-fake.js';

const COPILOT = path.join(ROOT, 'test', 'fixtures', 'streams', 'captures', 'copilot');
const TRANSCRIPTS = path.join(ROOT, 'transcripts');
const RECORDER_SCENARIOS = path.join(COPILOT, 'recorder', 'scenarios');

interface Fact {
  id: string;
  scenarios: string;
  /** Started without --allow-all-tools. */
  readOnly?: boolean;
  /** SIGINT to the group while the scenario's command runs. */
  interrupt?: boolean;
}

const FACTS: Fact[] = [
  { id: 'fault-403', scenarios: TRANSCRIPTS },
  { id: 'fault-404', scenarios: TRANSCRIPTS },
  { id: 'fault-stream-cut', scenarios: TRANSCRIPTS },
  { id: 'fault-malformed-chunk', scenarios: TRANSCRIPTS },
  { id: 'interrupt-during-bash', scenarios: TRANSCRIPTS, interrupt: true },
  { id: 'x-401-persistent', scenarios: RECORDER_SCENARIOS },
  { id: 'x-400', scenarios: RECORDER_SCENARIOS },
  { id: 'x-read-only', scenarios: RECORDER_SCENARIOS, readOnly: true },
];

/**
 * What follows copilot's `abort` varies between runs of one interrupt (HOW-CAPTURED.md): its reason
 * (`user_initiated`, or `user_abort` and a `session.info` cancellation) and whether a `result` line comes. The
 * comparison stops at the abort and holds its reason to the two seen.
 */
function untilAbort(lines: Json[]): Json[] {
  const at = lines.findIndex((line) => (line as { type?: string }).type === 'abort');
  if (at < 0) return lines;
  const reason = (lines[at] as { data?: { reason?: string } }).data?.reason;
  expect(['user_initiated', 'user_abort']).toContain(reason);
  return lines.slice(0, at);
}

/**
 * Commands started together complete in any order and take shell ids in any order: each run of consecutive
 * `tool.execution_complete` lines is put in the order of `key`, and shell ids are left out.
 */
function completionsInOrder(lines: Json[], key: (line: Json) => string): Json[] {
  const out: Json[] = [];
  let run: Json[] = [];
  const flush = () => {
    out.push(...run.sort((a, b) => key(a).localeCompare(key(b))));
    run = [];
  };
  for (const line of lines) {
    if ((line as { type?: string }).type === 'tool.execution_complete') run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.map((line) => JSON.parse(JSON.stringify(line).replace(/shellId: \d+/g, 'shellId: N')) as Json);
}
const byShape = (line: Json) => JSON.stringify(shapeOf(line));

describe.concurrent('the fake copilot matches the copilot facts', () => {
  it.each(FACTS)('$id', async (fact) => {
    const base = path.join(COPILOT, 'facts', fact.id);
    const scenario = loadScenario(path.join(fact.scenarios, fact.id));
    const args = HEADLESS_ARGS.copilot(scenario.turns[0]!.prompt).filter(
      (arg) => !(fact.readOnly && arg === '--allow-all-tools'),
    );
    const fake = await runFake({
      cli: 'copilot',
      args,
      scenario,
      env: COPILOT_ENV,
      onEvent: fact.interrupt
        ? {
            event: 'tool-start',
            act: async (pid) => {
              await sleep(300);
              process.kill(-pid, 'SIGINT');
            },
          }
        : undefined,
    });
    const cut = (lines: Json[]) => (fact.interrupt ? untilAbort(lines) : lines);
    const comparable = (lines: Json[], dir: string) =>
      completionsInOrder(values(lines, dir, [], 'copilot'), (line) => JSON.stringify(line));
    const captured = cut(withoutProgress(parse(readFileSync(`${base}.stdout.jsonl`, 'utf8'))));
    const printed = cut(withoutProgress(parse(fake.stdout)));
    const shapes = (lines: Json[]) => collapse(completionsInOrder(lines, byShape).map((line) => shapeOf(line)));
    expect(shapes(printed)).toEqual(shapes(captured));
    expect(comparable(printed, fake.workspace)).toEqual(comparable(captured, '/home/dev/work/copilot'));
    const exit = Number(/rc=(\d+)/.exec(readFileSync(`${base}.exit.txt`, 'utf8'))?.[1]);
    // The recorder's shell reports a loader killed by SIGINT as 130; the fake's loader dies of it the same way.
    expect(fake.code ?? (fake.signal === 'SIGINT' ? 130 : -1), fake.stderr).toBe(exit);
    const stderr = (() => {
      try {
        return readFileSync(`${base}.stderr.txt`, 'utf8');
      } catch {
        return '';
      }
    })();
    expect(noise(fake.stderr)).toEqual(expect.arrayContaining(noise(stderr)));
  });
});
