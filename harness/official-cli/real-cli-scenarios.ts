// The scenarios every official CLI is held to in real-CLI mode (the five required ones and two faults): the
// drift check runs them against a newly published CLI, and the real-mode test against the pinned ones.
export const REAL_CLI_SCENARIOS = [
  'plain-text',
  'single-tool',
  'multi-tool',
  'tool-error',
  'interrupt',
  'fault-401',
  'fault-500-exhausted',
] as const;
