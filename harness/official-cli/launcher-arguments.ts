// Leading arguments the launchers pass to dist/fake-cli.js (after the CLI name) to name the D4 state and
// log files; the YUME_CONFORMANCE_FAKE_CLI_* environment variables are the fallback. Kept apart from
// install.ts so the bundled fake does not pull in the launcher writer.
export const STATE_ARGUMENT = '--yume-conformance-state=';
export const LOG_ARGUMENT = '--yume-conformance-log=';
/** First argument of the real-CLI wrapper's logger call: log this start of the named CLI and exit. */
export const LOG_START_ARGUMENT = '--yume-conformance-log-start=';
