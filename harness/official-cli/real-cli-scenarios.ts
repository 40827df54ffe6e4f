// The scenarios every official CLI is held to in real-CLI mode (the five required ones, two faults, and a
// resumed session: codex reports a resumed thread's running usage total, which only a real run showed): the
// drift check runs them against a newly published CLI, and the real-mode test against the pinned ones.
export const REAL_CLI_SCENARIOS = [
  'plain-text',
  'single-tool',
  'multi-tool',
  'tool-error',
  'interrupt',
  'fault-401',
  'fault-500-exhausted',
  'resume',
] as const;

/** The capabilities file (--capabilities) the reference shim runs them with: resume is an optional feature. */
export const REAL_CLI_CAPABILITIES = {
  name: 'yume-shim (reference) with the real official CLIs',
  providers: ['gemini-cli', 'codex-cli', 'claude-cli', 'copilot-cli'],
  features: ['cli', 'resume'],
};
