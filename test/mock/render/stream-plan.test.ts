// What the mock server does on the socket for a scripted response: every frame in order, or the script's
// stall or fault acting right after the first text frame (early in the stream when there is none).
import { describe, expect, it } from 'vitest';
import { buildStreamPlan, type PlanStep } from '../../../harness/mock/render/stream-plan.js';
import type { WireFrame } from '../../../harness/mock/render/wire-frames.js';
import type { ModelResponse } from '../../../harness/mock/scenario/scenario-types.js';

const frame = (name: string, firstText = false): WireFrame => ({
  bytes: `data: {"frame":"${name}"}\n\n`,
  ...(firstText ? { firstText } : {}),
});
const frames = [frame('start'), frame('text', true), frame('more'), frame('end')];
const response = (extra: Record<string, unknown> = {}) => ({ text: ['hi'], ...extra }) as unknown as ModelResponse;
const kinds = (steps: PlanStep[]) =>
  steps.map((step) => (step.kind === 'bytes' ? (/"frame":"(\w+)"/.exec(step.bytes)?.[1] ?? 'bytes') : step.kind));

describe('buildStreamPlan', () => {
  it('writes every frame, marking the first text, with no gap', () => {
    const plan = buildStreamPlan('openai-chat', frames, response());
    expect(kinds(plan.steps)).toEqual(['start', 'text', 'first-text', 'more', 'end']);
    expect(plan.gapMs).toBe(0);
  });

  it('stalls right after the first text', () => {
    const plan = buildStreamPlan('openai-chat', frames, response({ stall: true }));
    expect(kinds(plan.steps)).toEqual(['start', 'text', 'first-text', 'stall']);
  });

  it('cuts the next frame in half, then resets the connection', () => {
    const plan = buildStreamPlan('openai-chat', frames, response({ fault: { kind: 'cut' } }));
    expect(plan.steps.map((step) => step.kind)).toEqual(['bytes', 'bytes', 'first-text', 'bytes', 'cut']);
    const half = plan.steps[3] as { bytes: string };
    expect(frames[2]!.bytes.startsWith(half.bytes)).toBe(true);
    expect(half.bytes.length).toBe(Math.floor(frames[2]!.bytes.length / 2));
  });

  it('sends a malformed copy of the next frame and goes on with the rest', () => {
    const plan = buildStreamPlan('openai-chat', frames, response({ fault: { kind: 'malformed' } }));
    const bytes = plan.steps.flatMap((step) => (step.kind === 'bytes' ? [step.bytes] : []));
    expect(bytes).toHaveLength(5);
    expect(() => JSON.parse(bytes[2]!.replace(/^data: /, ''))).toThrow();
    expect(bytes.slice(3)).toEqual([frames[2]!.bytes, frames[3]!.bytes]);
  });

  it("ends with the provider's own in-stream error after the first text", () => {
    const plan = buildStreamPlan('openai-chat', frames, response({ fault: { kind: 'mid-stream-error' } }));
    const last = plan.steps.at(-1) as { kind: string; bytes: string };
    expect(plan.steps).toHaveLength(4);
    expect(last.bytes).toContain('server_error');
  });

  it('acts early in the stream when no frame carries text', () => {
    const plain = [frame('a'), frame('b'), frame('c'), frame('d')];
    const plan = buildStreamPlan('gemini', plain, response({ stall: true }));
    expect(kinds(plan.steps)).toEqual(['a', 'b', 'stall']);
  });

  it('drips with the scripted gap', () => {
    const plan = buildStreamPlan('anthropic', frames, response({ fault: { kind: 'drip', gapMs: 40 } }));
    expect(plan.gapMs).toBe(40);
    expect(kinds(plan.steps)).toEqual(['start', 'text', 'first-text', 'more', 'end']);
  });
});
