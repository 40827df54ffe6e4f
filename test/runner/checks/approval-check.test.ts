import { describe, expect, it } from 'vitest';
import { approvalChecks, deniesACall } from '../../../harness/runner/checks/approval-check.js';
import { rules, scenarioOf, toolResult, toolUse } from '../helpers/check-fixtures.js';

const interactive = (approvals: boolean[]) => scenarioOf([{ approvals }], { permissionMode: 'interactive' });

describe('approvalChecks', () => {
  it('fails a denied call answered as a success, on the line of its tool_result', () => {
    const events = [
      toolUse(3, 'a', 'Write'),
      toolResult(4, 'a', false),
      toolUse(5, 'b', 'Write'),
      toolResult(6, 'b', false),
    ];
    const findings = approvalChecks(interactive([true, false]), [0], () => events);
    expect(rules(findings)).toEqual(['permission.approval-honoured']);
    expect(findings[0]!.line).toBe(6);
  });

  it('passes a denied call answered with an error, and approved calls whatever they return', () => {
    const events = [
      toolUse(3, 'a', 'Write'),
      toolResult(4, 'a', false),
      toolUse(5, 'b', 'Write'),
      toolResult(6, 'b', true),
    ];
    expect(approvalChecks(interactive([true, false]), [0], () => events)).toEqual([]);
  });

  it('does not look outside interactive mode or at turns without approvals', () => {
    const events = [toolUse(3, 'a', 'Write'), toolResult(4, 'a', false)];
    expect(approvalChecks(scenarioOf([{ approvals: [false] }]), [0], () => events)).toEqual([]);
    expect(approvalChecks(interactive([false]), [1], () => events)).toEqual([]);
  });

  it('matches a denial to the tool_use of the same position, not to any tool_result', () => {
    const events = [toolUse(3, 'a', 'Write'), toolResult(4, 'a', true), toolResult(5, 'other', false)];
    expect(approvalChecks(interactive([false]), [0], () => events)).toEqual([]);
  });
});

describe('deniesACall', () => {
  it('is true only for an interactive scenario with a denied approval', () => {
    expect(deniesACall(interactive([true, false]))).toBe(true);
    expect(deniesACall(interactive([true, true]))).toBe(false);
    expect(deniesACall(scenarioOf([{ approvals: [false] }], { permissionMode: 'deny' }))).toBe(false);
  });
});
