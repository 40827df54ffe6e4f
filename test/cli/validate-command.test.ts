// `yume-conformance validate` as a user runs it: the built bin, real files, exit codes.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validatorFor } from '../../harness/protocol/schemas.js';
import { assertWellFormedXml } from '../helpers/junit-xml.js';
import { envelopeTurn, flatTurn, init, stream, text } from '../rules/helpers/streams.js';
import { runCli } from './helpers/run-cli.js';

const run = (args: string[], options: { input?: Buffer | string; env?: NodeJS.ProcessEnv } = {}) =>
  runCli(args, { ...options, cwd: work });

const work = mkdtempSync(path.join(tmpdir(), 'yume-validate-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function file(name: string, content: Buffer | string): string {
  const p = path.join(work, name);
  writeFileSync(p, content);
  return p;
}

const good = file('good.jsonl', stream(...flatTurn()));
const bad = file('bad.jsonl', stream(init(), text('no result')));

describe.concurrent('yume-conformance validate', () => {
  it('exits 0 for a conforming capture and says so', async () => {
    const r = await run(['validate', good]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✔ conforms');
    expect(r.stdout).toContain('1 passed, 0 failed');
  });

  it('exits 1 when a MUST rule fails and shows rule id, file:line, excerpt and fix', async () => {
    const r = await run(['validate', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('turn.result-last');
    expect(r.stdout).toContain(`${bad}:2`);
    expect(r.stdout).toContain('> {"type":"text","content":"no result"}');
    expect(r.stdout).toContain('fix: Always print a `result`');
  });

  it('reads stdin for -', async () => {
    const r = await run(['validate', '-'], { input: stream(...envelopeTurn()) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('claude-envelope');
  });

  it.each([
    [['validate', path.join(work, 'missing.jsonl')], /cannot read .*missing\.jsonl: no such file/],
    [['validate', work], /cannot read .*: it is a directory/],
    [['validate', good, '--reporter', 'bogus'], /unknown reporter "bogus"/],
    [['validate', good, '--reporter', 'json:'], /needs a file name/],
    [['validate', good, '--profile', 'strict'], /Allowed choices are spec, yume-app/],
    [['validate'], /missing required argument/],
    [['validate', good, '--reporter', `junit:${path.join(good, 'x.xml')}`], /cannot write junit report/],
  ])('exits 2 with a clear message and no stack trace: %j', async (args, message) => {
    const r = await run(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('writes several reporters at once: junit to a file and human to stdout', async () => {
    const out = path.join(work, 'reports', 'out.xml');
    const r = await run(['validate', bad, good, '--reporter', `junit:${out}`, '--reporter', 'human']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('1 passed, 1 failed');
    const xml = readFileSync(out, 'utf8');
    assertWellFormedXml(xml);
    expect(xml).toContain('tests="2" failures="1"');
    expect(xml).toContain('<failure message="turn.result-last: the stream ends without a result"');
  });

  it('prints a JSON report that matches schemas/report.schema.json', async () => {
    const r = await run(['validate', bad, '--reporter', 'json', '--profile', 'yume-app']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const validate = validatorFor('report.schema.json');
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.summary).toEqual({
      passed: 0,
      failed: 1,
      warnings: 1,
      runsWithWarnings: 1,
      notVerified: 0,
      partial: 0,
    });
    expect(report.runs[0]).toMatchObject({
      scenario: bad,
      status: 'failed',
      profile: 'yume-app',
      dialect: 'flat',
      lines: 2,
    });
    expect(report.runs[0].findings.map((f: { rule: string }) => f.rule)).toEqual([
      'app.flat-dialect',
      'turn.result-last',
    ]);
  });

  it('colours only when wanted: FORCE_COLOR on, NO_COLOR wins', async () => {
    expect((await run(['validate', bad], { env: { FORCE_COLOR: '1' } })).stdout).toContain('\u001b[');
    expect((await run(['validate', bad], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(
      '\u001b[',
    );
    expect((await run(['validate', bad])).stdout).not.toContain('\u001b['); // not a terminal
  });

  it('judges the spawn-per-turn mode when asked', async () => {
    const twoTurns = file(
      'two-turns.jsonl',
      stream(...flatTurn(), text('again'), {
        type: 'result',
        subtype: 'success',
        is_error: false,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    expect((await run(['validate', twoTurns])).code).toBe(0);
    const r = await run(['validate', twoTurns, '--mode', 'spawn-per-turn']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('turn.nothing-after-result');
  });
});
