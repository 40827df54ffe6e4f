// Exit codes by error class: each error a command may end with maps to its exit code and one line on
// stderr, whatever its message says; the built bin shows the same for bad options.
import { describe, expect, it } from 'vitest';
import { YumeError } from '../../common/errors.js';
import { UnquotableArgumentError } from '../../common/windows-command-line.js';
import { EXIT_CODE_BY_ERROR_CODE, EXIT_USAGE, failureOf, isKnownError } from '../../harness/cli/exit-codes.js';
import { UsageError } from '../../harness/errors.js';
import { ScenarioLoadError } from '../../harness/mock/scenario/scenario-loader.js';
import { MergeError } from '../../harness/report/merge-shards.js';
import { ReportWriteError } from '../../harness/report/reporters.js';
import { ConfigFileError } from '../../harness/runner/config/config-file.js';
import { runCli } from './helpers/run-cli.js';

const problem = { file: 'x/scenario.json', pointer: '/turns', line: 3, message: 'must be an array', fix: 'use [...]' };

describe('failureOf', () => {
  it.each([
    [new UsageError('unknown provider "x"'), 'unknown provider "x"'],
    [new ConfigFileError('--capabilities c.json: not valid JSON'), '--capabilities c.json: not valid JSON'],
    [new ScenarioLoadError([problem]), 'x/scenario.json:3 /turns: must be an array — fix: use [...]'],
    [new ReportWriteError('cannot write junit report to /x (EACCES)'), 'cannot write junit report to /x (EACCES)'],
    [new UnquotableArgumentError('cannot pass "%"', '%'), 'cannot pass "%"'],
    [new MergeError('no reports given'), 'no reports given'],
  ])('%s exits 2 with one line naming the command', (error, message) => {
    expect(isKnownError(error)).toBe(true);
    expect(failureOf('yume-conformance run', error)).toEqual({
      exitCode: EXIT_USAGE,
      line: `yume-conformance run: ${message}\n`,
    });
  });

  it('classifies by code, not by message: the same words in a plain Error are not a known error', () => {
    expect(isKnownError(new Error('unknown reporter "xml"'))).toBe(false);
    expect(isKnownError(new YumeError('SOMETHING_ELSE', 'unknown reporter "xml"'))).toBe(false);
  });

  it('an unexpected error still ends in one line, without a stack trace', () => {
    const failure = failureOf('yume-conformance', new TypeError('x is not a function'));
    expect(failure).toEqual({ exitCode: EXIT_USAGE, line: 'yume-conformance: x is not a function\n' });
    expect(failureOf('yume-conformance', 'thrown text').line).toBe('yume-conformance: thrown text\n');
  });

  it('every code in the table belongs to an error class of the project', () => {
    expect(Object.keys(EXIT_CODE_BY_ERROR_CODE).sort()).toEqual(
      ['CONFIG_FILE', 'MERGE', 'REPORT_WRITE', 'SCENARIO_LOAD', 'UNQUOTABLE_ARGUMENT', 'USAGE'].sort(),
    );
  });
});

describe.concurrent('the bin exits 2 with one line for bad options', () => {
  it.each([
    [['run', '--env', 'NO_EQUALS'], 'yume-conformance run: --env "NO_EQUALS": expected NAME=VALUE'],
    [['run', '--reporter', 'xml'], 'yume-conformance run: unknown reporter "xml"'],
    [['run', '--shard', '5/4'], 'yume-conformance run: --shard "5/4": expected i/n'],
    [['run', '--provider', 'nope'], 'yume-conformance run: unknown provider "nope"'],
    [['validate', '--reporter', 'xml', '-'], 'yume-conformance validate: unknown reporter "xml"'],
  ])('%j', async (args, start) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    // Node's own warning about NO_COLOR and FORCE_COLOR both set (by the helper) is not ours.
    const ours = result.stderr
      .split('\n')
      .filter((line) => line !== '' && !/^\(node:\d+\) Warning|^\(Use `node/.test(line));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.startsWith(start)).toBe(true);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
