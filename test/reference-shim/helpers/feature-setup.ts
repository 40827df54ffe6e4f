// Setup shared by the end-to-end feature tests: the fixture workspace, temporary folders, the shim's environment
// pointed at a mock provider, and the views of a run the tests assert on (request bodies per turn, MUST findings).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { providerEnvironment } from '../../../harness/mock/provider-environment.js';
import { validateStream } from '../../../harness/validate/validate-stream.js';

export const HELLO_WORKSPACE = path.resolve(__dirname, '..', '..', '..', 'transcripts', 'single-tool', 'workspace');

/** A HOME that does not exist: the shim must find no saved sessions or settings there. */
export const NO_HOME = '/nonexistent-home';

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Only PATH and HOME from outside, so no real credentials or provider settings reach the shim. */
export function shimEnv(home: string, baseUrls: Parameters<typeof providerEnvironment>[0]): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, ...providerEnvironment(baseUrls) };
}

export function bodiesText(requests: Array<{ rawBody: string; turn: number }>, turn: number): string {
  return requests
    .filter((request) => request.turn === turn)
    .map((request) => request.rawBody)
    .join('\n');
}

export function mustFindings(stdout: Buffer, mode: 'spawn-per-turn' | 'persistent' = 'spawn-per-turn'): string[] {
  return validateStream(stdout, { profile: 'spec', mode })
    .findings.filter((finding) => finding.severity === 'MUST')
    .map((finding) => `${finding.rule} line ${finding.line}: ${finding.message}`);
}
