// Typical wall time of one run of each scenario (ms, the median over providers of a default run against the
// reference shim with 4 runs at a time on 2 cores). Only proportions matter: shards are balanced by these
// numbers and the pool starts the longest runs first, so the suite does not end waiting on one slow run.
// A scenario missing here counts as DEFAULT_DURATION_MS. Regenerate from a JSON report with
// `node scripts/typical-durations.mjs report.json`.
export const TYPICAL_DURATIONS_MS: Readonly<Record<string, number>> = {
  'cli-missing': 960,
  'fault-400': 510,
  'fault-401': 420,
  'fault-403': 460,
  'fault-404': 420,
  'fault-429-retry-after': 1360,
  'fault-429-then-success': 390,
  'fault-500-exhausted': 400,
  'fault-503': 370,
  'fault-malformed-chunk': 330,
  'fault-stream-cut': 410,
  'gcloud-auth': 330,
  interrupt: 480,
  'interrupt-during-bash': 860,
  'invalid-tool-arguments': 350,
  'large-tool-output': 640,
  'multi-tool': 590,
  'parallel-tools': 460,
  'permission-deny': 350,
  'persistent-interactive': 290,
  'persistent-interrupt': 420,
  'persistent-mode': 420,
  'plain-text': 390,
  resume: 1040,
  'single-tool': 520,
  'tool-error': 530,
  'unicode-tool-output': 510,
};

export const DEFAULT_DURATION_MS = 500;

export function typicalDurationMs(scenario: string): number {
  return TYPICAL_DURATIONS_MS[scenario] ?? DEFAULT_DURATION_MS;
}
