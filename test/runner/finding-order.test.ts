// The order and the size of a run's findings: causes first, and at most a bounded number per rule with the
// rest counted, so that a shim printing endless mismatches still gets a short report with the same verdict.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../harness/rules/types.js';
import { capPerRule, causesFirst } from '../../harness/runner/finding-order.js';

const finding = (rule: string, message: string, severity: Finding['severity'] = 'MUST'): Finding => ({
  rule,
  severity,
  message,
});

describe('causesFirst', () => {
  it('puts the cause before its consequences and keeps the rest in order', () => {
    const ordered = causesFirst([
      finding('golden.turns', 'a'),
      finding('workspace.matches', 'b'),
      finding('tool.not-run-twice', 'c'),
      finding('cli.refused-to-start', 'd'),
    ]);
    expect(ordered.map((entry) => entry.message)).toEqual(['d', 'c', 'a', 'b']);
  });
});

describe('capPerRule', () => {
  it('keeps the first findings of a rule and counts the rest in one more finding of that rule', () => {
    const flood = Array.from({ length: 120 }, (_, index) => finding('golden.turns', `mismatch ${index}`));
    const capped = capPerRule([finding('usage.present', 'one'), ...flood, finding('usage.present', 'two')], 50);
    expect(capped).toHaveLength(53);
    expect(capped.slice(0, 3).map((entry) => entry.message)).toEqual(['one', 'mismatch 0', 'mismatch 1']);
    const summary = capped.filter((entry) => entry.rule === 'golden.turns').at(-1)!;
    expect(summary).toMatchObject({
      severity: 'MUST',
      message: '70 more findings of this rule not listed (120 in total)',
    });
    expect(capped.at(-1)!.message).toBe('two');
  });

  it('counts the stream validator’s own summary instead of listing it again', () => {
    const validator = [
      ...Array.from({ length: 50 }, (_, index) => finding('framing.single-line-json', `line ${index + 1}`)),
      finding('framing.single-line-json', '3145678 more findings of this rule not listed (3145728 in total)'),
    ];
    const capped = capPerRule(validator, 50);
    expect(capped).toHaveLength(51);
    expect(capped.at(-1)!.message).toBe('3145678 more findings of this rule not listed (3145728 in total)');
    // Two processes' worth: the second one's findings all go into the count.
    const twice = capPerRule([...validator, ...validator], 50);
    expect(twice).toHaveLength(51);
    expect(twice.at(-1)!.message).toBe('6291406 more findings of this rule not listed (6291456 in total)');
  });

  it('leaves a list within the limit as it is', () => {
    const few = [finding('a.b', 'x'), finding('a.b', 'y', 'SHOULD')];
    expect(capPerRule(few, 1)).toEqual(few);
  });
});
