// Where every run-level rule of the catalog is proven both ways. A fixture proof names a broken shim that must
// be reported under the rule and a conforming shim that must not be, each on a scenario; a unit proof names the
// test file whose table proves the rule with constructed inputs (request records, fake-CLI logs, goldens).
// Stream rules are proven by helpers/stream-cases.ts. test/rules/catalog-truth.test.ts requires a proof here
// for every run rule, test/rules/run-rule-proofs.test.ts runs the fixture proofs (those with `runIn` run in that
// file, which also checks their timing).
import { FAKE_CLI_RULES } from '../../../harness/rules/fake-cli-rules.js';
import { REQUEST_RULES } from '../../../harness/rules/request-rules.js';
import type { FixtureRun } from '../../runner/helpers/run-fixture.js';

export interface FixtureCase {
  /** A file in test/fixtures/shims/. */
  shim: string;
  /** A folder in transcripts/. */
  scenario: string;
  options?: FixtureRun;
}

export type RuleProof =
  | { rule: string; failing: FixtureCase; conforming: FixtureCase; runIn?: string }
  | { rule: string; unit: string };

const mini = (scenario: string): FixtureCase => ({ shim: 'conforming-mini-shim.mjs', scenario });
const reference = (scenario: string): FixtureCase => ({ shim: 'passes-through-reference.mjs', scenario });
const fixture = (rule: string, shim: string, scenario: string, conforming: FixtureCase, runIn?: string): RuleProof => ({
  rule,
  failing: { shim, scenario },
  conforming,
  ...(runIn ? { runIn } : {}),
});
/** A broken shim on a scenario the reference shim passes. */
const againstReference = (rule: string, shim: string, scenario: string): RuleProof =>
  fixture(rule, shim, scenario, reference(scenario));
const EXIT_CLOCK = 'test/runner/execution/exit-clock.test.ts';
const MISBEHAVING = 'test/runner/fixture-shims-broken.test.ts';

export const RULE_PROOFS: readonly RuleProof[] = [
  // goldens, workspace, usage, secrets, sessions: small broken variants of the mini shim
  fixture('golden.tool-results', 'reports-tools-without-running.mjs', 'multi-tool', mini('multi-tool')),
  fixture('workspace.matches', 'reports-tools-without-running.mjs', 'multi-tool', mini('multi-tool')),
  fixture('requests.tool-result-content', 'sends-wrong-tool-output.mjs', 'single-tool', mini('single-tool')),
  fixture('secrets.no-credential-echo', 'echoes-api-key.mjs', 'plain-text', mini('plain-text')),
  fixture('usage.totals', 'reports-wrong-usage.mjs', 'single-tool', mini('single-tool')),
  // an interrupted turn still owes the usage of the call that completed before the interrupt (R4)
  fixture('usage.totals', 'drops-usage-on-interrupt.mjs', 'interrupt-during-bash', mini('interrupt-during-bash')),
  fixture('session.file', 'forgets-session-file.mjs', 'plain-text', mini('plain-text')),
  fixture('streaming.incremental', 'buffers-text-until-done.mjs', 'plain-text', mini('plain-text')),
  // a turn killed after stream_event deltas alone: judged in the dialect the run's other turns printed (R1), so
  // flat turns' deltas still warn and envelopes' do not (the app's invocation, whose openai id is the Responses API)
  fixture('streaming.incremental', 'prints-claude-forms-flat.mjs', 'kill-and-resume', {
    shim: 'prints-claude-forms.mjs',
    scenario: 'kill-and-resume',
    options: { invocation: { kind: 'yume-app' }, profile: 'yume-app', provider: 'openai-responses', timeoutMs: 20_000 },
  }),
  // Claude Code's forms: no partial text before a stream cut (a SHOULD), the cut shown as assistant text
  fixture('golden.partial-text', 'prints-claude-forms.mjs', 'fault-stream-cut', mini('fault-stream-cut')),
  fixture('process.exit-after-result', 'lingers-after-result.mjs', 'plain-text', mini('plain-text')),
  fixture('workspace.outside-cwd-refused', 'writes-outside-cwd.mjs', 'outside-cwd', mini('outside-cwd')),
  // ../escape.txt beside --cwd, against a shim that writes only into its HOME and TMPDIR
  fixture('workspace.outside-writes', 'writes-beside-cwd.mjs', 'plain-text', {
    shim: 'writes-home-and-tmpdir.mjs',
    scenario: 'plain-text',
  }),
  // an unknown flag: the flat form of the argument error (mini shim) and Claude Code's form both conform
  fixture('process.argument-error', 'ignores-unknown-flags.mjs', 'bad-argument', mini('bad-argument')),
  fixture('process.argument-error', 'refuses-flag-silently.mjs', 'bad-argument', {
    shim: 'refuses-flag-on-stderr.mjs',
    scenario: 'bad-argument',
    options: { dialect: 'claude' },
  }),
  // Claude Code's form asked of a flat shim: the flat form is still owed
  fixture('process.argument-error', 'refuses-flag-on-stderr.mjs', 'bad-argument', mini('bad-argument')),
  // a directory where the shim should be: it cannot be started
  fixture('process.started', 'lib', 'plain-text', mini('plain-text')),
  // the reference shim with one behaviour changed by a proxy
  fixture('workspace.deny-untouched', 'runs-tools-in-deny-mode.mjs', 'permission-deny', reference('permission-deny')),
  fixture('error.fault-outcome', 'shows-auth-failure-as-error-line.mjs', 'fault-401', reference('fault-401')),
  fixture('error.retries-listed', 'hides-retries.mjs', 'fault-429-then-success', reference('fault-429-then-success')),
  fixture('session.resume-keeps-id', 'forgets-resumed-session-id.mjs', 'resume', reference('resume')),
  // compaction (docs/protocol.md#r21-compaction): each broken shim against the reference shim on the same scenario
  againstReference('requests.compaction-summary', 'sends-compact-to-the-model.mjs', 'compact'),
  againstReference('requests.compaction-summary', 'sends-compact-to-the-model.mjs', 'compact-empty'),
  againstReference('requests.history-on-resume', 'forgets-summary-on-resume.mjs', 'compact'),
  againstReference('session.compacted-history', 'keeps-history-after-compact.mjs', 'compact'),
  againstReference('compaction.pre-tokens', 'reports-wrong-pre-tokens.mjs', 'compact'),
  againstReference('compaction.nothing-to-compact', 'errs-vaguely-on-empty-compact.mjs', 'compact-empty'),
  againstReference('compaction.overflow-outcome', 'succeeds-without-text-after-overflow.mjs', 'fault-context-overflow'),
  againstReference('requests.no-retry-after-fatal', 'resends-oversized-request.mjs', 'fault-context-overflow'),
  fixture('process.exit-code', 'exits-1-after-success.mjs', 'plain-text', reference('plain-text')),
  // INFO: reported after every error result, never after a success result
  fixture('process.exit-code-after-error', 'passes-through-reference.mjs', 'fault-400', reference('plain-text')),
  // INFO: the runner reports the interrupt it sent, and sends none in a run without one
  fixture('interrupt.sent', 'passes-through-reference.mjs', 'interrupt', reference('plain-text')),
  fixture('interrupt.acknowledged', 'drops-interrupt-line.mjs', 'interrupt', reference('interrupt')),
  fixture(
    'interrupt.tool-error-result',
    'reports-interrupted-tool-as-success.mjs',
    'interrupt-during-bash',
    reference('interrupt-during-bash'),
  ),
  fixture(
    'persistent.next-turn',
    'exits-after-first-turn.mjs',
    'persistent-interrupt',
    reference('persistent-interrupt'),
  ),
  fixture(
    'persistent.stdin-tolerant',
    'crashes-on-blank-stdin-line.mjs',
    'persistent-mode',
    reference('persistent-mode'),
  ),
  fixture('persistent.bad-frame-error', 'ignores-bad-frames.mjs', 'persistent-mode', reference('persistent-mode')),
  fixture(
    'permission.approval-honoured',
    'runs-tools-without-approval.mjs',
    'persistent-interactive',
    reference('persistent-interactive'),
  ),
  // processes that misbehave in time: run where their timing is checked too
  fixture('process.exit-after-result', 'runs-on-after-result.mjs', 'plain-text', mini('plain-text'), EXIT_CLOCK),
  fixture('interrupt.exit-in-time', 'ignores-sigint.mjs', 'interrupt', mini('interrupt'), EXIT_CLOCK),
  fixture('persistent.eof-exit', 'ignores-stdin-eof.mjs', 'persistent-mode', reference('persistent-mode'), EXIT_CLOCK),
  fixture('process.timeout', 'hangs-forever.mjs', 'plain-text', mini('plain-text'), MISBEHAVING),
  fixture('process.output-flood', 'floods-stdout.mjs', 'plain-text', mini('plain-text'), MISBEHAVING),
  fixture('process.stdout-held-open', 'grandchild-holds-stdout.mjs', 'plain-text', mini('plain-text'), MISBEHAVING),
  fixture('process.no-output', 'exits-without-output.mjs', 'plain-text', mini('plain-text'), MISBEHAVING),
  fixture('interrupt.exit-in-time', 'ignores-sigint.mjs', 'interrupt', mini('interrupt'), MISBEHAVING),
  fixture(
    'process.descendants-gone',
    'leaves-bash-running.mjs',
    'interrupt-during-bash',
    mini('interrupt-during-bash'),
    MISBEHAVING,
  ),
  // proven with constructed inputs
  { rule: 'golden.text', unit: 'test/golden/compare/golden-compare.test.ts' },
  { rule: 'golden.tool-calls', unit: 'test/golden/compare/golden-compare.test.ts' },
  { rule: 'golden.result', unit: 'test/golden/compare/golden-compare.test.ts' },
  { rule: 'golden.turns', unit: 'test/golden/compare/golden-compare.test.ts' },
  { rule: 'scenario.required-verified', unit: 'test/suite/resolve-suite.test.ts' },
  // the reference shim passes, test/fixtures/shims/leaves-tools-on-sigkill.mjs fails (both isolation mechanisms)
  // waits-silently-for-a-signal.mjs and the mini shim on interrupt, with a short fallback (a 6 s timeout)
  { rule: 'scenario.moment-reached', unit: 'test/runner/moment-reached.test.ts' },
  { rule: 'process.orphaned-tools', unit: 'test/runner/kill-and-resume.test.ts' },
  { rule: 'cli.failure-not-success', unit: 'test/official-cli/exit-checks.test.ts' },
  { rule: 'cli.refused-to-start', unit: 'test/official-cli/exit-checks.test.ts' },
  { rule: 'requests.body-size', unit: 'test/runner/request-body-limit.test.ts' },
  { rule: 'expected-failures.stale', unit: 'test/suite/resolve-suite.test.ts' },
  // a note on the suite, not on a run: proven with suites of one run each, against injected roots
  { rule: 'workspace.outside-home-temp', unit: 'test/suite/home-temp-watch.test.ts' },
];

/**
 * Request rules and fake-CLI rules: each of these test files fails unless every rule of its list is seen failing
 * on a constructed input, next to a conforming input with no finding (a rule proven elsewhere has an entry in
 * RULE_PROOFS instead).
 */
export const LIST_PROOFS: readonly { ids: readonly string[]; unit: string }[] = [
  { ids: REQUEST_RULES.map((rule) => rule.id), unit: 'test/mock/request-checks.test.ts' },
  { ids: FAKE_CLI_RULES.map((rule) => rule.id), unit: 'test/official-cli/checks.test.ts' },
];
