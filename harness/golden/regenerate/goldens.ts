// Regenerating goldens from the reference shim (docs/decisions.md, D6). Each scenario runs once with the bundled
// reference shim (spec invocation, flat dialect, unsplit streams, the scenario's first provider — openai-chat
// where it applies); each process's stdout, stabilised (golden-files.ts), becomes golden.jsonl,
// golden.2.jsonl, ... A run with MUST findings writes nothing: a golden must come from a conforming run.

import { appendFileSync, existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '../../../generated/protocol.js';
import { UsageError } from '../../errors.js';
import { defaultTranscriptsDir } from '../../mock/package-paths.js';
import { loadAllScenarios } from '../../mock/scenario/scenario-loader.js';
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import { notVerifiedLine } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import { REFERENCE_SHIM_CAPABILITIES } from '../../runner/config/capabilities.js';
import type { ProviderId } from '../../runner/config/providers.js';
import { runScenario } from '../../runner/run-scenario.js';
import { bundledReferenceShim } from '../../suite/resolve-suite.js';
import { goldenFileName, goldenText } from '../compare/golden-files.js';
import { formatDiff } from '../compare/line-diff.js';

export interface GoldenUpdate {
  scenario: string;
  provider: ProviderId;
  /** File name → new text. */
  files: Map<string, string>;
  /** Golden files of the scenario that the new run no longer produces. */
  removed: string[];
  /** File name → readable diff against the committed file ('' when equal). */
  diffs: Map<string, string>;
  /** MUST findings of the reference run (then nothing may be written), or why it could not run. */
  problems: string[];
}

export interface GoldensOptions {
  scenarios?: string[];
  transcriptsDir?: string;
  shim?: string;
  timeoutMs?: number;
  jobs?: number;
}

/** The provider a scenario's golden is recorded with. */
export function goldenProvider(scenario: LoadedScenario): ProviderId {
  const providers = scenario.providers ?? ['openai-chat'];
  return providers.includes('openai-chat') ? 'openai-chat' : providers[0]!;
}

function describeProblem(finding: Finding): string {
  return `${finding.rule}: ${finding.message.split('\n')[0]}`;
}

/** Runs the reference shim over the scenarios and computes new goldens and their diffs (writes nothing). */
export async function computeGoldens(options: GoldensOptions = {}): Promise<GoldenUpdate[]> {
  const all = loadAllScenarios(options.transcriptsDir ?? defaultTranscriptsDir());
  const selected =
    options.scenarios && options.scenarios.length > 0 ? options.scenarios : all.map((scenario) => scenario.id);
  const byId = new Map(all.map((scenario) => [scenario.id, scenario]));
  const scenarios = selected.map((id) => {
    const scenario = byId.get(id);
    if (!scenario) throw new UsageError(`unknown scenario "${id}"`);
    return scenario;
  });
  const settings = {
    shim: options.shim ?? bundledReferenceShim(),
    shimArgs: [],
    userEnv: {},
    timeoutMs: options.timeoutMs ?? 30_000,
    platform: process.platform,
    capabilities: REFERENCE_SHIM_CAPABILITIES,
    protocolVersion: PROTOCOL_VERSION,
    recordOnly: true,
  };
  const updates: GoldenUpdate[] = new Array(scenarios.length);
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length) {
      const index = next;
      next += 1;
      const scenario = scenarios[index]!;
      const provider = goldenProvider(scenario);
      const result = await runScenario(
        { scenario, provider, invocation: { kind: 'spec' }, profile: 'spec', dialect: 'flat' },
        settings,
      );
      const problems =
        result.status === 'not-verified' && result.processes.length === 0
          ? [`not verified: ${notVerifiedLine(result.notVerified ?? [])}`]
          : result.findings.filter((finding) => finding.severity === 'MUST').map(describeProblem);
      const files = new Map<string, string>();
      const context = result.directories
        ? { workspace: result.directories.workspace, home: result.directories.home }
        : {};
      for (const [position, process] of result.processes.entries()) {
        files.set(goldenFileName(position), goldenText(process.stdout, context));
      }
      const diffs = new Map<string, string>();
      for (const [name, text] of files) {
        const file = path.join(scenario.dir, name);
        diffs.set(name, formatDiff(existsSync(file) ? readFileSync(file, 'utf8') : '', text));
      }
      const removed = readdirSync(scenario.dir).filter(
        (name) => /^golden(\.\d+)?\.jsonl$/.test(name) && !files.has(name),
      );
      updates[index] = { scenario: scenario.id, provider, files, removed, diffs, problems };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 2, scenarios.length)) }, worker));
  return updates;
}

/** Whether an update changes anything on disk. */
export function changes(update: GoldenUpdate): boolean {
  return update.removed.length > 0 || [...update.diffs.values()].some((diff) => diff !== '');
}

/** Writes the goldens of updates without problems and logs the reason in transcripts/GOLDENS.md. */
export function writeGoldens(
  updates: GoldenUpdate[],
  reason: string,
  transcriptsDir = defaultTranscriptsDir(),
  now = new Date(),
): GoldenUpdate[] {
  const written = updates.filter((update) => update.problems.length === 0 && changes(update));
  for (const update of written) {
    const dir = path.join(transcriptsDir, update.scenario);
    for (const [name, text] of update.files) writeFileSync(path.join(dir, name), text);
    for (const name of update.removed) unlinkSync(path.join(dir, name));
  }
  if (written.length > 0) {
    const log = path.join(transcriptsDir, 'GOLDENS.md');
    if (!existsSync(log)) {
      writeFileSync(
        log,
        '# Golden transcript updates\n\nEvery regeneration of goldens (`yume-conformance goldens --update --reason "..."`) appends an entry: when, why, and which files changed.\n',
      );
    }
    const lines = written.map((update) => {
      const names = [...update.diffs].filter(([, diff]) => diff !== '').map(([name]) => name);
      return `- ${update.scenario} (${update.provider}): ${[...names, ...update.removed.map((name) => `${name} removed`)].join(', ')}`;
    });
    appendFileSync(
      log,
      `\n## ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC — ${reason.replace(/\s+/g, ' ').trim()}\n\n${lines.join('\n')}\n`,
    );
  }
  return written;
}
