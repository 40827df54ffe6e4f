// Claude Code goldens (`yume-conformance goldens --update --from claude-code`): real Claude Code runs each
// scenario of the claude-code preset's list once, and its stabilised stdout becomes
// transcripts/<id>/claude-code.jsonl (claude-code.2.jsonl, ... for later processes). A run with a MUST finding
// the preset does not excuse writes nothing. The files show what the protocol's origin prints; a test compares
// them with the reference shim's goldens (test/goldens/claude-goldens.test.ts).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '../../../generated/protocol.js';
import { defaultTranscriptsDir } from '../../mock/package-paths.js';
import { toCanonicalEvents } from '../../protocol/canonical.js';
import { notVerifiedLine } from '../../rules/not-verified.js';
import type { Finding } from '../../rules/types.js';
import { entryMatches } from '../../runner/config/expected-failures.js';
import { invocationName } from '../../runner/config/invocation.js';
import type { RunSpec } from '../../runner/results/run-types.js';
import { runScenario } from '../../runner/run-scenario.js';
import { resolveSuite } from '../../suite/resolve-suite.js';
import { goldenText } from '../compare/golden-files.js';
import { formatDiff } from '../compare/line-diff.js';
import type { GoldenUpdate } from './goldens.js';

/** The preset whose program records these goldens. */
export const CLAUDE_GOLDENS_PRESET = 'claude-code';

/** File name of Claude Code's golden of the process at `index` (0-based). */
export function claudeGoldenFileName(index: number): string {
  return index === 0 ? 'claude-code.jsonl' : `claude-code.${index + 1}.jsonl`;
}

/**
 * Values Claude Code fills in per run beyond the harness's volatile keys: retry jitter, timings, its
 * per-model cost breakdown, paths named after the process or the temporary workspace. Replaced so that re-recording diffs only where its output changed.
 */
const CLAUDE_VOLATILE: Record<string, unknown> = {
  retry_delay_ms: 0,
  durationMs: 0,
  modelUsage: {},
  costUSD: 0,
  time_to_request_ms: 0,
  first_content_frame_ms: 0,
  ttft_stream_ms: 0,
  ttft_ms: 0,
  // a per-process socket and a folder named after the run's temporary workspace
  messaging_socket_path: '<socket>',
  memory_paths: {},
};

export interface ClaudeGoldensOptions {
  /** The claude program (default: `claude` on PATH). */
  shim?: string;
  scenarios?: string[];
  transcriptsDir?: string;
  jobs?: number;
}

export interface ClaudeGoldens {
  updates: GoldenUpdate[];
  /** claude_code_version from the init lines (undefined when no run printed one). */
  version?: string;
}

/** One run per scenario of the preset's list: its spec-profile run where it has one (the list's interrupt slot differs). */
function oneRunPerScenario(specs: RunSpec[]): RunSpec[] {
  const chosen = new Map<string, RunSpec>();
  for (const spec of specs) {
    const held = chosen.get(spec.scenario.id);
    if (!held || (held.profile !== 'spec' && spec.profile === 'spec')) chosen.set(spec.scenario.id, spec);
  }
  return [...chosen.values()];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Every UUID (session ids, the ids of claude's synthetic error messages) numbered by first appearance, and the
 * mock's loopback port (claude names it in its error messages) replaced.
 */
function stableIds(stdout: Buffer): Buffer {
  const seen = new Map<string, string>();
  const text = stdout
    .toString('utf8')
    .replace(UUID, (uuid) => {
      if (!seen.has(uuid)) seen.set(uuid, `golden-id-${seen.size + 1}`);
      return seen.get(uuid)!;
    })
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
  return Buffer.from(text, 'utf8');
}

function versionOf(stdout: Buffer): string | undefined {
  for (const line of stdout.toString('utf8').split('\n')) {
    try {
      const message = JSON.parse(line) as { type?: unknown; subtype?: unknown; claude_code_version?: unknown };
      if (message.type === 'system' && message.subtype === 'init' && typeof message.claude_code_version === 'string')
        return message.claude_code_version;
    } catch {
      // not a JSON line
    }
  }
  return undefined;
}

/** Runs Claude Code over the preset's list and computes its goldens and their diffs (writes nothing). */
export async function computeClaudeGoldens(options: ClaudeGoldensOptions = {}): Promise<ClaudeGoldens> {
  const transcriptsDir = options.transcriptsDir ?? defaultTranscriptsDir();
  const suite = resolveSuite({
    preset: CLAUDE_GOLDENS_PRESET,
    ...(options.shim ? { shim: options.shim } : {}),
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    transcriptsDir,
  });
  const settings = {
    shim: suite.shim,
    shimArgs: [],
    userEnv: {},
    timeoutMs: suite.timeoutMs,
    platform: process.platform,
    capabilities: suite.capabilities,
    protocolVersion: PROTOCOL_VERSION,
    recordOnly: true,
  };
  const specs = oneRunPerScenario(suite.specs);
  const updates: GoldenUpdate[] = new Array(specs.length);
  let version: string | undefined;
  let next = 0;
  const worker = async () => {
    while (next < specs.length) {
      const index = next;
      next += 1;
      const spec = specs[index]!;
      const result = await runScenario(spec, settings);
      const excused = (finding: Finding) =>
        suite.expected.some(
          (entry) =>
            entry.rule === finding.rule &&
            entryMatches(entry, {
              scenario: spec.scenario.id,
              provider: spec.provider,
              os: process.platform,
              profile: spec.profile,
              invocation: invocationName(spec.invocation),
            }),
        );
      const problems =
        result.status === 'not-verified' && result.processes.length === 0
          ? [`not verified: ${notVerifiedLine(result.notVerified ?? [])}`]
          : result.findings
              .filter((finding) => finding.severity === 'MUST' && !excused(finding))
              .map((finding) => `${finding.rule}: ${finding.message.split('\n')[0]}`);
      const context = result.directories
        ? { workspace: result.directories.workspace, home: result.directories.home }
        : {};
      const files = new Map<string, string>();
      result.processes.forEach((process, position) => {
        version ??= versionOf(process.stdout);
        files.set(claudeGoldenFileName(position), goldenText(stableIds(process.stdout), context, CLAUDE_VOLATILE));
      });
      const dir = spec.scenario.dir;
      const diffs = new Map<string, string>();
      for (const [name, text] of files) {
        const file = path.join(dir, name);
        diffs.set(name, formatDiff(existsSync(file) ? readFileSync(file, 'utf8') : '', text));
      }
      const removed = readdirSync(dir).filter((name) => /^claude-code(\.\d+)?\.jsonl$/.test(name) && !files.has(name));
      updates[index] = { scenario: spec.scenario.id, provider: spec.provider, files, removed, diffs, problems };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 2, specs.length)) }, worker));
  return { updates, ...(version === undefined ? {} : { version }) };
}

/** Canonical events of a committed Claude Code golden, for comparisons (undefined when the file is absent). */
export function readClaudeGolden(scenarioDir: string, index: number) {
  const file = path.join(scenarioDir, claudeGoldenFileName(index));
  return existsSync(file) ? toCanonicalEvents(readFileSync(file)) : undefined;
}
