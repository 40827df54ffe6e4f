// The one error base: every error class of the project extends YumeError and has its own name, a stable
// code and the error it wraps as `cause`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { messageOf, YumeError } from '../../common/errors.js';
import { UnquotableArgumentError } from '../../common/windows-command-line.js';
import { UsageError } from '../../harness/errors.js';
import { ScenarioLoadError } from '../../harness/mock/scenario/scenario-loader.js';
import { MergeError } from '../../harness/report/merge-shards.js';
import { ReportWriteError } from '../../harness/report/reporters.js';
import { ConfigFileError } from '../../harness/runner/config/config-file.js';
import { PresetError } from '../../harness/suite/preset.js';
import { ArgumentError } from '../../reference-shim/cli/args.js';
import { ProviderError } from '../../reference-shim/providers/provider.js';
import { TransportError } from '../../reference-shim/providers/transport.js';
import { HistoryFileError } from '../../reference-shim/session/history-file.js';
import { SessionFileError } from '../../reference-shim/session/store.js';
import { ToolInputError } from '../../reference-shim/tools/types.js';

const cause = new Error('the underlying failure');
const problem = { file: 'x/scenario.json', pointer: '/turns', line: 3, message: 'must be an array', fix: 'use [...]' };

const ERRORS: Array<[string, string, YumeError]> = [
  ['UsageError', 'USAGE', new UsageError('m', { cause })],
  ['ConfigFileError', 'CONFIG_FILE', new ConfigFileError('m', { cause })],
  ['ReportWriteError', 'REPORT_WRITE', new ReportWriteError('m', { cause })],
  ['ScenarioLoadError', 'SCENARIO_LOAD', new ScenarioLoadError([problem])],
  ['UnquotableArgumentError', 'UNQUOTABLE_ARGUMENT', new UnquotableArgumentError('m', '%')],
  ['ArgumentError', 'ARGUMENT', new ArgumentError('m', { cause })],
  ['ToolInputError', 'TOOL_INPUT', new ToolInputError('m', { cause })],
  ['SessionFileError', 'SESSION_FILE', new SessionFileError('m', { cause })],
  ['HistoryFileError', 'HISTORY_FILE', new HistoryFileError('m', { cause })],
  ['TransportError', 'TRANSPORT', new TransportError('m', false, { cause })],
  ['PresetError', 'PRESET', new PresetError('m', { cause })],
  ['MergeError', 'MERGE', new MergeError('m', { cause })],
  ['ProviderError', 'PROVIDER_AUTH', new ProviderError('auth', 'm', { status: 401 }, { cause })],
];

describe('YumeError', () => {
  it.each(ERRORS)('%s is a YumeError with its own name and the code %s', (name, code, error) => {
    expect(error).toBeInstanceOf(YumeError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(String(error)).toMatch(new RegExp(`^${name}: `));
    expect(error.stack).toContain(name);
  });

  it('keeps what it wraps as the standard cause, and no cause when given none', () => {
    for (const [, , error] of ERRORS.filter(
      ([name]) => !['ScenarioLoadError', 'UnquotableArgumentError'].includes(name),
    )) {
      expect(error.cause).toBe(cause);
    }
    expect('cause' in new UsageError('m')).toBe(false);
  });

  it('names anything thrown in one message', () => {
    expect(messageOf(new UsageError('bad --jobs'))).toBe('bad --jobs');
    expect(messageOf('a string')).toBe('a string');
    expect(messageOf(undefined)).toBe('undefined');
  });

  it('every error class of the project extends it: no class but YumeError extends Error directly', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const files = globSync(['common/**/*.ts', 'harness/**/*.ts', 'reference-shim/**/*.ts'], { cwd: root });
    expect(files.length).toBeGreaterThan(50);
    const direct = files.filter((file) =>
      /class \w+ extends Error\b/.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(direct).toEqual(['common/errors.ts']);
  });
});
