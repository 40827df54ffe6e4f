// The long-session bench's scenario: a session of many turns that the scenario loader accepts as it is (the
// schema sets no upper bound on turns), every turn after the first resuming, each reading a file of its own.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  longSessionScenario,
  partFileName,
  partFirstLine,
  partText,
  writeLongSession,
} from '../../bench/long-session-scenario.mjs';
import { loadAllScenarios, validateScenario } from '../../harness/mock/scenario/scenario-loader.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'yc-long-session-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the long-session scenario', () => {
  it('is a valid scenario of 40 turns, each after the first resuming and reading its own file', () => {
    const scenario = validateScenario(longSessionScenario('long-session-40', 40), 'long-session-40', 'long-session-40');
    expect(scenario.turns).toHaveLength(40);
    expect(scenario.turns[0]!.resume).toBeUndefined();
    expect(scenario.turns.slice(1).every((turn) => turn.resume === true)).toBe(true);
    const reads = scenario.turns.map((turn) => turn.responses[0].toolCalls?.[0]?.input);
    expect(new Set(reads.map((input) => JSON.stringify(input))).size).toBe(40);
    expect(scenario.turns[39]!.expect.toolResults).toEqual([
      { id: 'read-part-40', isError: false, contains: [partFirstLine(40)] },
    ]);
  });

  it('gives each turn a file of about the size asked, starting with the line its answer quotes', () => {
    const text = partText(7, 24 * 1024);
    expect(text.length).toBeGreaterThanOrEqual(24 * 1024);
    expect(text.length).toBeLessThan(24 * 1024 + 200);
    expect(text.startsWith(`${partFirstLine(7)}\n`)).toBe(true);
    expect(partText(8, 24 * 1024)).not.toBe(text);
  });

  it('is written as transcripts/ holds a scenario, and loads from there', () => {
    const dir = writeLongSession(root, { id: 'long-session-3', turns: 3, fileBytes: 2048 });
    expect(dir).toBe(path.join(root, 'long-session-3'));
    const [loaded] = loadAllScenarios(root);
    expect(loaded!.id).toBe('long-session-3');
    expect(loaded!.turns).toHaveLength(3);
    const third = path.join(dir, 'workspace', partFileName(3));
    expect(statSync(third).size).toBeGreaterThanOrEqual(2048);
    expect(readFileSync(third, 'utf8')).toBe(partText(3, 2048));
  });
});
