// The floor of `npm run bench` is only the shims' own work if its bare driver plays every scripted step the
// way the runner does: a step it cannot play leaves the shim waiting on a stalled stream until the driver's
// 30 s limit. Each scenario here has a step only a faithful driver plays: a kill after the first text, a kill
// while a Bash command runs, an argument error, an official CLI missing from PATH, interrupts.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BARE_TIMEOUT_MS, bareRun, preflightSettings } from '../../bench/bare-driver.mjs';
import { PROTOCOL_VERSION } from '../../generated/protocol.js';
import { writeAuthHelpers } from '../../harness/mock/auth-helpers.js';
import { defaultAcceptedCredentials, runCredentials } from '../../harness/mock/credentials.js';
import { startMockServer } from '../../harness/mock/mock-server.js';
import { installOfficialCli } from '../../harness/official-cli/backend.js';
import { processTableFor } from '../../harness/process/process-table.js';
import { DIALECT_VARIABLE } from '../../harness/runner/config/capabilities.js';
import { buildInvocation } from '../../harness/runner/config/invocation.js';
import { cliFor, providerEntry } from '../../harness/runner/config/providers.js';
import { preflight } from '../../harness/runner/run-scenario.js';
import { buildEnvironment } from '../../harness/runner/setup/environment.js';
import { WorkspaceTemplates } from '../../harness/runner/setup/git-workspace.js';
import { hideProgramsFromPath, keepNodeReachable } from '../../harness/runner/setup/missing-cli.js';
import { createRunDirectories, removeRunDirectories } from '../../harness/runner/setup/workspace.js';
import { resolveSuite } from '../../harness/suite/run-conformance.js';

const harness = {
  PROTOCOL_VERSION,
  writeAuthHelpers,
  defaultAcceptedCredentials,
  runCredentials,
  startMockServer,
  installOfficialCli,
  DIALECT_VARIABLE,
  buildEnvironment,
  buildInvocation,
  hideProgramsFromPath,
  keepNodeReachable,
  cliFor,
  providerEntry,
  createRunDirectories,
  removeRunDirectories,
  processTableFor,
};

describe('the bench bare driver', () => {
  it('plays kills, argument errors, a missing CLI and interrupts to the end, well before its limit', async () => {
    const suite = resolveSuite({
      scenarios: ['kill-and-resume', 'kill-and-resume-bash', 'bad-argument', 'cli-missing', 'persistent-interrupt'],
      providers: ['openai-chat', 'gemini-cli'],
    });
    const settings = preflightSettings(suite, PROTOCOL_VERSION);
    const templates = new WorkspaceTemplates();
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'yc-bench-cache-'));
    const context = { harness, shim: suite.shim, shimArgs: [], capabilities: suite.capabilities, templates, cacheDir };
    try {
      const played = await Promise.all(
        suite.specs.flatMap((spec) => {
          const check = preflight(spec, settings);
          if (check.notVerified) return [];
          return [
            bareRun(spec, check.persistent, context).then((run) => ({
              id: `${spec.scenario.id} · ${spec.provider}`,
              ...run,
            })),
          ];
        }),
      );
      expect(played.map((run) => run.id).sort()).toEqual([
        'bad-argument · openai-chat',
        'cli-missing · gemini-cli',
        'kill-and-resume · gemini-cli',
        'kill-and-resume · openai-chat',
        'kill-and-resume-bash · gemini-cli',
        'kill-and-resume-bash · openai-chat',
        'persistent-interrupt · gemini-cli',
        'persistent-interrupt · openai-chat',
      ]);
      for (const run of played) {
        expect(run.timedOut, run.id).toBe(0);
        // Driven at the scripted moments, not ended by a fallback: well under the 8 s fallback and the limit.
        expect(run.elapsed, run.id).toBeLessThan(Math.min(7000, BARE_TIMEOUT_MS));
      }
      // Nothing a bare run started outlives it: the official CLI a killed shim had started runs in a group
      // of its own and used to wait out its stall after the bench.
      if (process.platform === 'linux') expect(processesOfBareRuns()).toEqual([]);
    } finally {
      await templates.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Command lines of running processes that name a bare run's folder. */
function processesOfBareRuns(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return command.includes('yume-conformance-bench-') ? [command] : [];
      } catch {
        return [];
      }
    });
}
