// Turns what a CLI says about a failed provider call into the ProviderError kind R5 asks the shim to
// print: auth → system error; retryable (the CLI already retried and gave up), request, stream → error.
import { ProviderError, type TurnSink } from '../provider.js';
import type { CliUsageTotals } from './cli-provider.js';

export function errorFromStatus(status: number | undefined, message: string): ProviderError {
  const details = status === undefined ? {} : { status };
  if (status === 401 || status === 403) return new ProviderError('auth', message, details);
  if (status === 429 || status === 408 || (status !== undefined && status >= 500))
    return new ProviderError('retryable', message, details);
  if (status !== undefined && status >= 400) return new ProviderError('request', message, details);
  return new ProviderError('stream', message, details);
}

/** The HTTP status a CLI quotes in an error message, if any. */
export function statusInMessage(message: string): number | undefined {
  const quoted =
    /"code"\s*:\s*(\d{3})/.exec(message) ??
    /"status"\s*:\s*(\d{3})/.exec(message) ??
    /\b(?:status(?: code)?|HTTP|API Error)[:\s(]*(\d{3})\b/i.exec(message) ??
    /\b([45]\d\d)\b/.exec(message);
  if (quoted) return Number(quoted[1]);
  // Wordings that stand for an exhausted retry of a server error.
  if (/high demand|temporar(y|ily) (unavailable|errors?)|overloaded/i.test(message)) return 503;
  return undefined;
}

/** Permission modes that let the CLI change files and run commands (the rest keep it read-only). */
export function allowsChanges(permissionMode: string): boolean {
  return !['deny', 'plan', 'interactive'].includes(permissionMode);
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** An input object with the undefined fields left out. */
export function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * Reports what a turn used from a CLI's running session total (codex's thread, copilot's usage file): what it added
 * since the total the resumed session had reached, when that is anything.
 */
export function reportUsageSince(sink: TurnSink, totals: CliUsageTotals, previous: CliUsageTotals | undefined): void {
  const since = (key: keyof CliUsageTotals) => Math.max(0, totals[key] - (previous?.[key] ?? 0));
  const input = since('inputTokens');
  const output = since('outputTokens');
  const cached = since('cacheReadTokens');
  if (input > 0 || output > 0)
    sink.usage({ inputTokens: input, outputTokens: output, ...(cached > 0 ? { cacheReadTokens: cached } : {}) });
}
