// total_cost_usd's price table (reference-shim/agent/pricing.ts): which model name gets which price.
import { describe, expect, it } from 'vitest';
import { costUsd } from '../../reference-shim/agent/pricing.js';

/** The cost of a million input tokens: the table's input price. */
const inputPrice = (model: string) => costUsd(model, { inputTokens: 1_000_000, outputTokens: 0 });

describe('price table', () => {
  it.each([
    ['claude-sonnet-4-5', 3],
    ['claude-3-7-sonnet-20250219', 3],
    ['claude-3-5-sonnet-latest', 3],
    ['claude-opus-4-1', 15],
    ['claude-haiku-4-5', 0.8],
    ['claude-3-5-haiku-20241022', 0.8],
    ['gemini-2.5-pro', 1.25],
    ['gemini-2.5-flash-lite', 0.1],
    ['gemini-2.5-flash', 0.3],
    ['gpt-4.1-mini', 0.4],
    ['gpt-4.1-nano', 0.1],
    ['gpt-4.1', 2],
    ['gpt-4.1-2025-04-14', 2],
    ['gpt-4o-mini', 0.15],
    ['gpt-4o', 2.5],
    ['gpt-5-codex-mini', 0.25],
    ['gpt-5.1-codex-mini', 0.25],
    ['gpt-5-mini', 0.25],
    ['gpt-5.2-mini', 0.25],
    ['gpt-5', 1.25],
    ['gpt-5.2', 1.25],
    ['gpt-5.2-codex', 1.25],
  ])('%s costs %s per million input tokens', (model, price) => {
    expect(inputPrice(model)).toBe(price);
  });

  it.each(['gpt-5-nano', 'gpt-5.2-codex-max', 'claude-2', 'gemini-1.5-pro', 'llama-3', 'GPT-4.1'])(
    '%s has no price (no made-up total_cost_usd)',
    (model) => {
      expect(inputPrice(model)).toBeUndefined();
    },
  );

  it('counts output, cache reads and cache writes at their own prices', () => {
    expect(
      costUsd('claude-sonnet-4-5', {
        inputTokens: 1_000_000,
        outputTokens: 1_000_000,
        cacheReadTokens: 1_000_000,
        cacheCreationTokens: 1_000_000,
      }),
    ).toBe(3 + 15 + 0.3 + 3.75);
  });
});
