// Reporters on a report with awkward content: XML-hostile characters, colours, several runs and statuses.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { validatorFor } from '../../harness/protocol/schemas.js';
import { renderHtml } from '../../harness/report/html.js';
import { colorWanted, renderHuman } from '../../harness/report/human.js';
import { renderJson } from '../../harness/report/json.js';
import { renderJunit, xmlEscape } from '../../harness/report/junit.js';
import {
  buildReport,
  notVerifiedByRule,
  type ReportRun,
  runFromValidation,
  summarize,
  warningsText,
} from '../../harness/report/model.js';
import { emitReports, parseReporterSpec, registerReporter } from '../../harness/report/reporters.js';
import { validateStream } from '../../harness/validate/validate-stream.js';
import { assertWellFormedXml } from '../helpers/junit-xml.js';
import { init, stream, text } from '../rules/helpers/streams.js';

const nasty = 'a <b> & "c" \'d\' \u0001\u001b[31m \ud800 \uffff end';
const runs: ReportRun[] = [
  {
    scenario: 'plain-text',
    provider: 'openai-chat',
    status: 'passed',
    findings: [{ rule: 'tool.one-at-a-time-envelope', severity: 'SHOULD', message: 'two pending', line: 3 }],
  },
  {
    scenario: `weird ${nasty}`,
    provider: 'gemini',
    status: 'failed',
    findings: [{ rule: 'framing.utf8', severity: 'MUST', message: nasty, line: 2, excerpt: nasty, fix: 'encode' }],
  },
  {
    scenario: 'interrupt',
    provider: 'anthropic',
    status: 'not-verified',
    findings: [{ rule: 'process.started', severity: 'INFO', message: 'no signals on this platform' }],
    notVerified: [{ scope: 'run', cause: 'platform', reason: 'needs POSIX signals, which Windows does not have' }],
  },
  {
    scenario: 'multi-tool',
    provider: 'gemini-cli',
    status: 'partial',
    findings: [],
    notVerified: [
      { rule: 'cli.tool-outcome-matches', scope: 'check', cause: 'harness', reason: 'turn 1: not legible <x>' },
      { rule: 'cli.tool-outcome-matches', scope: 'check', cause: 'harness', reason: 'turn 2: not legible' },
      { rule: 'process.exit-after-result', scope: 'check', cause: 'machine', reason: 'too busy to judge' },
    ],
  },
];
const report = buildReport(runs);

describe('report model', () => {
  it('summarises runs by status and counts warnings', () => {
    expect(summarize(runs)).toEqual({
      passed: 1,
      failed: 1,
      warnings: 1,
      runsWithWarnings: 1,
      notVerified: 1,
      partial: 1,
    });
    const validate = validatorFor('report.schema.json');
    expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('carries the report version apart from the protocol version, and rejects prose not-verified lists', () => {
    expect(report.reportVersion).toBe('2.1');
    expect(report.protocolVersion).not.toBe(report.reportVersion);
    const validate = validatorFor('report.schema.json');
    const prose = { ...report, runs: [{ ...runs[2], notVerified: 'needs POSIX signals' }] };
    expect(validate(JSON.parse(JSON.stringify(prose)))).toBe(false);
    const noCause = { ...report, runs: [{ ...runs[2], notVerified: [{ scope: 'run', reason: 'x' }] }] };
    expect(validate(JSON.parse(JSON.stringify(noCause)))).toBe(false);
  });

  it('counts not-verified checks per rule, whole runs apart', () => {
    expect(notVerifiedByRule(runs)).toEqual([
      ['cli.tool-outcome-matches', 2],
      ['(whole run)', 1],
      ['process.exit-after-result', 1],
    ]);
  });

  it('turns a validation into a run', () => {
    const run = runFromValidation(validateStream(stream(init(), text('x'))), 'cap.jsonl');
    expect(run).toMatchObject({
      scenario: 'cap.jsonl',
      provider: 'n/a',
      status: 'failed',
      dialect: 'flat',
      lines: 2,
      profile: 'spec',
    });
    expect(run.findings[0]).toMatchObject({
      rule: 'turn.result-last',
      line: 2,
      excerpt: '{"type":"text","content":"x"}',
    });
  });
});

describe('junit reporter', () => {
  it('produces well-formed XML whatever the messages contain', () => {
    const xml = renderJunit(report);
    assertWellFormedXml(xml);
    expect(xml).toContain('tests="4" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('<skipped message="needs POSIX signals, which Windows does not have"/>');
    expect(xml).toContain(
      '<property name="not-verified" value="cli.tool-outcome-matches [harness]: turn 1: not legible &lt;x&gt;"/>',
    );
    expect(xml).toContain('<property name="not-verified" value="(run) [platform]: needs POSIX signals');
    expect(xml).toContain('&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;');
    expect(xml).not.toContain('\u0001');
  });

  it('says the warnings as every report does: N warnings (SHOULD findings) in M runs', () => {
    const twice: ReportRun = { ...runs[0]!, findings: [...runs[0]!.findings, ...runs[0]!.findings] };
    const counted = buildReport([twice, { ...twice, scenario: 'single-tool' }, runs[1]!]);
    expect(counted.summary).toMatchObject({ warnings: 4, runsWithWarnings: 2 });
    expect(renderJunit(counted)).toContain(
      '<properties><property name="warnings" value="4"/><property name="runsWithWarnings" value="2"/></properties>',
    );
    expect(renderHtml(counted)).toContain('<span><b>4 warnings in 2 runs</b></span>');
    expect(renderHtml(counted)).not.toContain('runsWithWarnings');
    expect(renderHuman(counted, { color: false })).toContain('1 failed, 4 warnings in 2 runs\n');
    expect(warningsText({ warnings: 1, runsWithWarnings: 1 })).toBe('1 warning in 1 run');
    expect(warningsText({ warnings: 0, runsWithWarnings: 0 })).toBe('0 warnings');
  });

  it('escapes the five special characters and replaces what XML cannot hold', () => {
    expect(xmlEscape('<&>"\'')).toBe('&lt;&amp;&gt;&quot;&apos;');
    expect(xmlEscape('\u0000x\ud83d\ude00\udc00')).toBe('\ufffdx\ud83d\ude00\ufffd');
  });
});

describe('human reporter', () => {
  it('shows what did not pass with rule ids, lines, excerpts and fixes; passing runs only in the counts', () => {
    const text = renderHuman(report, { color: false });
    expect(text).toContain('✔ conforms  plain-text [openai-chat]\n'); // a validate-style report names passing files, one line each
    expect(text).toContain('Failed (1)\n  ✘ weird ');
    expect(text).toContain('Not verified (1)\n  ○ interrupt [anthropic]');
    expect(text).toContain('Partial (1): passed with a declared limitation\n  ◐ multi-tool [gemini-cli]');
    expect(text).toMatch(/MUST {3}framing\.utf8 {2}line 2\n/); // provider runs: the stdout line
    expect(text).toContain('fix: encode');
    expect(text).toContain('SHOULD tool.one-at-a-time-envelope  ×1\n');
    expect(text).not.toContain('process.started'); // INFO: only with --verbose
    expect(text.trimEnd().split('\n').slice(-3)).toEqual([
      '4 run(s): 1 passed, 1 failed, 1 not verified, 1 partial, 1 warning in 1 run',
      'not verified, per rule: cli.tool-outcome-matches 2, (whole run) 1, process.exit-after-result 1',
      '✘ does not conform',
    ]);
    expect(text).not.toContain('\u001b'); // no colour codes, and the message's own ESC is shown escaped
    expect(text).toContain('\\u001b[31m');
  });

  it('uses colours only when asked', () => {
    expect(renderHuman(report, { color: true })).toContain('\u001b[32m');
    expect(colorWanted({ isTTY: true }, {})).toBe(true);
    expect(colorWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted({ isTTY: false }, {})).toBe(false);
    expect(colorWanted({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
  });
});

describe('reporter specs', () => {
  it('parses NAME and NAME:FILE (Windows drive letters included) and rejects unknown names', () => {
    expect(parseReporterSpec('human')).toEqual({ name: 'human' });
    expect(parseReporterSpec('junit:C:\\reports\\out.xml')).toEqual({ name: 'junit', file: 'C:\\reports\\out.xml' });
    expect(() => parseReporterSpec('xml')).toThrow(/unknown reporter "xml"/);
  });

  it('lets other features register a reporter (html) and writes each to its target', () => {
    registerReporter('count', (r) => `${r.runs.length} runs\n`);
    const out = new PassThrough();
    let written = '';
    out.on('data', (c) => (written += c));
    emitReports(report, [parseReporterSpec('count'), parseReporterSpec('json')], out);
    expect(written.startsWith('4 runs\n{')).toBe(true);
  });
});

describe('notes on the suite, and a suite that ran nothing', () => {
  const note = {
    rule: 'workspace.outside-home-temp',
    severity: 'INFO' as const,
    message: `new in the system temp folder (/tmp): /tmp/stray ${nasty}`,
    fix: 'honour TMPDIR',
  };
  const noted = { ...report, suiteFindings: [note] };
  const nothing = { ...buildReport([]), exitCode: 2 as const, startFailure: 'frobnicate: no such file or command' };

  it('the human report shows the notes after the runs, before the counts, which do not count them', () => {
    const text = renderHuman(noted, { color: false });
    const lines = text.trimEnd().split('\n');
    const at = lines.indexOf('The suite as a whole');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('  INFO   workspace.outside-home-temp');
    expect(lines[at + 2]).toContain('/tmp/stray');
    // The counts (before the verdict, which is last) do not count the note as a warning.
    const counts = lines.findIndex((line) => /^\d+ run\(s\): /.test(line));
    expect(counts).toBeLessThan(lines.length - 1);
    expect(lines.at(-1)).toMatch(/does not conform|conforms/);
    expect(counts).toBeGreaterThan(at);
    expect(lines[counts]).toContain(`${report.summary.warnings} warning`);
    expect(renderHuman(report, { color: false })).not.toContain('The suite as a whole');
  });

  it('the human report of a suite that ran nothing says only that and why', () => {
    expect(renderHuman(nothing, { color: false })).toBe(
      'No run took place: the shim could not be started: frobnicate: no such file or command\n',
    );
  });

  it('JUnit carries the notes as the suite output and the start failure as a property; both stay well formed', () => {
    const xml = renderJunit(noted);
    assertWellFormedXml(xml);
    expect(xml).toMatch(/<\/testcase>\n {4}<system-out>INFO workspace.outside-home-temp: new in the system temp/);
    const empty = renderJunit(nothing);
    assertWellFormedXml(empty);
    expect(empty).toContain('tests="0"');
    expect(empty).toContain('<property name="startFailure" value="frobnicate: no such file or command"/>');
  });

  it('JSON keeps both, valid against the report schema', () => {
    for (const value of [noted, nothing]) {
      const parsed = JSON.parse(renderJson(value));
      expect(validatorFor('report.schema.json')(parsed)).toBe(true);
    }
    expect(JSON.parse(renderJson(nothing)).startFailure).toBe('frobnicate: no such file or command');
  });
});
