// What copilot writes to `--usage-output-file` when it ends (its only token counts: stdout never shows one): the
// session's running totals per model, so a resumed session's file counts its earlier turns too. With no call
// counted, the model tables are empty.
import { writeFileSync } from 'node:fs';
import type { UsageTotals } from '../script-playback.js';

/** Writes the usage file `--usage-output-file` names (a flag value that is not a path writes nothing). */
export function writeCopilotUsage(
  file: unknown,
  model: string,
  { session, started }: { session: UsageTotals; started: number },
): void {
  if (typeof file !== 'string') return;
  try {
    writeFileSync(file, `${JSON.stringify(copilotUsageFile(model, session, started), null, 2)}\n`);
  } catch {
    // copilot reports nothing when it cannot write the file
  }
}

function copilotUsageFile(model: string, session: UsageTotals, started: number): Record<string, unknown> {
  const counted = session.input + session.output > 0;
  const usage = {
    inputTokens: session.input,
    outputTokens: session.output,
    cacheReadTokens: session.cached,
    cacheWriteTokens: 0,
  };
  const requests = { count: counted ? 1 : 0, cost: 0 };
  const metrics = { requests, usage, totalNanoAiu: 0, aiCreditsStatus: 'unavailable' };
  return {
    totalPremiumRequestCost: 0,
    totalUserRequests: counted ? 1 : 0,
    totalNanoAiu: 0,
    ...(counted ? { aiCreditsStatus: 'unavailable' } : {}),
    totalApiDurationMs: Date.now() - started,
    sessionStartTime: new Date(started).toISOString(),
    codeChanges: { linesAdded: 0, linesRemoved: 0, filesModifiedCount: 0, filesModified: [] },
    modelMetrics: counted ? { [model]: metrics } : {},
    agentMetrics: counted
      ? {
          main: {
            totalApiDurationMs: 0,
            totalNanoAiu: 0,
            modelMetrics: { [model]: { requests, usage, totalNanoAiu: 0 } },
          },
        }
      : {},
    providerModelMetrics: counted ? [{ provider: null, modelId: model, metrics, modelDisplayName: model }] : [],
    ...(counted ? { currentModel: model } : {}),
    lastCallInputTokens: 0,
    lastCallOutputTokens: 0,
  };
}
