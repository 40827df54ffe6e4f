// Prices in US dollars per million tokens, for the models the suite and the app use. A model not listed here
// gets no total_cost_usd rather than a made-up one.
interface Price {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * Which models a price is for: name prefixes (plain string checks: a one-turn process would pay each regular
 * expression's first run, ~20 µs apiece), or a pattern where the end of the name matters. First match wins.
 */
type ModelMatch = readonly string[] | RegExp;

const PRICES: Array<[ModelMatch, Price]> = [
  [
    ['claude-sonnet-4', 'claude-3-7-sonnet', 'claude-3-5-sonnet'],
    { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  ],
  [['claude-opus-4'], { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }],
  [['claude-haiku-4', 'claude-3-5-haiku'], { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }],
  [['gemini-2.5-pro'], { input: 1.25, output: 10, cacheRead: 0.31 }],
  [['gemini-2.5-flash-lite'], { input: 0.1, output: 0.4, cacheRead: 0.025 }],
  [['gemini-2.5-flash'], { input: 0.3, output: 2.5, cacheRead: 0.075 }],
  [['gpt-4.1-mini'], { input: 0.4, output: 1.6, cacheRead: 0.1 }],
  [['gpt-4.1-nano'], { input: 0.1, output: 0.4, cacheRead: 0.025 }],
  [['gpt-4.1'], { input: 2, output: 8, cacheRead: 0.5 }],
  [['gpt-4o-mini'], { input: 0.15, output: 0.6, cacheRead: 0.075 }],
  [['gpt-4o'], { input: 2.5, output: 10, cacheRead: 1.25 }],
  [/^gpt-5(\.\d)?-codex-mini/, { input: 0.25, output: 2, cacheRead: 0.025 }],
  [/^gpt-5(\.\d)?-mini/, { input: 0.25, output: 2, cacheRead: 0.025 }],
  [/^gpt-5(\.\d)?(-codex)?$/, { input: 1.25, output: 10, cacheRead: 0.125 }],
];

const matches = (match: ModelMatch, model: string): boolean =>
  match instanceof RegExp ? match.test(model) : match.some((prefix) => model.startsWith(prefix));

export function costUsd(
  model: string,
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheCreationTokens?: number },
): number | undefined {
  const price = PRICES.find(([match]) => matches(match, model))?.[1];
  if (!price) return undefined;
  const dollars =
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      (usage.cacheReadTokens ?? 0) * (price.cacheRead ?? price.input) +
      (usage.cacheCreationTokens ?? 0) * (price.cacheWrite ?? price.input)) /
    1_000_000;
  return Math.round(dollars * 1e8) / 1e8;
}
