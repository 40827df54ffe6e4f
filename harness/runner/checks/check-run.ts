import { buildTurnModels } from '../../golden/golden-model.js';
import type { NormaliseContext } from '../../golden/normalise.js';
import { checkProviderRequests } from '../../mock/request-checks.js';
import { runFinding } from '../../rules/finding.js';
import { checkNotVerified } from '../../rules/not-verified.js';
import { type ValidationResult, validateStream } from '../../validate/validate-stream.js';
import { MACHINE_CAUSE } from '../execution/fair-deadline.js';
import { GATE_WAIT_MS } from '../execution/streaming-gate.js';
import { checkToolOutputs } from '../golden/tool-output-check.js';
import { runDialect } from '../results/dialect-seen.js';
import { checkWorkspace } from '../setup/workspace.js';
import { approvalChecks, deniesACall } from './approval-check.js';
import { argumentErrorCheck } from './argument-error-check.js';
import type { CheckInput, CheckOutput } from './check-types.js';
import { faultOutcomeChecks, missingCliOutcomeChecks, retried } from './fault-outcome-checks.js';
import { deltaOnlyTextCheck, goldenChecks } from './golden-checks.js';
import { interruptChecks, persistentChecks } from './interrupt-checks.js';
import { killedStreamFindings } from './kill-checks.js';
import { momentChecks } from './moment-checks.js';
import { outsideCwdChecks } from './outside-cwd-check.js';
import { outsideWritesCheck } from './outside-writes-check.js';
import { processChecks, secretsCheck } from './process-checks.js';
import { about, eventsOf, prefixed, turnEvents } from './run-events.js';
import { resumeChecks, sessionFileCheck } from './session-checks.js';

export type { CheckInput, CheckOutput };

export async function checkRun(input: CheckInput): Promise<CheckOutput> {
  const out: CheckOutput = { findings: [], notVerified: [], limitations: [], goldens: [] };
  const context: NormaliseContext = { workspace: input.workspace, home: input.home };
  const findings = out.findings;
  const started = input.processes.filter((process) => !process.exit.spawnError);
  for (const process of started) {
    const untied = process.exit.untied ?? [];
    if (untied.length === 0) continue;
    // Without a cgroup (this platform or setup) the harness cannot tell what the shim started.
    out.notVerified.push(
      checkNotVerified(
        'process.orphaned-tools',
        'platform',
        about(
          process.label,
          `process isolation: ${untied.length} process(es) orphaned to init started during the run with nothing tying them to it (${untied.map((info) => `${info.name} pid ${info.pid}`).join(', ')}); without a cgroup the harness cannot tell whether the shim started them, so they were not killed`,
        ),
      ),
    );
  }
  // The official CLI the shim used (R7: under yume-app the gemini/openai ids offer both backends).
  const official = input.cli?.behaviour.startedIn(input.cli.log) ? input.cli.behaviour : undefined;
  const cliContext = { ...context, workspace: input.workspace, requests: input.requests };
  const cliToolOptions = official?.toolOutputOptions(cliContext);
  const seen: ValidationResult[] = [];
  input.processes.forEach((process, index) => {
    findings.push(...processChecks(process, input.persistent, out));
    if (process.exit.spawnError) return;
    const validation = validateStream(process.exit.stdout, {
      profile: input.profile,
      mode: input.persistent ? 'persistent' : 'spawn-per-turn',
      keepEvents: false,
    });
    seen.push(validation);
    const streamFindings = process.killed ? killedStreamFindings(validation.findings, process) : validation.findings;
    findings.push(...prefixed(streamFindings, process.label));
    findings.push(...secretsCheck(process));
    if (!input.recordOnly) findings.push(...goldenChecks(input, process, index, context, out, official));
    const models = buildTurnModels(eventsOf(process), context);
    process.turns.forEach((turnIndex, position) => {
      const turn = input.scenario.turns[turnIndex]!;
      const model = input.persistent ? models[position] : models[0];
      findings.push(
        ...prefixed(
          checkToolOutputs(turn, model, { context, ...(cliToolOptions ? { cli: cliToolOptions } : {}) }),
          process.label,
        ),
      );
      // A CLI that drops a malformed event ends that turn as a success: its outcome is the CLI's.
      if (!official?.ownsOutcome(turn))
        findings.push(
          ...faultOutcomeChecks(turn, turnIndex, turnEvents(process, turnIndex), {
            label: process.label,
            retriesVisible: (official?.showsRetries() ?? true) && retried(input, turnIndex),
            dialect: validation.dialect,
          }),
        );
      if (input.scenario.cli === 'missing')
        findings.push(...missingCliOutcomeChecks(turnIndex, turnEvents(process, turnIndex), process.label));
    });
    findings.push(...interruptChecks(process, input.scenario, input.persistent, validation.dialect, out));
    findings.push(...deltaOnlyTextCheck(process, validation.dialect));
    if (input.persistent) findings.push(...persistentChecks(process, input.scenario, out));
    if (input.persistent)
      findings.push(...approvalChecks(input.scenario, process.turns, (turn) => turnEvents(process, turn)));
    findings.push(...momentChecks(process, out));
    if (process.gatesUndecided.length > 0) {
      out.notVerified.push(
        checkNotVerified(
          'streaming.incremental',
          'machine',
          about(
            process.label,
            `no assistant text on stdout by the end of the gate's wait in turn ${process.gatesUndecided.map((turn) => turn + 1).join(', ')}, but the machine's load (${MACHINE_CAUSE}) took most of that wait: too busy to judge`,
          ),
        ),
      );
    }
    if (process.gateTimeouts.length > 0) {
      findings.push(
        runFinding(
          'streaming.incremental',
          about(
            process.label,
            `no assistant text appeared on stdout within ${GATE_WAIT_MS / 1000} s after the provider streamed the first text chunk of turn ${process.gateTimeouts.map((turn) => turn + 1).join(', ')}; the text seems to be printed only once the message is complete`,
          ),
        ),
      );
    }
  });
  if (started.length === 0) return out;

  // Side effects: workspace-after/ when the scenario changes files, otherwise the untouched fixtures.
  const expectedDir = input.scenario.workspaceAfterDir ?? input.scenario.workspaceDir;
  const expectedLabel = input.scenario.workspaceAfterDir
    ? `transcripts/${input.scenario.id}/workspace-after/`
    : `the fixtures (transcripts/${input.scenario.id}/workspace/, which this scenario must not change)`;
  const workspaceFindings = await checkWorkspace(
    expectedDir,
    input.workspace,
    expectedLabel,
    input.cli?.leftoverDirs ?? [],
  );
  findings.push(...outsideCwdChecks(input.scenario, input.workspace, started.flatMap(eventsOf)));
  if (input.runFolder) findings.push(...outsideWritesCheck(input.runFolder.root, input.runFolder.made));
  const denied = input.scenario.permissionMode === 'deny';
  const deniedByApproval = deniesACall(input.scenario);
  findings.push(
    ...workspaceFindings.map((finding) =>
      denied
        ? runFinding('workspace.deny-untouched', finding.message)
        : deniedByApproval
          ? runFinding('permission.approval-honoured', `${finding.message} (a call denied by tool_approval ran)`)
          : finding,
    ),
  );

  // Provider side: the REST mock's requests, or the fake CLI's log, whichever the shim was to use.
  const usedMock = input.requests.some((request) => request.provider === input.provider.mock);
  const usedCli = official !== undefined;
  if (input.provider.kind === 'rest' && (usedMock || !usedCli)) {
    findings.push(...checkProviderRequests(input.scenario, input.provider.mock, input.requests));
  }
  if (input.cli && (input.cli.required || usedCli)) {
    const use = input.cli.behaviour.checkUse({
      scenario: input.scenario,
      log: input.cli.log,
      requests: input.requests,
      provider: input.provider.mock,
      eventsByTurn: input.persistent
        ? input.scenario.turns.map((_, turn) => turnEvents(input.processes[0]!, turn))
        : input.processes.map((process) => eventsOf(process)),
      interrupted: input.processes.flatMap((process) =>
        process.interrupts
          .filter((record) => record.delivered)
          .map((record) => ({
            turn: record.turn,
            endedByHarness: [...process.exit.descendantsKilled, ...process.exit.descendantsLeft],
          })),
      ),
      workspace: input.workspace,
      required: input.cli.required,
    });
    findings.push(...use.findings);
    out.limitations.push(...use.limitations);
  }
  if (input.provider.kind === 'cli' && !usedCli && usedMock) {
    findings.push(...checkProviderRequests(input.scenario, input.provider.mock, input.requests));
  }
  findings.push(...sessionFileCheck(input));
  findings.push(...resumeChecks(input));
  const dialectSeen = runDialect(seen);
  if (dialectSeen) out.dialectSeen = dialectSeen;
  const badArgument = input.scenario.badArgument;
  const first = input.processes[0];
  if (badArgument && first) {
    const verdict = argumentErrorCheck(first, eventsOf(first), badArgument, input.dialect);
    out.findings = [...findings.filter(verdict.applies), ...verdict.findings];
  }
  return out;
}
