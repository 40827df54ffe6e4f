import { describe, expect, it } from 'vitest';
import { compactHints, isCompactPrompt } from '../../common/compact-command.js';

describe('the /compact command', () => {
  it.each([
    ['/compact', true],
    ['  /compact  ', true],
    ['/compact task: fix the parser | files: src/a.ts', true],
    ['/compact\nkeep the first line', true],
    ['/compacted', false],
    ['/compactify now', false],
    ['please /compact', false],
    ['<memory>notes</memory>\n/compact', false],
    ['/COMPACT', false],
    ['', false],
  ])('%j asks for a compaction: %s', (prompt, expected) => {
    expect(isCompactPrompt(prompt)).toBe(expected);
  });

  it('takes the rest of the prompt as hints, trimmed', () => {
    expect(compactHints('/compact   task: fix the parser | files: src/a.ts  ')).toBe(
      'task: fix the parser | files: src/a.ts',
    );
    expect(compactHints('/compact')).toBe('');
    expect(compactHints('what is /compact')).toBe('');
  });
});
