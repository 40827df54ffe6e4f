// The line diff shown when a golden differs.
import { describe, expect, it } from 'vitest';
import { diffLines, formatDiff } from '../../../harness/golden/compare/line-diff.js';

describe('line diff', () => {
  it('marks removed and added lines with their numbers and shows a little context', () => {
    expect(diffLines('a\nb\nc\n', 'a\nx\nc\n').map((line) => `${line.kind}${line.line}`)).toEqual([
      ' 1',
      '-2',
      '+2',
      ' 3',
    ]);
    expect(formatDiff('1\n2\n3\n4\n5\n6\n', '1\n2\n3\n4\n5\nsix\n')).toBe('   …\n     5 5\n-    6 6\n+    6 six');
    expect(formatDiff('same\n', 'same\n')).toBe('');
  });
});
