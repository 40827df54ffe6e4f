// Every event the real copilot printed in the captures is one its own shipped schema accepts: the checked-in
// part of it is the right part, and the fake's events (fake-copilot.test.ts) are judged by the same schema.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotEventProblems } from './helpers/copilot-event-schema.js';

const CAPTURES = path.resolve(import.meta.dirname, '..', 'fixtures', 'streams', 'captures', 'copilot');
const files = readdirSync(CAPTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.stdout.jsonl'))
  .sort();

describe("copilot's captured events and its event schema", () => {
  it('finds the captures', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  it.each(files)('%s', (name) => {
    const lines = readFileSync(path.join(CAPTURES, name), 'utf8').split('\n').filter(Boolean);
    const problems = lines.flatMap((line, index) =>
      copilotEventProblems(JSON.parse(line) as Record<string, unknown>).map(
        (problem) => `line ${index + 1}: ${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it('refuses an event with a field its schema does not have, and a result without its session id', () => {
    const first = JSON.parse(readFileSync(path.join(CAPTURES, '1-plain.stdout.jsonl'), 'utf8').split('\n')[4]!);
    expect(copilotEventProblems(first)).toEqual([]);
    expect(copilotEventProblems({ ...first, data: { ...first.data, surprise: 1 } })).not.toEqual([]);
    expect(copilotEventProblems({ type: 'result', exitCode: 0, usage: {} })).toEqual(['result.sessionId is no UUID']);
  });
});
