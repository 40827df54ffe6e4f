// The fake official CLIs (Type B) as the runner uses them: install, point at a turn, read the log, check.
export { installFakeClis, setFakeCliTurn, readFakeCliLog, waitForFakeCliEvent, fakeCliScriptPath } from './install.js';
export type { InstallFakeClisOptions, InstalledFakeClis } from './install.js';
export { checkFakeCliRun } from './checks.js';
export type { FakeCliRunInput } from './checks.js';
export { CLI_OMISSIONS, expectedToolCall } from './omissions.js';
export type { CliOmissions } from './omissions.js';
export { CLI_PROVIDER_IDS, FAKE_CLI_NAMES } from './script-types.js';
export type { FakeCliName, ScriptScenario } from './script-types.js';
export { STATE_ENV, LOG_ENV } from './state.js';
export type { FakeCliLogEntry, FakeCliState } from './state.js';
