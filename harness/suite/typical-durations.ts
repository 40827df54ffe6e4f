// Typical wall time of one run of each scenario (ms, the mean over the runs of a default suite against the
// reference shim on 2 cores). Only proportions matter: shards are balanced by these
// numbers and the pool starts the longest runs first, so the suite does not end waiting on one slow run.
// A scenario missing here counts as DEFAULT_DURATION_MS. Regenerate from a JSON report with
// `node scripts/typical-durations.mjs report.json`.
export const TYPICAL_DURATIONS_MS: Readonly<Record<string, number>> = {
  'bad-argument': 150,
  'cli-missing': 150,
  compact: 310,
  'compact-empty': 120,
  'compact-interrupted': 1660,
  'compact-persistent': 430,
  'fault-400': 240,
  'fault-401': 290,
  'fault-403': 310,
  'fault-404': 250,
  'fault-429-retry-after': 940,
  'fault-429-then-success': 350,
  'fault-500-exhausted': 280,
  'fault-503': 350,
  'fault-context-overflow': 430,
  'fault-malformed-chunk': 290,
  'fault-stream-cut': 270,
  'gcloud-auth': 170,
  interrupt: 800,
  'interrupt-during-bash': 510,
  'invalid-tool-arguments': 250,
  'kill-and-resume': 1390,
  'kill-and-resume-bash': 1890,
  'large-tool-output': 210,
  'multi-tool': 300,
  'outside-cwd': 120,
  'parallel-tools': 300,
  'permission-deny': 330,
  'persistent-interactive': 150,
  'persistent-interrupt': 1100,
  'persistent-mode': 500,
  'plain-text': 310,
  'plain-text-no-git': 150,
  resume: 470,
  'silent-command': 260,
  'single-tool': 240,
  'tool-error': 260,
  'unicode-tool-output': 290,
};

export const DEFAULT_DURATION_MS = 500;

export function typicalDurationMs(scenario: string): number {
  return TYPICAL_DURATIONS_MS[scenario] ?? DEFAULT_DURATION_MS;
}
